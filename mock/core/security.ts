/**
 * The admin API's guard: whether `/__admin` is served at all, the bearer token it requires, and
 * its refusal of what another site's web page could send it.
 */
import { HttpError } from './errors.js';
import { isLoopbackHost } from './hosts.js';
import { sameSecret } from './ids.js';
import type { PlatformSettings } from './options.js';
import { invalidContentType, mediaTypeOf } from './validate.js';

/** What the admin guard reads of the platform's settings. */
export type AdminSettings = Readonly<Pick<PlatformSettings, 'admin' | 'adminToken'>>;

/** The parts of a request the admin guard reads. */
export interface AdminRequest {
  readonly method: string;
  readonly url: URL;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body text; null or empty when there is none. */
  readonly body: string | null;
}

/** Whether `origin` (an `Origin` header) is the request's own origin or one on a loopback host. */
function trustedOrigin(origin: string, url: URL): boolean {
  if (origin === url.origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  // A serialised origin only: scheme, host and port (`null` and anything with a path fail here).
  if (parsed.origin !== origin || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return false;
  return isLoopbackHost(parsed.hostname);
}

/** Whether a request bears the admin token (`Authorization: Bearer <token>`), compared in constant time. */
export function bearsAdminToken(adminToken: string, headers: Readonly<Record<string, string>>): boolean {
  const header = headers.authorization ?? '';
  const given = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
  return given.length > 0 && sameSecret(adminToken, given);
}

function crossSite(field: string, message: string): HttpError {
  return new HttpError(403, 'cross_site_request', message, field);
}

/**
 * Whether an `/__admin` request may go on; undefined when allowed. In order:
 *
 * - 404 `not_found` when the admin API is off (as for any unknown path);
 * - 403 `cross_site_request` when a browser says another site's page sent it: a `Sec-Fetch-Site`
 *   other than `same-origin` or `none` (field `sec-fetch-site`), or an `Origin` that is neither the
 *   platform's own nor on a loopback host (field `origin`). Without CORS no page can read an
 *   answer, but a "simple" request (a form post, a `text/plain` fetch) would still run;
 * - 401 `invalid_token` when it requires a token the request does not bear;
 * - 400 `invalid_content_type_error` when the request has a body, or a `Content-Type`, that is not
 *   `application/json`: a page could only send that after a CORS preflight, which `/__admin` never
 *   answers, so a browser that sends no `Origin` still cannot post to it.
 *
 * curl (with `-H 'content-type: application/json'` on a body), Node's `fetch` and in-process calls
 * send no `Origin` and no `Sec-Fetch-Site`, and pass.
 */
export function guardAdmin(settings: AdminSettings, request: AdminRequest): HttpError | undefined {
  const { method, url, headers, body } = request;
  if (!settings.admin) return new HttpError(404, 'not_found', `No route for ${method} ${url.pathname}`);
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return crossSite(
      'sec-fetch-site',
      `The admin API refuses requests sent by another site's web page (Sec-Fetch-Site: ${site.slice(0, 20)})`,
    );
  const origin = headers.origin;
  if (origin !== undefined && !trustedOrigin(origin, url))
    return crossSite('origin', "The admin API refuses requests sent by another origin's web page");
  if (settings.adminToken !== undefined && !bearsAdminToken(settings.adminToken, headers))
    return new HttpError(
      401,
      'invalid_token',
      'The admin API requires Authorization: Bearer <admin token>',
      'authorization',
      { 'www-authenticate': 'Bearer realm="platform-admin"' },
    );
  const contentType = headers['content-type'];
  const hasBody = body !== null && body !== '';
  if ((hasBody || contentType !== undefined) && mediaTypeOf(contentType) !== 'application/json')
    return invalidContentType('application/json');
  return undefined;
}
