/**
 * The test tools over the simulated external subscription systems: `/__admin/subscription-systems`
 * through both adapters, and `platform.subscriptionSystems` in process.
 */
import { describe, expect, test } from 'vitest';
import type { ExternalCustomerInput } from '../../mock/core/document.js';
import type { Platform } from '../../mock/index.js';
import { DistributionInformationResponse } from '../../src/schemas/subscription-system.js';
import { ADAPTERS, absent, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter } from './harness.js';

const demoOrg = demoIds.organisations.demo;
const complexOrg = demoIds.organisations.complex;
/** An organisation of the demo seed without an integration: none of the state's ids. */

const customer = {
  address: null,
  subscriptions: [
    {
      subscription_number: 'PL-7-1',
      product_code: 'e-paper',
      subscription_type: 'recurring' as const,
      valid_from: '2024-01-01T00:00:00Z',
      valid_to: '2999-12-31T23:59:59Z',
      state: 'active' as const,
    },
  ],
};
const distribution = {
  zones: [{ zip_codes: ['222 33'], distribution_days: [7, 5] }],
  prices: [
    {
      product_code: 'premium-digital',
      period_id: demoIds.periods.premiumCreditcard,
      distribution_price: '10.00',
      distribution_price_with_tax: '12.50',
    },
  ],
};
/** A customer as the admin API takes it (its number is the path's). */
type Customer = Omit<ExternalCustomerInput, 'customer_number'>;
const address = {
  first_name: 'Eva',
  last_name: 'Ek',
  street: 'Storgatan',
  street_number: '1',
  zip_code: '111 22',
  city: 'Stockholm',
  country_code: 'SE',
};
const subscription = customer.subscriptions[0]!;
/** `count` subscriptions, numbered apart. */
const numbered = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ ...subscription, subscription_number: `PL-7-${i}` }));
const addressLines = [
  'first_name',
  'last_name',
  'street',
  'street_number',
  'zip_code',
  'city',
  'country_code',
] as const;
/** `customer` at `address`, one line of it `value`. */
const withAddress = (line: (typeof addressLines)[number], value: string): Customer => ({
  ...customer,
  address: { ...address, [line]: value },
});
/** `customer` with one subscription, its `member` `value`. */
const withSubscription = (
  member: 'subscription_number' | 'product_code' | 'valid_from' | 'valid_to',
  value: string,
): Customer => ({
  ...customer,
  subscriptions: [{ ...subscription, [member]: value }],
});
const JSON_TYPE = { 'content-type': 'application/json' };
/** The customers of every system of the platform. */
const customerCount = (platform: Platform) =>
  platform.snapshot().subscription_systems.reduce((n, system) => n + system.customers.length, 0);
/** Adds customers (`F...`, without address or subscriptions) to the complex organisation's system until the platform has `count`. */
function fillTo(platform: Platform, count: number): void {
  for (let i = customerCount(platform); i < count; i++)
    platform.subscriptionSystems.setCustomer(complexOrg, {
      customer_number: `F${i}`,
      address: null,
      subscriptions: [],
    });
}
const customersOf = (platform: Platform, org: string) =>
  platform.subscriptionSystems.get(org)?.customers.map((c) => c.customer_number);

