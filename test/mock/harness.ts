/**
 * One harness, two adapters: the same cases run against the platform under MSW (`setupServer`)
 * and behind its node:http server. Plain fetch, no SDK.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, vi } from 'vitest';
import type * as z from 'zod';
import type { Platform, PlatformOptions, StateDocument } from '../../mock/index.js';
import { createHandlers, createPlatform, defaultHosts } from '../../mock/index.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { ErrorBody } from '../../src/schemas/common.js';
import { READ, WRITE } from '../fixtures.js';

export {
  DEMO_SITE_LANDING_URL,
  DEMO_SSO_AUDIENCE,
  demoCredentials,
  demoIds,
  demoShop,
  demoSite,
  demoSiteB,
  demoUsers,
} from '../../mock/seeds/demo.js';

/** Which adapter a describe block runs through. */
export type AdapterKind = 'msw' | 'http';
/** The adapters, for `describe.each`. */
export const ADAPTERS: AdapterKind[] = ['msw', 'http'];

export { absent, READ, USER_SCOPES, WRITE } from '../fixtures.js';

export { entryOf, requestsTo } from '../journal.js';
export { paths } from '../paths.js';

/** An answer, read. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export interface CallOptions {
  method?: string;
  query?: Record<string, string> | string;
  /** A JSON body (sent with content-type application/json unless `headers` says otherwise). */
  json?: unknown;
  /** A raw body text. */
  body?: string;
  /** A form body (sent as application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** Redirect mode; default `manual`, so a test sees the 3xx and its Location. */
  redirect?: RequestRedirect;
  headers?: Record<string, string>;
  /** A bearer token; `null` sends no Authorization header. */
  token?: string | null;
  /** Which of the spec's hosts to call (under MSW; the node server has one origin). */
  host?: keyof typeof defaultHosts;
}

/** A platform served through one adapter, with a fetch helper. */
export interface Harness {
  readonly kind: AdapterKind;
  readonly platform: Platform;
  /** The origin of a host of the spec. */
  origin(host?: keyof typeof defaultHosts): string;
  /** Sends a request; parses a JSON answer. */
  call(path: string, options?: CallOptions): Promise<Answer>;
  /** A token with these scopes (default: read products, write prices), for the demo client unless `clientId`. */
  token(scopes?: string[], clientId?: string): string;
}

/**
 * Serves a platform (a fresh one with these options, or the one given) through `kind` for the
 * enclosing describe block, and resets it before each test.
 */
export function useAdapter(kind: AdapterKind, options: PlatformOptions | Platform = {}): Harness {
  const platform = 'handle' in options ? options : createPlatform({ seed: 'demo', ...options });
  let server: RunningServer | undefined;
  const msw = kind === 'msw' ? setupServer(...createHandlers(platform, defaultHosts)) : undefined;
  beforeAll(async () => {
    if (msw) msw.listen({ onUnhandledRequest: 'error' });
    else server = await startServer({ platform, port: 0 });
  });
  afterAll(async () => {
    msw?.close();
    await server?.close();
  });
  beforeEach(() => platform.reset());

  const harness: Harness = {
    kind,
    platform,
    origin(host = 'api') {
      if (server) return server.url;
      return defaultHosts[host];
    },
    async call(path, o = {}) {
      const query =
        o.query === undefined ? '' : typeof o.query === 'string' ? o.query : `?${new URLSearchParams(o.query)}`;
      const headers: Record<string, string> = { accept: 'application/json' };
      let body: string | undefined = o.body;
      if (o.json !== undefined) {
        body = JSON.stringify(o.json);
        headers['content-type'] = 'application/json';
      }
      if (o.form !== undefined) {
        body = new URLSearchParams(o.form).toString();
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      if (o.token !== undefined && o.token !== null) headers.authorization = `Bearer ${o.token}`;
      Object.assign(headers, o.headers);
      const res = await fetch(`${harness.origin(o.host)}${path}${query}`, {
        method: o.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        redirect: o.redirect ?? 'manual',
      });
      const text = await res.text();
      let parsed: unknown = null;
      if (text && /json/.test(res.headers.get('content-type') ?? '')) parsed = JSON.parse(text);
      return { status: res.status, headers: res.headers, body: parsed, text };
    },
    token(scopes = [READ, WRITE], clientId) {
      return platform.mintToken({ scopes, clientId }).access_token;
    },
  };
  return harness;
}

/**
 * Expects the spec's common error body, with the correlation id repeated from the header. Without
 * `field`, expects the body's `field` to be `unspecified_field`: no field is at fault.
 */
export function expectError(answer: Answer, status: number, code: string, field = 'unspecified_field'): ErrorBody {
  const body = ErrorBody.parse(answer.body);
  expect({ status: answer.status, code: body.code, field: body.field }).toEqual({ status, code, field });
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(body.api_correlation_id).toBe(answer.headers.get('x-correlation-id'));
  return body;
}

/** Expects a success with this status, and a body the spec's response schema accepts; answers it typed. */
export function expectOk<S extends z.ZodType>(answer: Answer, schema: S, status = 200): z.output<S> {
  expect(answer.status, answer.text).toBe(status);
  return schema.parse(answer.body);
}

/** Runs `act` and expects the state document to be the same afterwards: a refused request changes nothing. */
export async function expectUnchanged<T>(platform: Platform, act: () => Promise<T>): Promise<T> {
  const before: StateDocument = platform.snapshot();
  const result = await act();
  expect(platform.snapshot()).toEqual(before);
  return result;
}

/**
 * Holds every call of `object[method]` from now on until the returned `open` is called, then makes
 * it as it was asked: a test can do something (a reset) while the platform waits on one (node:crypto's
 * `scrypt` for a password, WebCrypto's `verify` for a request token). The spy is restored after the
 * test (`restoreMocks`). Works whatever module cache the file shares: it changes the object itself.
 */
export function holdCalls<T extends object>(object: T, method: keyof T & string): () => void {
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const real = object[method] as (...args: unknown[]) => unknown;
  vi.spyOn(object as Record<string, (...args: unknown[]) => unknown>, method).mockImplementation((...args) =>
    gate.then(() => real.apply(object, args)),
  );
  return open;
}
