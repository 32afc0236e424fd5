/**
 * The standalone server's namespaces (`/_ns/{name}/...`): each a platform of its own, made from the
 * server's seed and options on its first request, so that parallel workers on one server reset and
 * write without seeing each other; names checked, their number capped, idle ones dropped. Plain
 * fetch for the platform; the SDK pointed at a prefixed base URL for "works unchanged".
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { REDACTED } from '../../mock/core/journal.js';
import { createPlatform, demoCredentials } from '../../mock/index.js';
import { helpText, parseCommandLine } from '../../mock/node/command-line.js';
import { Namespaces, sweepIntervalMs } from '../../mock/node/namespaces.js';
import { type RequestLogLine, type RunningServer, startServer } from '../../mock/node/server.js';
import { PlatformClient } from '../../src/index.js';
import { ErrorBody } from '../../src/schemas/common.js';
import { READ, WRITE } from '../fixtures.js';
import { paths } from '../paths.js';

/** An SDK client of the demo organisation whose every host is `base`. */
function sdkAt(base: string): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: { api: base, auth: base, sso: base, shop: base },
    auth: { clientId: demoCredentials.clientId, clientSecret: demoCredentials.clientSecret, scopes: [READ, WRITE] },
    retryDelay: { initial: 1, max: 5 },
  });
}

/** The creditcard price of premium-digital, as `client` reads it. */
async function premiumPrice(client: PlatformClient): Promise<number | undefined> {
  const { items } = await client.products.list({ product_code: 'premium-digital' });
  return items[0]?.price_periods.find((p) => p.payment_option === 'creditcard')?.price;
}

/** Sets the creditcard price of premium-digital. */
async function setPremiumPrice(client: PlatformClient, price: number): Promise<void> {
  await client.prices.update({
    package_integration_code: 'PREMIUM-DIGITAL',
    price_periods: [{ subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price }],
  });
}

/** Expects the common error body with this status, code and field. */
async function expectError(response: Response, status: number, code: string, field = 'unspecified_field') {
  const body = ErrorBody.parse(await response.json());
  expect({ status: response.status, code: body.code, field: body.field }).toEqual({ status, code, field });
  expect(body.api_correlation_id).toBe(response.headers.get('x-correlation-id'));
}

