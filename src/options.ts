/**
 * The client's options, checked once by the constructor: a mistake is thrown at once, naming the
 * option as the caller spelled it (`hosts.api`, `auth.clientId`), never on the first call as a wire
 * field. Values are never quoted: some are secrets.
 */
import type { PlatformClientOptions } from './client.js';
import { ClientConfigurationError } from './errors.js';

function fail(option: string, rule: string): never {
  throw new ClientConfigurationError(option, rule);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

function nonEmptyString(value: unknown, option: string): void {
  if (typeof value !== 'string' || value.trim() === '') fail(option, 'must be a non-empty string');
}

function httpUrl(value: unknown, option: string): void {
  let url: URL | undefined;
  try {
    url = typeof value === 'string' ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    fail(option, 'must be an absolute http(s) URL, e.g. https://api.example.com');
  if (url.username || url.password) fail(option, 'must not carry credentials (user:password@)');
  if (url.search || url.hash) fail(option, 'must not carry a query or a fragment');
}

function number(value: unknown, option: string, rule: 'positive' | 'non-negative' | 'non-negative integer'): void {
  if (value === undefined) return;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (rule === 'positive' ? value > 0 : value >= 0) &&
    (rule !== 'non-negative integer' || Number.isInteger(value));
  if (!ok) fail(option, `must be a ${rule} number`);
}

/** Throws a {@link ClientConfigurationError} naming the first option that is wrong. */
export function checkOptions(options: PlatformClientOptions): void {
  if (!isObject(options)) fail('options', 'must be an object');
  const o = options as unknown as Record<string, unknown>;
  if (o.environment !== 'stage' && o.environment !== 'production')
    fail('environment', "must be 'stage' or 'production'");

  if (!isObject(o.hosts)) fail('hosts', 'must be an object with the api and auth hosts');
  httpUrl(o.hosts.api, 'hosts.api');
  httpUrl(o.hosts.auth, 'hosts.auth');
  for (const name of ['sso', 'shop'] as const) if (o.hosts[name] !== undefined) httpUrl(o.hosts[name], `hosts.${name}`);

  const auth = o.auth;
  if (!isObject(auth)) fail('auth', 'must be { accessToken } or { clientId, clientSecret, scopes }');
  if ('accessToken' in auth) {
    if (typeof auth.accessToken !== 'function') nonEmptyString(auth.accessToken, 'auth.accessToken');
  } else {
    nonEmptyString(auth.clientId, 'auth.clientId');
    nonEmptyString(auth.clientSecret, 'auth.clientSecret');
    if (!Array.isArray(auth.scopes) || !auth.scopes.every((s) => typeof s === 'string' && s.trim() !== ''))
      fail('auth.scopes', 'must be a list of scopes, e.g. ["/external/product/r"]');
  }

  if (o.credentials !== undefined) {
    if (!isObject(o.credentials)) fail('credentials', 'must be { clientId, clientSecret }');
    nonEmptyString(o.credentials.clientId, 'credentials.clientId');
    nonEmptyString(o.credentials.clientSecret, 'credentials.clientSecret');
  }
  if (o.sso !== undefined) {
    if (!isObject(o.sso)) fail('sso', 'must be { audience, organisationId }');
    nonEmptyString(o.sso.audience, 'sso.audience');
    nonEmptyString(o.sso.organisationId, 'sso.organisationId');
    number(o.sso.clockToleranceSeconds, 'sso.clockToleranceSeconds', 'non-negative');
  }

  number(o.timeout, 'timeout', 'positive');
  number(o.maxRetries, 'maxRetries', 'non-negative integer');
  number(o.maxRetryAfter, 'maxRetryAfter', 'non-negative');
  if (o.retryDelay !== undefined) {
    if (!isObject(o.retryDelay)) fail('retryDelay', 'must be { initial?, max? }');
    number(o.retryDelay.initial, 'retryDelay.initial', 'non-negative');
    number(o.retryDelay.max, 'retryDelay.max', 'non-negative');
  }
  if (o.logger !== undefined) {
    const logger = o.logger;
    if (!isObject(logger) || !['debug', 'info', 'warn', 'error'].every((m) => typeof logger[m] === 'function'))
      fail('logger', 'must have debug, info, warn and error methods (console fits)');
  }
  if (o.fetch !== undefined && typeof o.fetch !== 'function') fail('fetch', 'must be a fetch function');
  if (o.headers !== undefined && !isObject(o.headers)) fail('headers', 'must be an object of header names and values');
}
