/**
 * Expiries and ages at exactly their instant, on a frozen platform clock: a ticket expires when
 * `now >= expires_at`, an access token likewise, and a buyer is 18 from the first instant of the
 * 18th birthday. One millisecond earlier each is still the other way. Then the clock itself: it
 * stands still when frozen, and refuses a time it cannot show. Last, a cancelled user-product's
 * term: it counts until `valid_to` and not from its instant on.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import { getMyActiveProducts, pathOf } from '../../src/endpoints.js';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { ActiveProductsResponse } from '../../src/schemas/me.js';
import { OrderValidationResponse } from '../../src/schemas/orders.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { ADAPTERS, demoIds, expectError, expectOk, expectUnchanged, paths, READ, useAdapter } from './harness.js';

const T0 = '2030-01-01T00:00:00.000Z';
const site = demoIds.clients.site;
const { anna } = demoIds.accounts;

describe.each(ADAPTERS)('expiries at their exact instant, through %s', (kind) => {
  const h = useAdapter(kind, { now: T0 });
  const at = (ms: number) => h.platform.clock.set(new Date(Date.parse(T0) + ms));
  /** Stops the clock at exactly T0: what is issued now expires at exactly T0 + its lifetime. */
  const standStill = () => {
    h.platform.clock.freeze();
    at(0);
  };
  const exchange = (ticket: string) =>
    h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: { grant_type: 'ticket', ticket, client_id: site.clientId, client_secret: site.clientSecret },
    });

  test('a ticket (60 s) is usable at 59.999 s and expired at exactly 60 s: 401 invalid_grant', async () => {
    standStill();
    const early = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    const late = h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    at(59_999);
    expectOk(await exchange(early), AccessTokenResponse);
    at(60_000);
    const body = await expectUnchanged(h.platform, async () =>
      expectError(await exchange(late), 401, 'invalid_grant', 'ticket'),
    );
    expect(body.message).toMatch(/expired/);
  });

  test('an access token (3600 s) is accepted at 3599.999 s and refused at exactly 3600 s: 401 invalid_token', async () => {
    standStill();
    const token = h.token([READ]);
    at(3_599_999);
    expectOk(await h.call(paths.getProducts, { token }), GetProductsResponse);
    at(3_600_000);
    const body = expectError(await h.call(paths.getProducts, { token }), 401, 'invalid_token', 'authorization');
    expect(body.message).toMatch(/expired/i);
  });

  test('order validation: too_young 1 ms before the 18th birthday, allowed at its first instant', async () => {
    const query = { product_code: 'premium-digital', date_of_birth: '2012-06-15T00:00:00Z' };
    h.platform.clock.freeze();
    h.platform.clock.set('2030-06-14T23:59:59.999Z');
    const token = h.token(['/external/order_validation/r']);
    const validate = async () =>
      expectOk(await h.call(paths.validateOrder, { query, token }), OrderValidationResponse).item;
    expect(await validate()).toMatchObject({ purchase_allowed: false, reason: 'too_young' });
    h.platform.clock.set('2030-06-15T00:00:00.000Z');
    expect(await validate()).toMatchObject({ purchase_allowed: true, reason: null });
  });
});

describe('the platform clock', () => {
  const h = useAdapter('msw', { now: T0 });
  // Time passes on a fake Date (the platform clock reads Date.now): moved by the test, no real wait.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('frozen, it stands still; set and advance move it; resumed, it flows from where it stood', async () => {
    const clock = h.platform.clock;
    clock.freeze();
    expect(clock.frozen).toBe(true);
    const still = clock.now().getTime();
    vi.advanceTimersByTime(20);
    expect(clock.now().getTime()).toBe(still);
    clock.advance(1.5);
    expect(clock.now().getTime()).toBe(still + 1500);
    clock.resume();
    expect(clock.frozen).toBe(false);
    vi.advanceTimersByTime(20);
    expect(clock.now().getTime()).toBe(still + 1520);
  });

  test('reset unfreezes it and returns it to where it started', () => {
    h.platform.clock.freeze();
    h.platform.clock.advance(86_400);
    h.platform.reset();
    expect(h.platform.clock.frozen).toBe(false);
    // The fake Date stands still (the test moves it): the clock is back exactly where it started.
    expect(h.platform.clock.now().toISOString()).toBe(T0);
  });

  test('POST /__admin/clock {"frozen": true} stops it, with now in the same call; GET shows it standing', async () => {
    const set = await h.call('/__admin/clock', {
      method: 'POST',
      json: { now: '2031-02-03T04:05:06.007Z', frozen: true },
    });
    expect(set.body).toEqual({ now: '2031-02-03T04:05:06.007Z', frozen: true });
    vi.advanceTimersByTime(20);
    expect((await h.call('/__admin/clock')).body).toEqual({ now: '2031-02-03T04:05:06.007Z', frozen: true });
    const resumed = await h.call('/__admin/clock', { method: 'POST', json: { frozen: false } });
    expect(resumed.body).toMatchObject({ frozen: false });
  });

  test.each([
    // Each but the last also asks to resume: a refused request must not do that either.
    ['advance_seconds far ahead', { advance_seconds: 1e300, frozen: false }, 'advance_seconds'],
    ['advance_seconds far back', { advance_seconds: -1e20, frozen: false }, 'advance_seconds'],
    ['advance_seconds past the year 9999', { advance_seconds: 8.64e12, frozen: false }, 'advance_seconds'],
    ['advance_seconds and now together', { advance_seconds: 1, now: T0, frozen: false }, 'now'],
    ['an empty body', {}, 'advance_seconds'],
  ])(
    'refuses %s: 400 invalid_parameter, the clock does not move, and every route still answers',
    async (_, json, field) => {
      h.platform.clock.freeze();
      const before = h.platform.clock.now().toISOString();
      expectError(await h.call('/__admin/clock', { method: 'POST', json }), 400, 'invalid_parameter', field);
      expect(h.platform.clock.now().toISOString()).toBe(before);
      expect(h.platform.clock.frozen).toBe(true);
      expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
    },
  );

  test('in process, a time outside the years 0001 to 9999 is refused naming the field', () => {
    expect(() => h.platform.clock.set(new Date(8.64e15))).toThrow(
      expect.objectContaining({ status: 400, field: 'now' }),
    );
    expect(() => h.platform.clock.advance(Number.NaN)).toThrow(expect.objectContaining({ field: 'advance_seconds' }));
    expect(() => h.platform.mintToken({ scopes: [READ], expiresIn: 1e13 })).toThrow(
      expect.objectContaining({ field: 'expires_in' }),
    );
  });
});