describe('namespaces of one server', () => {
  let server: RunningServer;
  const lines: RequestLogLine[] = [];
  beforeAll(async () => {
    server = await startServer({ port: 0, maxNamespaces: 3, onRequest: (line) => lines.push(line) });
  });
  afterAll(() => server.close());

  test('an SDK client pointed at a prefixed base URL works unchanged, and writes only its own namespace', async () => {
    const a = sdkAt(`${server.url}/_ns/a`);
    const b = sdkAt(`${server.url}/_ns/b`);
    const seedPrice = await premiumPrice(sdkAt(server.url));
    await setPremiumPrice(a, 12.5);
    await setPremiumPrice(b, 7);
    expect(await premiumPrice(a)).toBe(12.5);
    expect(await premiumPrice(b)).toBe(7);
    expect(await premiumPrice(sdkAt(server.url))).toBe(seedPrice);
    // A reset in one leaves the others as they are.
    expect((await fetch(`${server.url}/_ns/a/__admin/reset`, { method: 'POST' })).status).toBe(204);
    expect(await premiumPrice(a)).toBe(seedPrice);
    expect(await premiumPrice(b)).toBe(7);
  });

  test('each namespace has its own journal, clock and faults: /__admin works per namespace', async () => {
    const json = { 'content-type': 'application/json' };
    const admin = (name: string, path: string, body: unknown) =>
      fetch(`${server.url}/_ns/${name}/__admin/${path}`, { method: 'POST', headers: json, body: JSON.stringify(body) });
    await admin('a', 'clock', { now: '2031-01-01T00:00:00Z' });
    await admin('a', 'faults', { path: paths.getProducts, status: 503 });
    const clock = (name: string) =>
      fetch(`${server.url}/_ns/${name}/__admin/clock`).then((r) => r.json() as Promise<{ now: string }>);
    expect((await clock('a')).now).toMatch(/^2031-01-01T00:00/);
    expect((await clock('b')).now).not.toMatch(/^2031/);
    const read = (name: string) => {
      const token = server.namespace(name)?.mintToken({ scopes: [READ] }).access_token;
      return fetch(`${server.url}/_ns/${name}${paths.getProducts}`, { headers: { authorization: `Bearer ${token}` } });
    };
    const [inA, inB] = [await read('a'), await read('b')];
    expect([inA.status, inB.status]).toEqual([503, 200]);
    const id = inB.headers.get('x-correlation-id');
    expect(
      server
        .namespace('b')
        ?.requests.list()
        .some((e) => e.correlation_id === id),
    ).toBe(true);
    expect(
      server
        .namespace('a')
        ?.requests.list()
        .some((e) => e.correlation_id === id),
    ).toBe(false);
    expect(server.platform.requests.list().some((e) => e.correlation_id === id)).toBe(false);
  });

  test.each([
    ['upper case', 'Team'],
    ['a hyphen at an end', '-a'],
    ['an underscore', 'a_b'],
    ['33 characters', 'a'.repeat(33)],
    ['no name', ''],
    ['a percent-encoded name', '%61'],
  ])('a namespace name with %s is 400 invalid_parameter naming namespace; no namespace is made', async (_, name) => {
    const before = server.platform.snapshot();
    await expectError(
      await fetch(`${server.url}/_ns/${name}${paths.getProducts}`),
      400,
      'invalid_parameter',
      'namespace',
    );
    expect(server.namespace(name)).toBeUndefined();
    expect(server.platform.snapshot()).toEqual(before);
  });

  test('past --max-namespaces a new namespace is 503 namespace_limit_reached with Retry-After; those held still answer', async () => {
    await fetch(`${server.url}/_ns/c/openapi.json`);
    const before = server.platform.snapshot();
    const refused = await fetch(`${server.url}/_ns/d${paths.getProducts}`);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    await expectError(refused, 503, 'namespace_limit_reached', 'namespace');
    expect(server.namespace('d')).toBeUndefined();
    expect(server.platform.snapshot()).toEqual(before);
    expect((await fetch(`${server.url}/_ns/c/__admin/clock`)).status).toBe(200);
  });

  test('a request the server refuses (a Host it does not answer) makes no namespace', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const url = new URL(`${server.url}/_ns/e${paths.getProducts}`);
      request(url, { headers: { host: 'rebound.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
    expect(server.namespace('e')).toBeUndefined();
  });

  test("the request log redacts a namespace's secret path parameters (an SSO session's sid)", async () => {
    const sid = server.namespace('a')?.sso.createSession() ?? '';
    const answer = await fetch(`${server.url}/_ns/a/__admin/sso/sessions/${sid}`);
    expect(answer.status).toBe(200);
    const line = lines.find((l) => l.path.startsWith('/_ns/a/__admin/sso/sessions/'));
    expect(line?.path).toBe(`/_ns/a/__admin/sso/sessions/${REDACTED}`);
  });
});

describe("a namespace is made with the server's seed and options", () => {
  test('--seed empty: a new namespace starts empty too (no accounts, no products)', async () => {
    const server = await startServer({ port: 0, seed: 'empty' });
    try {
      const state = await fetch(`${server.url}/_ns/x/__admin/state`).then(
        (r) => r.json() as Promise<{ accounts: []; products: [] }>,
      );
      expect({ accounts: state.accounts, products: state.products }).toEqual({ accounts: [], products: [] });
    } finally {
      await server.close();
    }
  });

  test('a platform given: its options (here the production paths and an admin token) hold in every namespace', async () => {
    const platform = createPlatform({ environment: 'production', adminToken: 'team-admin-token' });
    const server = await startServer({ port: 0, platform });
    try {
      expect((await fetch(`${server.url}/_ns/x/__admin/state`)).status).toBe(401);
      // Refused, so no namespace is left behind; with the token it is made, with the platform's options.
      expect(server.namespace('x')).toBeUndefined();
      const authorization = 'Bearer team-admin-token';
      expect((await fetch(`${server.url}/_ns/x/__admin/state`, { headers: { authorization } })).status).toBe(200);
      expect(server.namespace('x')?.environment).toBe('production');
    } finally {
      await server.close();
    }
  });

  test("each namespace's journal keeps its share of one text budget (128 Mi characters over --max-namespaces): more namespaces, less each, so a flood of large bodies stays within one bound", async () => {
    const server = await startServer({ port: 0, maxNamespaces: 1024 });
    try {
      // 128 Mi / 1024 = 131072 characters: two bodies of 60,000 characters fit, a third pushes out the oldest.
      const post = (base: string) =>
        fetch(`${base}${paths.updatePrices}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ pad: 'x'.repeat(60_000) }),
        });
      // An accepted request keeps the namespace; the refused writes are journaled with their bodies.
      await fetch(`${server.url}/_ns/a/__admin/clock`);
      for (let i = 0; i < 4; i++) await post(`${server.url}/_ns/a`);
      expect(server.namespace('a')?.requests.list()).toHaveLength(2);
      // The root keeps its own 16 Mi.
      for (let i = 0; i < 4; i++) await post(server.url);
      expect(server.platform.requests.list()).toHaveLength(4);
      // A body over the whole share is not kept, only its length: each namespace holds its share, not a body each.
      const over = JSON.stringify({ pad: 'y'.repeat(200_000) });
      await fetch(`${server.url}/_ns/b/__admin/clock`);
      for (const name of ['a', 'b']) {
        await fetch(`${server.url}/_ns/${name}${paths.updatePrices}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: over,
        });
        const [entry, ...others] = server.namespace(name)?.requests.list() ?? [];
        expect(others).toEqual([]);
        expect(entry?.body).toBe(`…[truncated by the journal: 0 of ${over.length} characters kept]`);
      }
      // The root, whose budget it fits, keeps its first 65,536 characters as it keeps any body's.
      await fetch(`${server.url}${paths.updatePrices}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: over,
      });
      expect(server.platform.requests.list().at(-1)?.body).toMatch(
        /^\{"pad":"y{65528}…\[truncated by the journal: 65536 of 200010/,
      );
    } finally {
      await server.close();
    }
  });

  test('--max-namespaces 0: no namespaces; /_ns/... is an unknown path of the platform', async () => {
    const server = await startServer({ port: 0, maxNamespaces: 0 });
    try {
      await expectError(await fetch(`${server.url}/_ns/a${paths.getProducts}`), 404, 'not_found');
      expect(server.namespace('a')).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});

describe('idle namespaces are dropped on the real clock (fake timers here)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a namespace without a request for the idle time is dropped at the next sweep; one used meanwhile stays', async () => {
    vi.useFakeTimers();
    const idleMs = 60_000;
    const made: string[] = [];
    const namespaces = new Namespaces({ max: 4, idleMs, create: (name) => made.push(name) });
    try {
      namespaces.enter('a');
      namespaces.enter('b');
      await vi.advanceTimersByTimeAsync(idleMs / 2);
      namespaces.enter('b');
      await vi.advanceTimersByTimeAsync(idleMs / 2 + sweepIntervalMs(idleMs));
      expect(namespaces.names()).toEqual(['b']);
      await vi.advanceTimersByTimeAsync(idleMs);
      expect(namespaces.names()).toEqual([]);
      // Made afresh on its next request.
      namespaces.enter('a');
      expect(made).toEqual(['a', 'b', 'a']);
    } finally {
      namespaces.close();
    }
  });

  test('a dropped namespace is retired first (its state written); a request while it is retired keeps it', async () => {
    vi.useFakeTimers();
    const idleMs = 10_000;
    let finish = () => {};
    const retired: string[] = [];
    const namespaces = new Namespaces({
      max: 4,
      idleMs,
      create: (name) => ({ name }),
      retire: (name) =>
        new Promise<void>((resolve) => {
          retired.push(name);
          finish = resolve;
        }),
    });
    try {
      const first = namespaces.enter('a');
      await vi.advanceTimersByTimeAsync(idleMs + sweepIntervalMs(idleMs));
      expect(retired).toEqual(['a']);
      expect(namespaces.enter('a')).toBe(first);
      finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(namespaces.get('a')).toBe(first);
    } finally {
      namespaces.close();
    }
  });

  test('the cap counts held namespaces only: once one is dropped, a new one is made', async () => {
    vi.useFakeTimers();
    const idleMs = 10_000;
    const namespaces = new Namespaces({ max: 1, idleMs, create: (name) => name });
    try {
      namespaces.enter('a');
      expect(() => namespaces.enter('b')).toThrow(expect.objectContaining({ status: 503 }));
      await vi.advanceTimersByTimeAsync(idleMs + sweepIntervalMs(idleMs));
      expect(namespaces.enter('b')).toBe('b');
    } finally {
      namespaces.close();
    }
  });
});

describe('the command line of a shared server', () => {
  test('--max-namespaces, --namespace-idle and --state-file set the server options; the help shows their defaults', () => {
    const command = parseCommandLine(['--max-namespaces', '8', '--namespace-idle', '120', '--state-file', 'team.json']);
    expect(command).toMatchObject({
      action: 'serve',
      server: { maxNamespaces: 8, namespaceIdleSeconds: 120, stateFile: 'team.json' },
    });
    const help = helpText();
    expect(help).toMatch(/--max-namespaces <n> .*\(default 32\)/);
    expect(help).toMatch(/--namespace-idle <s> .*\(default 900\)/);
    expect(help).toContain('--state-file <path>');
    expect(() => parseCommandLine(['--namespace-idle', '0'])).toThrow(/invalid --namespace-idle: 0/);
  });
});
