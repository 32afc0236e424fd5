/**
 * The client and its one request pipeline (a first attempt straight through fetch, the retries on
 * ky): URL per host and environment, headers, auth, timeout, abort, retries, logging, error
 * mapping, request and response validation. Resources (src/resources/*.ts) name an endpoint entry
 * and never touch any of this.
 */
import type { KyInstance, Options as KyOptions, KyRequest, NormalizedOptions } from 'ky';
import * as z from 'zod';
import { APIPromise, type APIResponse } from './api-promise.js';
import { type TokenSource, tokenSource } from './auth.js';
import { accessToken, type Endpoint, type Environment, type Host, responseSchemaOf } from './endpoints.js';
import {
  APIConnectionError,
  APITimeoutError,
  makeAPIError,
  PlatformError,
  RequestValidationError,
  ResponseValidationError,
  UnsupportedRequestError,
  type ValidationIssue,
} from './errors.js';
import { type Logger, redact } from './logger.js';
import { type ClientSettings, type Hosts, type PlatformClientOptions, parseOptions } from './options.js';
import { AccountChangeLog } from './resources/account-change-log.js';
import { Accounts } from './resources/accounts.js';
import { Authorization } from './resources/authorization.js';
import { CancellationReasons } from './resources/cancellation-reasons.js';
import { Helpdesk } from './resources/helpdesk.js';
import { Me } from './resources/me.js';
import { MeRetention } from './resources/me-retention.js';
import { Orders } from './resources/orders.js';
import { Prices } from './resources/prices.js';
import { Products } from './resources/products.js';
import { Shop } from './resources/shop.js';
import { SignOn } from './resources/sign-on.js';
import { Sso } from './resources/sso.js';
import { SubscriptionSystem } from './resources/subscription-system.js';
import { Subscriptions } from './resources/subscriptions.js';
import { Titles } from './resources/titles.js';
import { UserProducts } from './resources/user-products.js';
import { platformErrorMap } from './schemas/common.js';
import { MAX_SAFE_TIMEOUT, sleep } from './sleep.js';
import { canSendGetWithBody, GET_WITH_BODY, transport } from './transport.js';
import { urlOf, withQuery } from './url.js';

/** The parameters of {@link PlatformClient.request}: a request to a path the SDK does not wrap. */
export interface RawRequestParams<S extends z.ZodType = z.ZodType<unknown>> {
  /** The HTTP method. A `GET` with a `body` is sent as endpoint 6 is (Node only). */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path on the host, starting with `/`, e.g. `/external/api/v1/titles/`; no query (see `query`). */
  path: string;
  /** Which of the client's hosts. Default `api`. */
  host?: Host;
  /** Query parameters; `undefined` values are left out. */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /** A JSON body. */
  body?: unknown;
  /** A zod schema the answer is checked against; its output types the result. Default: the answer as is. */
  schema?: S;
  /** Whether to send the client's bearer token (or `accessToken`). Default `true`. */
  bearer?: boolean;
}

/** The query of a raw request: names to text, numbers or booleans. */
const RawQuery = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).optional());

/** Options of one call; each overrides the client's option of the same name. */
export interface RequestOptions {
  /** Aborts the call; it then rejects with the signal's reason (an `AbortError` by default). */
  signal?: AbortSignal;
  /** Time allowed for each attempt, in ms. */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /**
   * Retry a write (POST, PUT) like a read. Only when repeating it is harmless: the platform has no
   * idempotency key, so a write whose answer was lost may be applied twice.
   */
  retryWrite?: boolean;
  /** Headers for this call. */
  headers?: Record<string, string>;
  /**
   * A user's access token for this call (e.g. ticket generation for the user, endpoint 22 form b):
   * sent instead of the client's `auth`, and never refreshed, so a 401 is final. When the key is
   * given its value must be a non-empty string (a `RequestValidationError` otherwise): an absent
   * user token never silently falls back to the client's own.
   */
  accessToken?: string;
}

/** The parameters of an endpoint's method: its body when it has one, else its query. */
export type ParamsOf<E extends Endpoint> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : E['query'] extends z.ZodType
    ? z.input<E['query']>
    : undefined;

