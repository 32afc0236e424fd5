/**
 * Where the client writes what it does: method, URL, status, duration, retries, correlation id.
 * Nothing reaches a logger without passing through {@link redact}.
 */
import { isSecretName, redactText } from './secrets.js';

/** One log method: a short message and structured details. */
export type LogMethod = (message: string, meta?: Record<string, unknown>) => void;

/**
 * A logger the client writes to; `console` fits. Requests are logged at `debug`, answers at
 * `debug` (2xx) or `warn`, retries at `info`, connection failures at `error`. Tokens, tickets,
 * secrets and passwords are redacted before any call.
 */
export interface Logger {
  /** Each request sent and each 2xx answer. */
  debug: LogMethod;
  /** Each retry, with its reason. */
  info: LogMethod;
  /** Each answer outside 2xx. */
  warn: LogMethod;
  /** Each failure without an answer (connection, timeout). */
  error: LogMethod;
}

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Returns a copy of `value` with every credential replaced by `[REDACTED]`: the values of the
 * secret names of `src/secrets.ts` (`authorization`, `access_token`, `refresh_token`,
 * `client_secret`, `ticket`, `at`, `t`, `password`, `pwd`, `sid`, `ssn`, ...; also camelCase) as
 * object keys at any depth, as query or form parameters, inside URL-valued parameters and as keys
 * in JSON text, and any `Bearer` token inside a string. `Headers` become plain objects. Text (and a
 * URL) comes back as text, an object or `Headers` as an object.
 */
export function redact(value: string | URL): string;
export function redact(value: Headers | Readonly<Record<string, unknown>>): Record<string, unknown>;
export function redact(value: unknown): unknown;
export function redact(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value, REDACTED);
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    return redact(Object.fromEntries(value.entries()));
  }
  if (typeof URL !== 'undefined' && value instanceof URL) return redact(value.href);
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      // `__proto__` as an own key stays a key (an assignment would set the prototype instead).
      Object.defineProperty(out, key, {
        value: isSecretName(key) ? REDACTED : redact(v),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}
