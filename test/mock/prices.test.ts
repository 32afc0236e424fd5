/** Endpoint 1 (update prices), through both adapters. */
import { describe, expect, test } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { GetPaymentPeriodsResponse, GetProductsResponse } from '../../src/schemas/products.js';
import { CREDITCARD_PERIOD } from '../fixtures.js';
import {
  ADAPTERS,
  demoIds,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
  WRITE,
} from './harness.js';

const creditcard = CREDITCARD_PERIOD;
const psp = {
  ...creditcard,
  payment_option: 'psp',
  payment_option_details: { type: 'mastercard', name: 'Mastercard' },
};
const body = (...periods: object[]) => ({ package_integration_code: 'PREMIUM-DIGITAL', price_periods: periods });
const complexDetails = [
  { name: 'Digital', price: 90, vat_code: 6 },
  { name: 'Paper', price: 110.25, vat_code: 25 },
];

describe.each(ADAPTERS)('update prices (endpoint 1) through %s', (kind) => {
  const h = useAdapter(kind);
  const update = (json: unknown, token = h.token()) => h.call(paths.updatePrices, { method: 'POST', json, token });
  const products = async (query: Record<string, string>, token = h.token([READ])) =>
    expectOk(await h.call(paths.getProducts, { query, token }), GetProductsResponse).items;

  test('updates the price of a matching period: the next read shows it, the id stays', async () => {
    // Frozen: the update is made at exactly this instant, however long the request takes.
    h.platform.clock.freeze();
    h.platform.clock.set('2030-05-01T12:00:00Z');
    expect(expectOk(await update(body(creditcard)), IdResponse)).toEqual({ id: demoIds.products.premiumDigital });
    const [p] = await products({ product_code: 'premium-digital' });
    expect(p!.updated).toBe('2030-05-01T12:00:00.000Z');
    expect(p!.price_periods.find((pp) => pp.id === demoIds.periods.premiumCreditcard)?.price).toBe(12.9);
    expect(p!.price_periods).toHaveLength(4);
  });

  test('a period that does not exist is created, enabled, with a new id', async () => {
    const invoice = { ...creditcard, payment_option: 'invoice', type: 'year', price: 129 };
    expectOk(await update(body(invoice)), IdResponse);
    const { items } = expectOk(
      await h.call(paths.getPaymentPeriods, { query: { product_code: 'premium-digital' }, token: h.token([READ]) }),
      GetPaymentPeriodsResponse,
    );
    expect(items).toHaveLength(5);
    const created = items[4]!;
    expect(created).toMatchObject({
      payment_method: 'invoice',
      type: 'recurring',
      iteration_type: 'year',
      iteration_length: 1,
      price: 129,
      enabled: true,
    });
    expect(created.id).toMatch(/^[a-f\d]{24}$/);
    expect(Object.values(demoIds.periods)).not.toContain(created.id);
  });

  test('a period matches on payment option, subscription type, type and length', async () => {
    // Same payment option and length, other subscription type: a new period.
    expectOk(await update(body({ ...creditcard, subscription_type: 'limited' })), IdResponse);
    const [p] = await products({ product_code: 'premium-digital' });
    expect(p!.price_periods.filter((pp) => pp.payment_option === 'creditcard').map((pp) => pp.price)).toEqual([
      99, 12.9,
    ]);
  });

  test('psp: payment_option_details are stored and read as details', async () => {
    expectOk(await update(body(psp, creditcard)), IdResponse);
    const { items } = expectOk(
      await h.call(paths.getPaymentPeriods, { query: { id: demoIds.products.premiumDigital }, token: h.token([READ]) }),
      GetPaymentPeriodsResponse,
    );
    expect(items.find((p) => p.id === demoIds.periods.premiumPsp)).toMatchObject({
      price: 12.9,
      details: { name: 'Mastercard', type: 'mastercard' },
    });
  });

  test('a campaign takes monthly_payments', async () => {
    const answer = await update({
      package_integration_code: 'PREMIUM-SUMMER',
      price_periods: [{ ...creditcard, price: 39, monthly_payments: false }],
    });
    expect(expectOk(answer, IdResponse)).toEqual({ id: demoIds.products.premiumSummer });
    const [p] = await products({ product_code: 'premium-summer' });
    expect(p!.price_periods[0]!.price).toBe(39);
    const stored = h.platform.snapshot().products.find((x) => x.id === demoIds.products.premiumSummer);
    expect(stored?.price_periods[0]?.monthly_payments).toBe(false);
  });

  test('complex price model: details replace the period details', async () => {
    const token = h.token([READ, WRITE], demoIds.clients.complex.clientId);
    const { price: _, ...withoutPrice } = creditcard;
    const answer = await update(
      { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [{ ...withoutPrice, details: complexDetails }] },
      token,
    );
    expect(expectOk(answer, IdResponse)).toEqual({ id: demoIds.products.complexBundle });
    const [p] = await products({ product_code: 'complex-bundle' }, token);
    expect(p!.price_periods[0]!.details).toEqual(complexDetails);
    const periods = expectOk(
      await h.call(paths.getPaymentPeriods, { query: { product_code: 'complex-bundle' }, token }),
      GetPaymentPeriodsResponse,
    );
    expect(periods.items[0]!.price).toBe(200.25);
  });

  test('an inactive package may still be repriced: 200, the price is set for when it is on sale again', async () => {
    const legacy = { package_integration_code: 'LEGACY', price_periods: [{ ...creditcard, price: 1 }] };
    expect(expectOk(await update(legacy), IdResponse)).toEqual({ id: demoIds.products.legacy });
    const [p] = await products({ product_code: 'legacy-package', include_inactive: 'true' });
    expect(p!.price_periods.find((pp) => pp.payment_option === 'creditcard')?.price).toBe(1);
  });

  test('Content-Type with a charset parameter is accepted', async () => {
    const answer = await h.call(paths.updatePrices, {
      method: 'POST',
      body: JSON.stringify(body(creditcard)),
      headers: { 'content-type': 'application/json; charset=utf-8' },
      token: h.token(),
    });
    expectOk(answer, IdResponse);
  });

  const { price: _, ...noPrice } = creditcard;
  test.each([
    ['package_integration_code missing', { price_periods: [creditcard] }, 'package_integration_code'],
    [
      'package_integration_code longer than 50',
      { ...body(creditcard), package_integration_code: 'X'.repeat(51) },
      'package_integration_code',
    ],
    [
      'package_integration_code not a string',
      { ...body(creditcard), package_integration_code: 7 },
      'package_integration_code',
    ],
    ['price_periods missing', { package_integration_code: 'PREMIUM-DIGITAL' }, 'price_periods'],
    ['price_periods not an array', { ...body(), price_periods: {} }, 'price_periods'],
    ['price_periods empty', body(), 'price_periods'],
    [
      'subscription_type not recurring or limited',
      body({ ...creditcard, subscription_type: 'weekly' }),
      'price_periods[0].subscription_type',
    ],
    [
      'subscription_type missing',
      body({ ...creditcard, subscription_type: undefined }),
      'price_periods[0].subscription_type',
    ],
    [
      'payment_option not one of psp, creditcard, directdebit, free, invoice',
      body({ ...creditcard, payment_option: 'cash' }),
      'price_periods[0].payment_option',
    ],
    ['type not day, week, month or year', body({ ...creditcard, type: 'hour' }), 'price_periods[0].type'],
    ['length not an integer', body({ ...creditcard, length: 1.5 }), 'price_periods[0].length'],
    ['length missing', body({ ...creditcard, length: undefined }), 'price_periods[0].length'],
    ['price not a number', body({ ...creditcard, price: '12.90' }), 'price_periods[0].price'],
    ['neither price nor details', body(noPrice), 'price_periods[0].price'],
    [
      'psp without payment_option_details',
      body({ ...psp, payment_option_details: undefined }),
      'price_periods[0].payment_option_details',
    ],
    [
      'psp payment_option_details without name',
      body({ ...psp, payment_option_details: { type: 'visa' } }),
      'price_periods[0].payment_option_details.name',
    ],
    [
      'psp payment_option_details without type',
      body({ ...psp, payment_option_details: { name: 'Visa' } }),
      'price_periods[0].payment_option_details.type',
    ],
    [
      'payment_option_details for creditcard',
      body({ ...creditcard, payment_option_details: { type: 'visa', name: 'Visa' } }),
      'price_periods[0].payment_option_details',
    ],
    [
      'two periods for one payment option',
      body(creditcard, psp, { ...creditcard, type: 'year' }),
      'price_periods[2].payment_option',
    ],
    [
      'monthly_payments not a boolean',
      body({ ...creditcard, monthly_payments: 'yes' }),
      'price_periods[0].monthly_payments',
    ],
    [
      'a details line without vat_code',
      body({ ...noPrice, details: [{ name: 'Digital', price: 1 }] }),
      'price_periods[0].details[0].vat_code',
    ],
    [
      'a details line with a fractional vat_code',
      body({ ...noPrice, details: [{ name: 'Digital', price: 1, vat_code: 2.5 }] }),
      'price_periods[0].details[0].vat_code',
    ],
    ['details in the simple price model', body({ ...creditcard, details: complexDetails }), 'price_periods[0].details'],
    [
      'a campaign period without monthly_payments',
      { package_integration_code: 'PREMIUM-SUMMER', price_periods: [creditcard] },
      'price_periods[0].monthly_payments',
    ],
  ])('update prices refuses %s: 400 invalid_parameter %s', async (_, json, field) => {
    const token = h.token();
    await expectUnchanged(h.platform, async () =>
      expectError(await update(json, token), 400, 'invalid_parameter', field),
    );
  });

  test.each([0, -1])(
    'update prices refuses a length of %s: 400 invalid_parameter, a message that says what is allowed (greater than 0)',
    async (length) => {
      const token = h.token();
      await expectUnchanged(h.platform, async () => {
        const answer = await update(body({ ...creditcard, length }), token);
        expectError(answer, 400, 'invalid_parameter', 'price_periods[0].length');
        expect((answer.body as { message: string }).message).toBe('Parameter must be greater than 0');
      });
    },
  );

  test.each([
    ['a price below 0', body({ ...creditcard, price: -1 }), 'price_periods[0].price', 'Parameter must be at least 0'],
    [
      'a price over 1,000,000,000,000',
      body({ ...creditcard, price: 1e12 + 0.01 }),
      'price_periods[0].price',
      'Parameter must be at most 1000000000000',
    ],
    [
      'psp payment_option_details with an empty type (required)',
      body({ ...psp, payment_option_details: { type: '', name: 'Mastercard' } }),
      'price_periods[0].payment_option_details.type',
      'Parameter size must be at least 1',
    ],
    [
      'psp payment_option_details with an empty name (required)',
      body({ ...psp, payment_option_details: { type: 'mastercard', name: '' } }),
      'price_periods[0].payment_option_details.name',
      'Parameter size must be at least 1',
    ],
    [
      'psp payment_option_details with a type over 100 characters',
      body({ ...psp, payment_option_details: { type: 'm'.repeat(101), name: 'Mastercard' } }),
      'price_periods[0].payment_option_details.type',
      'Parameter size must be at most 100',
    ],
    [
      'psp payment_option_details with a name over 100 characters',
      body({ ...psp, payment_option_details: { type: 'mastercard', name: 'M'.repeat(101) } }),
      'price_periods[0].payment_option_details.name',
      'Parameter size must be at most 100',
    ],
  ])('update prices refuses %s: 400 invalid_parameter %s, "%s"', async (_, json, field, message) => {
    const token = h.token();
    await expectUnchanged(h.platform, async () => {
      const answer = await update(json, token);
      expect(expectError(answer, 400, 'invalid_parameter', field).message).toBe(message);
    });
  });

  test.each([
    ['a details line whose price is below 0', { name: 'Digital', price: -5, vat_code: 6 }, 'price'],
    ['a details line whose vat_code is below 0', { name: 'Digital', price: 5, vat_code: -6 }, 'vat_code'],
  ])(
    'complex price model: update prices refuses %s, as the simple price: 400 invalid_parameter, "Parameter must be at least 0"',
    async (_, line, member) => {
      const token = h.token([WRITE], demoIds.clients.complex.clientId);
      const { price: _price, ...withoutPrice } = creditcard;
      const json = {
        package_integration_code: 'COMPLEX-BUNDLE',
        price_periods: [{ ...withoutPrice, details: [line] }],
      };
      await expectUnchanged(h.platform, async () => {
        const answer = await update(json, token);
        const error = expectError(answer, 400, 'invalid_parameter', `price_periods[0].details[0].${member}`);
        expect(error.message).toBe('Parameter must be at least 0');
      });
    },
  );

  test.each([
    [
      'a details line with an empty name (required)',
      [{ name: '', price: 5, vat_code: 6 }],
      'details[0].name',
      'Parameter size must be at least 1',
    ],
    [
      'a details line with a name over 100 characters',
      [{ name: 'D'.repeat(101), price: 5, vat_code: 6 }],
      'details[0].name',
      'Parameter size must be at most 100',
    ],
    [
      'a details line priced over 1,000,000,000,000',
      [{ name: 'Digital', price: 1e307, vat_code: 6 }],
      'details[0].price',
      'Parameter must be at most 1000000000000',
    ],
    [
      'details lines whose prices sum to over 1,000,000,000,000 (each within it)',
      [
        { name: 'Digital', price: 1e12, vat_code: 6 },
        { name: 'Paper', price: 0.01, vat_code: 25 },
      ],
      'details',
      'Parameter must hold prices that sum to at most 1000000000000',
    ],
    [
      'more than 100 details lines',
      Array.from({ length: 101 }, () => ({ name: 'Digital', price: 1, vat_code: 6 })),
      'details',
      'Parameter must have at most 100 items',
    ],
  ])(
    'complex price model: update prices refuses %s: 400 invalid_parameter, nothing changed',
    async (_, details, member, message) => {
      const token = h.token([WRITE], demoIds.clients.complex.clientId);
      const { price: _price, ...withoutPrice } = creditcard;
      const json = { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [{ ...withoutPrice, details }] };
      await expectUnchanged(h.platform, async () => {
        const answer = await update(json, token);
        expect(expectError(answer, 400, 'invalid_parameter', `price_periods[0].${member}`).message).toBe(message);
      });
    },
  );

  test('complex price model: 100 details lines of 100-character names are taken', async () => {
    const token = h.token([WRITE], demoIds.clients.complex.clientId);
    const { price: _price, ...withoutPrice } = creditcard;
    const details = Array.from({ length: 100 }, () => ({ name: 'D'.repeat(100), price: 1, vat_code: 6 }));
    const json = { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [{ ...withoutPrice, details }] };
    expectOk(await update(json, token), IdResponse);
  });

  test('the highest price, 1,000,000,000,000: taken, and read back as it was sent, in each price model', async () => {
    expectOk(await update(body({ ...creditcard, price: 1e12 })), IdResponse);
    const [simple] = await products({ product_code: 'premium-digital' });
    expect(simple!.price_periods.find((pp) => pp.id === demoIds.periods.premiumCreditcard)?.price).toBe(1e12);

    const token = h.token([READ, WRITE], demoIds.clients.complex.clientId);
    const { price: _, ...withoutPrice } = creditcard;
    const details = [
      { name: 'Digital', price: 999_999_999_999.99, vat_code: 6 },
      { name: 'Paper', price: 0.01, vat_code: 25 },
    ];
    const json = { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [{ ...withoutPrice, details }] };
    expectOk(await update(json, token), IdResponse);
    const { items } = expectOk(
      await h.call(paths.getPaymentPeriods, { query: { product_code: 'complex-bundle' }, token }),
      GetPaymentPeriodsResponse,
    );
    // Endpoint 3 answers the period's price as the sum of its lines, a number still.
    expect(items.find((pp) => pp.payment_method === 'creditcard')?.price).toBe(1e12);
  });

  test('complex price model: a details line priced 0 with vat_code 0 is taken', async () => {
    const token = h.token([READ, WRITE], demoIds.clients.complex.clientId);
    const { price: _, ...withoutPrice } = creditcard;
    const free = [{ name: 'Digital', price: 0, vat_code: 0 }];
    const json = { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [{ ...withoutPrice, details: free }] };
    expectOk(await update(json, token), IdResponse);
    const [p] = await products({ product_code: 'complex-bundle' }, token);
    expect(p!.price_periods[0]!.details).toEqual(free);
  });

  test('update prices refuses a complex-model period without details: 400 invalid_parameter price_periods[0].details', async () => {
    const token = h.token([WRITE], demoIds.clients.complex.clientId);
    const json = { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [creditcard] };
    await expectUnchanged(h.platform, async () =>
      expectError(await update(json, token), 400, 'invalid_parameter', 'price_periods[0].details'),
    );
  });

  test('update prices checks every period before changing any: a refusal of the second leaves the first', async () => {
    const token = h.token();
    const json = body(creditcard, { ...psp, payment_option_details: undefined });
    await expectUnchanged(h.platform, async () =>
      expectError(await update(json, token), 400, 'invalid_parameter', 'price_periods[1].payment_option_details'),
    );
  });

  test.each([
    ['a field the spec does not name', { ...body(creditcard), currency: 'SEK' }, 'currency'],
    ['a period field the spec does not name', body({ ...creditcard, discount: 5 }), 'price_periods[0].discount'],
  ])('update prices refuses %s: 400 unknown_parameter', async (_, json, field) => {
    const token = h.token();
    await expectUnchanged(h.platform, async () =>
      expectError(await update(json, token), 400, 'unknown_parameter', field),
    );
  });

  test('update prices refuses a query parameter: 400 unknown_parameter; nothing changes', async () => {
    const token = h.token();
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.updatePrices, {
        method: 'POST',
        query: { dry_run: 'true' },
        json: body(creditcard),
        token,
      }),
    );
    expectError(answer, 400, 'unknown_parameter', 'dry_run');
  });

  test('update prices refuses a body that is not JSON: 400 json_parser_error body', async () => {
    const token = h.token();
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.updatePrices, {
        method: 'POST',
        body: '{"package_integration_code": ',
        headers: { 'content-type': 'application/json' },
        token,
      }),
    );
    expectError(answer, 400, 'json_parser_error', 'body');
  });

  test('update prices refuses an empty body: 400 json_parser_error body; nothing changes', async () => {
    const token = h.token();
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.updatePrices, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        token,
      }),
    );
    expectError(answer, 400, 'json_parser_error', 'body');
  });

  test('update prices refuses JSON that is not an object: 400 invalid_parameter body', async () => {
    const token = h.token();
    await expectUnchanged(h.platform, async () =>
      expectError(await update([body(creditcard)], token), 400, 'invalid_parameter', 'body'),
    );
  });

  test.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no Content-Type', undefined],
  ])('update prices refuses %s: 400 invalid_content_type_error content-type', async (_, headers) => {
    const token = h.token();
    const answer = await expectUnchanged(h.platform, () => {
      // fetch adds text/plain to a string body; a Blob without a type sends no Content-Type.
      const payload = JSON.stringify(body(creditcard));
      return headers
        ? h.call(paths.updatePrices, { method: 'POST', body: payload, headers, token })
        : fetch(`${h.origin()}${paths.updatePrices}`, {
            method: 'POST',
            body: new Blob([payload]),
            headers: { authorization: `Bearer ${token}` },
          }).then(async (res) => ({ status: res.status, headers: res.headers, text: '', body: await res.json() }));
    });
    expectError(answer, 400, 'invalid_content_type_error', 'content-type');
  });

  test.each([
    ['an integration code no product has', 'NO-SUCH-PACKAGE'],
    ['the integration code of a product that is neither package nor campaign', 'DIGITAL-NEWS'],
    ["another organisation's package", 'COMPLEX-BUNDLE'],
  ])('update prices answers 404 not_found package_integration_code for %s', async (_, code) => {
    const token = h.token();
    const json = { ...body(creditcard), package_integration_code: code };
    await expectUnchanged(h.platform, async () =>
      expectError(await update(json, token), 404, 'not_found', 'package_integration_code'),
    );
  });

  test('update prices needs the scope /external/price/w: 403 insufficient_scope', async () => {
    const token = h.token([READ]);
    const answer = await expectUnchanged(h.platform, () => update(body(creditcard), token));
    expectError(answer, 403, 'insufficient_scope');
    expect(answer.headers.get('www-authenticate')).toBe(
      'Bearer realm="platform", error="insufficient_scope", scope="/external/price/w"',
    );
  });
});