/** The result of an endpoint's method: its response schema's output. */
export type ResultOf<E extends Endpoint> = z.output<E['response']>;

/** Sends an endpoint's request; what resources are given. */
export interface Requester {
  /**
   * Validates `params`, sends the request, validates and returns the answer. `params` may be a
   * promise (a signed body): when it rejects, nothing is sent and the call rejects with its reason.
   */
  request<E extends Endpoint>(
    endpoint: E,
    params: ParamsOf<E> | Promise<ParamsOf<E>>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<E>>;
}

const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
const RETRY_AFTER_STATUSES = [429, 503];

/** The header a throttled answer names its wait in, looked for as ky looks (`Retry-After` first). */
function retryAfterHeader(headers: Headers): string | null {
  return (
    headers.get('retry-after') ??
    headers.get('ratelimit-reset') ??
    headers.get('x-ratelimit-retry-after') ??
    headers.get('x-ratelimit-reset') ??
    headers.get('x-rate-limit-reset')
  );
}

/**
 * The wait a throttled answer asks for, in ms, read as ky reads it (`Retry-After` in seconds or
 * as a date, or a rate-limit reset header); `undefined` when none.
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = retryAfterHeader(headers);
  if (!value) return undefined;
  let after = Number(value) * 1000;
  if (Number.isNaN(after)) after = Date.parse(value) - now;
  else if (after >= Date.parse('2024-01-01')) after -= now; // a timestamp, as ky takes it
  return Number.isNaN(after) ? undefined : after;
}

/**
 * A first attempt that got no answer in time. Named as ky names its own: ky is loaded only for
 * retries, so what a timeout is on either path is told by name, never by ky's class.
 */
class AttemptTimeout extends Error {
  override name = 'TimeoutError';
}

/** Whether an attempt failed for want of an answer in time: the first attempt's timeout, or ky's. */
function isTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/** The answer inside ky's error for a status outside 2xx (an `HTTPError`), told by name as ky's own check does. */
function httpErrorResponse(error: unknown): Response | undefined {
  if (!(error instanceof Error) || error.name !== 'HTTPError') return undefined;
  const { response } = error as Error & { response?: Response };
  return typeof response === 'object' && response !== null ? response : undefined;
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

/** What one call carries through its attempts (in ky's hooks: `options.context.call`). */
interface CallState {
  readonly title: string;
  /** The endpoint's method (a GET with a body travels to the transport as a POST). */
  readonly method: string;
  /** The method handed to the transport: the endpoint's, or POST for a GET with a body. */
  readonly wireMethod: string;
  /** Whether the token comes from the client's `auth` (refreshable); false for a per-call token. */
  readonly authenticate: boolean;
  /** The validated body, for the debug log (redacted). */
  readonly body: unknown;
  /** The caller's signal. */
  readonly signal: AbortSignal | undefined;
  /** Whether failures other than a 401 may be retried: reads, and writes with `retryWrite`. */
  readonly retriable: boolean;
  /** Retries allowed after the first attempt (the one retry after a 401 aside). */
  readonly maxRetries: number;
  /** The token sent on the latest attempt (or the per-call `accessToken`). */
  token: string | undefined;
  /** Whether the one retry after a 401 has been used. */
  authRetried: boolean;
  /** Attempts made so far (each one counted as it starts). */
  attempts: number;
  attemptStartedAt: number;
  /** Attempts made before ky took the call over: ky counts its retries from 0. */
  offset: number;
  /** The wait before the next retry, as decided by `retryDelay`. */
  wait: number;
}

function callOf(options: NormalizedOptions): CallState | undefined {
  return options.context.call as CallState | undefined;
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}

async function readBody(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  } catch {
    return undefined;
  }
}

/** The system code of a failure before an answer (`ECONNREFUSED`, `ENOTFOUND`), looked for along its causes. */
function causeCodeOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * `schema.safeParse`, with the platform's wording of issues. The error map costs a few
 * microseconds even when nothing is wrong, so it is applied only to a failed parse.
 */
function parse(schema: z.ZodType, input: unknown): ReturnType<z.ZodType['safeParse']> {
  const result = schema.safeParse(input);
  return result.success ? result : schema.safeParse(input, { error: platformErrorMap });
}

function issue(message: string, field?: string): ValidationIssue {
  return { code: 'custom', path: field ? [field] : [], message, input: undefined };
}

/** An empty object, shared: the default of options and of an absent query. */
const NONE = {} as const;

/**
 * The request pipeline of one client.
 *
 * The first attempt of a call goes straight to the transport's `fetch`: most calls succeed at
 * once, and ky's per-call work (options merged, a `Request` built and cloned, a timeout wrapper)
 * would cost more than the rest of the SDK. When that attempt fails in a way the retry rules
 * retry, the call waits as those rules say and ky makes the retries, with its hooks. Both paths
 * share one of everything: the headers, the authorization, the logging, the retry rules
 * (`#retryDelay`) and the error mapping.
 */
class Pipeline implements Requester {
  readonly #environment: Environment;
  readonly #hosts: Hosts;
  readonly #maxRetries: number;
  readonly #maxRetryAfter: number;
  readonly #initialDelay: number;
  readonly #maxDelay: number;
  readonly #timeout: number;
  readonly #validateResponses: boolean;
  readonly #logger: Logger | undefined;
  readonly #auth: TokenSource;
  /** The client's headers with `accept`, merged once; names in lower case. */
  readonly #headers: Readonly<Record<string, string>>;
  /** The caller's `fetch` (or the global one), and node:http(s) for a GET with a body. */
  readonly #fetch: typeof fetch;
  /** ky, loaded and set up on the first retry: a call answered at once never needs it. */
  #ky: Promise<KyInstance> | undefined;
  /** Errors thrown by the caller's own code (a token provider): never retried, passed on as they are. */
  readonly #callerErrors = new WeakSet<object>();

