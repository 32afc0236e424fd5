/**
 * Where the client writes what it does: method, URL, status, duration, retries, correlation id.
 * Nothing reaches a logger without passing through {@link redact}.
 */
import { isSecretName, redactText } from './secrets.js';
import { GET_WITH_BODY } from './transport.js';

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
  /** Each retry, with its reason (the answer outside 2xx, or the failure, that is retried). */
  info: LogMethod;
  /** A call's last answer, when it is outside 2xx (one that is retried is an `info` line). */
  warn: LogMethod;
  /** A call's last failure without an answer: connection, timeout (one that is retried is an `info` line). */
  error: LogMethod;
}

/** What a redacted value is replaced with. */
export const REDACTED = '[REDACTED]';

/**
 * Returns a copy of `value` with every credential replaced by `[REDACTED]`, by the rule of
 * `src/secrets.ts`: the values of secret names (`authorization`, `access_token`, `client_secret`,
 * `ticket`, `at`, `t`, `password`, `sid`, `ssn`, ...; names that hold `secret`, `password` or
 * `apikey`, or end in `token` or `ticket`), compared after NFKC folding, lower case and removal of
 * non-alphanumerics, as object keys at any depth, as query or form parameters, inside URL-valued
 * parameters and as keys in JSON text; any `Bearer` token; and anything shaped like a JWT or a
 * ticket, under any name. `Headers` become plain objects. Text (and a URL) comes back as text, an
 * object or `Headers` as an object.
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

/** What the log says of a call: its endpoint, method and URL, and how far its attempts have come. */
export interface LoggedCall {
  /** The endpoint's title (`METHOD path` for a raw request). */
  readonly title: string;
  /** The method as the platform sees it (a GET with a body is a GET). */
  readonly method: string;
  /** The URL, with the query. */
  readonly url: string;
  /** The validated body. */
  readonly json: unknown;
  /** Attempts made so far, the current one included. */
  readonly attempts: number;
  /** When the current attempt started (`performance.now()`). */
  readonly attemptStartedAt: number;
}

/**
 * A client's log of its calls: a line per attempt sent, per answer, per retry and per failure
 * without an answer, each at the level {@link Logger} names and through {@link redact}.
 */
export class CallLog {
  readonly #logger: Logger;

  /** A log written to `logger`. */
  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** An attempt sent, with its headers and body. */
  request(call: LoggedCall, headers: Headers | Readonly<Record<string, string>>): void {
    const sent: Record<string, string> = headers instanceof Headers ? Object.fromEntries(headers) : { ...headers };
    // The marker of a GET with a body is the transport's business; it never reaches the wire, nor the log.
    delete sent[GET_WITH_BODY];
    this.#write('debug', `${call.method} ${call.url}`, {
      method: call.method,
      url: call.url,
      endpoint: call.title,
      attempt: call.attempts,
      headers: sent,
      body: call.json,
    });
  }

  /** An answer: debug for 2xx, warn for the others. */
  answer(call: LoggedCall, response: Response): void {
    this.#write(response.ok ? 'debug' : 'warn', `${call.method} ${call.url} ${response.status}`, {
      method: call.method,
      url: call.url,
      endpoint: call.title,
      status: response.status,
      durationMs: Math.round(performance.now() - call.attemptStartedAt),
      attempt: call.attempts,
      correlationId: response.headers.get('x-correlation-id') ?? undefined,
    });
  }

  /** A retry about to be made, with the reason of the failure before it. */
  retry(call: LoggedCall, reason: string, retryCount: number): void {
    this.#write('info', `${call.method} ${call.url} retry ${retryCount}: ${reason}`, {
      method: call.method,
      url: call.url,
      endpoint: call.title,
      retryCount,
      reason,
    });
  }

  /** A call that failed without an answer, after every attempt it was allowed. */
  failure(call: LoggedCall, error: Error, attempts: number): void {
    this.#write('error', error.message, {
      method: call.method,
      url: call.url,
      endpoint: call.title,
      error: error.name,
      attempts,
    });
  }

  #write(level: keyof Logger, message: string, meta: Record<string, unknown>): void {
    this.#logger[level](redact(message), redact(meta));
  }
}
