/** Endpoint 1 through the SDK: prices updated, as get products then shows them, and the spec's errors. */
import { describe, expect, test } from 'vitest';
import { NotFoundError, RequestValidationError } from '../../src/index.js';
import { client, creditcardPrice, demoIds, paths, platform, READ, received, usePlatform } from './helpers.js';

usePlatform();

describe('1. Update prices', () => {
  test('answers the id of the updated package; get products then shows the new price', async () => {
    const sdk = client();
    const answer = await sdk.prices.update(creditcardPrice(12.9));
    expect(answer).toEqual({ id: demoIds.products.premiumDigital });
    const { items } = await sdk.products.list({ product_code: 'premium-digital' });
    expect(items[0]?.price_periods.find((p) => p.payment_option === 'creditcard')?.price).toBe(12.9);
    const sent = platform.requests.list().find((r) => r.path === paths.updatePrices);
    expect(sent?.headers['content-type']).toBe('application/json');
    expect(sent?.headers.accept).toBe('application/json');
    expect(JSON.parse(sent?.body ?? '')).toEqual(creditcardPrice(12.9));
  });

  test('a period that does not exist is created (psp with payment_option_details)', async () => {
    const sdk = client();
    await sdk.prices.update({
      package_integration_code: 'PREMIUM-SUMMER',
      price_periods: [
        {
          subscription_type: 'recurring',
          payment_option: 'psp',
          payment_option_details: { type: 'visa', name: 'Visa' },
          type: 'month',
          length: 1,
          price: 45,
          monthly_payments: true,
        },
      ],
    });
    const { items } = await sdk.products.paymentPeriods({ product_code: 'premium-summer' });
    expect(items.find((p) => p.payment_method === 'psp')).toMatchObject({ price: 45, details: { type: 'visa' } });
  });

  const period = { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1 } as const;
  const psp = { ...period, payment_option: 'psp', price: 10 } as const;
  test.each([
    [
      'a details line whose price is below 0',
      { ...period, details: [{ name: 'A', price: -5, vat_code: 6 }] },
      'details[0].price',
    ],
    [
      'a details line whose vat_code is below 0',
      { ...period, details: [{ name: 'A', price: 5, vat_code: -6 }] },
      'details[0].vat_code',
    ],
    [
      'payment_option_details with an empty type',
      { ...psp, payment_option_details: { type: '', name: 'Visa' } },
      'payment_option_details.type',
    ],
    [
      'payment_option_details with an empty name',
      { ...psp, payment_option_details: { type: 'visa', name: '' } },
      'payment_option_details.name',
    ],
    [
      'payment_option_details with a name over 100 characters',
      { ...psp, payment_option_details: { type: 'visa', name: 'V'.repeat(101) } },
      'payment_option_details.name',
    ],
    [
      'a details line with an empty name',
      { ...period, details: [{ name: '', price: 5, vat_code: 6 }] },
      'details[0].name',
    ],
    [
      'more than 100 details lines',
      { ...period, details: Array.from({ length: 101 }, () => ({ name: 'A', price: 1, vat_code: 6 })) },
      'details',
    ],
    ['a price over 1,000,000,000,000', { ...period, price: 1e12 + 0.01 }, 'price'],
    [
      'a details line priced over 1,000,000,000,000',
      { ...period, details: [{ name: 'A', price: 1e307, vat_code: 6 }] },
      'details[0].price',
    ],
    [
      'details lines whose prices sum to over 1,000,000,000,000',
      {
        ...period,
        details: [
          { name: 'A', price: 1e12, vat_code: 6 },
          { name: 'B', price: 1, vat_code: 6 },
        ],
      },
      'details',
    ],
  ])('%s: RequestValidationError naming it, and nothing is sent', async (_, pricePeriod, field) => {
    const call = client().prices.update({ package_integration_code: 'COMPLEX-BUNDLE', price_periods: [pricePeriod] });
    await expect(call).rejects.toMatchObject({
      constructor: RequestValidationError,
      code: 'invalid_parameter',
      field: `price_periods[0].${field}`,
    });
    expect(received(paths.updatePrices)).toEqual([]);
  });

  test('a package that is absent: 404 not_found; no price changed', async () => {
    const sdk = client();
    const before = platform.snapshot();
    await expect(
      sdk.prices.update({ ...creditcardPrice(1), package_integration_code: 'NO-SUCH-PACKAGE' }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'not_found' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('a token without /external/price/w: 403; no price changed', async () => {
    const sdk = client({}, [READ]);
    const before = platform.snapshot();
    await expect(sdk.prices.update(creditcardPrice(1))).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
    expect(platform.snapshot()).toEqual(before);
  });
});
