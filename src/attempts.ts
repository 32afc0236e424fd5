/**
 * The attempts of a call, until one is answered 2xx or the retry rules stop. The first attempt goes
 * straight to the transport's `fetch`: most calls succeed at once, and ky's per-call work (options
 * merged, a `Request` built and cloned) would cost more than the rest of the SDK. When it fails in a
 * way the rules retry, the call waits and ky makes the retries, with its hooks. Both paths share one
 * of everything: the attempt's headers and body (built once per call, {@link Call}), its start
 * (count, token, log line), its timeout (which covers the answer's body: it is read within the
 * attempt), the refusal of redirects, the retry rules and the mapping of a failure to an error.
 */
import type { KyInstance, Options as KyOptions } from 'ky';
import type { TokenSource } from './auth.js';
import {
  APIConnectionError,
  APITimeoutError,
  PlatformError,
  RedirectNotFollowedError,
  RequestValidationError,
  ResponseTooLargeError,
} from './errors.js';
import { type CallLog, type LoggedCall, redact } from './logger.js';
import { cleanCause, secretsSent, unquoting } from './quoted-secrets.js';
import type { RequestHeaders } from './request.js';
import { type RetryDelays, retryWait } from './retry.js';
import { sleep, unlessAborted, whenAborted } from './sleep.js';
import { GET_WITH_BODY, HEADER_VALUE_RULE, isHeaderValue } from './transport.js';

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
  /**
   * What the caller's token provider threw, when it is not an object (a thrown text): the client's
   * set of the caller's errors holds objects only. Never retried, passed on as it is.
   */
  callersThrown: { readonly value: unknown } | undefined = undefined;
  /** Attempts made so far, each counted as it starts. */
  attempts = 0;
  /** When the latest attempt started (`performance.now()`). */
  attemptStartedAt = 0;
  /** The wait before the next retry, as the rules decided it. */
  wait = 0;
  /** The body of the latest answer, read whole within its attempt's timeout ('' when empty). */
  answerText = '';

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
   * them, the marker of a GET with a body, the JSON body and its content type. A body JSON cannot
   * hold (a raw request's BigInt, a circular reference) is refused with a
   * {@link RequestValidationError} naming `body`, the call failing without a retry. The call's own
   * token, when a header cannot carry it (a line break, a NUL), is refused first, with a
   * {@link RequestValidationError} that does not quote it (fetch's own error would, and drops a line
   * break at either end without a word); the call's headers were checked with its options, the
   * client's when it was made.
   */
  build(clientHeaders: Readonly<Record<string, string>>, callHeaders: RequestHeaders | undefined): void {
    if (!this.authenticate && this.token !== undefined && !isHeaderValue(this.token)) refuse(['accessToken']);
    this.headers = mergeHeaders(clientHeaders, callHeaders);
    // The SDK's own, as the spec has every request send them: a caller's header of either name is
    // not sent (`content-type` goes with a JSON body only, below).
    this.headers.accept = 'application/json';
    if (this.json === undefined && Object.hasOwn(this.headers, 'content-type')) delete this.headers['content-type'];
    // The marker is the SDK's alone: one of the caller's headers of its name would turn a write into a GET.
    if (this.wireMethod !== this.method) this.headers[GET_WITH_BODY] = '1';
    else if (Object.hasOwn(this.headers, GET_WITH_BODY)) delete this.headers[GET_WITH_BODY];
    if (this.json !== undefined) {
      try {
        this.body = JSON.stringify(this.json);
      } catch {
        // A raw request's body JSON cannot write (a BigInt, a circular reference): the caller's input,
        // refused as such, not a failure of the network (an APIConnectionError) after nothing was sent.
        refuse(['body'], 'must be a value JSON can hold (no BigInt, no circular reference)');
      }
      this.headers['content-type'] = 'application/json';
    }
  }

  /**
   * The secret values the call sends: its bearer token, its headers and query parameters under
   * secret names, and its body's members under secret names (`client_secret`, `ticket`,
   * `refresh_token`...) at any depth ({@link secretsSent}). An error leaves them out should an answer
   * quote them back.
   */
  secrets(): string[] {
    return secretsSent(this);
  }

  /**
   * What takes the secrets the call sent ({@link Call.secrets}) out of a text that quotes them back
   * (an answer, a failure's message), in each spelling a text may quote them in. Made on the error
   * path only.
   */
  unquoter(): (text: string) => string {
    return unquoting(this.secrets());
  }
}

