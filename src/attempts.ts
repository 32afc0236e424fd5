/**
 * The attempts of a call, until one is answered 2xx or the retry rules stop. The first attempt goes
 * straight to the transport's `fetch`: most calls succeed at once, and ky's per-call work (options
 * merged, a `Request` built and cloned) would cost more than the rest of the SDK. When it fails in a
 * way the rules retry, the call waits and ky makes the retries, with its hooks. Both paths share one
 * of everything: the attempt's headers and body (built once per call, {@link Call}), its start
 * (count, token, log line), its timeout, the retry rules and the mapping of a failure to an error.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import type { TokenSource } from './auth.js';
import { APIConnectionError, APITimeoutError, PlatformError } from './errors.js';
import { type CallLog, type LoggedCall, redact } from './logger.js';
import { type RetryDelays, retryWait } from './retry.js';
import { MAX_SAFE_TIMEOUT, sleep } from './sleep.js';
import { GET_WITH_BODY } from './transport.js';

/** What a call sends, as the pipeline prepared it from an entry of the table or a raw request. */
export interface Outgoing {
  /** The endpoint's title (`METHOD path` for a raw request), for logs and errors. */
  readonly title: string;
  /** The HTTP method as the platform sees it. */
  readonly method: string;
  /** The URL, with the query. */
  readonly url: string;
  /** The validated JSON body, if any. */
  readonly json: unknown;
}

/** What one call may do, from the call's options over the client's. */
export interface CallRules {
  /** Time allowed for each attempt, in ms. */
  readonly timeout: number;
  /** Retries allowed after the first attempt (the one retry after a 401 aside). */
  readonly maxRetries: number;
  /** Whether failures other than a 401 may be retried: reads, and writes with `retryWrite`. */
  readonly retriable: boolean;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  /** Whether every attempt sends the client's token (refreshable), asked for on each attempt. */
  readonly authenticate: boolean;
  /** Otherwise the call's own token (a user's, never refreshed), or none. */
  readonly token: string | undefined;
}

/**
 * One call on its way through its attempts (in ky's hooks: `options.context.call`). The attempts'
 * headers and body are built once ({@link Call.build}), for every attempt of both paths.
 */
export class Call implements LoggedCall {
  /** The endpoint's title (`METHOD path` for a raw request). */
  readonly title: string;
  /** The method as the platform sees it. */
  readonly method: string;
  /** The method handed to the transport: the call's, or POST for a GET with a body (Fetch cannot send one). */
  readonly wireMethod: string;
  /** The URL, with the query. */
  readonly url: string;
  /** The validated JSON body, if any. */
  readonly json: unknown;
  /** Time allowed for each attempt, in ms. */
  readonly timeout: number;
  /** Retries allowed after the first attempt (the one retry after a 401 aside). */
  readonly maxRetries: number;
  /** Whether failures other than a 401 may be retried. */
  readonly retriable: boolean;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  /** Whether the token comes from the client's `auth` (refreshable); false for a per-call token or none. */
  readonly authenticate: boolean;
  /** The client's headers with the call's over them, names in lower case; `authorization` set per attempt. */
  headers: Record<string, string> = {};
  /** The body as sent. */
  body: string | undefined;
  /** The token sent on the latest attempt (or the per-call `accessToken`). */
  token: string | undefined;
  /** Whether the one retry after a 401 has been used. */
  authRetried = false;
  /** Attempts made so far, each counted as it starts. */
  attempts = 0;
  /** When the latest attempt started (`performance.now()`). */
  attemptStartedAt = 0;
  /** The wait before the next retry, as the rules decided it. */
  wait = 0;

  /** A call of `outgoing` under `rules`; nothing is built or sent yet. */
  constructor(outgoing: Outgoing, rules: CallRules) {
    this.title = outgoing.title;
    this.method = outgoing.method;
    this.url = outgoing.url;
    this.json = outgoing.json;
    this.timeout = rules.timeout;
    this.maxRetries = rules.maxRetries;
    this.retriable = rules.retriable;
    this.signal = rules.signal;
    this.authenticate = rules.authenticate;
    this.token = rules.token;
    // Fetch cannot carry a body on GET: such a request travels to the transport as a marked POST.
    this.wireMethod = outgoing.method === 'GET' && outgoing.json !== undefined ? 'POST' : outgoing.method;
  }

