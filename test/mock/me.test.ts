/**
 * The me API (endpoint 24, and what the platform's public documentation adds), through both
 * adapters: `GET /external/api/v1/me` in both shapes (`meShape`), `/external/api/v3/me` and the
 * user's own active products. Every refusal changes nothing.
 */
import { describe, expect, test } from 'vitest';
import * as e from '../../src/endpoints.js';
import { ActiveProductsResponse, DocumentedMeResponse, DocumentedMeV3Response } from '../../src/schemas/me.js';
import { SignedInUser } from '../../src/schemas/sign-on.js';
import { ADAPTERS, demoIds, expectError, expectOk, expectUnchanged, useAdapter } from './harness.js';

const path = {
  me: e.pathOf(e.getSignedInUser, 'stage'),
  v3: e.pathOf(e.getMeDocumented, 'stage'),
  mine: e.pathOf(e.getMyActiveProducts, 'stage'),
};
const { eva, gus, anna } = demoIds.accounts;
const ME_W = ['/external/me/w'];

describe.each(ADAPTERS)('the me API through %s', (kind) => {
  const h = useAdapter(kind);
  const user = (accountId: string, scopes = ME_W) => h.platform.mintToken({ scopes, accountId }).access_token;

  describe('GET /external/api/v1/me (endpoint 24)', () => {
    test("by default the spec's shape", async () => {
      expect(expectOk(await h.call(path.me, { token: user(eva) }), SignedInUser).id).toBe(eva);
    });
  });

  describe('GET /external/api/v3/me', () => {
    test('the documented { item }: snake_case, every user-product with its state and end dates', async () => {
      const { item } = expectOk(await h.call(path.v3, { token: user(eva) }), DocumentedMeV3Response);
      expect(item).toMatchObject({ id: eva, email: 'eva@example.com', status: 'active', first_name: 'Eva' });
      const states = h.platform.snapshot().user_products.filter((u) => u.account_id === eva);
      expect(item.user_products.map((u) => u.id).sort()).toEqual(states.map((u) => u.id).sort());
      const cancelled = item.user_products.find((u) => u.state === 'cancelled')!;
      expect(cancelled.subscription_end_date).toBe(cancelled.valid_to);
      expect(Object.keys(item.address).sort()).toEqual([
        'apartment_number',
        'city',
        'drop_box',
        'first_name',
        'floor',
        'last_name',
        'staircase',
        'street',
        'street_number',
        'zip_code',
      ]);
    });

    test("a cancelled user-product is read deactivated once its term has ended, as the platform deactivates it then (the platform's documentation)", async () => {
      const read = async () =>
        Object.fromEntries(
          expectOk(await h.call(path.v3, { token: user(eva) }), DocumentedMeV3Response).item.user_products.map((u) => [
            u.id,
            u.state,
          ]),
        );
      // Eva's basic-news was cancelled and its term ended in 2001; her premium-summer is cancelled, in term to 2999.
      const ended = demoIds.userProducts.evaBasicEnded;
      const inTerm = h.platform
        .snapshot()
        .user_products.find((u) => u.account_id === eva && u.id !== ended && u.state === 'cancelled')!;
      expect(await read()).toMatchObject({ [ended]: 'deactivated', [inTerm.id]: 'cancelled' });
      // The record keeps the state it was given; the clock moved past the other term reads it deactivated too.
      expect(h.platform.snapshot().user_products.find((u) => u.id === ended)?.state).toBe('cancelled');
      h.platform.clock.set(new Date(Date.parse(inTerm.valid_to) + 1000).toISOString());
      expect(await read()).toMatchObject({ [ended]: 'deactivated', [inTerm.id]: 'deactivated' });
    });

    test('user-products oldest created first, compared as instants: a time with an offset sorts by when it was', async () => {
      const doc = h.platform.snapshot();
      const evas = doc.user_products.filter((u) => u.account_id === eva);
      expect(evas.length).toBeGreaterThanOrEqual(2);
      const [first, second] = evas;
      // 12:00+05:00 is 07:00Z: the second user-product was created first, though its text sorts after.
      first!.created = '2024-02-01T09:00:00Z';
      second!.created = '2024-02-01T12:00:00+05:00';
      h.platform.restore(doc);
      const { item } = expectOk(await h.call(path.v3, { token: user(eva) }), DocumentedMeV3Response);
      expect(item.user_products.slice(0, 2).map((u) => u.id)).toEqual([second!.id, first!.id]);
    });

    test.each([
      ['no token', null, 401, 'invalid_token', 'authorization'],
      ['a token without a user', 'client', 403, 'identity_required', undefined],
      ['a user token without /external/me/w', 'noscope', 403, 'insufficient_scope', undefined],
    ] as const)('%s: %s %s; nothing changes', async (_, which, status, code, field) => {
      const token = which === null ? null : which === 'client' ? h.token(ME_W) : user(eva, ['/external/me/r']);
      expectError(await expectUnchanged(h.platform, () => h.call(path.v3, { token })), status, code, field);
    });
  });

  describe('the user\u2019s active products', () => {
    test("the user's own: activated and cancelled-in-term, packages expanded, sorted", async () => {
      const { item } = expectOk(await h.call(path.mine, { token: user(gus) }), ActiveProductsResponse);
      expect(item).toEqual({ id: gus, active_products: ['basic-news', 'digital-news', 'e-paper', 'premium-digital'] });
      // Eva's premium-summer is cancelled but still in term; her basic-news has ended.
      const evas = expectOk(await h.call(path.mine, { token: user(eva) }), ActiveProductsResponse).item;
      expect(evas.active_products).toContain('premium-summer');
      expect(evas.active_products).not.toContain('basic-news');
      // Anna's only subscription is deactivated.
      expect(
        expectOk(await h.call(path.mine, { token: user(anna) }), ActiveProductsResponse).item.active_products,
      ).toEqual([]);
    });
  });
});

describe.each(ADAPTERS)("meShape: 'documented' through %s", (kind) => {
  const h = useAdapter(kind, { meShape: 'documented' });

  test('GET /external/api/v1/me answers the documented { item }, v1 user-products (no state)', async () => {
    const token = h.platform.mintToken({ scopes: ME_W, accountId: eva }).access_token;
    const { item } = expectOk(await h.call(path.me, { token }), DocumentedMeResponse);
    expect(item.id).toBe(eva);
    expect(item.user_products.length).toBeGreaterThan(0);
    expect(item.user_products[0]).not.toHaveProperty('state');
  });

  test('an unknown meShape is refused when the platform is created', async () => {
    const { createPlatform } = await import('../../mock/index.js');
    expect(() => createPlatform({ meShape: 'camel' as never })).toThrow(expect.objectContaining({ field: 'meShape' }));
  });
});