describe.each(ADAPTERS)('the request content type is matched without letter case, through %s', (kind) => {
  const h = useAdapter(kind);
  const post = (contentType: string, token = h.token()) =>
    h.call(paths.updatePrices, {
      method: 'POST',
      body: JSON.stringify(body({ ...creditcard, price: 14.5 })),
      headers: { 'content-type': contentType },
      token,
    });
  const stored = () =>
    h.platform
      .snapshot()
      .products.find((p) => p.id === demoIds.products.premiumDigital)
      ?.price_periods.find((pp) => pp.id === demoIds.periods.premiumCreditcard)?.price;

  test.each(['Application/JSON', 'APPLICATION/JSON; charset=UTF-8', 'application/Json;Charset=utf-8'])(
    '%s: accepted as application/json, the price updated',
    async (contentType) => {
      expect(expectOk(await post(contentType), IdResponse)).toEqual({ id: demoIds.products.premiumDigital });
      expect(stored()).toBe(14.5);
    },
  );

  test('another media type in capitals is still refused: 400 invalid_content_type_error, nothing changed', async () => {
    const token = h.token();
    const answer = await expectUnchanged(h.platform, () => post('TEXT/PLAIN', token));
    expectError(answer, 400, 'invalid_content_type_error', 'content-type');
  });
});