describe.each(ADAPTERS)('the clock at the end of its range, through %s', (kind) => {
  const h = useAdapter(kind, { now: T0 });
  const setClock = (json: unknown) => h.call('/__admin/clock', { method: 'POST', json });
  /** The state document as GET /__admin/state answers it, put back whole with PUT. */
  const roundTrip = async () => {
    const read = await h.call('/__admin/state');
    expect(read.status).toBe(200);
    const put = await h.call('/__admin/state', {
      method: 'PUT',
      body: read.text,
      headers: { 'content-type': 'application/json' },
    });
    expect(put.status, put.text).toBe(204);
    expect((await h.call('/__admin/state')).body).toEqual(read.body);
  };
  afterEach(() => {
    vi.useRealTimers();
  });

  test('a now in the last year the clock can show is refused: 400 invalid_parameter naming now; the clock does not move', async () => {
    h.platform.clock.freeze();
    const before = h.platform.clock.now().toISOString();
    for (const now of ['9999-12-31T23:59:58Z', '9999-01-01T00:00:00.000Z']) {
      const body = expectError(await setClock({ now }), 400, 'invalid_parameter', 'now');
      expect(body.message).toContain('9998-12-31T23:59:59.999Z');
    }
    expectError(await setClock({ advance_seconds: 8000 * 365 * 86_400 }), 400, 'invalid_parameter', 'advance_seconds');
    expect(h.platform.clock.now().toISOString()).toBe(before);
    expect(() => createPlatform({ now: '9999-06-01T00:00:00Z' })).toThrow(expect.objectContaining({ field: 'now' }));
  });

  test('at the latest settable time a new token lives its whole lifetime, and the state round-trips', async () => {
    expect((await setClock({ now: '9998-12-31T23:59:59.999Z', frozen: true })).status).toBe(200);
    const token = h.token([READ]);
    expectOk(await h.call(paths.getProducts, { token }), GetProductsResponse);
    expect(h.platform.snapshot().access_tokens.find((t) => t.access_token === token)?.expires_at).toBe(
      '9999-01-01T00:59:59.999Z',
    );
    h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    await roundTrip();
  });

  test('a clock that flows past the last instant of 9999 stands still there, and every date it writes stays in range', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse(T0) });
    expect((await setClock({ now: '9998-12-31T23:59:58Z' })).status).toBe(200);
    // Two years of real time flow by.
    vi.setSystemTime(Date.now() + 2 * 366 * 86_400_000);
    expect((await h.call('/__admin/clock')).body).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: false });
    h.platform.issueTicket({ accountId: anna, clientId: site.clientId });
    h.platform.mintToken({ scopes: [READ] });
    const session = h.platform.sso.createSession({ clientId: site.clientId });
    h.platform.sso.terminate(session);
    await roundTrip();
  });
});

describe.each(ADAPTERS)("a cancelled user-product's term at its exact end, through %s", (kind) => {
  const h = useAdapter(kind, { now: T0 });
  const { eva } = demoIds.accounts;
  const VALID_TO = Date.parse('2030-06-01T00:00:00.000Z');

  test('a cancelled subscription gives access until valid_to exactly, not a millisecond more: endpoint 9 and the active products', async () => {
    // Eva's cancelled premium-summer (a campaign of premium-digital) ends at VALID_TO.
    const doc = h.platform.snapshot();
    doc.user_products = doc.user_products.map((u) =>
      u.id === demoIds.userProducts.evaSummerCancelled ? { ...u, valid_to: new Date(VALID_TO).toISOString() } : u,
    );
    h.platform.restore(doc);
    h.platform.clock.freeze();
    const at = (ms: number) => h.platform.clock.set(new Date(VALID_TO + ms));
    at(-1);
    const token = h.token(['/external/order_validation/r']);
    const user = h.platform.mintToken({ scopes: ['/external/me/w'], accountId: eva }).access_token;
    const mine = pathOf(getMyActiveProducts, 'stage');
    const held = async () => ({
      order: expectOk(
        await h.call(paths.validateOrder, { query: { product_code: 'premium-digital', account_id: eva }, token }),
        OrderValidationResponse,
      ).item.reason,
      access: expectOk(await h.call(mine, { token: user }), ActiveProductsResponse).item.active_products.includes(
        'premium-summer',
      ),
    });
    expect(await held()).toEqual({ order: 'already_subscribed', access: true });
    at(0);
    expect(await held()).toEqual({ order: null, access: false });
    at(1);
    expect(await held()).toEqual({ order: null, access: false });
  });
});
