/**
 * Every error the SDK throws is a {@link PlatformError}. API answers outside 2xx become an
 * {@link APIError} subclass chosen by status in one place (`makeAPIError`); failures before an
 * answer are {@link APIConnectionError} or {@link APITimeoutError}; an answer the SDK does not read
 * is a {@link RedirectNotFollowedError} (a redirect) or a {@link ResponseTooLargeError}; input
 * refused before anything is sent is a {@link RequestValidationError}; an answer outside its schema
 * is a {@link ResponseValidationError}. The sign-on helpers' errors (`SignOnError` and its
 * subclasses) are `PlatformError`s too. No message carries a token, ticket, secret or password:
 * not even one an answer quotes back (the pipeline redacts it before `makeAPIError`).
 */
import type * as z from 'zod';
import { nameErrorClass, PlatformError } from './platform-error.js';
import { ErrorBody, type ErrorCode, fieldOf, primaryIssue } from './schemas/common.js';

export { PlatformError };

/** What an {@link APIError} is made of; `S` is the status its class stands for. */
export interface APIErrorInit<S extends number = number> {
  /** HTTP status of the answer. */
  status: S;
  /** Readable message: the platform's `message`, or a generic one when the body has none. */
  message: string;
  /** The spec's error `code`, e.g. `invalid_parameter`, `not_found`. */
  code?: string | undefined;
  /** The spec's `field`: the offending field, e.g. `price_periods[0].payment_option`. */
  field?: string | undefined;
  /** The request's correlation id (`x-correlation-id` header or `api_correlation_id` in the body). */
  correlationId?: string | undefined;
  /** Headers of the answer. */
  headers: Headers;
  /** The parsed error body (JSON), or its text when it is not JSON, or `undefined` when empty. */
  body: unknown;
  /** How many attempts were made, this one included (1 when the call was not retried). */
  attempts?: number | undefined;
}

/**
 * The platform answered with a status outside 2xx. `switch (err.code)` on the spec's code;
 * `err.message` is the platform's own message. Each subclass stands for one status (`S`), typed as
 * its literal: `NotFoundError`'s `status` is `404`.
 */
export class APIError<S extends number = number> extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'APIError');
  }

  override name = 'APIError';
  /** HTTP status of the answer. */
  readonly status: S;
  /**
   * The spec's error `code`, e.g. `invalid_parameter`; `undefined` when the body carries none. Typed
   * as the codes the platform is known to answer, open to new ones, so `switch (err.code)` autocompletes.
   */
  readonly code: ErrorCode | undefined;
  /**
   * The spec's `field`, naming the offending field: `unspecified_field` when none is at fault (a
   * missing scope, a wrong client secret); `undefined` when the body carries none (a proxy's answer).
   */
  readonly field: string | undefined;
  /** The request's correlation id, for support requests; `undefined` if the platform sent none. */
  readonly correlationId: string | undefined;
  /**
   * Headers of the answer, without the secrets the request carried should a value quote them (a
   * `WWW-Authenticate` naming the refused token); a header of a secret name (`set-cookie`) is
   * `[REDACTED]`.
   */
  readonly headers: Headers;
  /** The parsed error body (JSON), its text when not JSON, or `undefined` when empty. */
  readonly body: unknown;
  /** How many attempts were made, the last (this answer) included: 1 when the call was not retried. */
  readonly attempts: number;

  /** Builds the error; the SDK picks the subclass for the status. */
  constructor(init: APIErrorInit<S>) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.field = init.field;
    this.correlationId = init.correlationId;
    this.headers = init.headers;
    this.body = init.body;
    this.attempts = init.attempts ?? 1;
  }
}

/** 400: a parameter was refused (`invalid_parameter`, `unknown_parameter`, `json_parser_error`, ...). */
export class BadRequestError extends APIError<400> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'BadRequestError');
  }

  override name = 'BadRequestError';
}
/** 401: the access token (or, on the token endpoint, the client credentials or ticket) was refused. */
export class AuthenticationError extends APIError<401> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'AuthenticationError');
  }

  override name = 'AuthenticationError';
}
/** 403: the token lacks a scope or identity, or the record is not the caller's (`not_product_owner`). */
export class PermissionDeniedError extends APIError<403> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'PermissionDeniedError');
  }

  override name = 'PermissionDeniedError';
}
/** 404: the record is absent (`not_found`, `does_not_exist`, `account_not_found`). */
export class NotFoundError extends APIError<404> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'NotFoundError');
  }

  override name = 'NotFoundError';
}
/** 409: the record is not in a state that allows the operation (e.g. `invalid_state`). */
export class ConflictError extends APIError<409> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'ConflictError');
  }

  override name = 'ConflictError';
}
/** 422: the request was understood but cannot be processed. */
export class UnprocessableEntityError extends APIError<422> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'UnprocessableEntityError');
  }

  override name = 'UnprocessableEntityError';
}
/** 429: too many requests; see the `retry-after` header in {@link APIError.headers}. */
export class RateLimitError extends APIError<429> {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'RateLimitError');
  }

  override name = 'RateLimitError';
}
/** 500 and above: the platform failed (`internal_server_error`). */
export class InternalServerError extends APIError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'InternalServerError');
  }

  override name = 'InternalServerError';
}

