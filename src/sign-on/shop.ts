/**
 * Endpoint 25: the browser redirect that sends a logged-in user to the shop with a ticket. The path
 * and the query's rules are the endpoint table's (`marketplace`, `MarketplaceQuery`), read from a
 * module generated from them: this module loads no zod, for sites that only send users to the shop.
 */

import { isBrowserLoopbackHostname, isSecureUrl } from '../loopback.js';
import { withoutTrailingSlashes } from '../url.js';
import { SignOnConfigurationError, SignOnValidationError } from './errors.js';
import { MARKETPLACE_PATH, MARKETPLACE_QUERY } from './marketplace-rules.js';
import { parseReturnUrl, RETURN_URL_RULE } from './return-url.js';

/** Parameters of a marketplace URL (endpoint 25). */
export interface MarketplaceUrlParams {
  /** The marketplace's group (`{groupId}`). */
  groupId: string;
  /** The marketplace (`{marketplaceId}`). */
  marketplaceId: string;
  /** A fresh ticket for the shop's client (`at`). */
  ticket: string;
  /**
   * Where the user returns after the purchase, with a ticket: an absolute https URL (http only on a
   * loopback host) without credentials, backslashes, whitespace or control characters. Without it
   * no return flow is possible.
   */
  returnUrl?: string;
  /** A campaign to pre-select. */
  campaign?: string;
  /** A payment period to pre-select. */
  period?: string;
}

/** The query parameters this helper names otherwise than the wire: the ticket travels as `at`. */
const HELPER_NAMES = { at: 'ticket' } as const;

type WireName = (typeof MARKETPLACE_QUERY)[number]['name'];
type HelperName<N extends string> = N extends keyof typeof HELPER_NAMES ? (typeof HELPER_NAMES)[N] : N;
/** The ids of a path template: `groupId | marketplaceId`. */
type PathIds<P extends string> = P extends `${string}{${infer Id}}${infer Rest}` ? Id | PathIds<Rest> : never;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Fails to compile when {@link MarketplaceUrlParams} names other parameters than the table, or
 * requires others: a parameter added to `MarketplaceQuery` is documented above before it is used.
 */
const _paramsFollowTheTable: [
  Same<keyof MarketplaceUrlParams, PathIds<typeof MARKETPLACE_PATH> | HelperName<WireName>>,
  Same<
    RequiredKeys<MarketplaceUrlParams>,
    | PathIds<typeof MARKETPLACE_PATH>
    | HelperName<Extract<(typeof MARKETPLACE_QUERY)[number], { required: true }>['name']>
  >,
] = [true, true];

/** One parameter of {@link marketplaceUrl}, as the table rules it. */
interface ParameterRule {
  /** Its name in {@link MarketplaceUrlParams}. */
  readonly field: string;
  /** Its name in the query; none for an id of the path. */
  readonly wire?: string;
  readonly required: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
}

const helperNames: Readonly<Record<string, string>> = HELPER_NAMES;

/** The path's ids (each a required, non-empty segment), then the query's parameters, in the table's order. */
const RULES: readonly ParameterRule[] = [
  ...Array.from(MARKETPLACE_PATH.matchAll(/\{(\w+)\}/g), ([, id = '']) => ({
    field: id,
    required: true,
    minLength: 1,
  })),
  ...MARKETPLACE_QUERY.map(
    (rule): ParameterRule => ({ ...rule, field: helperNames[rule.name] ?? rule.name, wire: rule.name }),
  ),
];

function refuse(field: string, rule: string): never {
  throw new SignOnValidationError(field, `${field}: ${rule}`);
}

/**
 * The table's rules for the parameters, worded as every other check of the SDK, then the return URL's
 * own; answers the values given, by field.
 */
