/** The test-suite tools: reset, snapshot/restore, seeds, mintToken, clock, journal, faults. */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { internalsOf } from '../../mock/core/internals.js';
import { createPlatform, type StateDocument } from '../../mock/index.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { until } from '../until.js';
import {
  ADAPTERS,
  absent,
  demoCredentials,
  demoIds,
  entryOf,
  expectError,
  expectOk,
  paths,
  READ,
  requestsTo,
  useAdapter,
  WRITE,
} from './harness.js';

const creditcard = { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 1 };
const PRICES = { package_integration_code: 'PREMIUM-DIGITAL', price_periods: [creditcard] };

function get(platform: ReturnType<typeof createPlatform>, path: string, token?: string): Promise<Response> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return platform.handle(new Request(`https://api.platform.test${path}`, { headers }));
}

async function codes(platform: ReturnType<typeof createPlatform>, query = ''): Promise<string[]> {
  const token = platform.mintToken({ scopes: [READ] }).access_token;
  const res = await get(platform, `${paths.getProducts}${query}`, token);
  return GetProductsResponse.parse(await res.json())
    .items.map((p) => p.product_code)
    .sort();
}

describe('reset, snapshot, restore', () => {
  test('reset rebuilds every index from the seed, not only the document', async () => {
    const platform = createPlatform();
    const fresh = internalsOf(createPlatform())!.state.describeIndexes();
    const state = internalsOf(platform)!.state;
    // Writes that move records in and out of indexes: tokens, a ticket, a new product code, a new user-product.
    platform.mintToken({ scopes: [READ] });
    platform.issueTicket({ accountId: demoIds.accounts.anna, clientId: demoCredentials.clientId });
    const doc = platform.snapshot();
    doc.products = doc.products.map((p) => (p.product_code === 'e-paper' ? { ...p, product_code: 'e-paper-2' } : p));
    platform.restore(doc);
    const bo = state.userProductsOf(demoIds.accounts.bo)[0]!;
    state.userProducts.update(bo, (u) => {
      u.account_id = demoIds.accounts.anna;
    });
    expect(state.describeIndexes()).not.toEqual(fresh);
    platform.reset();
    expect(state.describeIndexes()).toEqual(fresh);
    // The old records are gone from every lookup, the seed's are back.
    expect(state.productByCode(demoIds.organisations.demo, 'e-paper-2')).toBeUndefined();
    expect(state.productByCode(demoIds.organisations.demo, 'e-paper')?.id).toBe(demoIds.products.ePaper);
    expect(state.userProductsOf(demoIds.accounts.anna).map((u) => u.id)).not.toContain(bo.id);
    expect(state.userProductsOf(demoIds.accounts.bo).map((u) => u.id)).toContain(bo.id);
  });

  test('update keeps an index right when an indexed field changes', () => {
    const state = internalsOf(createPlatform())!.state;
    const bo = state.userProductsOf(demoIds.accounts.bo)[0]!;
    state.userProducts.update(bo, (u) => {
      u.account_id = demoIds.accounts.anna.toUpperCase();
    });
    expect(state.userProductsOf(demoIds.accounts.bo)).toEqual([]);
    expect(state.userProductsOf(demoIds.accounts.anna)).toContain(bo);
  });

  test('reset returns to the seed: state, journal, faults and clock', async () => {
    const platform = createPlatform({ now: '2030-01-01T00:00:00Z' });
    const seed = platform.snapshot();
    const token = platform.mintToken({ scopes: [WRITE] }).access_token;
    await platform.handle(
      new Request(`https://api.platform.test${paths.updatePrices}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(PRICES),
      }),
    );
    platform.faults.add({ path: '/x', status: 503 });
    platform.clock.advance(86_400 * 365);
    expect(platform.snapshot()).not.toEqual(seed);
    platform.reset();
    expect(platform.snapshot()).toEqual(seed);
    expect(platform.requests.list()).toEqual([]);
    expect(platform.faults.list()).toEqual([]);
    expect(platform.clock.now().getUTCFullYear()).toBe(2030);
  });

  test('snapshot is a deep copy', () => {
    const platform = createPlatform();
    const doc = platform.snapshot();
    doc.products[0]!.name = 'changed';
    doc.products.pop();
    expect(platform.snapshot().products[0]!.name).toBe('Digital news');
  });

  test('restore replaces the state (indexes too); reset still returns to the seed', async () => {
    const platform = createPlatform();
    const doc = platform.snapshot();
    doc.products = doc.products.map((p) => (p.product_code === 'e-paper' ? { ...p, product_code: 'e-paper-2' } : p));
    platform.restore(doc);
    expect(await codes(platform, '?product_type=products')).toEqual(['digital-news', 'e-paper-2']);
    platform.reset();
    expect(await codes(platform, '?product_type=products')).toEqual(['digital-news', 'e-paper']);
  });

  test.each([
    [
      'an id that is not 24 hex characters',
      (d: StateDocument) => {
        d.products[0]!.id = 'x';
      },
      'invalid_parameter',
      'products[0].id',
    ],
    [
      'two products with one id',
      (d: StateDocument) => {
        d.products[1]!.id = d.products[0]!.id;
      },
      'invalid_parameter',
      'products[1].id',
    ],
    [
      'a product of an organisation not in the document',
      (d: StateDocument) => {
        d.products[0]!.organisation_id = absent.id;
      },
      'invalid_parameter',
      'products[0].organisation_id',
    ],
    [
      'two products with one integration code in one organisation',
      (d: StateDocument) => {
        d.products[1]!.integration_code = 'DIGITAL-NEWS';
      },
      'invalid_parameter',
      'products[1].integration_code',
    ],
    [
      'a field the document does not have',
      (d: StateDocument) => Object.assign(d.accounts[0]!, { age: 3 }),
      'unknown_parameter',
      'accounts[0].age',
    ],
    [
      'a price below 0 (a purchase would copy it into an order, whose amount is at least 0)',
      (d: StateDocument) => {
        d.products.find((p) => p.price_periods.some((pp) => pp.price !== undefined))!.price_periods[0]!.price = -5;
      },
      'invalid_parameter',
      expect.stringMatching(/^products\[\d+\]\.price_periods\[0\]\.price$/),
    ],
    [
      'a sharing option of a product not in the document',
      (d: StateDocument) => {
        d.product_sharing[0]!.product_id = absent.id;
      },
      'invalid_parameter',
      'product_sharing[0].product_id',
    ],
    [
      'a token of an account not in the document',
      (d: StateDocument) => {
        d.access_tokens.push({
          ...d.access_tokens[0]!,
          access_token: 'a-token-of-no-one',
          refresh_token: 'a-refresh-token-of-no-one',
          account_id: absent.id,
        });
      },
      'invalid_parameter',
      expect.stringMatching(/^access_tokens\[\d+\]\.account_id$/),
    ],
  ])('restore refuses %s, naming the field, and changes nothing', (_, spoil, code, field) => {
    const platform = createPlatform();
    platform.mintToken({ scopes: [READ] });
    const before = platform.snapshot();
    const doc = platform.snapshot();
    spoil(doc);
    expect(() => platform.restore(doc)).toThrow(expect.objectContaining({ status: 400, code, field }));
    expect(platform.snapshot()).toEqual(before);
  });
});

describe('seeds', () => {
  test('seed from a JSON document; every resource list may be left out', async () => {
    const demo = createPlatform().snapshot();
    const doc = JSON.parse(
      JSON.stringify({ organisations: demo.organisations, clients: demo.clients, products: demo.products.slice(0, 2) }),
    );
    const platform = createPlatform({ seed: doc });
    expect(await codes(platform)).toEqual(['digital-news', 'e-paper']);
    expect(platform.snapshot().accounts).toEqual([]);
  });

  test('the empty seed: the demo client and its organisation, nothing else', async () => {
    const platform = createPlatform({ seed: 'empty' });
    const doc = platform.snapshot();
    expect(doc.clients.map((c) => c.client_id)).toEqual([demoCredentials.clientId]);
    expect(doc.products).toEqual([]);
    expect(await codes(platform)).toEqual([]);
  });

  test('an invalid seed is refused, naming the field', () => {
    expect(() => createPlatform({ seed: { organisations: [{ id: '1', name: 'x', price_model: 'simple' }] } })).toThrow(
      expect.objectContaining({ code: 'invalid_parameter', field: 'organisations[0].id' }),
    );
  });
});

describe('mintToken', () => {
  test('issues a token for the first client by default, with the given scopes and the default lifetime', async () => {
    const platform = createPlatform();
    const token = platform.mintToken({ scopes: [READ] });
    expect(token).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: READ });
    const stored = platform.snapshot().access_tokens[0]!;
    expect(stored).toMatchObject({ client_id: demoCredentials.clientId, scopes: [READ], account_id: null });
    expect((await get(platform, paths.getProducts, token.access_token)).status).toBe(200);
  });

  test('for another client: that organisation sees its own products', async () => {
    const platform = createPlatform();
    const token = platform.mintToken({ scopes: [READ], clientId: demoIds.clients.complex.clientId });
    const res = await get(platform, paths.getProducts, token.access_token);
    expect(GetProductsResponse.parse(await res.json()).items.map((p) => p.product_code)).toEqual(['complex-bundle']);
  });

  test('tied to an account, with its own lifetime', () => {
    const platform = createPlatform();
    const token = platform.mintToken({ scopes: [READ], accountId: demoIds.accounts.anna, expiresIn: 60 });
    expect(token.expires_in).toBe(60);
    expect(platform.snapshot().access_tokens[0]!.account_id).toBe(demoIds.accounts.anna);
  });

  test.each([
    ['an unknown client', { clientId: 'nobody' }, 'client_id'],
    ['an unknown account', { accountId: absent.id }, 'account_id'],
    ['a lifetime that is not a positive integer', { expiresIn: 0 }, 'expires_in'],
  ])('refuses %s', (_, extra, field) => {
    const platform = createPlatform();
    expect(() => platform.mintToken({ scopes: [READ], ...extra })).toThrow(expect.objectContaining({ field }));
    expect(platform.snapshot().access_tokens).toEqual([]);
  });
});

describe('clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('set and advance; time keeps flowing from the set point', () => {
    // Real time passes on a fake Date (the platform clock reads Date.now): moved by the test, not by the machine.
    vi.useFakeTimers({ toFake: ['Date'] });
    const platform = createPlatform({ now: new Date('2040-02-03T04:05:06Z') });
    const start = platform.clock.now().getTime();
    expect(start).toBe(Date.parse('2040-02-03T04:05:06Z'));
    vi.advanceTimersByTime(1500);
    expect(platform.clock.now().getTime()).toBe(start + 1500);
    platform.clock.advance(60);
    expect(platform.clock.now().getTime()).toBe(start + 61_500);
    platform.clock.set('1999-01-01T00:00:00Z');
    expect(platform.clock.now().toISOString()).toBe('1999-01-01T00:00:00.000Z');
    vi.advanceTimersByTime(20);
    expect(platform.clock.now().toISOString()).toBe('1999-01-01T00:00:00.020Z');
    expect(() => platform.clock.set('not a date')).toThrow();
    // A day that does not exist is refused, not read as one in the next month; the clock stays.
    for (const day of ['2030-02-30T00:00:00Z', '2030-04-31T12:00:00+02:00', '2031-02-29T00:00:00Z'])
      expect(() => platform.clock.set(day)).toThrow();
    expect(platform.clock.now().toISOString()).toBe('1999-01-01T00:00:00.020Z');
    platform.clock.set('2028-02-29T00:00:00Z');
    expect(platform.clock.now().toISOString().slice(0, 10)).toBe('2028-02-29');
  });

  test('token expiry follows the clock: 401 after its lifetime', async () => {
    const platform = createPlatform();
    const { access_token } = platform.mintToken({ scopes: [READ] });
    platform.clock.advance(3599);
    expect((await get(platform, paths.getProducts, access_token)).status).toBe(200);
    platform.clock.advance(1);
    expect((await get(platform, paths.getProducts, access_token)).status).toBe(401);
  });

  test('whether a product is active follows the clock', async () => {
    const platform = createPlatform({ now: '1995-06-01T00:00:00Z' });
    expect(await codes(platform, '?product_type=packages')).toEqual(['legacy-package']);
    platform.clock.set('2026-06-01T00:00:00Z');
    expect(await codes(platform, '?product_type=packages')).toEqual(['basic-news', 'premium-digital']);
  });
});

describe('request journal', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  test('records method, url, path, query, headers, body, status, time and correlation id', async () => {
    // The platform clock reads Date.now, held still here: the request arrives at the instant the platform starts at.
    vi.useFakeTimers({ toFake: ['Date'] });
    const platform = createPlatform({ now: '2031-01-01T00:00:00Z' });
    const { access_token } = platform.mintToken({ scopes: [READ] });
    const res = await get(platform, `${paths.getProducts}?product_type=packages&tags=news`, access_token);
    const entry = entryOf(platform, res);
    expect(entry).toMatchObject({
      method: 'GET',
      url: `https://api.platform.test${paths.getProducts}?product_type=packages&tags=news`,
      path: paths.getProducts,
      query: { product_type: 'packages', tags: 'news' },
      headers: { authorization: 'Bearer [redacted]' },
      body: null,
      status: 200,
      received_at: '2031-01-01T00:00:00.000Z',
      correlation_id: res.headers.get('x-correlation-id'),
    });
  });

  test('received_at is when the request arrived by the platform clock, not when the journal is read', async () => {
    const platform = createPlatform();
    platform.clock.freeze();
    platform.clock.set('2031-01-01T00:00:00Z');
    await get(platform, '/a');
    platform.clock.advance(3600);
    await get(platform, '/b');
    platform.clock.advance(3600);
    expect(platform.requests.list().map((e) => e.received_at)).toEqual([
      '2031-01-01T00:00:00.000Z',
      '2031-01-01T01:00:00.000Z',
    ]);
  });

  test('never stores a secret: token, client secret (JSON and form), ticket, password, tokens in bodies and queries', async () => {
    const platform = createPlatform();
    const { access_token, refresh_token } = platform.mintToken({ scopes: [READ] });
    const post = (body: string, contentType: string, query = '') =>
      platform.handle(
        new Request(`https://auth.platform.test${paths.accessToken}${query}`, {
          method: 'POST',
          headers: { 'content-type': contentType, cookie: 'session=s3cr3t-cookie' },
          body,
        }),
      );
    await get(platform, paths.getProducts, access_token);
    const issued = await post(
      JSON.stringify({
        grant_type: 'none',
        client_id: demoCredentials.clientId,
        client_secret: demoCredentials.clientSecret,
      }),
      'application/json',
    );
    const newToken = ((await issued.json()) as { access_token: string }).access_token;
    const form = await post(
      new URLSearchParams({
        grant_type: 'none',
        client_id: demoCredentials.clientId,
        client_secret: demoCredentials.clientSecret,
      }).toString(),
      'application/x-www-form-urlencoded',
    );
    const refresh = await post(
      JSON.stringify({
        grant_type: 'refresh_token',
        refresh_token,
        nested: { password: 'hunter2-password', ticket: 'tkt-123456' },
      }),
      'application/json',
      `?at=tkt-in-query-123&access_token=${access_token}`,
    );
    await post(`{"client_secret": "${demoCredentials.clientSecret}", broken`, 'application/json');
    const journal = JSON.stringify(platform.requests.list());
    for (const secret of [
      access_token,
      refresh_token,
      newToken,
      demoCredentials.clientSecret,
      'hunter2-password',
      'tkt-123456',
      'tkt-in-query-123',
      's3cr3t-cookie',
    ]) {
      expect(journal).not.toContain(secret);
    }
    expect(entryOf(platform, issued).body).toBe(
      `{"grant_type":"none","client_id":"${demoCredentials.clientId}","client_secret":"[redacted]"}`,
    );
    expect(entryOf(platform, form).body).toBe(
      `grant_type=none&client_id=${demoCredentials.clientId}&client_secret=[redacted]`,
    );
    expect(entryOf(platform, refresh).query).toEqual({ at: '[redacted]', access_token: '[redacted]' });
  });

  test('clear empties it; the /__admin routes are not journaled', async () => {
    const platform = createPlatform();
    await get(platform, '/nowhere');
    await get(platform, '/__admin/state');
    expect(platform.requests.list().map((e) => `${e.path} ${e.status}`)).toEqual(['/nowhere 404']);
    platform.requests.clear();
    expect(platform.requests.list()).toEqual([]);
  });

  test('keeps the newest journalLimit entries', async () => {
    const platform = createPlatform({ journalLimit: 2 });
    for (const path of ['/a', '/b', '/c']) await get(platform, path);
    expect(platform.requests.list().map((e) => e.path)).toEqual(['/b', '/c']);
  });

  test('journalLimit 0 keeps none; a limit that is not an integer of 0 or more is refused', async () => {
    const platform = createPlatform({ journalLimit: 0 });
    await get(platform, '/a');
    expect(platform.requests.list()).toEqual([]);
    for (const journalLimit of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => createPlatform({ journalLimit })).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_parameter', field: 'journalLimit' }),
      );
  });
});

