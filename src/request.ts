/**
 * What a call is: its parameters and options, the parameters and result an entry of the table
 * types, and the `Requester` that resources send through. Kept apart from the client, which the
 * resources and the pipeline would otherwise import back.
 */
import type * as z from 'zod';
import type { APIPromise } from './api-promise.js';
import type { Endpoint, Host, ResponseByKey } from './endpoints.js';

/** The parameters of `PlatformClient.request`: a request to a path the SDK does not wrap. */
export interface RawRequestParams<S extends z.ZodType = z.ZodType<unknown>> {
  /** The HTTP method. A `GET` with a `body` is sent as endpoint 6 is (Node only). */
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /**
   * The path on the host, starting with `/`, e.g. `/external/api/v1/titles/`; no query (see
   * `query`), and no `.` or `..` segment (nor `%2e`), which would take the request out of the host's
   * base path.
   */
  path: string;
  /** Which of the client's hosts. Default `api`. */
  host?: Host;
  /** Query parameters; `undefined` values are left out. */
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  /**
   * A JSON body: a value `JSON.stringify` can write. One it cannot (a BigInt, a circular reference)
   * is refused before anything is sent, a `RequestValidationError` naming `body`.
   */
  body?: unknown;
  /** A zod schema the answer is checked against; its output types the result. Default: the answer as is. */
  schema?: S;
  /** Whether to send the client's bearer token (or `accessToken`). Default `true`. */
  bearer?: boolean;
}

/**
 * A call's headers, as fetch takes them: an object, a list of pairs, a `Map` or a `Headers`. Each
 * wins over the client's header of the same name; a value `undefined` takes the header out (the
 * client's own included), as in ky.
 */
export type RequestHeaders =
  | Readonly<Record<string, string | undefined>>
  | Iterable<readonly [string, string | undefined]>
  | Headers;

/**
 * Options of one call; each overrides the client's option of the same name, and is checked by its
 * rules before anything is sent (a `RequestValidationError` naming it). A key that is none of them
 * (a typo: `timout`) is refused the same way, `unknown_parameter` naming it.
 */
export interface RequestOptions {
  /**
   * Aborts the call at any point: while it waits for the client's token (the token request goes on
   * for the other calls), during an attempt, or in the wait before a retry; one aborted already when
   * the call starts sends nothing (not even a request for the client's token). The call rejects at
   * once with the signal's reason (an `AbortError` by default), even through a `fetch` option that
   * ignores the signal (its answer's body is cancelled). An `AbortSignal` of this realm (fetch
   * takes no other); `null` is none, as in a `RequestInit`.
   */
  signal?: AbortSignal | null;
  /**
   * Time allowed for each attempt, in ms. The wait for the client's token is not counted: the token
   * request has the client's own `timeout` and retries (see `PlatformClientOptions.timeout`).
   */
  timeout?: number;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /**
   * Retry a write (POST, PUT) like a read. Only when repeating it is harmless: the platform has no
   * idempotency key, so a write whose answer was lost may be applied twice.
   */
  retryWrite?: boolean;
  /** Headers for this call, over the client's: see {@link RequestHeaders} (`accept` and `content-type` stay the SDK's). */
  headers?: RequestHeaders;
  /**
   * A user's access token for this call (e.g. ticket generation for the user, endpoint 22 form b):
   * sent instead of the client's `auth`, and never refreshed, so a 401 is final. When the key is
   * given its value must be a non-empty string, and a call for the signed-in user (`me`,
   * `meRetention`) needs it (a `RequestValidationError` before sending otherwise): an absent user
   * token never silently falls back to the client's own.
   */
  accessToken?: string;
}

/** The parameters of an endpoint's method: its body when it has one, else its query. */
export type ParamsOf<E extends Endpoint> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : E['query'] extends z.ZodType
    ? z.input<E['query']>
    : undefined;

/**
 * The result of an endpoint's method for the parameters `P`: its response schema's output, or,
 * where the answer's form depends on a key of the input (`responseBy`, endpoint 14), the form for
 * `P`: with the key given, `present`; without it, `absent`; when `P` may go either way (the key
 * optional, or an index signature's), either.
 */
export type ResultOf<E extends Endpoint, P = ParamsOf<E>> = E extends {
  readonly responseBy: ResponseByKey<infer K, infer Present, infer Absent>;
}
  ? K extends keyof P
    ? P[K] extends undefined
      ? z.output<Absent>
      : // `P` may go without `K`: a key of an index signature (`Record<string, ...>`), an optional
        // key, or one that takes `undefined`.
        string extends keyof P
        ? z.output<Present> | z.output<Absent>
        : object extends Pick<P, K>
          ? z.output<Present> | z.output<Absent>
          : undefined extends P[K]
            ? z.output<Present> | z.output<Absent>
            : z.output<Present>
    : z.output<Absent>
  : z.output<E['response']>;

/** Sends an endpoint's request; what resources are given. */
export interface Requester {
  /**
   * Validates `params`, sends the request, validates and returns the answer. `params` may be a
   * promise (a signed body): when it rejects, nothing is sent and the call rejects with its reason.
   */
  request<E extends Endpoint, P extends ParamsOf<E>>(
    endpoint: E,
    params: P | Promise<P>,
    options?: RequestOptions,
  ): APIPromise<ResultOf<E, P>>;
}