/**
 * Refuses the call, before anything is sent, for a value at `path` that breaks `rule` (by default:
 * a header cannot carry it); never quoting it.
 */
function refuse(path: string[], rule = HEADER_VALUE_RULE): never {
  throw new RequestValidationError([{ code: 'custom', path, message: `Parameter ${rule}`, input: undefined }]);
}

/**
 * The headers of a call: the client's (merged once, names in lower case) with the call's over
 * them, as ky merges them (a value `'undefined'` removes the header).
 */
function mergeHeaders(
  base: Readonly<Record<string, string>>,
  over: RequestHeaders | undefined,
): Record<string, string> {
  const out: Record<string, string> = { ...base };
  if (over === undefined) return out;
  // Headers takes a value `undefined` as the text "undefined": the header taken out below.
  new Headers(over as HeadersInit).forEach((value, name) => {
    if (value === 'undefined') delete out[name];
    else out[name] = value;
  });
  return out;
}

/** An attempt that got no whole answer in time (named as ky names its own). */
class AttemptTimeout extends Error {
  override name = 'TimeoutError';
  /** The status of the answer whose body was still arriving; `undefined` when no answer had come. */
  readonly status: number | undefined;
  constructor(message: string, status: number | undefined) {
    super(message);
    this.status = status;
  }
}

/** The most the SDK reads of an answer's body, in bytes: no answer of the platform comes near. */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** One decoder for every answer: `decode` without `stream` keeps nothing from one call to the next. */
const UTF8 = new TextDecoder();

function ignore(): void {}

/**
 * How an attempt can be stopped on the wire when its time runs out. `abortable`: it carries an
 * `AbortSignal`, and the timeout aborts it. Otherwise it is sent without one (a signal costs fetch
 * about as much as the rest of the SDK's work on a call): the timeout gives it up, its answer's body
 * is cancelled (which closes the connection) when the headers are in, and an answer that comes
 * after the deadline is cancelled unread; `timedOut` is told, and the client's later attempts carry
 * a signal ({@link Attempts}).
 */
interface Stopping {
  readonly abortable: boolean;
  /** Told when an attempt sent without a signal times out. */
  readonly timedOut: () => void;
}

/**
 * One attempt, given the call's `timeout` to be answered whole: its status and headers, then its
 * body, read here into `call.answerText` (at most {@link MAX_ANSWER_BYTES}, else a
 * {@link ResponseTooLargeError}). A redirect is refused before its body is read
 * ({@link refuseRedirect}). When the time runs out the attempt fails with an {@link AttemptTimeout},
 * as ky's own timeout does, and is stopped as `stopping` says. The caller's signal aborts it too.
 */
function timed(
  call: Call,
  log: CallLog | undefined,
  stopping: Stopping,
  send: (signal: AbortSignal | undefined) => Promise<Response>,
): Promise<Response> {
  // The attempt's own abort, made only when it is sent abortable or the caller may abort it.
  const controller = stopping.abortable || call.signal ? new AbortController() : undefined;
  const signal = controller?.signal;
  // The answer whose body is being read, and its reader: the timer cuts the read.
  let answer: Response | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let over: AttemptTimeout | undefined;
  return new Promise<Response>((resolve, reject) => {
    // The caller's signal aborts the attempt through the one listener the SDK keeps on it
    // ({@link whenAborted}), dropped when the attempt ends. Not `AbortSignal.any`: a long-lived signal
    // (a server's shutdown signal, given to every call) would hold an entry for each attempt made under
    // it for as long as it lives (Node 20 frees none; later versions kept those fetch listens to,
    // nodejs/node#64476), a leak that grows with every call.
    const { signal: callers } = call;
    let unfollow: (() => void) | undefined;
    const done = () => {
      clearTimeout(timer);
      unfollow?.();
    };
    const timer = setTimeout(() => {
      unfollow?.();
      over = new AttemptTimeout(
        `${call.wireMethod} ${redact(call.url)} timed out after ${call.timeout} ms`,
        answer?.status,
      );
      controller?.abort();
      // A body that outlives the abort (a `fetch` of the caller's that ignores the signal, or no signal) is cancelled.
      reader?.cancel().catch(ignore);
      if (!controller) stopping.timedOut();
      reject(over);
    }, call.timeout);
    if (callers && controller) {
      if (callers.aborted) controller.abort(callers.reason);
      else
        unfollow = whenAborted(callers, () => {
          done();
          controller.abort(callers.reason);
          // The call stops at once, as at its timeout, even when a `fetch` of the caller's ignores the
          // signal: its body, if it is being read, is cancelled, and an answer still to come is no one's.
          reader?.cancel().catch(ignore);
          reject(callers.reason);
        });
    }
    let sent: Promise<Response>;
    try {
      sent = send(signal);
    } catch (error) {
      // A `fetch` of the caller's that throws at once, not returning a promise: the attempt fails as
      // if it had rejected, and its timer goes with it (left, it would keep the process up to `timeout`).
      done();
      reject(error);
      return;
    }
    sent
      .then(async (response) => {
        // An answer after the deadline, or after the caller's abort, is no one's: its body is cancelled unread.
        if (over || signal?.aborted) {
          response.body?.cancel().catch(ignore);
          throw over ?? signal?.reason;
        }
        refuseRedirect(call, response, log);
        answer = response;
        reader = response.body?.getReader();
        const text = reader ? await readAnswer(call, response, reader, log) : '';
        // An attempt that is over (timed out, aborted) has already failed: its late body is no one's.
        if (signal?.aborted) throw signal.reason;
        if (over) throw over;
        call.answerText = text;
        return response;
      })
      .then(
        (response) => {
          done();
          resolve(response);
        },
        (error: unknown) => {
          done();
          reject(error);
        },
      );
  });
}

