import type { ErrorCode } from '../../src/schemas/common.js';
import type { Refusal } from './refusal.js';

/**
 * An error the platform answers with the spec's common error body: a status, a `code`, the
 * offending `field` (`unspecified_field` on the wire when none is at fault), and a `message`. The platform's test tools (`createPlatform`
 * with a seed, `restore`, `mintToken`, the clock) throw it too, naming the field they refuse.
 */
export class HttpError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The spec's error code, e.g. `invalid_parameter`, `not_found`. */
  readonly code: ErrorCode;
  /**
   * The offending field, spelled as the spec does (`price_periods[0].payment_option`); `undefined`
   * when none is at fault, which the answer's body says as `unspecified_field`.
   */
  readonly field: string | undefined;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Allow`. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Why, for the journal and the request log, never the wire. */
  refusal: Refusal | undefined;

  /**
   * Makes the error; the platform answers it as the common error body with this status.
   *
   * @param status - HTTP status
   * @param code - the spec's error code
   * @param message - a readable explanation (never a secret, never an exception's text)
   * @param field - the offending field, when there is one
   * @param headers - extra response headers
   */
  constructor(status: number, code: ErrorCode, message: string, field?: string, headers?: Record<string, string>) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.headers = headers;
    this.refusal = undefined;
  }
}

/** `error`, saying in the journal and the request log which check failed (never a secret). */
export function refusedBecause<E extends HttpError>(error: E, check: string, detail: string): E {
  error.refusal = { check, detail };
  return error;
}

/** 400 `invalid_parameter` naming `field`. */
export function invalidParameter(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_parameter', message, field);
}

/**
 * 409 `invalid_state`, no field at fault: the platform's state was reset or replaced (`reset`, `restore`)
 * while a request that started before it was under way (`while`), so it applies nothing to the new one.
 */
export function stateReplaced(during: string): HttpError {
  return new HttpError(
    409,
    'invalid_state',
    `The platform's state was reset or replaced while ${during}: nothing was applied`,
  );
}

/** 404 `not_found` naming `field`. */
export function notFound(field: string | undefined, message: string): HttpError {
  return new HttpError(404, 'not_found', message, field);
}