  /**
   * Builds the headers and body every attempt sends: the client's headers with the call's over
   * them, the marker of a GET with a body, the JSON body and its content type. When they cannot be
   * built (a header name fetch refuses, a body JSON cannot hold), this throws and the call fails
   * without a retry, as it does in ky.
   */
  build(clientHeaders: Readonly<Record<string, string>>, callHeaders: HeadersInit | undefined): void {
    this.headers = mergeHeaders(clientHeaders, callHeaders);
    if (this.wireMethod !== this.method) this.headers[GET_WITH_BODY] = '1';
    if (this.json !== undefined) {
      this.body = JSON.stringify(this.json);
      this.headers['content-type'] ??= 'application/json';
    }
  }
}

/**
 * The headers of a call: the client's (merged once, names in lower case) with the call's over
 * them, as ky merges them (a value `'undefined'` removes the header).
 */
function mergeHeaders(base: Readonly<Record<string, string>>, over: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = { ...base };
  if (over === undefined) return out;
  new Headers(over).forEach((value, name) => {
    if (value === 'undefined') delete out[name];
    else out[name] = value;
  });
  return out;
}

/** An attempt that got no answer in time (named as ky names its own). */
class AttemptTimeout extends Error {
  override name = 'TimeoutError';
}

/**
 * One attempt, given the call's `timeout` to be answered: then it is aborted and fails with an
 * {@link AttemptTimeout}, as ky's own timeout does. The caller's signal aborts it too.
 */
