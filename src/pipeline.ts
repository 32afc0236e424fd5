/**
 * The request pipeline of one client, in named steps: a call is checked before anything is sent
 * (the runtime, the user token, the parameters against the entry's schema), sent through its
 * attempts (`src/attempts.ts`: auth, timeout, abort, retries, logging, the answer's body read
 * whole, no redirect followed), and its answer read: an answer outside 2xx becomes an `APIError`
 * (without the secrets the request carried, should the answer quote them: `src/quoted-secrets.ts`),
 * a 2xx is checked against the entry's schema.
 */
import * as z from 'zod';
import { type CompiledCheck, compiledCheckOf } from './answer-checks.js';
import { APIPromise, type APIResponse } from './api-promise.js';
import { Attempts, Call, type CallRules, type Outgoing } from './attempts.js';
import { type TokenSource, tokenSource } from './auth.js';
import { accessToken, type Endpoint, type Environment, pathOf, responseSchemaOf } from './endpoints.js';
import {
  APIError,
  makeAPIError,
  PlatformError,
  RequestValidationError,
  ResponseValidationError,
  UnsupportedRequestError,
  type ValidationIssue,
} from './errors.js';
import { CallLog, redact } from './logger.js';
import { CallOptions, type ClientSettings, type Hosts } from './options.js';
import { headersWithoutSecrets, withoutSecrets } from './quoted-secrets.js';
import type { ParamsOf, RawRequestParams, Requester, RequestOptions, ResultOf } from './request.js';
import { platformErrorMap } from './schemas/common.js';
import { canSendGetWithBody, transport } from './transport.js';
import { fillPath, hostUrl, isRawPath, urlOf, withQuery } from './url.js';

/** A call ready to send: what goes out, whether it carries a bearer token, and its answer's schema. */
interface Prepared<T> extends Outgoing {
  /** Whether the request carries `Authorization: Bearer` (the client's token, or the call's). */
  readonly bearer: boolean;
  /** The schema the answer is read with. */
  readonly schema: z.ZodType<T>;
}

/** The options of a call given none: one object, shared. */
const NO_OPTIONS: RequestOptions = {};

/** The query of a call given none. */
const NO_QUERY = {};

/** The schema of an answer read as it is. */
export const ANY_ANSWER = z.unknown();

/** The query of a raw request: names to text, numbers or booleans. */
const RawQuery = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).optional());

/**
 * The parameters of a raw request, each named: its method, one of the client's hosts, its bearer
 * and its schema checked here (its path and query by rules of their own). A key that is none of
 * them (`json` for `body`, a typo) is refused, as every method refuses one, rather than left out.
 */
const RawTarget = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']),
  path: z.string(),
  host: z.enum(['api', 'auth', 'sso', 'shop']).optional(),
  query: z.unknown().optional(),
  body: z.unknown().optional(),
  // Any zod schema, of this copy of zod or the caller's own: what the answer is read with.
  schema: z
    .custom<z.ZodType>(
      (value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function',
      'Parameter must be a zod schema',
    )
    .optional(),
  bearer: z.boolean().optional(),
});

/**
 * `schema.safeParse`, with the platform's wording of issues. The error map costs a few
 * microseconds even when nothing is wrong, so it is applied only to a failed parse.
 */
function parse<T>(schema: z.ZodType<T>, input: unknown): z.ZodSafeParseResult<T> {
  const result = schema.safeParse(input);
  return result.success ? result : schema.safeParse(input, { error: platformErrorMap });
}

/** Checks `input` against `schema`: its output, or a {@link RequestValidationError} before anything is sent. */
function validate(schema: z.ZodType, input: unknown): unknown {
  const result = parse(schema, input);
  if (!result.success) throw new RequestValidationError(result.error.issues);
  return result.data;
}

function issue(message: string, field?: string): ValidationIssue {
  return { code: 'custom', path: field ? [field] : [], message, input: undefined };
}

/** Refuses at once a GET with a JSON body (endpoint 6) where this runtime cannot send one (a browser). */
function refuseGetWithBody(title: string, getWithBody: boolean): void {
  if (getWithBody && !canSendGetWithBody())
    throw new UnsupportedRequestError(
      `${title} sends its parameters in the JSON body of a GET, which this runtime's fetch cannot send (a browser): call it from a server (Node)`,
    );
}

/**
 * The call's own token, when the request carries a bearer token and the options give one: it takes
 * the place of the client's auth. Given but empty (or white space), or not given to an endpoint that
 * needs a user (`identity`), it is refused rather than silently replaced by the client's own token.
 */
function userTokenOf(bearer: boolean, identity: boolean, options: RequestOptions): string | undefined {
  if (!bearer || !(identity || 'accessToken' in options)) return undefined;
  const token = options.accessToken;
  if (typeof token !== 'string' || token.trim() === '')
    throw new RequestValidationError([
      issue(
        token === undefined && identity
          ? "Parameter is required (the user's access token; the client's own is never sent in its place)"
          : 'Parameter must be a non-empty string',
        'accessToken',
      ),
    ]);
  return token;
}