  constructor(options: ClientSettings) {
    this.#environment = options.environment;
    this.#hosts = options.hosts;
    this.#maxRetries = options.maxRetries;
    this.#maxRetryAfter = options.maxRetryAfter;
    this.#initialDelay = options.retryDelay.initial;
    this.#maxDelay = options.retryDelay.max;
    this.#timeout = options.timeout;
    this.#validateResponses = options.validateResponses;
    this.#logger = options.logger;
    this.#auth = tokenSource(options.auth, (body) =>
      // Asking for a token again is harmless: the grant is retried like a read.
      this.#send(accessToken, body, { retryWrite: true }).then((r) => r.data),
    );
    this.#headers = mergeHeaders({}, { ...options.headers, accept: 'application/json' });
    this.#fetch = transport(options.fetch);
  }

  /**
   * The ky instance that makes the retries, made on first use: ky is loaded then (a bundler puts it
   * in a chunk of its own), so a site whose calls are answered at once never downloads it.
   */
  #retrier(): Promise<KyInstance> {
    this.#ky ??= import('ky').then(({ default: ky, isHTTPError }) =>
      ky.create({
        headers: this.#headers,
        timeout: this.#timeout,
        fetch: this.#fetch,
        // Every retry decision and every wait is retryDelay's, given to ky per call (shouldRetry and
        // delay): ky's own limit, status lists, jitter and caps only have to stay out of its way.
        retry: { limit: Number.POSITIVE_INFINITY },
        // No afterResponse hook: ky clones every response for one. Answers are logged and a 401 is
        // retried from #send and retryDelay instead; the logging hooks exist only with a logger.
        hooks: {
          beforeRequest: [
            (request, opts) => this.#authorize(request, opts),
            ...(this.#logger
              ? [
                  (request: KyRequest, opts: NormalizedOptions) =>
                    this.#logRequest(callOf(opts), request.method, request.url, request.headers),
                ]
              : []),
          ],
          beforeRetry: this.#logger
            ? [
                ({ request, options: opts, error, retryCount }) => {
                  const call = callOf(opts);
                  const answer = isHTTPError(error) ? error.response : undefined;
                  this.#logRetry(call, request.method, request.url, error, answer, retryCount + (call?.offset ?? 0));
                },
              ]
            : [],
        },
      }),
    );
    return this.#ky;
  }

  request<E extends Endpoint>(
    endpoint: E,
    params: ParamsOf<E> | Promise<ParamsOf<E>>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<E>> {
    return new APIPromise(this.#send(endpoint, params, options));
  }

  async #send<E extends Endpoint>(
    endpoint: E,
    params: unknown,
    options: RequestOptions = NONE,
  ): Promise<APIResponse<ResultOf<E>>> {
    // 1. Check, before anything is sent: the transport, the user token, the parameters.
    const method = endpoint.method;
    const getWithBody = method === 'GET' && endpoint.body !== undefined;
    if (getWithBody && !canSendGetWithBody()) {
      throw new UnsupportedRequestError(
        `${endpoint.title} sends its parameters in the JSON body of a GET, which this runtime's fetch cannot send (a browser): call it from a server (Node)`,
      );
    }
    if (params instanceof Promise) params = await params;
    // The entry says whether a bearer token is sent (not for the token endpoint nor SSO). A per-call
    // user token takes the place of the client's auth; given but empty, it is refused rather than
    // silently replaced by the client's own token.
    let userToken: string | undefined;
    if (endpoint.bearer && 'accessToken' in options) {
      userToken = options.accessToken;
      if (typeof userToken !== 'string' || userToken === '') {
        throw new RequestValidationError([issue('Parameter must be a non-empty string', 'accessToken')]);
      }
    }
    let json: unknown;
    let input: unknown;
    let url = urlOf(this.#hosts, endpoint, this.#environment);
    if (endpoint.body) input = json = this.#validate(endpoint.body, params);
    else if (endpoint.query) {
      input = this.#validate(endpoint.query, params ?? NONE);
      // The query goes into the URL here: ky's `searchParams` option would build a second Request.
      url = withQuery(url, input);
    }

    // 2. Send, with retries. Every retry decision is made in retryDelay, counted there once.
    const signal = options.signal;
    const call: CallState = {
      title: endpoint.title,
      method,
      // Fetch cannot carry a body on GET: such a request travels to the transport as a marked POST.
      wireMethod: getWithBody ? 'POST' : method,
      authenticate: endpoint.bearer && userToken === undefined,
      body: json,
      signal,
      retriable: method === 'GET' || options.retryWrite === true,
      maxRetries: options.maxRetries ?? this.#maxRetries,
      token: userToken,
      authRetried: false,
      attempts: 0,
      attemptStartedAt: 0,
      offset: 0,
      wait: 0,
    };
    const timeout = options.timeout ?? this.#timeout;
    let response: Response;
    try {
      response = await this.#exchange(call, url, json, options, timeout);
    } catch (error) {
      throw this.#toError(error, call, url, timeout);
    }
    if (!response.ok) {
      if (signal?.aborted) throw signal.reason;
      this.#logResponse(url, response, call);
      throw makeAPIError(response.status, await readBody(response), response.headers, Math.max(call.attempts, 1));
    }

    // 3. Read and check the answer.
    this.#logResponse(url, response, call);
    const correlationId = response.headers.get('x-correlation-id') ?? undefined;
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw signal?.aborted ? signal.reason : this.#connectionError(error, call, url);
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      if (this.#validateResponses) {
        throw new ResponseValidationError({
          endpoint: endpoint.title,
          status: response.status,
          correlationId,
          issues: [issue('The body is not JSON')],
        });
      }
      body = text;
    }
    if (!this.#validateResponses) return { data: body as ResultOf<E>, response, correlationId };
    const checked = parse(responseSchemaOf(endpoint, input), body);
    if (!checked.success) {
      throw new ResponseValidationError({
        endpoint: endpoint.title,
        status: response.status,
        correlationId,
        issues: checked.error.issues,
      });
    }
    return { data: checked.data as ResultOf<E>, response, correlationId };
  }

  /**
   * The attempts of a call, until one is answered 2xx or the retry rules stop: the answer of the
   * last attempt (outside 2xx when the retries ran out), or what failed before an answer.
   */
  async #exchange(
    call: CallState,
    url: string,
    json: unknown,
    options: RequestOptions,
    timeout: number,
  ): Promise<Response> {
    // A timeout no timer can hold is ky's to refuse, as it always has.
    if (typeof timeout !== 'number' || !(timeout <= MAX_SAFE_TIMEOUT))
      return this.#kyAttempts(call, url, json, options);
    // Headers and body are made before the attempt: when they cannot be (a header name fetch
    // refuses, a body JSON cannot hold), the call fails without a retry, as it does in ky.
    const headers =
      call.wireMethod !== call.method
        ? mergeHeaders(this.#headers, { ...options.headers, [GET_WITH_BODY]: '1' })
        : mergeHeaders(this.#headers, options.headers);
    let body: string | undefined;
    if (json !== undefined) {
      body = JSON.stringify(json);
      headers['content-type'] ??= 'application/json';
    }
    let answer: Response | undefined;
    let failure: unknown;
    try {
      answer = await this.#firstAttempt(call, url, headers, body, timeout);
      if (answer.ok) return answer;
    } catch (error) {
      failure = error;
    }
    const wait = this.#retryDelay(call, failure, answer, 1);
    if (wait === false) {
      if (answer) return answer;
      throw failure;
    }
    // ky loads while the call waits (a rejected load shows when the retry awaits it).
    this.#retrier().catch(() => undefined);
    await sleep(wait, call.signal);
    if (this.#logger) this.#logRetry(call, call.wireMethod, new URL(url).href, failure, answer, 1);
    call.offset = 1;
    return this.#kyAttempts(call, url, json, options);
  }

  /** One attempt straight through the transport, with the client's timeout and the caller's signal. */
  async #firstAttempt(
    call: CallState,
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    timeout: number,
  ): Promise<Response> {
    const token = await this.#beginAttempt(call);
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    if (this.#logger) this.#logRequest(call, call.wireMethod, new URL(url).href, new Headers(headers));
    // As ky does: an abort of its own on timeout, joined with the caller's signal.
    const controller = new AbortController();
    const signal = call.signal ? AbortSignal.any([call.signal, controller.signal]) : controller.signal;
    const init: RequestInit = { method: call.wireMethod, headers, body, signal };
    return new Promise<Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        controller.abort();
        reject(new AttemptTimeout(`${call.wireMethod} ${redact(url)} timed out after ${timeout} ms`));
      }, timeout);
      this.#fetch(url, init).then(
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

  /**
   * The rest of a call's attempts, on ky (all of them when `call.offset` is 0): its hooks count,
   * authorize and log each attempt; retryDelay decides each retry. An answer outside 2xx after the
   * last attempt is returned, not thrown.
   */
  async #kyAttempts(call: CallState, url: string, json: unknown, options: RequestOptions): Promise<Response> {
    const wireMethod = call.wireMethod;
    // Only the keys this call sets: ky merges every key given with the client's defaults.
    const kyOptions: KyOptions = {
      method: wireMethod,
      context: { call },
      retry: {
        methods: [wireMethod.toLowerCase()],
        shouldRetry: ({ error, retryCount }) => {
          // ky wraps what is not an Error (a caller's thrown object) in a NonError: the rules see the thrown value.
          const thrown = error.name === 'NonError' && 'value' in error ? error.value : error;
          const wait = this.#retryDelay(call, thrown, httpErrorResponse(error), retryCount + call.offset);
          if (wait === false) return false;
          call.wait = wait;
          return true;
        },
        delay: () => call.wait,
      },
    };
    if (json !== undefined) kyOptions.json = json;
    if (call.wireMethod !== call.method) kyOptions.headers = { ...options.headers, [GET_WITH_BODY]: '1' };
    else if (options.headers) kyOptions.headers = options.headers;
    if (call.signal) kyOptions.signal = call.signal;
    if (options.timeout !== undefined) kyOptions.timeout = options.timeout;
    try {
      return await (await this.#retrier())(url, kyOptions);
    } catch (error) {
      const answer = httpErrorResponse(error);
      if (answer) return answer;
      throw error;
    }
  }

  /**
   * Every retry rule, for both paths: the wait before retry number `retryCount` (1 for the first)
   * after an attempt answered `answer` or failed with `error`, in ms; `false` for no retry.
   *
   * Never retried: errors of the caller's code and the SDK's own, an aborted call, a 401 with a
   * token that cannot change. After a 401, one retry with a new token, at once, for writes too (a
   * 401 means nothing was processed), not counted against `maxRetries`. Reads (writes with
   * `retryWrite`) are retried on 408, 429, 500, 502, 503, 504, a timeout or a failure before an
   * answer, up to `maxRetries` times: after the `Retry-After` asked for (429, 503; failing at once
   * when it is over `maxRetryAfter`), or an exponential backoff with jitter capped by `retryDelay.max`.
   */
  #retryDelay(call: CallState, error: unknown, answer: Response | undefined, retryCount: number): number | false {
    if (error instanceof PlatformError || this.#callerErrors.has(error as object)) return false;
    if (call.signal?.aborted) return false;
    if (answer?.status === 401) return this.#retryWithNewToken(call) ? 0 : false;
    if (!call.retriable) return false;
    // The one retry with a new token after a 401 is not counted against maxRetries.
    if (retryCount - (call.authRetried ? 1 : 0) > call.maxRetries) return false;
    if (answer) {
      if (!RETRY_STATUSES.includes(answer.status)) return false;
      if (RETRY_AFTER_STATUSES.includes(answer.status) && retryAfterHeader(answer.headers)) {
        const after = retryAfterMs(answer.headers);
        // A wait it cannot read is maxRetryAfter (ky's reading); a longer wait than allowed fails now.
        if (after === undefined) return this.#maxRetryAfter;
        return after > this.#maxRetryAfter ? false : after;
      }
    }
    const backoff = this.#initialDelay * 2 ** (retryCount - 1);
    const jittered = backoff * (1 - Math.random() * 0.25);
    return Math.min(this.#maxDelay, Number.isFinite(jittered) && jittered >= 0 ? jittered : backoff);
  }

  #validate(schema: z.ZodType, input: unknown): unknown {
    const result = parse(schema, input);
    if (!result.success) throw new RequestValidationError(result.error.issues);
    return result.data;
  }

  /** What a call rejects with when no answer came: the caller's error or reason as they are, else a connection error. */
  #toError(error: unknown, call: CallState, url: string, timeout: number): unknown {
    if (error instanceof PlatformError || (typeof error === 'object' && error && this.#callerErrors.has(error))) {
      return error;
    }
    if (call.signal?.aborted) return call.signal.reason;
    const attempts = Math.max(call.attempts, 1);
    const mapped = isTimeout(error)
      ? new APITimeoutError(
          `${call.method} ${redact(url)} got no answer within ${timeout} ms (${plural(attempts, 'attempt')})`,
          { cause: error, attempts },
        )
      : this.#connectionError(error, call, url);
    this.#log('error', mapped.message, {
      method: call.method,
      url,
      endpoint: call.title,
      error: mapped.name,
      attempts,
    });
    return mapped;
  }

  /** A failure without an answer: the method, the URL without secrets, the cause and the attempts. */
  #connectionError(error: unknown, call: CallState, url: string): APIConnectionError {
    const attempts = Math.max(call.attempts, 1);
    const causeCode = causeCodeOf(error);
    const cause = causeCode ?? (error instanceof Error ? error.message : 'connection failed');
    return new APIConnectionError(
      `${call.method} ${redact(url)} failed after ${plural(attempts, 'attempt')}: ${cause}`,
      { cause: error, attempts, causeCode },
    );
  }

  /**
   * Counts an attempt and gives the bearer token it sends: the client's (asked for on every
   * attempt, so a refused one is replaced), the call's own, or none.
   */
  async #beginAttempt(call: CallState): Promise<string | undefined> {
    call.attempts += 1;
    call.attemptStartedAt = performance.now();
    if (!call.authenticate) return call.token;
    let token: string;
    try {
      token = await this.#auth.token();
    } catch (error) {
      if (!(error instanceof PlatformError) && typeof error === 'object' && error) this.#callerErrors.add(error);
      throw error;
    }
    call.token = token;
    return token;
  }

  /** ky's beforeRequest hook: an attempt begins, with its token. */
  async #authorize(request: KyRequest, options: NormalizedOptions): Promise<void> {
    const call = callOf(options);
    if (!call) return;
    const token = await this.#beginAttempt(call);
    if (token !== undefined) request.headers.set('authorization', `Bearer ${token}`);
  }

  #logRequest(call: CallState | undefined, wireMethod: string, url: string, headers: Headers): void {
    // The marker of a GET with a body is the transport's business; it never reaches the wire, nor the log.
    if (headers.has(GET_WITH_BODY)) {
      headers = new Headers(headers);
      headers.delete(GET_WITH_BODY);
    }
    const method = call?.method ?? wireMethod;
    this.#log('debug', `${method} ${url}`, {
      method,
      url,
      endpoint: call?.title,
      attempt: call?.attempts,
      headers,
      body: call?.body,
    });
  }

  /**
   * After a 401, one retry with a new token (a 401 means nothing was processed, so writes too); the
   * refused token is forgotten first. A fixed token is not retried: it would be refused again.
   */
  #retryWithNewToken(call: CallState): boolean {
    if (!call.authenticate || !this.#auth.refreshable || call.authRetried) return false;
    if (call.token !== undefined) this.#auth.invalidate(call.token);
    call.authRetried = true;
    return true;
  }

  /** Logs an answer: debug for 2xx, warn for the others. */
  #logResponse(url: string, response: Response, call: CallState): void {
    if (!this.#logger) return;
    this.#log(response.ok ? 'debug' : 'warn', `${call.method} ${url} ${response.status}`, {
      method: call.method,
      url,
      endpoint: call.title,
      status: response.status,
      durationMs: elapsed(call.attemptStartedAt),
      attempt: call.attempts,
      correlationId: response.headers.get('x-correlation-id') ?? undefined,
    });
  }

  /** Logs a retry about to be made, with the reason of the failure before it. */
  #logRetry(
    call: CallState | undefined,
    wireMethod: string,
    url: string,
    error: unknown,
    answer: Response | undefined,
    retryCount: number,
  ): void {
    const reason = !answer
      ? isTimeout(error)
        ? 'timeout'
        : 'connection error'
      : answer.status === 401
        ? 'token refused (401), retrying with a new token'
        : `status ${answer.status}`;
    const method = call?.method ?? wireMethod;
    this.#log('info', `${method} ${url} retry ${retryCount}: ${reason}`, {
      method,
      url,
      endpoint: call?.title,
      retryCount,
      reason,
    });
  }

  #log(level: keyof Logger, message: string, meta: Record<string, unknown>): void {
    if (!this.#logger) return;
    this.#logger[level](redact(message), redact(meta));
  }
}

