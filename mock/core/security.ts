/**
 * The platform's security settings, fixed when it is created: the body size limit, whether the
 * `/__admin` API is served and the bearer token it requires, and how the shop treats a return URL
 * whose domain is not registered. Adapters read them (`securityOf`) the way they find the core.
 */

import { HttpError } from './errors.js';
import type { CoreResponse } from './exchange.js';
import { bodyLimitOf } from './limits.js';
import type { PlatformOptions } from './types.js';

/** What the security options of `createPlatform` come to. */
export interface SecuritySettings {
  /** Largest body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** Whether `/__admin` is served at all. */
  readonly admin: boolean;
  /** The bearer token `/__admin` requires; none when undefined. */
  readonly adminToken: string | undefined;
  /** Whether a return to an unregistered domain shows a "you are leaving" page instead of redirecting. */
  readonly returnInterstitial: boolean;
}

const registry = new WeakMap<object, SecuritySettings>();

const DEFAULTS: SecuritySettings = {
  maxBodyBytes: bodyLimitOf(undefined, 'maxBodyBytes'),
  admin: true,
  adminToken: undefined,
  returnInterstitial: false,
};

/** The settings of `options`, checked: a HttpError names the option that is wrong. */
export function securitySettings(options: PlatformOptions): SecuritySettings {
  const { adminToken } = options;
  if (adminToken !== undefined && !(typeof adminToken === 'string' && adminToken.length > 0))
    throw new HttpError(400, 'invalid_parameter', 'Parameter must be a non-empty string', 'adminToken');
  return {
    maxBodyBytes: bodyLimitOf(options.maxBodyBytes, 'maxBodyBytes'),
    admin: options.admin ?? true,
    adminToken,
    returnInterstitial: options.returnInterstitial ?? false,
  };
}

/** Records the settings of a platform. */
export function registerSecurity(platform: object, settings: SecuritySettings): void {
  registry.set(platform, settings);
}

/** The settings of a platform made by `createPlatform`; the defaults for any other. */
export function securityOf(platform: object): SecuritySettings {
  return registry.get(platform) ?? DEFAULTS;
}

/** Compares two secrets in time independent of where they differ. */
function sameSecret(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % Math.max(b.length, 1));
  return diff === 0;
}

/**
 * Whether an `/__admin` request may go on: 404 when the admin API is off (as for any unknown
 * path), 401 `invalid_token` when it requires a token the request does not bear. Undefined when allowed.
 */
export function guardAdmin(
  settings: SecuritySettings,
  method: string,
  path: string,
  headers: Readonly<Record<string, string>>,
): HttpError | undefined {
  if (!settings.admin) return new HttpError(404, 'not_found', `No route for ${method} ${path}`);
  if (settings.adminToken === undefined) return undefined;
  const header = headers.authorization ?? '';
  const given = header.slice(0, 7).toLowerCase() === 'bearer ' ? header.slice(7).trim() : '';
  if (given.length > 0 && sameSecret(settings.adminToken, given)) return undefined;
  return new HttpError(
    401,
    'invalid_token',
    'The admin API requires Authorization: Bearer <admin token>',
    'authorization',
    { 'www-authenticate': 'Bearer realm="platform-admin"' },
  );
}

/** An answer without any CORS header: `/__admin` is never readable by another origin's page. */
export function withoutCors(response: CoreResponse): CoreResponse {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.headers)) {
    if (!name.startsWith('access-control-')) headers[name] = value;
  }
  return { ...response, headers };
}