function timed(call: Call, send: (signal: AbortSignal) => Promise<Response>): Promise<Response> {
  const controller = new AbortController();
  const signal = call.signal ? AbortSignal.any([call.signal, controller.signal]) : controller.signal;
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(new AttemptTimeout(`${call.wireMethod} ${redact(call.url)} timed out after ${call.timeout} ms`));
    }, call.timeout);
    send(signal).then(
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The answer inside ky's error for a status outside 2xx (an `HTTPError`), told by name as ky's own check does. */
function httpErrorResponse(error: unknown): Response | undefined {
  if (!(error instanceof Error) || error.name !== 'HTTPError' || !('response' in error)) return undefined;
  return error.response instanceof Response ? error.response : undefined;
}

/** Why an attempt is retried, for the log. */
function retryReason(failure: unknown, answer: Response | undefined): string {
  if (!answer) return failure instanceof AttemptTimeout ? 'timeout' : 'connection error';
  return answer.status === 401 ? 'token refused (401), retrying with a new token' : `status ${answer.status}`;
}

/** The system code of a failure before an answer (`ECONNREFUSED`, `ENOTFOUND`), looked for along its causes. */
function causeCodeOf(error: unknown): string | undefined {
  for (let cause: unknown = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
    const code = Reflect.get(cause, 'code');
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    cause = Reflect.get(cause, 'cause');
  }
  return undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A failure without an answer: the method, the URL without secrets, the cause and the attempts. */
export function connectionError(call: Call, error: unknown): APIConnectionError {
  const attempts = Math.max(call.attempts, 1);
  const causeCode = causeCodeOf(error);
  const cause = causeCode ?? (error instanceof Error ? error.message : 'connection failed');
  return new APIConnectionError(
    `${call.method} ${redact(call.url)} failed after ${plural(attempts, 'attempt')}: ${cause}`,
    { cause: error, attempts, causeCode },
  );
}

/** What the attempt loop needs from the client. */
export interface AttemptSettings {
  /** The transport: the caller's `fetch`, and node:http(s) for a GET with a body. */
  readonly fetch: typeof fetch;
  /** The client's headers (with `accept`), sent with every call. */
  readonly headers: Readonly<Record<string, string>>;
  /** Where tokens come from. */
  readonly auth: TokenSource;
  /** The retry delays. */
  readonly delays: RetryDelays;
  /** The log, when the client has a logger. */
  readonly log: CallLog | undefined;
}

/** The attempt loop of one client: the first attempt through fetch, the retries through ky. */
export class Attempts {
  readonly #fetch: typeof fetch;
  /** The client's headers, merged once; names in lower case. */
  readonly #headers: Readonly<Record<string, string>>;
  readonly #auth: TokenSource;
  readonly #delays: RetryDelays;
  readonly #log: CallLog | undefined;
  /** ky, loaded and set up on the first retry: a call answered at once never needs it. */
  #ky: Promise<KyInstance> | undefined;
  /** Errors thrown by the caller's own code (a token provider): never retried, passed on as they are. */
  readonly #callerErrors = new WeakSet<object>();

  /** The attempt loop of a client with these settings. */
  constructor(settings: AttemptSettings) {
    this.#fetch = settings.fetch;
    this.#headers = mergeHeaders({}, settings.headers);
    this.#auth = settings.auth;
    this.#delays = settings.delays;
    this.#log = settings.log;
  }

  /**
   * The attempts of `call` until one is answered 2xx or the rules stop: the last answer (outside 2xx
   * when the retries ran out). A call that got no answer rejects with what failed; {@link
   * Attempts.failure} says what the caller is told.
   */
  async send(call: Call, callHeaders: HeadersInit | undefined): Promise<Response> {
    call.build(this.#headers, callHeaders);
    // A timeout no timer can hold is refused, as ky refuses it, before anything is sent.
    if (!(call.timeout <= MAX_SAFE_TIMEOUT))
      throw new RangeError(`The \`timeout\` option cannot be greater than ${MAX_SAFE_TIMEOUT}`);
    let answer: Response | undefined;
    let failure: unknown;
    try {
      answer = await this.#firstAttempt(call);
      if (answer.ok) return answer;
    } catch (error) {
      failure = error;
    }
    const wait = this.#nextWait(call, failure, answer, 1);
    if (wait === false) {
      if (answer) return answer;
      throw failure;
    }
    // ky loads while the call waits (a rejected load shows when the retry awaits it).
    this.#retrier().catch(() => undefined);
    await sleep(wait, call.signal);
    this.#log?.retry(call, retryReason(failure, answer), 1);
    return this.#retries(call);
  }

  /** The first attempt, straight through the transport. */
  async #firstAttempt(call: Call): Promise<Response> {
    // The token goes into the call's headers: ky's retries start from them and set their own.
    await this.#begin(call, call.headers);
    return timed(call, (signal) =>
      this.#fetch(call.url, { method: call.wireMethod, headers: call.headers, body: call.body, signal }),
    );
  }

  /**
   * The retries, on ky: its hooks begin each attempt; the rules decide each retry. An answer outside
   * 2xx after the last attempt is returned, not thrown.
   */
  async #retries(call: Call): Promise<Response> {
    const retries = await this.#retrier();
    // Only the keys this call sets: ky merges every key given with the client's defaults.
    const options: KyOptions = {
      method: call.wireMethod,
      headers: call.headers,
      context: { call },
      retry: {
        methods: [call.wireMethod.toLowerCase()],
        shouldRetry: ({ error, retryCount }) => {
          // ky wraps what is not an Error (a caller's thrown object) in a NonError: the rules see the thrown value.
          const thrown = error.name === 'NonError' && 'value' in error ? error.value : error;
          // ky counts its own retries from the second attempt: its first retry is the call's second.
          const wait = this.#nextWait(call, thrown, httpErrorResponse(error), retryCount + 1);
          if (wait === false) return false;
          call.wait = wait;
          return true;
        },
        delay: () => call.wait,
      },
      // Each attempt is timed as the first one was; ky's own timeout is off.
      fetch: (input, init) => timed(call, (signal) => this.#fetch(new Request(input, { ...init, signal }))),
    };
    if (call.body !== undefined) options.body = call.body;
    if (call.signal) options.signal = call.signal;
    try {
      return await retries(call.url, options);
    } catch (error) {
      const answer = httpErrorResponse(error);
      if (answer) return answer;
      throw error;
    }
  }

  /**
   * The ky instance that makes the retries, made on first use: ky is loaded then (a bundler puts it
   * in a chunk of its own), so a site whose calls are answered at once never downloads it.
   */
  #retrier(): Promise<KyInstance> {
    this.#ky ??= import('ky').then(({ default: ky, isHTTPError }) =>
      ky.create({
        timeout: false,
        // Every retry decision and every wait is the rules', given to ky per call (shouldRetry and
        // delay): ky's own limit, status lists, jitter and caps only have to stay out of their way.
        retry: { limit: Number.POSITIVE_INFINITY },
        // No afterResponse hook: ky clones every response for one. Answers are logged and a 401 is
        // retried by the pipeline and the rules instead; the retry hook exists only with a logger.
        hooks: {
          beforeRequest: [
            async (request, options) => {
              if (options.context.call instanceof Call) await this.#begin(options.context.call, request.headers);
            },
          ],
          beforeRetry: this.#log
            ? [
                ({ options, error, retryCount }) => {
                  const { call } = options.context;
                  const answer = isHTTPError(error) ? error.response : undefined;
                  if (call instanceof Call) this.#log?.retry(call, retryReason(error, answer), retryCount + 1);
                },
              ]
            : [],
        },
      }),
    );
    return this.#ky;
  }

  /**
   * An attempt begins: it is counted and timed, its bearer token set in `headers` (the client's,
   * asked for on every attempt so that a refused one is replaced; the call's own; or none), and it
   * is logged.
   */
  async #begin(call: Call, headers: Record<string, string> | Headers): Promise<void> {
    call.attempts += 1;
    call.attemptStartedAt = performance.now();
    if (call.authenticate) {
      try {
        call.token = await this.#auth.token();
      } catch (error) {
        // What the caller's provider throws is its own error: never retried, passed on as it is.
        if (!(error instanceof PlatformError) && typeof error === 'object' && error) this.#callerErrors.add(error);
        throw error;
      }
    }
    if (call.token !== undefined) {
      const authorization = `Bearer ${call.token}`;
      if (headers instanceof Headers) headers.set('authorization', authorization);
      else headers.authorization = authorization;
    }
    this.#log?.request(call, headers);
  }

  /**
   * Every retry rule, for both paths: the wait before retry number `retryCount` (1 for the first)
   * after an attempt answered `answer` or failed with `error`, in ms; `false` for no retry.
   *
   * Never retried: errors of the caller's code and the SDK's own, an aborted call, a 401 with a
   * token that cannot change. After a 401, one retry with a new token, at once, for writes too (a
   * 401 means nothing was processed), not counted against `maxRetries`. Reads (writes with
   * `retryWrite`) are retried on 408, 429, 500, 502, 503, 504, a timeout or a failure before an
   * answer, up to `maxRetries` times, after the wait {@link retryWait} gives.
   */
  #nextWait(call: Call, error: unknown, answer: Response | undefined, retryCount: number): number | false {
    if (error instanceof PlatformError || this.#isCallerError(error)) return false;
    if (call.signal?.aborted) return false;
    if (answer?.status === 401) return this.#retryWithNewToken(call) ? 0 : false;
    if (!call.retriable) return false;
    // The one retry with a new token after a 401 is not counted against maxRetries.
    if (retryCount - (call.authRetried ? 1 : 0) > call.maxRetries) return false;
    return retryWait(this.#delays, answer, retryCount);
  }

  /**
   * After a 401, one retry with a new token (a 401 means nothing was processed, so writes too); the
   * refused token is forgotten first. A fixed token is not retried: it would be refused again.
   */
  #retryWithNewToken(call: Call): boolean {
    if (!call.authenticate || !this.#auth.refreshable || call.authRetried) return false;
    if (call.token !== undefined) this.#auth.invalidate(call.token);
    call.authRetried = true;
    return true;
  }

  #isCallerError(error: unknown): boolean {
    return typeof error === 'object' && error !== null && this.#callerErrors.has(error);
  }

  /**
   * What a call that got no answer rejects with: the caller's error or reason as they are, else an
   * {@link APIConnectionError} (an {@link APITimeoutError} for a timeout), logged.
   */
  failure(call: Call, error: unknown): unknown {
    if (error instanceof PlatformError || this.#isCallerError(error)) return error;
    if (call.signal?.aborted) return call.signal.reason;
    const attempts = Math.max(call.attempts, 1);
    const mapped =
      error instanceof AttemptTimeout
        ? new APITimeoutError(
            `${call.method} ${redact(call.url)} got no answer within ${call.timeout} ms (${plural(attempts, 'attempt')})`,
            { cause: error, attempts },
          )
        : connectionError(call, error);
    this.#log?.failure(call, mapped, attempts);
    return mapped;
  }
}