/**
 * A typed client of the platform's external API, for one environment.
 *
 * ```ts
 * const client = new PlatformClient({
 *   environment: 'production',
 *   hosts: { api: 'https://api.example.com', auth: 'https://auth.example.com' },
 *   auth: { clientId, clientSecret, scopes: ['/external/product/r'] },
 * });
 * const { items } = await client.products.list({ product_type: 'packages' });
 * ```
 *
 * Every method checks its input before sending (a {@link RequestValidationError}), retries reads
 * on network errors, 408, 429 and 5xx with backoff and jitter, honours `Retry-After` up to
 * `maxRetryAfter`, and throws an `APIError` subclass for each status family.
 */
export class PlatformClient {
  /** Products, packages and campaigns: endpoints 2, 3 and 15. */
  readonly products: Products;
  /** Prices of packages and campaigns: endpoint 1. */
  readonly prices: Prices;
  /** Order validation and gift receivers: endpoints 9 and 17. */
  readonly orders: Orders;
  /** Tickets and user tokens on the authorization API: endpoints 22 and 23. */
  readonly authorization: Authorization;
  /** The signed-in user, read with the user's token: endpoint 24, and the documented me API (beyond the spec). */
  readonly me: Me;
  /** Accounts' active products (beyond the spec: the account API). */
  readonly accounts: Accounts;
  /** The organisation's titles (beyond the spec: the titles API). */
  readonly titles: Titles;
  /** The SSO session service: endpoint 21, and identify, sessions, login and logout (beyond the spec). Needs the `credentials` and `sso` options. */
  readonly sso: Sso;
  /** The shop: endpoint 25. Needs `hosts.shop`. */
  readonly shop: Shop;
  /** The way back from the shop (spec: "Return flow"), over `authorization` and `me`. */
  readonly signOn: SignOn;
  /** User-products of this client's provision service: endpoints 13 and 12. */
  readonly userProducts: UserProducts;
  /** Subscriptions between accounts: endpoint 5. */
  readonly subscriptions: Subscriptions;
  /** The subscription system: reactivation (16) and the external system's sync and distribution (18, 19, 20). */
  readonly subscriptionSystem: SubscriptionSystem;
  /** Change-log entries on accounts, and their categories: endpoint 4. */
  readonly accountChangeLog: AccountChangeLog;
  /** The helpdesk's reads: endpoints 8, 10 and 11. */
  readonly helpdesk: Helpdesk;
  /** Cancellation reasons: endpoint 14. */
  readonly cancellationReasons: CancellationReasons;
  /** Retention for the signed-in user: endpoints 6 and 7. */
  readonly meRetention: MeRetention;
  /** The environment this client talks to. */
  readonly environment: Environment;

