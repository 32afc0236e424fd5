/**
 * Endpoint 25: the browser redirect that sends a logged-in user to the shop with a ticket.
 */
import { MarketplaceUrlParams } from '../schemas/sign-on.js';
import { SignOnConfigurationError, SignOnValidationError } from './errors.js';
import { parseOrThrow } from './internal.js';

/** Hosts where a plain-http shop URL is accepted: a local mock, never a real shop. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Builds `{shop_url}/marketplace/{groupId}/{marketplaceId}?at=<ticket>&returnUrl=...&campaign=...&period=...`
 * (endpoint 25). Path segments are percent-encoded one by one, so a `/`, `?`, `#` or space in an id
 * stays inside its segment; the query is written by `URLSearchParams`. A path prefix on the shop URL
 * (`https://example.com/shop/`) is kept, with or without a trailing slash.
 *
 * The result carries a ticket, a credential: redirect the browser to it, never log it.
 *
 * @param shopUrl - the shop's base URL (`{shop_url}`); https, or http on a loopback host only
 * @param params - the ids, the ticket and the optional return URL, campaign and period
 * @throws {@link SignOnValidationError} when a parameter breaks {@link MarketplaceUrlParams}, or an id is `.` or `..`
 * @throws {@link SignOnConfigurationError} when the shop URL is not an absolute https URL
 */
export function marketplaceUrl(shopUrl: string | URL, params: MarketplaceUrlParams): string {
  const { groupId, marketplaceId, ticket, returnUrl, campaign, period } = parseOrThrow(MarketplaceUrlParams, params);
  const url = parseShopUrl(shopUrl);
  const prefix = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  url.pathname = `${prefix}marketplace/${segment('groupId', groupId)}/${segment('marketplaceId', marketplaceId)}`;
  url.hash = '';
  const query = new URLSearchParams(url.search);
  query.set('at', ticket);
  if (returnUrl !== undefined) query.set('returnUrl', returnUrl);
  if (campaign !== undefined) query.set('campaign', campaign);
  if (period !== undefined) query.set('period', period);
  url.search = query.toString();
  return url.href;
}

function parseShopUrl(shopUrl: string | URL): URL {
  let url: URL;
  try {
    url = new URL(shopUrl);
  } catch {
    throw new SignOnConfigurationError('shopUrl', 'shopUrl must be an absolute URL');
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure) {
    // Spec, Authentication point 7: ticket exchanges use HTTPS; a ticket in a plain-http URL leaks.
    throw new SignOnConfigurationError('shopUrl', 'shopUrl must use https (http only on a loopback host)');
  }
  if (url.username !== '' || url.password !== '') {
    throw new SignOnConfigurationError('shopUrl', 'shopUrl must not carry credentials');
  }
  return url;
}

/** One path segment. `.` and `..` (even percent-encoded) would be resolved away by every URL parser. */
function segment(field: string, value: string): string {
  if (value === '.' || value === '..') {
    throw new SignOnValidationError(field, `${field}: Parameter must not be a dot segment ("." or "..")`);
  }
  try {
    return encodeURIComponent(value);
  } catch {
    // A lone UTF-16 surrogate cannot be encoded as UTF-8.
    throw new SignOnValidationError(field, `${field}: Parameter must be well-formed Unicode text`);
  }
}
