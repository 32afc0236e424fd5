/** The SDK against the reference platform, in process (MSW). One platform and one server per test file. */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import {
  createHandlers,
  createPlatform,
  DEMO_SSO_AUDIENCE,
  defaultHosts,
  demoCredentials,
  demoShop,
  demoSite,
  demoUsers,
} from '../../mock/index.js';
import { demoIds } from '../../mock/seeds/demo.js';
import { type APIError, type Logger, PlatformClient, type PlatformClientOptions } from '../../src/index.js';
import { READ, WRITE } from '../fixtures.js';
import { entryOf } from '../journal.js';

export { DEMO_SSO_AUDIENCE, defaultHosts, demoCredentials, demoIds, demoShop, demoSite, demoUsers };

export const platform = createPlatform({ seed: 'demo' });
export const server = setupServer(...createHandlers(platform, defaultHosts));

/** Starts the server for the file; a fresh platform state, journal and fault list for each test. */
export function usePlatform(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(() => platform.reset());
  afterEach(() => {
    server.resetHandlers();
    // No request leaves the SDK with a path template's `{name}` unfilled, as such or escaped.
    const unfilled = platform.requests.list().filter((r) => /[{}]|%7b|%7d/i.test(r.path));
    expect(unfilled.map((r) => r.path)).toEqual([]);
  });
  afterAll(() => server.close());
}

export { absent, READ, scopesOf, WRITE } from '../fixtures.js';
export { entryOf, requestsTo } from '../journal.js';
export { paths } from '../paths.js';

/** A client with a token minted by the platform, and retry delays of a few ms. */
export function client(options: Partial<PlatformClientOptions> = {}, scopes = [READ, WRITE]): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: defaultHosts,
    auth: { accessToken: platform.mintToken({ scopes }).access_token },
    retryDelay: { initial: 1, max: 5 },
    ...options,
  });
}

/**
 * The demo site's client as a site runs it: client credentials with the ticket scope (which also
 * serve as its `credentials` for endpoints 21 and 23), and the SSO options of the demo seed.
 */
export function siteClient(options: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: defaultHosts,
    auth: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret, scopes: ['/api/authorization/ticket'] },
    sso: { audience: demoSite.ssoAudience, organisationId: demoSite.organisationId },
    retryDelay: { initial: 1, max: 5 },
    ...options,
  });
}

/** Client credentials of the demo client. */
export const demoAuth = {
  clientId: demoCredentials.clientId,
  clientSecret: demoCredentials.clientSecret,
  scopes: [READ, WRITE],
};

/**
 * What the platform received, as `METHOD path status`, in the order it came: on the paths given
 * (then a request another test left under way to another path does not count), else on every path.
 */
export function received(...onPaths: string[]): string[] {
  return platform.requests
    .list()
    .filter((r) => onPaths.length === 0 || onPaths.includes(r.path))
    .map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** A logger that keeps every call. */
export function recordingLogger(): Logger & { lines: { level: string; message: string; meta?: unknown }[] } {
  const lines: { level: string; message: string; meta?: unknown }[] = [];
  const at =
    (level: string) =>
    (message: string, meta?: Record<string, unknown>): void => {
      lines.push({ level, message, meta });
    };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** A valid update-prices body for the demo package `premium-digital`. */
export function creditcardPrice(price: number) {
  return {
    package_integration_code: 'PREMIUM-DIGITAL',
    price_periods: [
      {
        subscription_type: 'recurring' as const,
        payment_option: 'creditcard' as const,
        type: 'month' as const,
        length: 1,
        price,
      },
    ],
  };
}

/** An error class of the SDK, as a row of a refusal table names it. */
export type ErrorClass = abstract new (...args: never[]) => APIError;

/**
 * A refusal the platform answered, as the SDK throws it: the error of its status family, with the
 * spec's `code` and `field`; the journal shows the platform answered it (the SDK did not refuse it
 * before sending); and the state is as it was before `send` (make the client, and its token, first).
 */
export async function expectPlatformRefusal(
  send: () => Promise<unknown>,
  errorClass: ErrorClass,
  code: string,
  field: string,
): Promise<void> {
  const before = platform.snapshot();
  const error = await send().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(errorClass);
  expect(error).toMatchObject({ code, field });
  const { status, correlationId } = error as APIError;
  expect(entryOf(platform, correlationId ?? null).status).toBe(status);
  expect(platform.snapshot()).toEqual(before);
}

/**
 * Mistakes in the options of a run helper (`syncInSequence`, `logInBatches`), each refused once,
 * before anything is sent: its name, the options, the field named and the code.
 */
export const RUN_OPTION_MISTAKES: readonly [string, Record<string, unknown>, string, string][] = [
  ['the controller given as the signal', { signal: new AbortController() }, 'signal', 'invalid_parameter'],
  ['a typo in a request option', { timout: 5 }, 'timout', 'unknown_parameter'],
  ['a request option out of its range', { timeout: -1 }, 'timeout', 'invalid_parameter'],
];