  readonly #pipeline: Pipeline;

  /**
   * Creates a client; nothing is sent until the first call.
   * @throws {@link ClientConfigurationError} at once, naming the option, when an option is wrong
   */
  constructor(options: PlatformClientOptions) {
    const settings = parseOptions(options);
    const pipeline = new Pipeline(settings);
    this.#pipeline = pipeline;
    const { auth } = settings;
    const credentials =
      settings.credentials ??
      ('clientId' in auth ? { clientId: auth.clientId, clientSecret: auth.clientSecret } : undefined);
    this.environment = settings.environment;
    this.products = new Products(pipeline);
    this.prices = new Prices(pipeline);
    this.orders = new Orders(pipeline);
    this.authorization = new Authorization(pipeline, credentials);
    this.me = new Me(pipeline);
    this.accounts = new Accounts(pipeline);
    this.titles = new Titles(pipeline);
    this.sso = new Sso(pipeline, {
      credentials,
      sso: settings.sso,
      hosts: settings.hosts,
      environment: settings.environment,
    });
    this.shop = new Shop(settings.hosts.shop);
    this.signOn = new SignOn(this.authorization, this.me, credentials !== undefined);
    this.userProducts = new UserProducts(pipeline);
    this.subscriptions = new Subscriptions(pipeline);
    this.subscriptionSystem = new SubscriptionSystem(pipeline);
    this.accountChangeLog = new AccountChangeLog(pipeline);
    this.helpdesk = new Helpdesk(pipeline);
    this.cancellationReasons = new CancellationReasons(pipeline);
    this.meRetention = new MeRetention(pipeline);
  }

