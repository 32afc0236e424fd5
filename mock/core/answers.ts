/**
 * The core's answers: a JSON body or text with the headers every answer carries (the correlation
 * id, CORS for a page on another origin), the spec's common error body, and a dropped connection.
 */
import type { HttpError } from './errors.js';
import type { CoreResponse } from './messages.js';

/** The response headers a browser page may read when it calls the platform from another origin. */
const EXPOSED_HEADERS = 'x-correlation-id, www-authenticate, retry-after, allow';
const NULL_BODY_STATUS = new Set([204, 205, 304]);

/** Whether a path is the admin API's (`/__admin` and below). */
export function isAdminPath(path: string): boolean {
  return path === '/__admin' || path.startsWith('/__admin/');
}

/** An answer: `text` as it is, else `body` as JSON; none for a status that has no body. */
export function respond(
  status: number,
  body: unknown,
  correlationId: string,
  extra?: Readonly<Record<string, string>>,
  text?: string,
): CoreResponse {
  // CORS: a browser page may call the standalone platform from another origin.
  const headers: Record<string, string> = {
    'x-correlation-id': correlationId,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
  if (extra) Object.assign(headers, extra);
  if (NULL_BODY_STATUS.has(status)) return { status, headers, body: null, drop: false };
  if (text !== undefined) return { status, headers, body: text, drop: false };
  if (body === undefined) return { status, headers, body: null, drop: false };
  headers['content-type'] = 'application/json';
  return { status, headers, body: JSON.stringify(body), drop: false };
}

/** The connection is dropped instead of answered (a fault): each adapter fails its transport. */
export const DROPPED: CoreResponse = { status: 0, headers: {}, body: null, drop: true };

/**
 * What `field` says when no field is at fault, as the spec's endpoint 5 writes it: the common error
 * body always carries `field`.
 */
export const UNSPECIFIED_FIELD = 'unspecified_field';

/**
 * The spec's common error body: `code`, `field` (`unspecified_field` when no field is at fault),
 * `message`, `api_correlation_id`.
 */
export function errorResponse(e: HttpError, correlationId: string): CoreResponse {
  const body: Record<string, string> = { code: e.code, field: e.field ?? UNSPECIFIED_FIELD, message: e.message };
  body.api_correlation_id = correlationId;
  // Without a check of its own, the refusal is what the answer says (messages never hold a secret).
  const refusal = e.refusal ?? {
    check: e.code,
    detail: e.field === undefined ? e.message : `${e.field}: ${e.message}`,
  };
  return { ...respond(e.status, body, correlationId, e.headers), refusal };
}

/** An answer without any CORS header: `/__admin` is never readable by another origin's page. */
export function withoutCors(response: CoreResponse): CoreResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!name.startsWith('access-control-')) headers[name] = value;
  }
  return { ...response, headers };
}

/**
 * The answer to a request an adapter refuses before any platform sees it (a `Host` not served, a
 * body over the limit): the platform's JSON error, without CORS headers on `/__admin`.
 */
export function refusalResponse(error: HttpError, path: string): CoreResponse {
  const response = errorResponse(error, crypto.randomUUID());
  return isAdminPath(path) ? withoutCors(response) : response;
}