/**
 * Refuses a call's options that break the rules of the client's options of the same names, or that
 * it does not know (a typo: `timout`, as the client refuses `timeOut`), naming the option; a call
 * given none (the shared empty object) costs nothing.
 */
function checkOptions(options: RequestOptions): void {
  if (options === NO_OPTIONS) return;
  const result = CallOptions.safeParse(options);
  if (!result.success)
    throw new RequestValidationError(
      result.error.issues.map((i) =>
        i.path.length || i.code === 'unrecognized_keys' ? i : { ...i, path: ['options'] },
      ),
    );
}

/** The request pipeline of one client; what its resources are given. */
export class Pipeline implements Requester {
  readonly #environment: Environment;
  readonly #hosts: Hosts;
  readonly #timeout: number;
  readonly #maxRetries: number;
  readonly #validateResponses: boolean;
  readonly #log: CallLog | undefined;
  readonly #attempts: Attempts;
  /** Where the bearer token of each request comes from (`client.accessToken()` reads it). */
  readonly auth: TokenSource;

  /** The pipeline of a client with these (checked) options. */
  constructor(settings: ClientSettings) {
    this.#environment = settings.environment;
    this.#hosts = settings.hosts;
    this.#timeout = settings.timeout;
    this.#maxRetries = settings.maxRetries;
    this.#validateResponses = settings.validateResponses;
    this.#log = settings.logger ? new CallLog(settings.logger) : undefined;
    this.auth = tokenSource(settings.auth, (body) =>
      // Asking for a token again is harmless: the grant is retried like a read.
      this.#send(accessToken, body, { retryWrite: true }).then(
        (r) => r.data,
        (error: unknown) => {
          throw this.#tokenRequestFailed(error);
        },
      ),
    );
    this.#attempts = new Attempts({
      fetch: transport(settings.fetch),
      // Node's own fetch only (not a browser's, nor a caller's): see AttemptSettings.lazyAbort.
      lazyAbort: settings.fetch === undefined && canSendGetWithBody(),
      auth: this.auth,
      headers: { ...settings.headers, accept: 'application/json' },
      delays: { ...settings.retryDelay, maxRetryAfter: settings.maxRetryAfter },
      log: this.#log,
    });
  }

  /**
   * A failure of the client's token request, as the calls waiting for the token reject with it: of
   * its own class with its own fields (a refused grant is the auth host's `APIError`, `switch`ed on
   * like any other), its message saying that it is the token request that failed and that the call
   * was not sent, with the request's method and URL when the failure does not name them (a refusal).
   */
  #tokenRequestFailed(error: unknown): unknown {
    if (!(error instanceof PlatformError)) return error;
    let what = "The client's token request";
    if (error instanceof APIError) {
      const url = urlOf(this.#hosts, accessToken, this.#environment);
      what += ` (POST ${redact(url)}) was answered ${error.status}`;
    } else what += ' failed';
    const message = `${what}, so the call was not sent: ${error.message}`;
    // The stack's first line repeats the message, when it has been made already.
    const head = `${error.name}: ${error.message}`;
    if (typeof error.stack === 'string' && error.stack.startsWith(head))
      error.stack = `${error.name}: ${message}${error.stack.slice(head.length)}`;
    error.message = message;
    return error;
  }

  /** Checks `params` against the entry, sends the call and reads its answer (see {@link Requester.request}). */
  request<E extends Endpoint, P extends ParamsOf<E>>(
    endpoint: E,
    params: P | Promise<P>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<E, P>> {
    return new APIPromise(this.#send(endpoint, params, options));
  }

  /** A request to a path the SDK does not wrap ({@link PlatformClient.request}), its answer read with `schema`. */
  requestRaw<T>(params: RawRequestParams, schema: z.ZodType<T>, options?: RequestOptions): APIPromise<T> {
    return new APIPromise(this.#sendRaw(params, schema, options));
  }

  async #send<E extends Endpoint, P extends ParamsOf<E>>(
    endpoint: E,
    params: P | Promise<P>,
    options: RequestOptions = NO_OPTIONS,
  ): Promise<APIResponse<ResultOf<E, P>>> {
    refuseGetWithBody(endpoint.title, endpoint.method === 'GET' && endpoint.body !== undefined);
    // Awaited first: a promise of parameters that rejects is never left unhandled.
    const input = params instanceof Promise ? await params : params;
    checkOptions(options);
    const token = userTokenOf(endpoint.bearer, endpoint.identity, options);
    return this.#call(this.#fromEntry(endpoint, input), options, token);
  }

  /** What an entry of the table sends for `params`: checked against its body or query schema. */
  #fromEntry<E extends Endpoint, P extends ParamsOf<E>>(endpoint: E, params: P): Prepared<ResultOf<E, P>> {
    const { title, method, bearer } = endpoint;
    let json: unknown;
    let input: unknown;
    if (endpoint.body) {
      // As the platform refuses a body that is not an object, naming it: not a type issue of no field.
      if (typeof params !== 'object' || params === null || Array.isArray(params))
        throw new RequestValidationError([issue('Body must be a JSON object', 'body')]);
      input = validate(endpoint.body, params);
    } else if (endpoint.query) input = validate(endpoint.query, params ?? NO_QUERY);
    // A `{name}` of the path takes the checked member of that name out of the query or the body.
    const { path, rest } = fillPath(pathOf(endpoint, this.#environment), input);
    let url = hostUrl(this.#hosts, endpoint.host) + path;
    if (endpoint.body) json = rest;
    // The query goes into the URL here: ky's `searchParams` option would build a second Request.
    else if (endpoint.query) url = withQuery(url, rest);
    // The entry's schemas type its answer (ResultOf): the one place the compiler takes the table's word for it.
    const schema = responseSchemaOf(endpoint, input) as z.ZodType<ResultOf<E, P>>;
    return { title, method, url, json, bearer, schema };
  }

  async #sendRaw<T>(
    params: RawRequestParams,
    schema: z.ZodType<T>,
    options: RequestOptions = NO_OPTIONS,
  ): Promise<APIResponse<T>> {
    checkOptions(options);
    const path = params?.path;
    if (typeof path !== 'string' || !isRawPath(path))
      throw new RequestValidationError([
        issue('Parameter must be a path starting with /, without . or .. segments (the query goes in query)', 'path'),
      ]);
    validate(RawTarget, params);
    const { method, body: json } = params;
    const title = `${method} ${path}`;
    refuseGetWithBody(title, method === 'GET' && json !== undefined);
    const bearer = params.bearer ?? true;
    const token = userTokenOf(bearer, false, options);
    const query = validate(RawQuery, params.query ?? NO_QUERY);
    const url = withQuery(hostUrl(this.#hosts, params.host ?? 'api') + path, query);
    return this.#call({ title, method, url, json, bearer, schema }, options, token);
  }

  /** Sends a prepared call through its attempts and reads its answer. */
  async #call<T>(prepared: Prepared<T>, options: RequestOptions, token: string | undefined): Promise<APIResponse<T>> {
    const rules: CallRules = {
      timeout: options.timeout ?? this.#timeout,
      maxRetries: options.maxRetries ?? this.#maxRetries,
      retriable: prepared.method === 'GET' || options.retryWrite === true,
      signal: options.signal ?? undefined,
      authenticate: prepared.bearer && token === undefined,
      token,
    };
    const call = new Call(prepared, rules);
    // A hot answer's compiled check, loading (the first time) while the call waits for its answer.
    const compiled = this.#validateResponses ? compiledCheckOf(prepared.schema) : undefined;
    let response: Response;
    try {
      response = await this.#attempts.send(call, options.headers);
    } catch (error) {
      throw this.#attempts.failure(call, error);
    }
    if (!response.ok) throw this.#refusal(call, response);
    return this.#answer(call, prepared.schema, response, compiled instanceof Promise ? await compiled : compiled);
  }

  /**
   * An answer outside 2xx: its `APIError`, without the secrets the request carried in its body or
   * its headers (the caller's reason when the call was aborted meanwhile).
   */
  #refusal(call: Call, response: Response): unknown {
    if (call.signal?.aborted) return call.signal.reason;
    this.#log?.answer(call, response);
    // And what the logger redacts (secret members, what looks like a credential): the message and
    // body of the error, which makeAPIError takes from it, quote no secret.
    const unquote = call.unquoter();
    const body = redact(withoutSecrets(call.answerText, unquote));
    const headers = headersWithoutSecrets(response.headers, unquote);
    return makeAPIError(response.status, body, headers, Math.max(call.attempts, 1));
  }

  /**
   * A 2xx answer: its body (read whole by its attempt, within the timeout) parsed as JSON and checked
   * against `schema` (unless `validateResponses` is off), by its compiled check when it has one.
   */
  #answer<T>(
    call: Call,
    schema: z.ZodType<T>,
    response: Response,
    compiled: CompiledCheck | undefined,
  ): APIResponse<T> {
    this.#log?.answer(call, response);
    const correlationId = response.headers.get('x-correlation-id') ?? undefined;
    const invalid = (issues: readonly ValidationIssue[]) =>
      new ResponseValidationError({
        endpoint: call.title,
        status: response.status,
        correlationId,
        issues,
        attempts: Math.max(call.attempts, 1),
      });
    const text = call.answerText;
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      if (this.#validateResponses) throw invalid([issue('The body is not JSON')]);
      body = text;
    }
    // Unchecked, the answer is taken to be what the entry says it is.
    if (!this.#validateResponses) return { data: body as T, response, correlationId };
    // A hot answer's compiled check decides as zod does, faster; zod words what it refuses.
    if (compiled?.(body)) return { data: body as T, response, correlationId };
    const checked = parse(schema, body);
    if (!checked.success) throw invalid(checked.error.issues);
    return { data: checked.data, response, correlationId };
  }
}