  /**
   * A request to a path the SDK does not wrap, through the same pipeline as every method: the
   * client's auth (unless `bearer: false`), timeout, abort, retries of reads, logging with secrets
   * redacted, and errors by status. The answer is checked against `schema` when one is given, and
   * typed by it.
   *
   * ```ts
   * const Titles = z.object({ items: z.array(z.object({ code: z.string(), name: z.string() })) });
   * const { items } = await client.request({ method: 'GET', path: '/external/api/v1/titles/', schema: Titles });
   * ```
   */
  request<S extends z.ZodType = z.ZodType<unknown>>(
    params: RawRequestParams<S>,
    options?: RequestOptions,
  ): APIPromise<z.output<S>> {
    const path = params?.path;
    if (typeof path !== 'string' || !/^\/(?!\/)[^?#]*$/.test(path)) {
      const refused = new RequestValidationError([
        issue('Parameter must be a path starting with / (the query goes in query)', 'path'),
      ]);
      return new APIPromise(Promise.reject(refused));
    }
    const endpoint: Endpoint = {
      number: 0,
      title: `${params.method} ${path}`,
      method: params.method as Endpoint['method'],
      host: params.host ?? 'api',
      path,
      scopes: [],
      identity: false,
      bearer: params.bearer ?? true,
      query: params.body === undefined ? RawQuery : undefined,
      body: params.body === undefined ? undefined : z.unknown(),
      response: params.schema ?? z.unknown(),
      status: 200,
    };
    if (params.body !== undefined && params.query !== undefined) {
      (endpoint as { path: string }).path = withQuery(path, RawQuery.parse(params.query));
    }
    return this.#pipeline.request(endpoint, (params.body ?? params.query ?? {}) as never, options) as APIPromise<
      z.output<S>
    >;
  }
}