/** The body of an answer as text (UTF-8), read to its end or to {@link MAX_ANSWER_BYTES}. */
async function readAnswer(
  call: Call,
  response: Response,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  log: CallLog | undefined,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      reader.cancel().catch(ignore);
      const attempts = Math.max(call.attempts, 1);
      const { status } = response;
      const error = new ResponseTooLargeError(
        `${call.method} ${redact(call.url)} answered ${status} with a body over 16 MiB, the most the SDK reads`,
        { status, limit: MAX_ANSWER_BYTES, attempts, correlationId: correlationIdOf(response) },
      );
      log?.failure(call, error, attempts);
      throw error;
    }
    chunks.push(value);
  }
  // Most answers come in one chunk: it is decoded as it is, without a copy.
  if (chunks.length < 2) return chunks.length === 0 ? '' : UTF8.decode(chunks[0]);
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return UTF8.decode(whole);
}

/** An answer's correlation id: its `x-correlation-id` header. */
function correlationIdOf(response: Response): string | undefined {
  return response.headers.get('x-correlation-id') ?? undefined;
}

/** Whether fetch would follow an answer of this status (the Fetch standard's redirect statuses). */
function isRedirectStatus(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

/**
 * Refuses a redirect, which the SDK never follows ({@link RedirectNotFollowedError}): an answer
 * 301, 302, 303, 307 or 308, a browser's opaque redirect (status 0, its Location hidden), or an
 * answer a `fetch` of the caller's reached by following one despite `redirect: 'manual'`. Its body
 * is not read.
 */
function refuseRedirect(call: Call, response: Response, log: CallLog | undefined): void {
  const status = response.status;
  const followed = response.redirected;
  const redirect = isRedirectStatus(status);
  if (!redirect && !followed && !(status === 0 && response.type === 'opaqueredirect')) return;
  response.body?.cancel().catch(ignore);
  const location = whereTo(followed ? response.url : response.headers.get('location'), call);
  let where = location ?? 'a Location it cannot read';
  if (followed) where += " by the fetch in use, which ignored redirect 'manual'";
  else if (!redirect) where = 'a location the runtime hides (an opaque redirect)';
  const attempts = Math.max(call.attempts, 1);
  const error = new RedirectNotFollowedError(
    `${call.method} ${redact(call.url)} was redirected${redirect ? ` (${status})` : ''} to ${where}: the SDK follows no redirect`,
    { status: redirect ? status : 0, location, attempts, correlationId: correlationIdOf(response) },
  );
  log?.failure(call, error, attempts);
  throw error;
}

/**
 * Where a redirect of `call` points, as a message may say it: the origin and path of `location`
 * (resolved against the request's URL), never its query or fragment, which may carry a secret; the
 * secrets the request sent taken out of both (a ticket in the path: `/used/<ticket>`; in the host
 * name, which a URL writes in lower case), and what is shaped like a credential redacted. Another
 * scheme (`data:`) is named by its scheme alone.
 */
function whereTo(location: string | null, call: Call): string | undefined {
  if (!location) return undefined;
  let url: URL;
  try {
    url = new URL(location, call.url);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol;
  const secrets = call.secrets();
  const origin = unquoting(secrets.map((secret) => secret.toLowerCase()))(url.origin);
  return redact(`${origin}${unquoting(secrets)(url.pathname)}`);
}

/**
 * The answer inside ky's error for a status outside 2xx (an `HTTPError`), told by name as ky's own
 * check does; the answer by its shape, not its class: a `fetch` option may answer with another
 * `Response` class than the global one (undici's own, a polyfill's).
 */
function httpErrorResponse(error: unknown): Response | undefined {
  if (!(error instanceof Error) || error.name !== 'HTTPError' || !('response' in error)) return undefined;
  return isResponse(error.response) ? error.response : undefined;
}

/** Whether `value` reads as a Fetch `Response`: a numeric status, headers to get, a body to read. */
function isResponse(value: unknown): value is Response {
  if (value instanceof Response) return true;
  if (typeof value !== 'object' || value === null) return false;
  const answer = value as Partial<Record<'status' | 'headers' | 'text', unknown>>;
  return (
    typeof answer.status === 'number' &&
    typeof answer.text === 'function' &&
    typeof (answer.headers as { get?: unknown } | undefined)?.get === 'function'
  );
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

/**
 * A failure without a whole answer: the method, the URL without secrets, the cause and the
 * attempts. The cause's words may quote what the call sent (a header value, the URL with its query
 * in a `fetch` of the caller's): the call's secrets are taken out of them, and what the logger
 * redacts (as in the URL), in the message and in the `cause` it keeps.
 */
function connectionError(call: Call, error: unknown): APIConnectionError {
  const attempts = Math.max(call.attempts, 1);
  const causeCode = causeCodeOf(error);
  const unquote = call.unquoter();
  const clean = (text: string) => redact(unquote(text));
  const cause = causeCode ?? (error instanceof Error ? clean(error.message) : 'connection failed');
  return new APIConnectionError(
    `${call.method} ${redact(call.url)} failed after ${plural(attempts, 'attempt')}: ${cause}`,
    { cause: cleanCause(error, clean), attempts, causeCode },
  );
}

/** Retries, always sent with a signal: a call is retried because something already went wrong. */
const ABORTABLE: Stopping = { abortable: true, timedOut: ignore };

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
  /**
   * Whether first attempts may go without an `AbortSignal` until the client first sees a timeout:
   * only with Node's own `fetch`, whose pool has no limit of connections and where a signal costs
   * most. A browser keeps a few connections per host, and a caller's `fetch` may too: there an
   * attempt given up but not aborted would hold one, so every attempt carries a signal.
   */
  readonly lazyAbort: boolean;
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
  /**
   * How first attempts are stopped at their timeout: with `lazyAbort`, sent without a signal until
   * one of them times out, with one from then on (see {@link Stopping}); retries always carry one.
   */
  readonly #firstAttempts: { abortable: boolean; timedOut: () => void } = {
    abortable: true,
    timedOut: () => {
      this.#firstAttempts.abortable = true;
    },
  };
  /** Errors thrown by the caller's own code (a token provider): never retried, passed on as they are. */
  readonly #callerErrors = new WeakSet<object>();

  /** The attempt loop of a client with these settings. */
  constructor(settings: AttemptSettings) {
    this.#fetch = settings.fetch;
    this.#headers = mergeHeaders({}, settings.headers);
    this.#auth = settings.auth;
    this.#delays = settings.delays;
    this.#log = settings.log;
    this.#firstAttempts.abortable = !settings.lazyAbort;
  }

  /**
   * The attempts of `call` until one is answered 2xx or the rules stop: the last answer (outside 2xx
   * when the retries ran out). A call that got no answer rejects with what failed; {@link
   * Attempts.failure} says what the caller is told.
   */
  async send(call: Call, callHeaders: RequestHeaders | undefined): Promise<Response> {
    call.build(this.#headers, callHeaders);
    // A call aborted before it starts sends nothing, not even a request for the client's token, and logs none.
    if (call.signal?.aborted) throw call.signal.reason;
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

  /** The first attempt, straight through the transport; no redirect followed (see {@link refuseRedirect}). */
  async #firstAttempt(call: Call): Promise<Response> {
    // The token goes into the call's headers: ky's retries start from them and set their own.
    const asking = this.#begin(call, call.headers);
    if (asking) await asking;
    // A GET with a body goes over node:http, which has no timeout of its own: it always carries a signal.
    const stopping = call.wireMethod === call.method ? this.#firstAttempts : ABORTABLE;
    return timed(call, this.#log, stopping, (signal) =>
      this.#fetch(call.url, {
        method: call.wireMethod,
        headers: call.headers,
        body: call.body,
        // Without a signal, the key is left out: a fetch may read `signal: undefined` as one given.
        ...(signal ? { signal } : {}),
        redirect: 'manual',
      }),
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
      // Each attempt is timed and read as the first one was, following no redirect; ky's own timeout is off.
      // The transport makes ky's Request and this init one (a GET with a body keeps the signal itself).
      fetch: (input, init) =>
        timed(call, this.#log, ABORTABLE, (signal) =>
          this.#fetch(input, { ...init, signal: signal ?? null, redirect: 'manual' }),
        ),
    };
    if (call.body !== undefined) options.body = call.body;
    // ky waits between retries with a listener on the signal it is given: it is given the call's
    // own, which follows the caller's through the one listener the SDK keeps on it (see whenAborted).
    let unfollow: (() => void) | undefined;
    const { signal } = call;
    if (signal) {
      const own = new AbortController();
      if (signal.aborted) own.abort(signal.reason);
      else unfollow = whenAborted(signal, () => own.abort(signal.reason));
      options.signal = own.signal;
    }
    try {
      return await retries(call.url, options);
    } catch (error) {
      const answer = httpErrorResponse(error);
      if (answer) return answer;
      throw error;
    } finally {
      unfollow?.();
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
   * is logged. At once when the token is at hand (a fixed one, a cached one still fresh), else a
   * promise of it.
   */
  #begin(call: Call, headers: Record<string, string> | Headers): Promise<void> | undefined {
    call.attempts += 1;
    call.attemptStartedAt = performance.now();
    if (call.authenticate) {
      const token = this.#auth.current();
      if (token === undefined) return this.#beginAsking(call, headers);
      call.token = token;
    }
    this.#started(call, headers);
    return undefined;
  }

  /**
   * An attempt begins once the client's token source has answered. The call's signal stops the wait
   * at once (the call rejects with its reason), not the token request, which other calls may share:
   * it has its own timeout and retries, the client's, and the call's own `timeout` starts with the
   * attempt, once the token is in.
   */
  async #beginAsking(call: Call, headers: Record<string, string> | Headers): Promise<void> {
    const asking = this.#auth.token();
    try {
      call.token = await (call.signal ? unlessAborted(asking, call.signal) : asking);
    } catch (error) {
      // What the caller's provider throws is its own error: never retried, passed on as it is.
      const callers = !(error instanceof PlatformError) && !call.signal?.aborted;
      if (callers && typeof error === 'object' && error) this.#callerErrors.add(error);
      else if (callers) call.callersThrown = { value: error };
      throw error;
    }
    this.#started(call, headers);
  }

  /** The attempt's token set in its headers, and the attempt logged. */
  #started(call: Call, headers: Record<string, string> | Headers): void {
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
    if (error instanceof PlatformError || this.#isCallerError(call, error)) return false;
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

  #isCallerError(call: Call, error: unknown): boolean {
    // A WeakSet holds objects only: anything else the caller threw is kept by its call.
    if (typeof error === 'object' && error !== null) return this.#callerErrors.has(error);
    return call.callersThrown !== undefined && Object.is(call.callersThrown.value, error);
  }

  /**
   * What a call that got no whole answer rejects with: the caller's error or reason, and the SDK's
   * own (a redirect, a body over the limit, logged where refused), as they are; else an
   * {@link APIConnectionError} (an {@link APITimeoutError} for a timeout), logged.
   */
  failure(call: Call, error: unknown): unknown {
    if (error instanceof PlatformError || this.#isCallerError(call, error)) return error;
    if (call.signal?.aborted) return call.signal.reason;
    const attempts = Math.max(call.attempts, 1);
    let mapped: APIConnectionError;
    if (error instanceof AttemptTimeout) {
      // The last attempt's answer had come, its body had not: said so, as a slow body is not a slow host.
      const { status } = error;
      const partly = status === undefined ? '' : `, the body of its ${status} still arriving`;
      mapped = new APITimeoutError(
        `${call.method} ${redact(call.url)} got no ${partly && 'whole '}answer within ${call.timeout} ms${partly} (${plural(attempts, 'attempt')})`,
        { cause: error, attempts },
      );
    } else mapped = connectionError(call, error);
    this.#log?.failure(call, mapped, attempts);
    return mapped;
  }
}
