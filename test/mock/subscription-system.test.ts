/**
 * The external subscription system (endpoints 17, 18, 19, 20), through both adapters with plain
 * fetch, and the admin routes that change it between calls.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { ValidateGiftReceiverResponse } from '../../src/schemas/orders.js';
import { SignedInUser } from '../../src/schemas/sign-on.js';
import { DistributionInformationResponse } from '../../src/schemas/subscription-system.js';
import { ADAPTERS, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter } from './harness.js';

const W = '/external/subscription_system/w';
const R = '/external/subscription_system/r';
const { anna, gus, eva, dora } = demoIds.accounts;
const ups = demoIds.userProducts;
const demoOrg = demoIds.organisations.demo;

describe.each(ADAPTERS)('the external subscription system through %s', (kind) => {
  const h = useAdapter(kind, { syncProcessingMs: 0 });
  let token: string;
  beforeEach(() => {
    token = h.token([W, R, '/external/order/r']);
  });
  const put = (path: string, json: unknown) => h.call(path, { method: 'PUT', json, token });
  const doc = () => h.platform.snapshot();
  const accountOf = (id: string) => doc().accounts.find((a) => a.id === id);
  /** The state without the organisation's integration. */
  const withoutIntegration = () => {
    const d = h.platform.snapshot();
    d.subscription_systems = d.subscription_systems.filter((s) => s.organisation_id !== demoOrg);
    h.platform.restore(d);
    token = h.token([W, R, '/external/order/r']);
  };

  describe('18. sync address', () => {
    test("the account gets the external system's address; endpoint 24 shows it", async () => {
      const { id } = expectOk(await put(paths.syncAddress, { customer_number: 'C1001' }), IdResponse);
      expect(id).toBe(anna);
      expect(accountOf(anna)?.address).toEqual({
        street: 'Nygatan 9',
        zip_code: '113 45',
        city: 'Stockholm',
        country_code: 'SE',
      });
      const user = h.platform.mintToken({ scopes: [], accountId: anna }).access_token;
      const me = expectOk(await h.call(paths.me, { token: user }), SignedInUser);
      expect(me.address).toEqual({ street: 'Nygatan 9', zipCode: '113 45', city: 'Stockholm', countryCode: 'SE' });
    });

    test('a customer the system knows without an address: 200, the account keeps its own', async () => {
      const before = accountOf(eva)?.address;
      expectOk(await put(paths.syncAddress, { customer_number: 'C1005' }), IdResponse);
      expect(accountOf(eva)?.address).toEqual(before);
    });

    test.each([
      ['no account has the customer number', 'C9999', 404, 'not_found', 'customer_number'],
      ['the external system does not know the customer', 'C1008', 404, 'not_found', 'customer_number'],
      ["another organisation's customer", 'C2001', 404, 'not_found', 'customer_number'],
      ['a customer number that breaks the rule', 'C 1001', 400, 'invalid_parameter', 'customer_number'],
      ['a customer number of 51 characters', 'C'.repeat(51), 400, 'invalid_parameter', 'customer_number'],
    ])('refuses when %s', async (_, customer_number, status, code, field) => {
      const answer = await expectUnchanged(h.platform, () => put(paths.syncAddress, { customer_number }));
      expectError(answer, status, code, field);
    });

    test('an organisation without an integration: 400 configuration_error', async () => {
      withoutIntegration();
      const answer = await expectUnchanged(h.platform, () => put(paths.syncAddress, { customer_number: 'C1001' }));
      expectError(answer, 400, 'configuration_error');
    });
  });

  describe('19. sync customer subscriptions', () => {
    const ofGus = () => doc().user_products.filter((u) => u.account_id === gus);

    test("creates what is missing: Anna's e-paper, controlled by the external system, with its number", async () => {
      expectOk(await put(paths.syncSubscriptions, { customer_number: 'C1001' }), IdResponse);
      const created = doc().user_products.filter((u) => u.account_id === anna && u.provision_service === 'paperline');
      expect(created).toEqual([
        expect.objectContaining({
          product_code: 'e-paper',
          state: 'activated',
          subscription_number: 'PL-1001-1',
          valid_to: '2999-12-31T23:59:59Z',
        }),
      ]);
    });

    test('updates what changed and deactivates what the system no longer has; others are untouched', async () => {
      const before = ofGus();
      expectOk(await put(paths.syncSubscriptions, { customer_number: 'C1007' }), IdResponse);
      const after = ofGus();
      expect(after.find((u) => u.id === ups.gusPaperlineEpaper)).toMatchObject({
        state: 'activated',
        valid_to: '2999-12-31T23:59:59Z',
      });
      expect(after.find((u) => u.id === ups.gusPaperlineDigital)?.state).toBe('deactivated');
      // The platform's and another provision service's user-products are left alone.
      for (const id of [ups.gusPsp, ups.gusOtherProvision])
        expect(after.find((u) => u.id === id)).toEqual(before.find((u) => u.id === id));
    });

    test('run twice, the second changes nothing', async () => {
      expectOk(await put(paths.syncSubscriptions, { customer_number: 'C1007' }), IdResponse);
      await expectUnchanged(h.platform, async () =>
        expectOk(await put(paths.syncSubscriptions, { customer_number: 'C1007' }), IdResponse),
      );
    });

    test('a product the organisation does not have refuses the whole sync: 404 not_found, nothing changed', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        put(paths.syncSubscriptions, { customer_number: 'C1010' }),
      );
      const error = expectError(answer, 404, 'not_found');
      expect(error.message).toContain('weekend-paper');
    });

    test.each([
      ['no account has the customer number', 'C9999'],
      ['the external system does not know the customer', 'C1008'],
    ])('refuses when %s: 404 not_found', async (_, customer_number) => {
      const answer = await expectUnchanged(h.platform, () => put(paths.syncSubscriptions, { customer_number }));
      expectError(answer, 404, 'not_found', 'customer_number');
    });

    test('a change in the external system between two syncs is picked up (admin route)', async () => {
      expectOk(await put(paths.syncSubscriptions, { customer_number: 'C1001' }), IdResponse);
      // The e-paper ends in the external system.
      const admin = await h.call(`/__admin/subscription-systems/${demoOrg}/customers/C1001`, {
        method: 'PUT',
        json: { address: null, subscriptions: [] },
      });
      expect(admin.status).toBe(204);
      expectOk(await put(paths.syncSubscriptions, { customer_number: 'C1001' }), IdResponse);
      const epaper = doc().user_products.find((u) => u.account_id === anna && u.subscription_number === 'PL-1001-1');
      expect(epaper?.state).toBe('deactivated');
    });
  });

  describe('17. validate gift receiver', () => {
    const address = {
      first_name: 'Karin',
      last_name: 'Kvist',
      street: 'Storgatan',
      street_number: '1',
      zip_code: '111 22',
      city: 'Stockholm',
      country_code: 'SE',
    };
    const gift = (patch: object = {}, to: object = address) =>
      h.call(paths.giftReceiver, {
        method: 'POST',
        json: { giver_account_id: anna, campaign_code: 'premium-summer', delivery_address: to, ...patch },
        token,
      });

    test('a receiver at an address with an active subscription of the same title: not eligible', async () => {
      const { item } = expectOk(await gift(), ValidateGiftReceiverResponse);
      expect(item).toEqual({ receiver_eligible: false });
    });

    test.each([
      ['letter case and spaces', { street: '  STORGATAN ', city: 'stockholm', zip_code: '11122' }],
      ['other names in the household', { first_name: 'Stina', last_name: 'Ström' }],
    ])('the address is compared without %s: still not eligible', async (_, patch) => {
      const { item } = expectOk(await gift({}, { ...address, ...patch }), ValidateGiftReceiverResponse);
      expect(item.receiver_eligible).toBe(false);
    });

    test('another address: eligible', async () => {
      const { item } = expectOk(await gift({}, { ...address, street_number: '2' }), ValidateGiftReceiverResponse);
      expect(item.receiver_eligible).toBe(true);
    });

    test('an organisation without an integration has nothing to conflict with: eligible', async () => {
      withoutIntegration();
      expect(expectOk(await gift(), ValidateGiftReceiverResponse).item.receiver_eligible).toBe(true);
    });

    test.each([
      ['an absent giver', { giver_account_id: 'ac00000000000000000000ff' }, 404, 'not_found', 'giver_account_id'],
      ["another organisation's giver", { giver_account_id: dora }, 404, 'not_found', 'giver_account_id'],
      ['an unknown campaign', { campaign_code: 'no-such-campaign' }, 404, 'not_found', 'campaign_code'],
      ['a package, not a campaign', { campaign_code: 'premium-digital' }, 404, 'not_found', 'campaign_code'],
      [
        'a missing address field',
        { delivery_address: { ...address, city: undefined } },
        400,
        'invalid_parameter',
        'delivery_address.city',
      ],
      [
        'an empty address field',
        { delivery_address: { ...address, street: '' } },
        400,
        'invalid_parameter',
        'delivery_address.street',
      ],
      [
        'a country code that is not two letters',
        { delivery_address: { ...address, country_code: 'SWE' } },
        400,
        'invalid_parameter',
        'delivery_address.country_code',
      ],
      [
        'an unknown address field',
        { delivery_address: { ...address, floor: '3' } },
        400,
        'unknown_parameter',
        'delivery_address.floor',
      ],
    ])('refuses %s', async (_, patch, status, code, field) => {
      expectError(await expectUnchanged(h.platform, () => gift(patch)), status, code, field);
    });
  });

  describe('20. distribution information', () => {
    const get = (query: Record<string, string>) => h.call(paths.distribution, { query, token });
    const q = { product_code: 'premium-digital', period_id: demoIds.periods.premiumCreditcard, zip_code: '111 22' };

    test('the days (1 = Monday) and the prices without and with VAT, as decimal strings', async () => {
      const { item } = expectOk(await get(q), DistributionInformationResponse);
      expect(item).toEqual({
        distribution_days: [1, 2, 3, 4, 5, 6],
        distribution_price: '25.00',
        distribution_price_with_tax: '31.25',
      });
    });

    test('a zip code is matched without its spaces; the days are sorted', async () => {
      const { item } = expectOk(await get({ ...q, zip_code: '90325' }), DistributionInformationResponse);
      expect(item.distribution_days).toEqual([3, 6]);
    });

    test('a zip code the papers do not reach: no days', async () => {
      const { item } = expectOk(await get({ ...q, zip_code: '999 99' }), DistributionInformationResponse);
      expect(item).toEqual({
        distribution_days: [],
        distribution_price: '25.00',
        distribution_price_with_tax: '31.25',
      });
    });

    test('a period without a distribution price: "0.00"', async () => {
      const { item } = expectOk(
        await get({ ...q, period_id: demoIds.periods.premiumPsp }),
        DistributionInformationResponse,
      );
      expect(item.distribution_price).toBe('0.00');
    });

    test.each([
      ['an absent product', { product_code: 'nothing' }, 404, 'not_found', 'product_code'],
      ['a period of another product', { period_id: demoIds.periods.basicCreditcard }, 404, 'not_found', 'period_id'],
      ['an absent period', { period_id: 'c000000000000000000000ff' }, 404, 'not_found', 'period_id'],
      ['a missing zip code', { zip_code: undefined }, 400, 'invalid_parameter', 'zip_code'],
      ['a zip code of 101 characters', { zip_code: '1'.repeat(101) }, 400, 'invalid_parameter', 'zip_code'],
      ['a malformed period id', { period_id: 'x' }, 400, 'invalid_parameter', 'period_id'],
      ['an unknown parameter', { days: '7' }, 400, 'unknown_parameter', 'days'],
    ])('refuses %s', async (_, patch, status, code, field) => {
      const query = Object.fromEntries(Object.entries({ ...q, ...patch }).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >;
      expectError(await get(query), status, code, field);
    });

    test("an integration that does not support it (Complex Media's): 400 configuration_error", async () => {
      const complex = h.token([R], demoIds.clients.complex.clientId);
      const answer = await h.call(paths.distribution, {
        query: { product_code: 'complex-bundle', period_id: demoIds.periods.complexCreditcard, zip_code: '0150' },
        token: complex,
      });
      expectError(answer, 400, 'configuration_error');
    });
  });
});

describe('19 in sequence: a second sync of the organisation while one is under way is refused', () => {
  const h = useAdapter('http', { syncProcessingMs: 300 });

  test('two overlapping calls over the HTTP server: one 200, one 409 sync_in_progress that changes nothing', async () => {
    const token = h.token([W]);
    const sync = (customer_number: string) =>
      h.call(paths.syncSubscriptions, { method: 'PUT', json: { customer_number }, token });
    const first = sync('C1001');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = h.platform.snapshot();
    const second = await sync('C1007');
    expectError(second, 409, 'sync_in_progress');
    expect(h.platform.snapshot().user_products).toEqual(before.user_products);
    expectOk(await first, IdResponse);
    // Once the first is over, the next one is accepted.
    expectOk(await sync('C1007'), IdResponse);
  });

  test("another organisation's sync is not held up", async () => {
    const demo = h.token([W]);
    const complex = h.token([W], demoIds.clients.complex.clientId);
    const [a, b] = await Promise.all([
      h.call(paths.syncSubscriptions, { method: 'PUT', json: { customer_number: 'C1001' }, token: demo }),
      h.call(paths.syncSubscriptions, { method: 'PUT', json: { customer_number: 'C2001' }, token: complex }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
  });
});