/** Options of an {@link APIConnectionError}. */
export interface APIConnectionErrorOptions {
  /** The underlying failure (fetch's `TypeError`, a socket error). */
  cause?: unknown;
  /** How many attempts were made. Default 1. */
  attempts?: number;
  /** The failure's system code when there is one: `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`... */
  causeCode?: string | undefined;
}

/**
 * No answer was received: DNS, connection refused or reset, TLS, a dropped connection. The message
 * names the method, the URL (secrets redacted), the cause and the number of attempts.
 */
export class APIConnectionError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'APIConnectionError');
  }

  override name = 'APIConnectionError';
  /** How many attempts were made, every one without an answer. */
  readonly attempts: number;
  /** The failure's system code when there is one: `ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`... */
  readonly causeCode: string | undefined;
  /** Builds the error; `cause` is the underlying failure. */
  constructor(message = 'Connection error.', options: APIConnectionErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.attempts = options.attempts ?? 1;
    this.causeCode = options.causeCode;
  }
}

/**
 * No whole answer arrived within the `timeout` (per attempt, after every retry allowed): its status
 * and headers, or the rest of its body, were still to come when the attempt's time ran out. The
 * timeout covers each attempt whole, the body read included.
 */
export class APITimeoutError extends APIConnectionError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'APITimeoutError');
  }

  override name = 'APITimeoutError';
  /** Builds the error; `cause` is the underlying timeout. */
  constructor(message = 'Request timed out.', options: APIConnectionErrorOptions = {}) {
    super(message, options);
  }
}

/** Options of a {@link RedirectNotFollowedError}. */
export interface RedirectNotFollowedErrorOptions {
  /** The redirect's status (301, 302, 303, 307, 308); 0 when the runtime hides it (see {@link RedirectNotFollowedError.status}). */
  status: number;
  /** Where the redirect pointed: the Location's origin and path, without its query; `undefined` when unknown. */
  location: string | undefined;
  /** How many attempts were made. Default 1. */
  attempts?: number;
  /** The answer's correlation id (its `x-correlation-id` header), if it has one. */
  correlationId?: string | undefined;
}

/**
 * The answer was a redirect, which the SDK does not follow. It follows none, on any request: a
 * request may carry a secret in its body (a token grant's `client_secret`, a ticket), which fetch
 * would send again to wherever a 307 or 308 points (it drops only `Authorization`, and only across
 * origins), and the platform's API answers none. Every request is sent with `redirect: 'manual'`;
 * an answer 301, 302, 303, 307 or 308 rejects the call with this error, as does a browser's opaque
 * redirect (`type` `opaqueredirect`, status 0, its Location hidden) and an answer that a `fetch`
 * given in the options followed anyway (`response.redirected`). Its body is not read, and the call
 * is never retried. A same-origin redirect of a bodiless `GET` is not followed either: the API
 * answers none, and one rule without exceptions leaves nothing to get wrong.
 *
 * The message names the request (method and URL, secrets redacted) and where it was sent: the
 * Location's origin and path only, never its query (it may carry a secret), and never the request's
 * body; a secret the request sent is taken out of that origin and path should they quote it (a
 * ticket in `/used/<ticket>`).
 */
export class RedirectNotFollowedError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'RedirectNotFollowedError');
  }

  override name = 'RedirectNotFollowedError';
  /**
   * The redirect's status: 301, 302, 303, 307 or 308; 0 when the runtime hides it (a browser's
   * opaque redirect) or when the `fetch` in use followed it itself.
   */
  readonly status: number;
  /**
   * Where the redirect pointed: the Location's origin and path (the secrets the request sent and
   * credential-shaped parts redacted), never its query; `undefined` when the answer hides or lacks
   * it, or it is not a URL.
   */
  readonly location: string | undefined;
  /** How many attempts were made, this one included: a redirect is never retried. */
  readonly attempts: number;
  /**
   * The redirect's correlation id (its `x-correlation-id` header), for support requests;
   * `undefined` when it has none, or the runtime hides its headers (an opaque redirect).
   */
  readonly correlationId: string | undefined;
  /** Builds the error. */
  constructor(message: string, options: RedirectNotFollowedErrorOptions) {
    super(message);
    this.status = options.status;
    this.location = options.location;
    this.attempts = options.attempts ?? 1;
    this.correlationId = options.correlationId;
  }
}