describe.each(ADAPTERS)('/__admin/subscription-systems through %s', (kind) => {
  const h = useAdapter(kind, { syncProcessingMs: 0 });
  const base = `/__admin/subscription-systems/${demoOrg}`;

  test('GET answers the whole system of the organisation', async () => {
    const answer = await h.call(base);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(h.platform.snapshot().subscription_systems.find((s) => s.organisation_id === demoOrg));
  });

  test('GET of an organisation without an integration: 404 not_found organisation_id', async () => {
    expectError(
      await h.call(`/__admin/subscription-systems/${absent.organisation}`),
      404,
      'not_found',
      'organisation_id',
    );
  });

  test('PUT adds a customer, and replaces one; endpoint 19 then reads it', async () => {
    expect((await h.call(`${base}/customers/C1005`, { method: 'PUT', json: customer })).status).toBe(204);
    expect(h.platform.subscriptionSystems.get(demoOrg)?.customers.find((c) => c.customer_number === 'C1005')).toEqual({
      customer_number: 'C1005',
      ...customer,
    });
    expect((await h.call(`${base}/customers/X7`, { method: 'PUT', json: customer })).status).toBe(204);
    expect(customersOf(h.platform, demoOrg)).toContain('X7');
    const token = h.token(['/external/subscription_system/w']);
    const sync = await h.call(paths.syncCustomerSubscriptions, {
      method: 'PUT',
      json: { customer_number: 'C1005' },
      token,
    });
    expect(sync.status).toBe(200);
    expect(
      h.platform
        .snapshot()
        .user_products.some((u) => u.account_id === demoIds.accounts.eva && u.subscription_number === 'PL-7-1'),
    ).toBe(true);
  });

  test.each([
    [
      'a subscription in an unknown state',
      { ...customer, subscriptions: [{ ...customer.subscriptions[0], state: 'paused' }] },
      'invalid_parameter',
      'subscriptions[0].state',
    ],
    ['no subscriptions', { address: null }, 'invalid_parameter', 'subscriptions'],
    ['an unknown key', { ...customer, vip: true }, 'unknown_parameter', 'vip'],
    [
      'a subscription number twice (endpoint 19 matches a user-product by it)',
      {
        ...customer,
        subscriptions: [customer.subscriptions[0], { ...customer.subscriptions[0], product_code: 'digital-news' }],
      },
      'invalid_parameter',
      'subscriptions[1].subscription_number',
    ],
  ])('PUT refuses %s: 400, nothing changed', async (_, json, code, field) => {
    const answer = await expectUnchanged(h.platform, () => h.call(`${base}/customers/C1005`, { method: 'PUT', json }));
    expectError(answer, 400, code, field);
  });

  test("at most 1000 customers in all the platform's systems together: a new one beyond is 400 invalid_parameter, nothing changed; one replaced, or after a DELETE, is taken", async () => {
    fillTo(h.platform, 999);
    // The 1000th, in the other system: the count is the platform's.
    expect((await h.call(`${base}/customers/N1000`, { method: 'PUT', json: customer })).status).toBe(204);
    const message =
      'The external subscription systems hold at most 1000 customers together: make room with DELETE /__admin/subscription-systems/{organisation_id}/customers/{customer_number} (platform.subscriptionSystems.removeCustomer())';
    for (const org of [demoOrg, complexOrg]) {
      const answer = await expectUnchanged(h.platform, () =>
        h.call(`/__admin/subscription-systems/${org}/customers/N1001`, { method: 'PUT', json: customer }),
      );
      expect(expectError(answer, 400, 'invalid_parameter').message).toBe(message);
    }
    await expectUnchanged(h.platform, async () => {
      expect(() =>
        h.platform.subscriptionSystems.setCustomer(demoOrg, { customer_number: 'N1001', ...customer }),
      ).toThrow(expect.objectContaining({ status: 400, code: 'invalid_parameter', message }));
    });
    // Replacing one at the cap adds none.
    const moved = { ...customer, address: { ...address, city: 'Uppsala' } };
    expect((await h.call(`${base}/customers/N1000`, { method: 'PUT', json: moved })).status).toBe(204);
    expect(h.platform.subscriptionSystems.get(demoOrg)?.customers.at(-1)).toEqual({
      customer_number: 'N1000',
      ...moved,
    });
    expect((await h.call(`${base}/customers/C1001`, { method: 'DELETE' })).status).toBe(204);
    expect((await h.call(`${base}/customers/N1001`, { method: 'PUT', json: customer })).status).toBe(204);
    expect(customerCount(h.platform)).toBe(1000);
  });

  test.each([
    ...addressLines.map((line) => [
      `address.${line}`,
      withAddress(line, 'a'.repeat(100)),
      withAddress(line, 'a'.repeat(101)),
      'Parameter size must be at most 100',
    ]),
    [
      'subscriptions',
      { ...customer, subscriptions: numbered(25) },
      { ...customer, subscriptions: numbered(26) },
      'Parameter must have at most 25 items',
    ],
    ...(['subscription_number', 'product_code'] as const).map((member) => [
      `subscriptions[0].${member}`,
      withSubscription(member, 's'.repeat(50)),
      withSubscription(member, 's'.repeat(51)),
      'Parameter size must be at most 50',
    ]),
    ...(['valid_from', 'valid_to'] as const).map((member) => [
      `subscriptions[0].${member}`,
      withSubscription(member, '2024-01-01T00:00:00.123456789+01:00'),
      withSubscription(member, '2024-01-01T00:00:00.1234567891+01:00'),
      'Parameter size must be at most 35',
    ]),
  ] as [string, Customer, Customer, string][])(
    'PUT takes a customer whose %s is at its bound; one over is 400 naming it, nothing changed',
    async (field, atBound, over, message) => {
      expect((await h.call(`${base}/customers/C1005`, { method: 'PUT', json: atBound })).status).toBe(204);
      const answer = await expectUnchanged(h.platform, () =>
        h.call(`${base}/customers/C1005`, { method: 'PUT', json: over }),
      );
      expect(expectError(answer, 400, 'invalid_parameter', field).message).toBe(message);
    },
  );

  test('PUT takes a customer number of 50 characters; one of 51 is 400 naming customer_number, nothing changed', async () => {
    expect((await h.call(`${base}/customers/${'n'.repeat(50)}`, { method: 'PUT', json: customer })).status).toBe(204);
    const answer = await expectUnchanged(h.platform, () =>
      h.call(`${base}/customers/${'n'.repeat(51)}`, { method: 'PUT', json: customer }),
    );
    expect(expectError(answer, 400, 'invalid_parameter', 'customer_number').message).toBe(
      'Parameter size must be at most 50',
    );
  });

  test('PUT for an organisation without an integration: 404, nothing changed', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(`/__admin/subscription-systems/${absent.organisation}/customers/C1`, { method: 'PUT', json: customer }),
    );
    expectError(answer, 404, 'not_found', 'organisation_id');
  });

  test('DELETE removes a customer; an unknown one is 404 not_found customer_number', async () => {
    expect((await h.call(`${base}/customers/C1001`, { method: 'DELETE' })).status).toBe(204);
    expect(customersOf(h.platform, demoOrg)).not.toContain('C1001');
    const answer = await expectUnchanged(h.platform, () => h.call(`${base}/customers/C1001`, { method: 'DELETE' }));
    expectError(answer, 404, 'not_found', 'customer_number');
  });

  test('PATCH changes the distribution data and its support; endpoint 20 answers accordingly', async () => {
    const token = h.token(['/external/subscription_system/r']);
    const query = { product_code: 'premium-digital', period_id: demoIds.periods.premiumCreditcard, zip_code: '22233' };
    expect((await h.call(base, { method: 'PATCH', json: { distribution } })).status).toBe(204);
    expect(
      expectOk(await h.call(paths.getDistributionInformation, { query, token }), DistributionInformationResponse).item,
    ).toEqual({
      distribution_days: [5, 7],
      distribution_price: '10.00',
      distribution_price_with_tax: '12.50',
    });
    expect((await h.call(base, { method: 'PATCH', json: { supports_distribution_information: false } })).status).toBe(
      204,
    );
    // A key left out stays.
    expect(h.platform.subscriptionSystems.get(demoOrg)?.distribution).toEqual(distribution);
    expectError(await h.call(paths.getDistributionInformation, { query, token }), 400, 'configuration_error');
  });

  test.each([
    [
      'a distribution day 8',
      { distribution: { ...distribution, zones: [{ zip_codes: ['1'], distribution_days: [8] }] } },
      'invalid_parameter',
      'distribution.zones[0].distribution_days[0]',
    ],
    [
      'a price without two decimals',
      { distribution: { ...distribution, prices: [{ ...distribution.prices[0], distribution_price: '10' }] } },
      'invalid_parameter',
      'distribution.prices[0].distribution_price',
    ],
    [
      'a flag that is not a boolean',
      { supports_distribution_information: 'yes' },
      'invalid_parameter',
      'supports_distribution_information',
    ],
    ['an unknown key', { vendor: 'Other' }, 'unknown_parameter', 'vendor'],
    [
      'a zip code of 101 characters (endpoint 20 takes 100)',
      { distribution: { ...distribution, zones: [{ zip_codes: ['1'.repeat(101)], distribution_days: [1] }] } },
      'invalid_parameter',
      'distribution.zones[0].zip_codes[0]',
    ],
    [
      'a product code of 51 characters',
      { distribution: { ...distribution, prices: [{ ...distribution.prices[0], product_code: 'p'.repeat(51) }] } },
      'invalid_parameter',
      'distribution.prices[0].product_code',
    ],
    [
      'a price of 21 characters',
      {
        distribution: {
          ...distribution,
          prices: [{ ...distribution.prices[0], distribution_price_with_tax: `${'1'.repeat(18)}.00` }],
        },
      },
      'invalid_parameter',
      'distribution.prices[0].distribution_price_with_tax',
    ],
    [
      'a day twice in a zone (endpoint 20 would answer it twice)',
      { distribution: { ...distribution, zones: [{ zip_codes: ['1'], distribution_days: [3, 6, 3] }] } },
      'invalid_parameter',
      'distribution.zones[0].distribution_days[2]',
    ],
    [
      'a zip code in two zones, spaces aside (endpoint 20 would answer the first)',
      {
        distribution: {
          ...distribution,
          zones: [
            { zip_codes: ['222 33'], distribution_days: [1] },
            { zip_codes: ['111 22', '22233'], distribution_days: [7] },
          ],
        },
      },
      'invalid_parameter',
      'distribution.zones[1].zip_codes[1]',
    ],
    [
      'two prices of one product and period',
      {
        distribution: {
          ...distribution,
          prices: [distribution.prices[0], { ...distribution.prices[0], distribution_price: '11.00' }],
        },
      },
      'invalid_parameter',
      'distribution.prices[1]',
    ],
  ])('PATCH refuses %s: 400, nothing changed', async (_, json, code, field) => {
    const answer = await expectUnchanged(h.platform, () => h.call(base, { method: 'PATCH', json }));
    expectError(answer, 400, code, field);
  });

  test('at their longest, a zip code (100), a product code (50) and a price (20) are taken', async () => {
    const longest = {
      zones: [{ zip_codes: ['1'.repeat(100)], distribution_days: [1] }],
      prices: [
        {
          ...distribution.prices[0]!,
          product_code: 'p'.repeat(50),
          distribution_price: `${'1'.repeat(17)}.00`,
          distribution_price_with_tax: `${'1'.repeat(17)}.00`,
        },
      ],
    };
    expect((await h.call(base, { method: 'PATCH', json: { distribution: longest } })).status).toBe(204);
    expect(h.platform.subscriptionSystems.get(demoOrg)?.distribution).toEqual(longest);
  });

  test("at most 10,000 zip codes and 1,000 prices in all the platform's systems together: a distribution beyond is 400 naming distribution.zones or .prices, nothing changed; one that replaces the system's own counts it once", async () => {
    const zones = (count: number, from = 0) => [
      { zip_codes: Array.from({ length: count }, (_, i) => String(from + i)), distribution_days: [1] },
    ];
    const prices = (count: number) =>
      Array.from({ length: count }, (_, i) => ({
        ...distribution.prices[0]!,
        period_id: `c${String(i).padStart(23, '0')}`,
      }));
    const other = `/__admin/subscription-systems/${complexOrg}`;
    expect(
      (await h.call(base, { method: 'PATCH', json: { distribution: { zones: zones(9_000), prices: prices(900) } } }))
        .status,
    ).toBe(204);
    // Replacing the system's own: counted once, not beside the old.
    expect(
      (await h.call(base, { method: 'PATCH', json: { distribution: { zones: zones(9_500), prices: prices(950) } } }))
        .status,
    ).toBe(204);
    const overZips = await expectUnchanged(h.platform, () =>
      h.call(other, { method: 'PATCH', json: { distribution: { zones: zones(501, 100_000), prices: [] } } }),
    );
    expect(expectError(overZips, 400, 'invalid_parameter', 'distribution.zones').message).toBe(
      'The external subscription systems hold at most 10000 distribution zip codes together: this distribution would give them 10001',
    );
    const overPrices = await expectUnchanged(h.platform, () =>
      h.call(other, { method: 'PATCH', json: { distribution: { zones: [], prices: prices(51) } } }),
    );
    expect(expectError(overPrices, 400, 'invalid_parameter', 'distribution.prices').message).toBe(
      'The external subscription systems hold at most 1000 distribution prices together: this distribution would give them 1001',
    );
    expect(
      (
        await h.call(other, {
          method: 'PATCH',
          json: { distribution: { zones: zones(500, 100_000), prices: prices(50) } },
        })
      ).status,
    ).toBe(204);
    // A state document over a cap is refused as the admin route refuses it, naming the system that passes it.
    const doc = h.platform.snapshot();
    const at = doc.subscription_systems.findIndex((s) => s.organisation_id === complexOrg);
    doc.subscription_systems[at]!.distribution.zones[0]!.zip_codes.push('999999');
    const refused = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: doc }));
    const field = `subscription_systems[${Math.max(
      at,
      doc.subscription_systems.findIndex((s) => s.organisation_id === demoOrg),
    )}].distribution.zones`;
    expect(expectError(refused, 400, 'invalid_parameter', field).message).toBe(
      'The external subscription systems hold at most 10000 distribution zip codes together: this document gives them 10001',
    );
  });

  test('a state document with a customer number twice in a system is refused: 400 naming it, nothing changed', async () => {
    const doc = h.platform.snapshot();
    const at = doc.subscription_systems.findIndex((s) => s.organisation_id === demoOrg);
    const customers = doc.subscription_systems[at]!.customers;
    customers.push({ ...customers[0]!, address: null });
    const answer = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: doc }));
    const field = `subscription_systems[${at}].customers[${customers.length - 1}].customer_number`;
    expect(expectError(answer, 400, 'invalid_parameter', field).message).toBe('Parameter must not be repeated');
  });

  test("a state document's customers at the cap, at their largest, load again as the platform writes them; one more customer in its systems together is refused: 400 naming the customers of the system that passes the cap, nothing changed", async () => {
    fillTo(h.platform, 999);
    const largest = {
      address: Object.fromEntries(addressLines.map((line) => [line, 'a'.repeat(100)])) as typeof address,
      subscriptions: Array.from({ length: 25 }, (_, i) => ({
        ...subscription,
        subscription_number: `${i}`.padEnd(50, 's'),
        product_code: 'p'.repeat(50),
        valid_from: '2024-01-01T00:00:00.123456789+01:00',
        valid_to: '2999-12-31T23:59:59.123456789+01:00',
      })),
    };
    expect((await h.call(`${base}/customers/${'n'.repeat(50)}`, { method: 'PUT', json: largest })).status).toBe(204);
    const written = await h.call('/__admin/state');
    h.platform.reset();
    const put = (body: string) => h.call('/__admin/state', { method: 'PUT', body, headers: JSON_TYPE });
    expect((await put(written.text)).status).toBe(204);
    expect(h.platform.snapshot()).toEqual(written.body);
    const doc = h.platform.snapshot();
    const at = doc.subscription_systems.findIndex((s) => s.organisation_id === complexOrg);
    doc.subscription_systems[at]!.customers.push({ customer_number: 'N1001', address: null, subscriptions: [] });
    const answer = await expectUnchanged(h.platform, () => put(JSON.stringify(doc)));
    expect(expectError(answer, 400, 'invalid_parameter', `subscription_systems[${at}].customers`).message).toBe(
      'The external subscription systems hold at most 1000 customers together: this document gives them 1001',
    );
    expect(() => h.platform.restore(doc)).toThrow(
      expect.objectContaining({ status: 400, field: `subscription_systems[${at}].customers` }),
    );
  });

  test('a state document with a customer over a size is refused as the admin route refuses it: 400 naming the field, nothing changed', async () => {
    const doc = h.platform.snapshot();
    const at = doc.subscription_systems.findIndex((s) => s.organisation_id === demoOrg);
    const customers = doc.subscription_systems[at]!.customers;
    customers[0] = { ...customers[0]!, subscriptions: numbered(26) };
    customers[1] = { ...customers[1]!, address: { ...address, city: 'a'.repeat(101) } };
    const answer = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: doc }));
    expect(
      expectError(answer, 400, 'invalid_parameter', `subscription_systems[${at}].customers[0].subscriptions`).message,
    ).toBe('Parameter must have at most 25 items');
    customers[0] = { ...customers[0], subscriptions: numbered(25) };
    expectError(
      await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: doc })),
      400,
      'invalid_parameter',
      `subscription_systems[${at}].customers[1].address.city`,
    );
  });

  test('a state document with a day twice in a zone is refused too: 400 naming it, nothing changed', async () => {
    const doc = h.platform.snapshot();
    const at = doc.subscription_systems.findIndex((s) => s.organisation_id === demoOrg);
    doc.subscription_systems[at]!.distribution.zones[0]!.distribution_days.push(1);
    const answer = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: doc }));
    expectError(
      answer,
      400,
      'invalid_parameter',
      `subscription_systems[${at}].distribution.zones[0].distribution_days[6]`,
    );
  });
});

