/**
 * Where the client writes what it does: method, URL, status, duration, retries, correlation id.
 * Nothing reaches a logger without passing through {@link redact}.
 */

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

/** Names whose values are credentials: in headers, query strings, form and JSON bodies. */
const SECRET_NAMES = [
  'authorization',
  'access_token',
  'refresh_token',
  'client_secret',
  'ticket',
  'at',
  't',
  'password',
  // The same credentials as camelCase keys (compared in lower case), and a national identity
  // number (endpoint 9's `ssn`), which is personal data that has no place in a log.
  'accesstoken',
  'refreshtoken',
  'clientsecret',
  'ssn',
];
const SECRET_SET = new Set(SECRET_NAMES);
const names = SECRET_NAMES.join('|');
/** `?at=...`, `&ticket=...` in URLs and form bodies. */
const QUERY_SECRET = new RegExp(`([?&](?:${names})=)[^&#\\s]*`, 'gi');
/** `"client_secret": "..."` in JSON text. */
const JSON_SECRET = new RegExp(`("(?:${names})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi');
/** `Bearer <token>` anywhere. */
const BEARER = /(Bearer\s+)[^\s",;]+/gi;

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Returns a copy of `value` with every credential replaced by `[REDACTED]`: the `Authorization`
 * header, and `access_token`, `refresh_token`, `client_secret` (also camelCase), `ticket`, `at`, `t`,
 * `password` and `ssn` as object keys (at any depth), as query or form parameters and as keys in
 * JSON text, and any `Bearer` token inside a string. `Headers` become plain objects.
 */
export function redact(value: unknown): unknown {
  if (typeof value === 'string') {
    return value
      .replace(QUERY_SECRET, `$1${REDACTED}`)
      .replace(JSON_SECRET, `$1"${REDACTED}"`)
      .replace(BEARER, `$1${REDACTED}`);
  }
  if (typeof Headers !== 'undefined' && value instanceof Headers) {
    return redact(Object.fromEntries(value.entries()));
  }
  if (typeof URL !== 'undefined' && value instanceof URL) return redact(value.href);
  if (Array.isArray(value)) return value.map(redact);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      out[key] = SECRET_SET.has(key.toLowerCase()) ? REDACTED : redact(v);
    }
    return out;
  }
  return value;
}
