/**
 * The external subscription system (endpoints 17, 18, 19, 20), through both adapters with plain
 * fetch: every error with its status, code and field, the state unchanged after a refusal, and
 * one sync of an organisation at a time.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { ValidateGiftReceiverResponse } from '../../src/schemas/orders.js';
import { SignedInUser } from '../../src/schemas/sign-on.js';
import { DistributionInformationResponse } from '../../src/schemas/subscription-system.js';
import { until } from '../until.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter } from './harness.js';

const W = '/external/subscription_system/w';
const R = '/external/subscription_system/r';
const { anna, gus, eva, dora } = demoIds.accounts;
const ups = demoIds.userProducts;
const demoOrg = demoIds.organisations.demo;
/** The messages of the refusals endpoints 18 and 19 share. */
const NO_ACCOUNT = /^No account with that customer number$/;
const UNKNOWN = /^The external subscription system does not know that customer$/;
const NO_INTEGRATION = 'The organisation has no external subscription system integration';

describe.each(ADAPTERS)('the external subscription system through %s', (kind) => {
  const h = useAdapter(kind, { syncProcessingMs: 0 });
  let token: string;
  beforeEach(() => {
    token = h.token([W, R, '/external/order/r']);
  });
  const put = (path: string, json: unknown) => h.call(path, { method: 'PUT', json, token });
  const doc = () => h.platform.snapshot();
  const accountOf = (id: string) => doc().accounts.find((a) => a.id === id);
  /** A delivery address where the external system has a household with the daily paper (X9001). */
  const address = {
    first_name: 'Karin',
    last_name: 'Kvist',
    street: 'Storgatan',
    street_number: '1',
    zip_code: '111 22',
    city: 'Stockholm',
    country_code: 'SE',
  };
  /** An external subscription of the demo organisation's system, active until 2999 unless `patch` says otherwise. */
  const subscription = (subscription_number: string, product_code: string, patch: object = {}) => ({
    subscription_number,
    product_code,
    subscription_type: 'recurring' as const,
    valid_from: '2024-01-01T00:00:00Z',
    valid_to: '2999-12-31T23:59:59Z',
    state: 'active' as const,
    ...patch,
  });
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
      const me = expectOk(await h.call(paths.getSignedInUser, { token: user }), SignedInUser);
      expect(me.address).toEqual({ street: 'Nygatan 9', zipCode: '113 45', city: 'Stockholm', countryCode: 'SE' });
    });

    test('an archived account is synced too, as an inactive one is: 18 copies the address, 19 the subscriptions (the external system is the record of them)', async () => {
      const frank = demoIds.accounts.frank;
      expect(accountOf(frank)?.status).toBe('archived');
      h.platform.subscriptionSystems.setCustomer(demoOrg, {
        customer_number: 'C1006',
        address: { ...address, first_name: 'Frank', last_name: 'F' },
        subscriptions: [subscription('PL-1006-1', 'e-paper')],
      });
      expect(expectOk(await put(paths.syncAddress, { customer_number: 'C1006' }), IdResponse).id).toBe(frank);
      expect(accountOf(frank)?.address).toMatchObject({ street: 'Storgatan 1', city: 'Stockholm' });
      expect(expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1006' }), IdResponse).id).toBe(
        frank,
      );
      const synced = h.platform.snapshot().user_products.filter((u) => u.account_id === frank);
      expect(synced).toEqual([expect.objectContaining({ subscription_number: 'PL-1006-1', state: 'activated' })]);
    });

    test('a customer the system knows without an address: 200, the account keeps its own', async () => {
      const before = accountOf(eva)?.address;
      expectOk(await put(paths.syncAddress, { customer_number: 'C1005' }), IdResponse);
      expect(accountOf(eva)?.address).toEqual(before);
    });

    test.each([
      ['no account has the customer number', 'C9999', 404, 'not_found', 'customer_number', NO_ACCOUNT],
      ['the external system does not know the customer', 'C1008', 404, 'not_found', 'customer_number', UNKNOWN],
      ["another organisation's customer", 'C2001', 404, 'not_found', 'customer_number', NO_ACCOUNT],
      ['a customer number that breaks the rule', 'C 1001', 400, 'invalid_parameter', 'customer_number', /./],
      ['a customer number of 51 characters', 'C'.repeat(51), 400, 'invalid_parameter', 'customer_number', /./],
    ])('refuses when %s', async (_, customer_number, status, code, field, message) => {
      const answer = await expectUnchanged(h.platform, () => put(paths.syncAddress, { customer_number }));
      expect(expectError(answer, status, code, field).message).toMatch(message);
    });

    test('refuses a customer the external system knows but no account has: 404 not_found customer_number', async () => {
      h.platform.subscriptionSystems.setCustomer(demoOrg, {
        customer_number: 'C9100',
        address: null,
        subscriptions: [],
      });
      const answer = await expectUnchanged(h.platform, () => put(paths.syncAddress, { customer_number: 'C9100' }));
      expect(expectError(answer, 404, 'not_found', 'customer_number').message).toMatch(NO_ACCOUNT);
    });

    test('an organisation without an integration: 400 configuration_error', async () => {
      withoutIntegration();
      const answer = await expectUnchanged(h.platform, () => put(paths.syncAddress, { customer_number: 'C1001' }));
      expect(expectError(answer, 400, 'configuration_error').message).toBe(NO_INTEGRATION);
    });
  });

  describe('19. sync customer subscriptions', () => {
    const ofGus = () => doc().user_products.filter((u) => u.account_id === gus);

    test("creates what is missing: Anna's e-paper, controlled by the external system, with its number", async () => {
      expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }), IdResponse);
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
      // Gus's PL-1007-1 changed product there too: the e-paper became the digital news.
      h.platform.subscriptionSystems.setCustomer(demoOrg, {
        customer_number: 'C1007',
        address: null,
        subscriptions: [
          subscription('PL-1007-1', 'digital-news'),
          subscription('PL-1007-2', 'digital-news', { state: 'ended' }),
        ],
      });
      const before = ofGus();
      expect(before.find((u) => u.id === ups.gusPaperlineEpaper)?.product_code).toBe('e-paper');
      expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1007' }), IdResponse);
      const after = ofGus();
      expect(after.find((u) => u.id === ups.gusPaperlineEpaper)).toMatchObject({
        product_code: 'digital-news',
        title_code: 'DAILY',
        subscription_number: 'PL-1007-1',
        state: 'activated',
        valid_to: '2999-12-31T23:59:59Z',
      });
      expect(after.find((u) => u.id === ups.gusPaperlineDigital)?.state).toBe('deactivated');
      // The platform's and another provision service's user-products are left alone.
      for (const id of [ups.gusPsp, ups.gusOtherProvision])
        expect(after.find((u) => u.id === id)).toEqual(before.find((u) => u.id === id));
    });

    test('run twice, the second changes nothing', async () => {
      expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1007' }), IdResponse);
      await expectUnchanged(h.platform, async () =>
        expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1007' }), IdResponse),
      );
    });

    test('a product the organisation does not have refuses the whole sync: 404 not_found, nothing changed', async () => {
      const answer = await expectUnchanged(h.platform, () =>
        put(paths.syncCustomerSubscriptions, { customer_number: 'C1010' }),
      );
      const error = expectError(answer, 404, 'not_found');
      expect(error.message).toContain('weekend-paper');
    });

    test('the whole sync is refused even when other changes come before the unknown product: none is made', async () => {
      // Alone, these would create PL-1007-9 and deactivate Gus's PL-1007-1 and PL-1007-2.
      h.platform.subscriptionSystems.setCustomer(demoOrg, {
        customer_number: 'C1007',
        address: null,
        subscriptions: [subscription('PL-1007-9', 'e-paper'), subscription('PL-1007-8', 'weekend-paper')],
      });
      const answer = await expectUnchanged(h.platform, () =>
        put(paths.syncCustomerSubscriptions, { customer_number: 'C1007' }),
      );
      expect(expectError(answer, 404, 'not_found').message).toContain('weekend-paper');
    });

    test('an organisation without an integration: 400 configuration_error, nothing changed', async () => {
      withoutIntegration();
      const answer = await expectUnchanged(h.platform, () =>
        put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }),
      );
      expect(expectError(answer, 400, 'configuration_error').message).toBe(NO_INTEGRATION);
    });

    test.each([
      ['a customer number that breaks the rule', { customer_number: 'C 1001' }, 'customer_number'],
      ['a customer number of 51 characters', { customer_number: 'C'.repeat(51) }, 'customer_number'],
      ['no customer number', {}, 'customer_number'],
      ['a customer number that is not a string', { customer_number: 1001 }, 'customer_number'],
    ])('refuses %s: 400 invalid_parameter %s', async (_, json, field) => {
      const answer = await expectUnchanged(h.platform, () => put(paths.syncCustomerSubscriptions, json));
      expectError(answer, 400, 'invalid_parameter', field);
    });

    test.each([
      ['no account has the customer number', 'C9999', NO_ACCOUNT],
      ['the external system does not know the customer', 'C1008', UNKNOWN],
    ])('refuses when %s: 404 not_found', async (_, customer_number, message) => {
      const answer = await expectUnchanged(h.platform, () => put(paths.syncCustomerSubscriptions, { customer_number }));
      expect(expectError(answer, 404, 'not_found', 'customer_number').message).toMatch(message);
    });

    test('two active subscriptions are two user-products, each matched by its number: run twice, the second changes nothing', async () => {
      h.platform.subscriptionSystems.setCustomer(demoOrg, {
        customer_number: 'C1001',
        address: null,
        subscriptions: [subscription('PL-1001-1', 'e-paper'), subscription('PL-1001-2', 'digital-news')],
      });
      expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }), IdResponse);
      const synced = doc().user_products.filter((u) => u.account_id === anna && u.provision_service === 'paperline');
      expect(synced.map((u) => [u.subscription_number, u.product_code, u.state])).toEqual([
        ['PL-1001-1', 'e-paper', 'activated'],
        ['PL-1001-2', 'digital-news', 'activated'],
      ]);
      await expectUnchanged(h.platform, async () =>
        expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }), IdResponse),
      );
    });

    test.each([
      ['its product', { product_code: 'digital-news' }],
      ['its subscription type', { subscription_type: 'limited' }],
      ['its start', { valid_from: '2025-02-01T00:00:00Z' }],
      ['its end', { valid_to: '2031-06-30T00:00:00Z' }],
    ])('a subscription whose %s alone changed there is updated here, by its number', async (_, change) => {
      const synced = (patch: object) => {
        h.platform.subscriptionSystems.setCustomer(demoOrg, {
          customer_number: 'C1001',
          address: null,
          subscriptions: [subscription('PL-1001-1', 'e-paper', patch)],
        });
        return put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' });
      };
      const epaper = () =>
        doc().user_products.find((u) => u.account_id === anna && u.subscription_number === 'PL-1001-1');
      expectOk(await synced({}), IdResponse);
      const before = epaper();
      h.platform.clock.advance(60);
      expectOk(await synced(change), IdResponse);
      const product = doc().products.find(
        (p) => p.product_code === ('product_code' in change ? change.product_code : 'e-paper'),
      );
      expect(epaper()).toEqual({
        ...before,
        ...change,
        product_id: product?.id,
        title_code: product?.title_code,
        updated: expect.any(String),
      });
      expect(epaper()?.updated).not.toBe(before?.updated);
    });

    test('a change in the external system between two syncs is picked up (admin route)', async () => {
      expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }), IdResponse);
      // The e-paper ends in the external system.
      const admin = await h.call(`/__admin/subscription-systems/${demoOrg}/customers/C1001`, {
        method: 'PUT',
        json: { address: null, subscriptions: [] },
      });
      expect(admin.status).toBe(204);
      expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }), IdResponse);
      const epaper = doc().user_products.find((u) => u.account_id === anna && u.subscription_number === 'PL-1001-1');
      expect(epaper?.state).toBe('deactivated');
    });

    test('a term that differs by less than a millisecond is picked up: terms are compared as instants, to the fraction each gives', async () => {
      const term = async (valid_to: string) => {
        const admin = await h.call(`/__admin/subscription-systems/${demoOrg}/customers/C1001`, {
          method: 'PUT',
          json: {
            address: null,
            subscriptions: [
              {
                subscription_number: 'PL-1001-1',
                product_code: 'e-paper',
                subscription_type: 'recurring',
                valid_from: '2020-01-01T00:00:00Z',
                valid_to,
                state: 'active',
              },
            ],
          },
        });
        expect(admin.status).toBe(204);
        expectOk(await put(paths.syncCustomerSubscriptions, { customer_number: 'C1001' }), IdResponse);
        return doc().user_products.find((u) => u.subscription_number === 'PL-1001-1')?.valid_to;
      };
      expect(await term('2999-12-31T23:59:59.0009Z')).toBe('2999-12-31T23:59:59.0009Z');
      expect(await term('2999-12-31T23:59:59.000900001Z')).toBe('2999-12-31T23:59:59.000900001Z');
    });
  });

  describe('17. validate gift receiver', () => {
    const gift = (patch: object = {}, to: object = address) =>
      h.call(paths.validateGiftReceiver, {
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

    describe('what counts at the address: an active subscription, still running, of the campaign title', () => {
      const lund = { ...address, street: 'Lillgatan', street_number: '5', zip_code: '222 33', city: 'Lund' };
      test.each([
        [
          'an ended subscription of the same title: eligible',
          subscription('PL-9100-1', 'premium-digital', { state: 'ended' }),
          true,
        ],
        [
          'an active one whose valid_to has passed: eligible',
          subscription('PL-9100-1', 'premium-digital', { valid_to: '2020-12-31T23:59:59Z' }),
          true,
        ],
        ['an active one of another title (EPAPER): eligible', subscription('PL-9100-1', 'e-paper'), true],
        ['an active one of the same title (DAILY): not eligible', subscription('PL-9100-1', 'basic-news'), false],
      ])('%s', async (_, held, eligible) => {
        h.platform.subscriptionSystems.setCustomer(demoOrg, {
          customer_number: 'X9100',
          address: { ...lund, first_name: 'Lisa', last_name: 'Lind' },
          subscriptions: [held],
        });
        const { item } = expectOk(await gift({}, lund), ValidateGiftReceiverResponse);
        expect(item.receiver_eligible).toBe(eligible);
      });
    });

    test('a campaign no longer on sale (its validity window over) is still judged: not eligible at that address', async () => {
      const d = h.platform.snapshot();
      const campaign = d.products.find((p) => p.product_code === 'premium-summer')!;
      campaign.valid_to = '2001-01-01T00:00:00Z';
      h.platform.restore(d);
      token = h.token([W, R, '/external/order/r']);
      const { item } = expectOk(await gift(), ValidateGiftReceiverResponse);
      expect(item).toEqual({ receiver_eligible: false });
    });

    test('an organisation without an integration has nothing to conflict with: eligible', async () => {
      withoutIntegration();
      expect(expectOk(await gift(), ValidateGiftReceiverResponse).item.receiver_eligible).toBe(true);
    });

    test.each<readonly [string, object, number, string, string]>([
      ['an absent giver', { giver_account_id: absent.account }, 404, 'not_found', 'giver_account_id'],
      ["another organisation's giver", { giver_account_id: dora }, 404, 'not_found', 'giver_account_id'],
      ['an unknown campaign', { campaign_code: 'no-such-campaign' }, 404, 'not_found', 'campaign_code'],
      ['a package, not a campaign', { campaign_code: 'premium-digital' }, 404, 'not_found', 'campaign_code'],
      ['no giver', { giver_account_id: undefined }, 400, 'invalid_parameter', 'giver_account_id'],
      ['a malformed giver id', { giver_account_id: 'x' }, 400, 'invalid_parameter', 'giver_account_id'],
      ['no campaign code', { campaign_code: undefined }, 400, 'invalid_parameter', 'campaign_code'],
      [
        'a campaign code that breaks the rule',
        { campaign_code: 'premium summer' },
        400,
        'invalid_parameter',
        'campaign_code',
      ],
      ['no delivery address', { delivery_address: undefined }, 400, 'invalid_parameter', 'delivery_address'],
      ['an unknown parameter', { message: 'Happy birthday' }, 400, 'unknown_parameter', 'message'],
      ...Object.keys(address).map(
        (key) =>
          [
            `a delivery address without ${key}`,
            { delivery_address: { ...address, [key]: undefined } },
            400,
            'invalid_parameter',
            `delivery_address.${key}`,
          ] as const,
      ),
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

  describe('17, 18 and 19 refuse a body they cannot read, with nothing changed', () => {
    const endpoints = [
      [
        '17',
        paths.validateGiftReceiver,
        'POST',
        { giver_account_id: anna, campaign_code: 'premium-summer', delivery_address: address },
      ],
      ['18', paths.syncAddress, 'PUT', { customer_number: 'C1001' }],
      ['19', paths.syncCustomerSubscriptions, 'PUT', { customer_number: 'C1001' }],
    ] as const;

    test.each(endpoints)('%s: a body that is not JSON is 400 json_parser_error body', async (_, path, method) => {
      const answer = await expectUnchanged(h.platform, () =>
        h.call(path, {
          method,
          body: '{"customer_number": ',
          headers: { 'content-type': 'application/json' },
          token,
        }),
      );
      expectError(answer, 400, 'json_parser_error', 'body');
    });

    test.each(endpoints)(
      '%s: a body that is not application/json is 400 invalid_content_type_error content-type',
      async (_, path, method, json) => {
        for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
          const answer = await expectUnchanged(h.platform, () =>
            h.call(path, { method, body: JSON.stringify(json), headers: { 'content-type': type }, token }),
          );
          expectError(answer, 400, 'invalid_content_type_error', 'content-type');
        }
      },
    );

    test.each(endpoints)('%s: a key the spec does not know is 400 unknown_parameter', async (_, path, method, json) => {
      const answer = await expectUnchanged(h.platform, () =>
        h.call(path, { method, json: { ...json, dry_run: true }, token }),
      );
      expectError(answer, 400, 'unknown_parameter', 'dry_run');
    });
  });

  describe('20. distribution information', () => {
    const get = (query: Record<string, string>) => h.call(paths.getDistributionInformation, { query, token });
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

    test('an inactive product (outside its validity window) is still described: 200', async () => {
      const query = { product_code: 'legacy-package', period_id: demoIds.periods.legacyCreditcard, zip_code: '111 22' };
      const { item } = expectOk(await get(query), DistributionInformationResponse);
      expect(item).toEqual({
        distribution_days: [1, 2, 3, 4, 5, 6],
        distribution_price: '0.00',
        distribution_price_with_tax: '0.00',
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
      ['an absent period', { period_id: absent.period }, 404, 'not_found', 'period_id'],
      ['a missing product code', { product_code: undefined }, 400, 'invalid_parameter', 'product_code'],
      [
        'a product code that breaks the rule',
        { product_code: 'premium digital' },
        400,
        'invalid_parameter',
        'product_code',
      ],
      ['a product code of 51 characters', { product_code: 'p'.repeat(51) }, 400, 'invalid_parameter', 'product_code'],
      ['a missing period id', { period_id: undefined }, 400, 'invalid_parameter', 'period_id'],
      ['a missing zip code', { zip_code: undefined }, 400, 'invalid_parameter', 'zip_code'],
      ['an empty zip code', { zip_code: '' }, 400, 'invalid_parameter', 'zip_code'],
      ['a zip code of 101 characters', { zip_code: '1'.repeat(101) }, 400, 'invalid_parameter', 'zip_code'],
      ['a malformed period id', { period_id: 'x' }, 400, 'invalid_parameter', 'period_id'],
      ['an unknown parameter', { days: '7' }, 400, 'unknown_parameter', 'days'],
    ])('refuses %s', async (_, patch, status, code, field) => {
      const query = Object.fromEntries(Object.entries({ ...q, ...patch }).filter(([, v]) => v !== undefined)) as Record<
        string,
        string
      >;
      expectError(await expectUnchanged(h.platform, () => get(query)), status, code, field);
    });

    test('an organisation without an integration: 400 configuration_error', async () => {
      withoutIntegration();
      expectError(await expectUnchanged(h.platform, () => get(q)), 400, 'configuration_error');
    });

    test("an integration that does not support it (Complex Media's): 400 configuration_error", async () => {
      const complex = h.token([R], demoIds.clients.complex.clientId);
      const answer = await expectUnchanged(h.platform, () =>
        h.call(paths.getDistributionInformation, {
          query: { product_code: 'complex-bundle', period_id: demoIds.periods.complexCreditcard, zip_code: '0150' },
          token: complex,
        }),
      );
      expectError(answer, 400, 'configuration_error');
    });
  });
});

describe('19 in sequence: a second sync of the organisation while one is under way is refused', () => {
  const h = useAdapter('http', { syncProcessingMs: 300 });
  const sync = (customer_number: string, token: string) =>
    h.call(paths.syncCustomerSubscriptions, { method: 'PUT', json: { customer_number }, token });
  const inFlight = (organisation: string = demoOrg) => h.platform.subscriptionSystems.syncInFlight(organisation);
  /** Resolves once the platform has a sync of the organisation under way. */
  const underWay = (organisation: string = demoOrg) => until(() => expect(inFlight(organisation)).toBe(true));
  /** The platform's processing time passes: the syncs under way end. */
  const processed = () => vi.advanceTimersByTimeAsync(300);
  const annaSynced = () =>
    h.platform.snapshot().user_products.some((u) => u.account_id === anna && u.subscription_number === 'PL-1001-1');

  // The platform's processing time runs on fake timers, moved by each test: a sync stays under way
  // until the test moves the time on, however slowly the requests travel.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('two overlapping calls over the HTTP server: one 200, one 409 sync_in_progress that changes nothing', async () => {
    const token = h.token([W]);
    const first = sync('C1001', token);
    await underWay();
    const second = await expectUnchanged(h.platform, () => sync('C1007', token));
    expectError(second, 409, 'sync_in_progress');
    expect(inFlight()).toBe(true);
    await processed();
    expectOk(await first, IdResponse);
    expect(inFlight()).toBe(false);
    // Once the first is over, the next one is accepted.
    const next = sync('C1007', token);
    await underWay();
    await processed();
    expectOk(await next, IdResponse);
  });

  test("another organisation's sync is not held up", async () => {
    const demo = h.token([W]);
    const complex = h.token([W], demoIds.clients.complex.clientId);
    const both = Promise.all([
      h.call(paths.syncCustomerSubscriptions, { method: 'PUT', json: { customer_number: 'C1001' }, token: demo }),
      h.call(paths.syncCustomerSubscriptions, { method: 'PUT', json: { customer_number: 'C2001' }, token: complex }),
    ]);
    await underWay(demoOrg);
    await underWay(demoIds.organisations.complex);
    await processed();
    const [a, b] = await both;
    expect([a.status, b.status]).toEqual([200, 200]);
  });

  test('a reset ends the sync under way: the next is accepted at once, and the old one writes nothing into the new state', async () => {
    const old = sync('C1001', h.token([W]));
    await underWay();
    h.platform.reset();
    expect(inFlight()).toBe(false);
    const token = h.token([W]);
    // Half-way through the old sync's processing time, so that the new one outlasts it well.
    await vi.advanceTimersByTimeAsync(150);
    const next = sync('C1007', token);
    await underWay();
    await vi.advanceTimersByTimeAsync(150);
    const answer = await old;
    expectError(answer, 409, 'invalid_state');
    expect(annaSynced()).toBe(false);
    // The old sync's end did not end the new one's: a third is still refused while it runs.
    expect(inFlight()).toBe(true);
    expectError(await sync('C1005', token), 409, 'sync_in_progress');
    await vi.advanceTimersByTimeAsync(150);
    expectOk(await next, IdResponse);
  });

  test('a restore does the same', async () => {
    const doc = h.platform.snapshot();
    const old = sync('C1001', h.token([W]));
    await underWay();
    h.platform.restore(doc);
    expect(inFlight()).toBe(false);
    await processed();
    expectError(await old, 409, 'invalid_state');
    expect(annaSynced()).toBe(false);
  });
});

describe.each(ADAPTERS)('19. a sync reactivates what the external system reports active, through %s', (kind) => {
  const h = useAdapter(kind, { syncProcessingMs: 0, now: '2030-01-15T12:00:00Z' });
  const sync = async () =>
    expectOk(
      await h.call(paths.syncCustomerSubscriptions, {
        method: 'PUT',
        json: { customer_number: 'C1007' },
        token: h.token([W]),
      }),
      IdResponse,
    );
  const epaper = () => h.platform.snapshot().user_products.find((u) => u.id === ups.gusPaperlineEpaper);

  test.each([
    ['cancelled', { state: 'cancelled', cancelled_at: '2030-01-10T08:00:00.000Z' }],
    ['deactivated', { state: 'deactivated' }],
  ] as const)(
    'a %s user-product the system reports active with the same product and dates: activated again, only it',
    async (_, change) => {
      // A first sync makes Gus's PL-1007-1 what the system says; then it leaves the activated state here.
      await sync();
      const synced = epaper();
      expect(synced).toMatchObject({ state: 'activated', product_code: 'e-paper', subscription_number: 'PL-1007-1' });
      const doc = h.platform.snapshot();
      doc.user_products = doc.user_products.map((u) => (u.id === ups.gusPaperlineEpaper ? { ...u, ...change } : u));
      h.platform.restore(doc);
      h.platform.clock.freeze();
      h.platform.clock.set('2030-01-16T12:00:00.000Z');
      await sync();
      const after = h.platform.snapshot();
      // The same product and dates as before, activated: the only change, with its time.
      const { product_id, product_code, subscription_type, valid_from, valid_to } = synced ?? {};
      expect(epaper()).toMatchObject({ product_id, product_code, subscription_type, valid_from, valid_to });
      expect(epaper()).toMatchObject({ state: 'activated', updated: '2030-01-16T12:00:00.000Z' });
      expect(after.user_products.filter((u) => u.id !== ups.gusPaperlineEpaper)).toEqual(
        doc.user_products.filter((u) => u.id !== ups.gusPaperlineEpaper),
      );
    },
  );
});

describe.each(ADAPTERS)("17. the gift receiver's address, field by field, through %s", (kind) => {
  const h = useAdapter(kind);
  /** A household of the external system with the daily paper (DAILY, the campaign's title). */
  const household = {
    first_name: 'Nils',
    last_name: 'Norr',
    street: 'Norra Kungsgatan',
    street_number: '12 B',
    zip_code: '411 19',
    city: 'Göteborg',
    country_code: 'SE',
  };
  const livesAt = (address: typeof household) =>
    h.platform.subscriptionSystems.setCustomer(demoOrg, {
      customer_number: 'X9200',
      address,
      subscriptions: [
        {
          subscription_number: 'PL-9200-1',
          product_code: 'basic-news',
          subscription_type: 'recurring',
          valid_from: '2024-01-01T00:00:00Z',
          valid_to: '2999-12-31T23:59:59Z',
          state: 'active',
        },
      ],
    });
  beforeEach(() => livesAt(household));
  const eligible = async (patch: Partial<typeof household>) => {
    const token = h.token(['/external/order/r']);
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.validateGiftReceiver, {
        method: 'POST',
        json: {
          giver_account_id: anna,
          campaign_code: 'premium-summer',
          delivery_address: { ...household, first_name: 'Greta', last_name: 'Gift', ...patch },
        },
        token,
      }),
    );
    return expectOk(answer, ValidateGiftReceiverResponse).item.receiver_eligible;
  };

  test.each([
    [
      'letter case, spaces at the ends and runs of spaces aside',
      { street: ' norra   KUNGSGATAN ', street_number: '12  b' },
    ],
    ['a zip code without its space', { zip_code: '41119' }],
    ['a zip code with spaces anywhere', { zip_code: ' 4 1 1 1 9 ' }],
    ['a city in capitals', { city: 'GÖTEBORG' }],
    ['a country in lower case', { country_code: 'se' }],
  ])('the same address, %s: not eligible', async (_, patch) => {
    expect(await eligible(patch)).toBe(false);
  });

  // The country is part of the address: the same street, number, zip code and city elsewhere is another address.
  test.each([
    ['another street', { street: 'Södra Kungsgatan' }],
    ['a street with a space taken out', { street: 'NorraKungsgatan' }],
    ['another number', { street_number: '12 C' }],
    ['a number with its space taken out', { street_number: '12B' }],
    ['another zip code', { zip_code: '411 20' }],
    ['another city', { city: 'Mölndal' }],
    ['another country', { country_code: 'NO' }],
  ])('%s is another address: eligible', async (_, patch) => {
    expect(await eligible(patch)).toBe(true);
  });

  test('letter case aside, nothing else is folded: ß and ss are different letters', async () => {
    livesAt({ ...household, street: 'Strassenweg' });
    expect(await eligible({ street: 'STRASSENWEG' })).toBe(false);
    expect(await eligible({ street: 'Straßenweg' })).toBe(true);
  });
});