describe('platform.subscriptionSystems in process', () => {
  const h = useAdapter('msw', { syncProcessingMs: 0 });
  const tools = () => h.platform.subscriptionSystems;

  test('get answers a copy: changing it changes nothing; undefined without an integration', () => {
    const copy = tools().get(demoOrg);
    expect(copy?.vendor).toBe('Paperline');
    copy?.customers.splice(0);
    expect(customersOf(h.platform, demoOrg)).toContain('C1001');
    expect(tools().get(absent.organisation)).toBeUndefined();
    expect(tools().get(complexOrg)?.supports_distribution_information).toBe(false);
  });

  test('setCustomer adds or replaces, removeCustomer removes', () => {
    tools().setCustomer(complexOrg, { customer_number: 'C2002', ...customer });
    expect(customersOf(h.platform, complexOrg)).toEqual(['C2001', 'C2002']);
    tools().setCustomer(complexOrg, { customer_number: 'C2002', address: null, subscriptions: [] });
    expect(tools().get(complexOrg)?.customers[1]).toEqual({
      customer_number: 'C2002',
      address: null,
      subscriptions: [],
    });
    tools().removeCustomer(complexOrg, 'C2002');
    expect(customersOf(h.platform, complexOrg)).toEqual(['C2001']);
  });

  test('setDistribution changes the data and the flag; a key left out stays', () => {
    tools().setDistribution(complexOrg, { supports_distribution_information: true });
    tools().setDistribution(complexOrg, { distribution });
    expect(tools().get(complexOrg)).toMatchObject({ supports_distribution_information: true, distribution });
  });

  test.each([
    [
      'setCustomer without an integration',
      () => tools().setCustomer(absent.organisation, { customer_number: 'C1', ...customer }),
      404,
      'organisation_id',
      'The organisation has no external subscription system',
    ],
    [
      'setCustomer of something that is not a customer',
      // @ts-expect-error: a customer is an object
      () => tools().setCustomer(demoOrg, 'C1'),
      400,
      'customer',
      expect.any(String),
    ],
    [
      'setCustomer of a malformed customer',
      () =>
        tools().setCustomer(demoOrg, {
          customer_number: 'C1',
          address: null,
          // @ts-expect-error: a subscription's state is active or ended
          subscriptions: [{ ...customer.subscriptions[0], state: 'paused' }],
        }),
      400,
      'subscriptions[0].state',
      expect.any(String),
    ],
    [
      'removeCustomer of an unknown customer',
      () => tools().removeCustomer(demoOrg, 'C404'),
      404,
      'customer_number',
      'No such customer in the external system',
    ],
    [
      'setDistribution without an integration',
      () => tools().setDistribution(absent.organisation, { distribution }),
      404,
      'organisation_id',
      'The organisation has no external subscription system',
    ],
    [
      'setDistribution of a day 0',
      () =>
        tools().setDistribution(demoOrg, {
          distribution: { zones: [{ zip_codes: ['1'], distribution_days: [0] }], prices: [] },
        }),
      400,
      'distribution.zones[0].distribution_days[0]',
      expect.any(String),
    ],
  ])('%s throws a HttpError naming the field, nothing changed', async (_, act, status, field, message) => {
    await expectUnchanged(h.platform, async () => {
      expect(act).toThrow(expect.objectContaining({ status, field, message }));
    });
  });
});