describe.each(ADAPTERS)('faults through %s', (kind) => {
  const h = useAdapter(kind);

  test('a status with Retry-After, once by default; the next request goes through', async () => {
    const token = h.token([READ]);
    h.platform.faults.add({ path: paths.getProducts, status: 503, headers: { 'retry-after': '2' } });
    const faulted = await h.call(paths.getProducts, { token });
    expectError(faulted, 503, 'internal_server_error');
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect(entryOf(h.platform, faulted).status).toBe(503);
    expectOk(await h.call(paths.getProducts, { token }), GetProductsResponse);
  });

  test('times, method and code', async () => {
    const token = h.token([READ]);
    h.platform.faults.add({ method: 'get', path: paths.getProducts, status: 429, code: 'rate_limited', times: 2 });
    h.platform.faults.add({ method: 'POST', path: paths.getProducts, status: 500 });
    expect(h.platform.faults.list()[0]).toMatchObject({ method: 'GET', times: 2 });
    expectError(await h.call(paths.getProducts, { token }), 429, 'rate_limited');
    expect(h.platform.faults.list()[0]?.times).toBe(1);
    expectError(await h.call(paths.getProducts, { token }), 429, 'rate_limited');
    expectOk(await h.call(paths.getProducts, { token }), GetProductsResponse);
    expect(h.platform.faults.list()).toHaveLength(1);
  });

  test('a 4xx status defaults to code injected_fault; a path ending in * matches a prefix; any path can fail', async () => {
    h.platform.faults.add({ path: `${paths.getProducts}*`, status: 409 });
    h.platform.faults.add({ path: '/not/a/route', status: 502 });
    expectError(await h.call(paths.getProductSharing, { token: h.token([READ]) }), 409, 'injected_fault');
    expectError(await h.call('/not/a/route'), 502, 'internal_server_error');
  });

  test('a path matches with or without its trailing slash, as routes answer both: the SDK sends /me/ and /titles/', async () => {
    const token = h.token([READ]);
    h.platform.faults.add({ path: `${paths.getProducts}/`, status: 503 });
    h.platform.faults.add({ path: '/external/api/v1/titles', status: 502 });
    h.platform.faults.add({ path: '/external/api/v1/titles/*', status: 504 });
    expectError(await h.call(paths.getProducts, { token }), 503, 'internal_server_error');
    expectError(await h.call('/external/api/v1/titles/', { token }), 502, 'internal_server_error');
    expectError(await h.call('/external/api/v1/titles', { token }), 504, 'internal_server_error');
    expect(h.platform.faults.list()).toEqual([]);
    // Another path that only starts the same is not the same path.
    h.platform.faults.add({ path: '/external/api/v1/titles', status: 502 });
    expect((await h.call('/external/api/v1/titlesx', { token })).status).not.toBe(502);
    expect(h.platform.faults.list()).toHaveLength(1);
  });

  describe('latency', () => {
    // The latency runs on fake timers: the test moves the time on and sees when the platform answers
    // (the journal entry's status is set then), whatever the machine's speed.
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    /** The statuses of the requests to the products path, 0 for one not answered yet. */
    const statuses = () => requestsTo(h.platform, paths.getProducts).map((e) => e.status);

    test('latency delays the answer, then the request goes on', async () => {
      h.platform.faults.add({ path: paths.getProducts, latencyMs: 150 });
      const answer = h.call(paths.getProducts, { token: h.token([READ]) });
      await until(() => expect(statuses()).toEqual([0]));
      await vi.advanceTimersByTimeAsync(149);
      expect(statuses()).toEqual([0]);
      await vi.advanceTimersByTimeAsync(1);
      expectOk(await answer, GetProductsResponse);
      expect(statuses()).toEqual([200]);
    });

    test('a write a latency fault holds across a reset: 409 invalid_state, no field, and nothing written into the new state', async () => {
      h.platform.faults.add({ path: paths.updatePrices, latencyMs: 100 });
      const answer = h.call(paths.updatePrices, { method: 'POST', json: PRICES, token: h.token() });
      await until(() => expect(requestsTo(h.platform, paths.updatePrices).map((e) => e.status)).toEqual([0]));
      h.platform.reset();
      const seeded = JSON.stringify(h.platform.snapshot());
      await vi.advanceTimersByTimeAsync(100);
      const refused = expectError(await answer, 409, 'invalid_state');
      expect(refused.message).toBe(
        "The platform's state was reset or replaced while a latency fault held this request: nothing was applied",
      );
      expect(JSON.stringify(h.platform.snapshot())).toBe(seeded);
    });

    test('latency combines with a status', async () => {
      h.platform.faults.add({ path: paths.getProducts, latencyMs: 100, status: 504 });
      const answer = h.call(paths.getProducts, { token: h.token([READ]) });
      await until(() => expect(statuses()).toEqual([0]));
      await vi.advanceTimersByTimeAsync(99);
      expect(statuses()).toEqual([0]);
      await vi.advanceTimersByTimeAsync(1);
      expectError(await answer, 504, 'internal_server_error');
    });
  });

  test('drop: the connection fails, fetch rejects', async () => {
    h.platform.faults.add({ path: paths.getProducts, drop: true });
    await expect(h.call(paths.getProducts, { token: h.token([READ]) })).rejects.toThrow(TypeError);
    expect(requestsTo(h.platform, paths.getProducts).map((e) => e.status)).toEqual([0]);
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('a malformed fault is refused', () => {
    expect(() => h.platform.faults.add({ path: 'no-slash' })).toThrow(expect.objectContaining({ field: 'path' }));
    expect(() => h.platform.faults.add({ path: '/x', times: 0 })).toThrow(expect.objectContaining({ field: 'times' }));
    expect(() => h.platform.faults.add({ path: '/x', status: 99 })).toThrow(
      expect.objectContaining({ field: 'status' }),
    );
    h.platform.faults.clear();
    expect(h.platform.faults.list()).toEqual([]);
  });

  test('a latency_ms of 2^31 ms or more (past what a timer waits) is 400 invalid_parameter naming latency_ms; the faults are unchanged', async () => {
    h.platform.faults.add({ path: '/kept', latencyMs: 5 });
    const before = h.platform.faults.list();
    for (const latency_ms of [2 ** 31, 2 ** 31 - 0.5, 1e12]) {
      const answer = await h.call('/__admin/faults', { json: { path: paths.getProducts, latency_ms } });
      expectError(answer, 400, 'invalid_parameter', 'latency_ms');
      expect(h.platform.faults.list()).toEqual(before);
    }
    expect(() => h.platform.faults.add({ path: paths.getProducts, latencyMs: 2 ** 31 })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_parameter', field: 'latency_ms' }),
    );
    expect(h.platform.faults.list()).toEqual(before);
    // The longest wait a timer takes is a fault's latency still.
    const longest = await h.call('/__admin/faults', { json: { path: '/longest', latency_ms: 2 ** 31 - 1 } });
    expect(longest.status).toBe(201);
    expect(h.platform.faults.list().at(-1)).toMatchObject({ path: '/longest', latencyMs: 2 ** 31 - 1 });
  });
});
