/**
 * An error the platform answers with the spec's common error body: a status, a `code`, the
 * offending `field` when there is one, and a `message`.
 */
export class PlatformError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The spec's error code, e.g. `invalid_parameter`, `not_found`. */
  readonly code: string;
  /** The offending field, spelled as the spec does (`price_periods[0].payment_option`). */
  readonly field: string | undefined;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Allow`. */
  readonly headers: Readonly<Record<string, string>> | undefined;

  /**
   * @param status - HTTP status
   * @param code - the spec's error code
   * @param message - a readable explanation (never a secret, never an exception's text)
   * @param field - the offending field, when there is one
   * @param headers - extra response headers
   */
  constructor(status: number, code: string, message: string, field?: string, headers?: Record<string, string>) {
    super(message);
    this.name = 'PlatformError';
    this.status = status;
    this.code = code;
    this.field = field;
    this.headers = headers;
  }
}

/** 400 `invalid_parameter` naming `field`. */
export function invalidParameter(field: string, message: string): PlatformError {
  return new PlatformError(400, 'invalid_parameter', message, field);
}

/** 404 `not_found` naming `field`. */
export function notFound(field: string | undefined, message: string): PlatformError {
  return new PlatformError(404, 'not_found', message, field);
}