function checked(params: MarketplaceUrlParams): ReadonlyMap<string, string> {
  if (params === null || typeof params !== 'object') refuse('params', 'Parameter must be of type object');
  const record = params as unknown as Record<string, unknown>;
  const values = new Map<string, string>();
  for (const key of Object.keys(record))
    if (!RULES.some((r) => r.field === key)) refuse(key, `Unknown parameter: ${key}`);
  for (const { field, required, minLength = 0, maxLength = Number.POSITIVE_INFINITY } of RULES) {
    const value = record[field];
    if (value === undefined) {
      if (required) refuse(field, 'Parameter is required');
      continue;
    }
    if (typeof value !== 'string') refuse(field, 'Parameter must be of type string');
    if (value.length < minLength) refuse(field, `Parameter size must be at least ${minLength}`);
    if (value.length > maxLength) refuse(field, `Parameter size must be at most ${maxLength}`);
    // A lone UTF-16 surrogate has no UTF-8: the URL would carry U+FFFD in its place.
    if (!isWellFormed(value)) refuse(field, 'Parameter must be well-formed Unicode text');
    values.set(field, value);
  }
  // The helper's own rules: the shop sends the user, and a ticket, back to the return URL. It is
  // held to the return handler's rule, and to https, or http on a host the browser that follows it
  // keeps on this machine (`localhost` and its subdomains, 127.0.0.0/8, `[::1]`).
  const returnUrl = values.get('returnUrl');
  if (returnUrl !== undefined) {
    const url = parseReturnUrl(returnUrl);
    if (!url) refuse('returnUrl', RETURN_URL_RULE);
    if (url.protocol !== 'https:' && !isBrowserLoopbackHostname(url.hostname))
      refuse('returnUrl', 'Parameter must use https (http only on a loopback host): the shop sends a ticket to it');
  }
  return values;
}

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
 * empty, an unknown one, one with a lone UTF-16 surrogate), an id is `.` or `..`, or the `returnUrl`
 * breaks the return handler's rule (`allowedReturnUrl`'s: an absolute http(s) URL without
 * credentials, backslashes, whitespace or control characters) or is plain http beyond a host the
 * browser keeps on this machine (`localhost` and its subdomains, 127.0.0.0/8, `[::1]`)
 * @throws {@link SignOnConfigurationError} when the shop URL is not an absolute https URL (plain http
 * is taken on a loopback host only: `localhost`, 127.0.0.0/8, `[::1]`) or carries credentials
 */
export function marketplaceUrl(shopUrl: string | URL, params: MarketplaceUrlParams): string {
  return marketplaceUrlOn(shopUrl, params, { option: 'shopUrl', plainHttp: false });
}

/**
 * How a shop URL is held: the option it is named by in an error, and whether plain http is taken
 * beyond a loopback host (a client's `hosts.shop`, held to the client's own rule when the client is
 * made: https, http on a loopback host, or any http with `allowInsecureHttp: true`).
 * @internal
 */
export interface ShopUrlRule {
  readonly option: string;
  readonly plainHttp: boolean;
}

/** {@link marketplaceUrl}, its shop URL held to `rule`. @internal The client's `shop`. */
export function marketplaceUrlOn(shopUrl: string | URL, params: MarketplaceUrlParams, rule: ShopUrlRule): string {
  const values = checked(params);
  const url = parseShopUrl(shopUrl, rule);
  url.pathname =
    withoutTrailingSlashes(url.pathname) +
    MARKETPLACE_PATH.replace(/\{(\w+)\}/g, (_, id: string) => segment(id, values.get(id) ?? ''));
  url.hash = '';
  const query = new URLSearchParams(url.search);
  for (const { field, wire } of RULES) {
    const value = values.get(field);
    if (wire !== undefined && value !== undefined) query.set(wire, value);
  }
  url.search = query.toString();
  return url.href;
}

function parseShopUrl(shopUrl: string | URL, { option, plainHttp }: ShopUrlRule): URL {
  let url: URL;
  try {
    url = new URL(shopUrl);
  } catch {
    throw new SignOnConfigurationError(option, `${option} must be an absolute URL`);
  }
  if (!(isSecureUrl(url) || (plainHttp && url.protocol === 'http:'))) {
    // Spec, Authentication point 7: ticket exchanges use HTTPS; a ticket in a plain-http URL leaks.
    throw new SignOnConfigurationError(option, `${option} must use https (http only on a loopback host)`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new SignOnConfigurationError(option, `${option} must not carry credentials`);
  }
  return url;
}

/** Whether a text has UTF-8: no lone UTF-16 surrogate. */
function isWellFormed(value: string): boolean {
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
}

/** One path segment. `.` and `..` (even percent-encoded) would be resolved away by every URL parser. */
function segment(field: string, value: string): string {
  if (value === '.' || value === '..') {
    throw new SignOnValidationError(field, `${field}: Parameter must not be a dot segment ("." or "..")`);
  }
  return encodeURIComponent(value);
}