/** Options of a {@link ResponseTooLargeError}. */
export interface ResponseTooLargeErrorOptions {
  /** HTTP status of the answer. */
  status: number;
  /** The most the SDK reads of an answer's body, in bytes. */
  limit: number;
  /** How many attempts were made. Default 1. */
  attempts?: number;
  /** The answer's correlation id (its `x-correlation-id` header), if it has one. */
  correlationId?: string | undefined;
}

/**
 * The answer's body was larger than the SDK reads (16 MiB): it stopped reading at the limit and
 * dropped what it had read, so an answer of any size cannot grow the process beyond it. No answer
 * of the platform comes near (a large organisation's catalogue fits many times over). Never retried.
 */
export class ResponseTooLargeError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'ResponseTooLargeError');
  }

  override name = 'ResponseTooLargeError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The most the SDK reads of an answer's body, in bytes. */
  readonly limit: number;
  /** How many attempts were made, this one included. */
  readonly attempts: number;
  /** The answer's correlation id (its `x-correlation-id` header), for support requests; `undefined` if it has none. */
  readonly correlationId: string | undefined;
  /** Builds the error. */
  constructor(message: string, options: ResponseTooLargeErrorOptions) {
    super(message);
    this.status = options.status;
    this.limit = options.limit;
    this.attempts = options.attempts ?? 1;
    this.correlationId = options.correlationId;
  }
}

/**
 * The client was given an option it cannot work with (an empty `clientId`, a host that is not a
 * URL, an unknown environment): thrown by the constructor at once, naming the option. A token
 * provider (`auth.accessToken` as a function) that returns no usable token fails the call that
 * asked for it with this error, before anything is sent.
 */
export class ClientConfigurationError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'ClientConfigurationError');
  }

  override name = 'ClientConfigurationError';
  /** The option, as the constructor's options spell it: `hosts.api`, `auth.clientId`. */
  readonly option: string;
  /**
   * Names the option and the rule it breaks (never its value, which may be a secret).
   * @param option - the option that is wrong
   * @param message - what rule it breaks
   */
  constructor(option: string, message: string) {
    super(`${option}: ${message}`);
    this.option = option;
  }
}

/**
 * This runtime cannot send the request: endpoint 6 sends its parameters in the body of a GET,
 * which a browser's `fetch` cannot send. Thrown before anything is sent.
 */
export class UnsupportedRequestError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'UnsupportedRequestError');
  }

  override name = 'UnsupportedRequestError';
}

/** The issues of a failed zod check, as reported on the validation errors. */
export type ValidationIssue = z.core.$ZodIssue;

/**
 * The request was refused by the SDK before anything was sent: a parameter breaks the spec's rule.
 * `field` and `rule` read as the platform's 400 would: `code` is `unknown_parameter` for a key the
 * spec does not know, `invalid_parameter` otherwise.
 */
export class RequestValidationError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'RequestValidationError');
  }

  override name = 'RequestValidationError';
  /** What the platform would answer: `invalid_parameter` or `unknown_parameter`. */
  readonly code: 'invalid_parameter' | 'unknown_parameter';
  /** The offending field, spelled as the spec does: `price_periods[0].payment_option`. */
  readonly field: string;
  /** The rule broken, worded as the platform words it: `Parameter must match format (...)`. */
  readonly rule: string;
  /** Every issue found, not only the first. */
  readonly issues: readonly ValidationIssue[];

  /** Builds the error from the zod issues of the failed check. */
  constructor(issues: readonly ValidationIssue[]) {
    const first = primaryIssue(issues);
    const unknown = first?.code === 'unrecognized_keys';
    const field = first ? fieldOfIssue(first) : '';
    const rule = first?.message ?? 'Invalid request';
    super(field ? `${field}: ${rule}` : rule);
    this.code = unknown ? 'unknown_parameter' : 'invalid_parameter';
    this.field = field;
    this.rule = rule;
    this.issues = issues;
  }
}

