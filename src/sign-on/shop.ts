/**
 * Endpoint 25: the browser redirect that sends a logged-in user to the shop with a ticket.
 */
import { SignOnConfigurationError, SignOnValidationError } from './errors.js';

/** Parameters of a marketplace URL (endpoint 25). */
export interface MarketplaceUrlParams {
  /** The marketplace's group (`{groupId}`). */
  groupId: string;
  /** The marketplace (`{marketplaceId}`). */
  marketplaceId: string;
  /** A fresh ticket for the shop's client (`at`). */
  ticket: string;
  /** Where the user returns after the purchase: an absolute http(s) URL. Without it no return flow is possible. */
  returnUrl?: string;
  /** A campaign to pre-select. */
  campaign?: string;
  /** A payment period to pre-select. */
  period?: string;
}

const KEYS = new Set(['groupId', 'marketplaceId', 'ticket', 'returnUrl', 'campaign', 'period']);

function refuse(field: string, rule: string): never {
  throw new SignOnValidationError(field, `${field}: ${rule}`);
}

/**
 * The spec's rules for the parameters, checked without zod (this module stays small for sites that
 * only send users to the shop), worded as every other check of the SDK.
 */
function checked(params: MarketplaceUrlParams): MarketplaceUrlParams {
  if (params === null || typeof params !== 'object') refuse('params', 'Parameter must be of type object');
  for (const key of Object.keys(params)) if (!KEYS.has(key)) refuse(key, `Unknown parameter: ${key}`);
  const record = params as unknown as Record<string, unknown>;
  for (const field of ['groupId', 'marketplaceId', 'ticket', 'returnUrl', 'campaign', 'period']) {
    const value = record[field];
    const required = field === 'groupId' || field === 'marketplaceId' || field === 'ticket';
    if (value === undefined) {
      if (required) refuse(field, 'Parameter is required');
      continue;
    }
    if (typeof value !== 'string') refuse(field, 'Parameter must be of type string');
    if (value.length === 0) refuse(field, 'Parameter size must be at least 1');
  }
  if (params.returnUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(params.returnUrl);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      refuse('returnUrl', 'Parameter must be an absolute http(s) URL');
  }
  return params;
}

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
 * @throws {@link SignOnValidationError} when a parameter breaks the spec's rules (a required one missing or
 * empty, an unknown one, a `returnUrl` that is not an absolute http(s) URL), or an id is `.` or `..`
 * @throws {@link SignOnConfigurationError} when the shop URL is not an absolute https URL
 */
export function marketplaceUrl(shopUrl: string | URL, params: MarketplaceUrlParams): string {
  const { groupId, marketplaceId, ticket, returnUrl, campaign, period } = checked(params);
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