/** How the platform's wording of a rule begins (`Parameter must be of type array`). */
const PARAMETER = 'Parameter ';

/** What a {@link ResponseValidationError} is made of. */
export interface ResponseValidationErrorInit {
  /** The endpoint's name in the spec, e.g. `Get products`. */
  endpoint: string;
  /** HTTP status of the answer. */
  status: number;
  /** The request's correlation id. */
  correlationId: string | undefined;
  /** Every issue found. */
  issues: readonly ValidationIssue[];
  /** How many attempts were made, the answer's included. Default 1. */
  attempts?: number;
}

/**
 * The platform's answer is outside the schema of the endpoint (a required field missing, a wrong
 * type, or a body that is not JSON). Turn it off with `validateResponses: false`. The message
 * names the field of the answer and the rule it breaks: `The answer of "Get products" does not
 * match its schema at items: Field must be of type array`.
 */
export class ResponseValidationError extends PlatformError {
  static {
    // biome-ignore lint/complexity/noThisInStatic: the class itself, its name left as it is in a bundle
    nameErrorClass(this, 'ResponseValidationError');
  }

  override name = 'ResponseValidationError';
  /** HTTP status of the answer. */
  readonly status: number;
  /** The request's correlation id. */
  readonly correlationId: string | undefined;
  /** Every issue found. */
  readonly issues: readonly ValidationIssue[];
  /** How many attempts were made, the answer's included (1 when the call was not retried). */
  readonly attempts: number;

  /** Builds the error. */
  constructor(init: ResponseValidationErrorInit) {
    const first = primaryIssue(init.issues);
    const where = first ? fieldOfIssue(first) : '';
    // The rules are worded for a request's parameters: in an answer, the same rule is a field's.
    const rule = first?.message ?? 'invalid';
    const asField = rule.startsWith(PARAMETER) ? `Field ${rule.slice(PARAMETER.length)}` : rule;
    super(`The answer of "${init.endpoint}" does not match its schema${where ? ` at ${where}` : ''}: ${asField}`);
    this.status = init.status;
    this.correlationId = init.correlationId;
    this.issues = init.issues;
    this.attempts = init.attempts ?? 1;
  }
}

/** The spec's `field` for an issue; an unknown key is named itself. */
export function fieldOfIssue(issue: ValidationIssue): string {
  if (issue.code === 'unrecognized_keys' && issue.keys[0] !== undefined) return fieldOf([...issue.path, issue.keys[0]]);
  return fieldOf(issue.path);
}

/**
 * The members of the common error body, each read on its own by its rule in {@link ErrorBody}: one
 * of an unexpected type (a `field: null`, a numeric `api_correlation_id`) is left out, and the
 * others are kept. A body that is no object has none.
 */
function errorBodyMembers(body: unknown): Partial<ErrorBody> {
  const members: Record<string, unknown> = {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return members;
  for (const [name, rule] of Object.entries(ErrorBody.shape)) {
    const value: unknown = Reflect.get(body, name);
    if (value !== undefined && rule.safeParse(value).success) members[name] = value;
  }
  return members as Partial<ErrorBody>;
}

/**
 * The one place where an answer outside 2xx becomes an error: the class by status, `code`,
 * `field` and `message` from the spec's error body (each member that has its type, whatever the
 * others'; a generic message without one), the correlation id from the header or body.
 * The pipeline hands it the body and the headers with the request's secrets redacted (a host may
 * quote the request back: an auth host echoing a grant with its `client_secret`), so neither the
 * message, the body nor the headers quote one.
 */
export function makeAPIError(status: number, body: unknown, headers: Headers, attempts = 1): APIError {
  const error = errorBodyMembers(body);
  const init = {
    message: error.message ?? `HTTP ${status}`,
    code: error.code,
    field: error.field,
    correlationId: headers.get('x-correlation-id') ?? error.api_correlation_id,
    headers,
    body,
    attempts,
  };
  // Each comparison narrows `status` to the literal its class stands for.
  if (status === 400) return new BadRequestError({ ...init, status });
  if (status === 401) return new AuthenticationError({ ...init, status });
  if (status === 403) return new PermissionDeniedError({ ...init, status });
  if (status === 404) return new NotFoundError({ ...init, status });
  if (status === 409) return new ConflictError({ ...init, status });
  if (status === 422) return new UnprocessableEntityError({ ...init, status });
  if (status === 429) return new RateLimitError({ ...init, status });
  if (status >= 500) return new InternalServerError({ ...init, status });
  return new APIError({ ...init, status });
}
