/** Endpoints 1, 2, 3 and 15 through the SDK: the happy paths, read as the spec words them. */
import { describe, expect, test } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { client, creditcardPrice, demoIds, paths, platform, READ, requestsTo, usePlatform } from './helpers.js';

usePlatform();

describe('2. Get products', () => {
  test('without a query: the active products, packages and campaigns of the organisation', async () => {
    const { items } = await client().products.list();
    const codes = items.map((p) => p.product_code);
    expect(codes).toEqual(expect.arrayContaining(['premium-digital', 'premium-summer', 'basic-news', 'digital-news']));
    expect(codes).not.toContain('legacy-package');
  });

  test('product_type=packages gives packages only, each price period with its price', async () => {
    const { items } = await client().products.list({ product_type: 'packages' });
    expect(items.length).toBeGreaterThan(0);
    expect(items.every((p) => p.is_package)).toBe(true);
    const premium = items.find((p) => p.product_code === 'premium-digital');
    expect(premium?.integration_code).toBe('PREMIUM-DIGITAL');
    expect(premium?.price_periods.find((pp) => pp.payment_option === 'creditcard')?.price).toBe(99);
  });

  test('include_inactive=true includes inactive products; the boolean is sent as "true"', async () => {
    const { items } = await client().products.list({ product_code: 'legacy-package', include_inactive: true });
    expect(items.map((p) => p.id)).toEqual([demoIds.products.legacy]);
    expect(requestsTo(platform, paths.getProducts)).toMatchObject([
      { query: { product_code: 'legacy-package', include_inactive: 'true' } },
    ]);
  });

  test('a product that is absent: 404 not_found', async () => {
    await expect(client().products.list({ product_code: 'no-such-product' })).rejects.toMatchObject({
      constructor: NotFoundError,
      status: 404,
      code: 'not_found',
      field: 'product_code',
    });
  });
});

describe('3. Get payment periods', () => {
  test('by product_code: every period, psp with its details', async () => {
    const { items } = await client().products.paymentPeriods({ product_code: 'premium-digital' });
    expect(items.map((p) => p.payment_method)).toEqual(['creditcard', 'psp', 'invoice', 'directdebit']);
    expect(items.find((p) => p.payment_method === 'psp')?.details).toEqual({ name: 'Visa', type: 'visa' });
    expect(items.find((p) => p.payment_method === 'directdebit')?.enabled).toBe(false);
  });

  test('by product_id', async () => {
    const { items } = await client().products.paymentPeriods({ product_id: demoIds.products.premiumSummer });
    expect(items).toMatchObject([{ id: demoIds.periods.summerCreditcard, price: 49, iteration_type: 'month' }]);
  });

  test('a package that is absent: 404 not_found naming the field', async () => {
    await expect(client().products.paymentPeriods({ product_code: 'no-such-package' })).rejects.toMatchObject({
      status: 404,
      code: 'not_found',
      field: 'product_code',
    });
  });
});

describe('15. Get product sharing', () => {
  test('by code: a shareable product gives its limit and texts, as an array under item', async () => {
    const { item } = await client().products.sharing({ code: 'premium-digital' });
    expect(item).toEqual([
      expect.objectContaining({ shareable: true, limit: 3, sharing_title: 'Share your subscription' }),
    ]);
  });

  test('by id: a product that is not shareable has limit 0 and null texts', async () => {
    const { item } = await client().products.sharing({ id: demoIds.products.basicNews });
    expect(item).toEqual([
      {
        shareable: false,
        limit: 0,
        sharing_text: null,
        sharing_title: null,
        received_product_text: null,
        received_product_title: null,
      },
    ]);
  });
});

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

  test('a package that is absent: 404 not_found', async () => {
    await expect(
      client().prices.update({ ...creditcardPrice(1), package_integration_code: 'NO-SUCH-PACKAGE' }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'not_found' });
  });

  test('a token without /external/price/w: 403', async () => {
    await expect(client({}, [READ]).prices.update(creditcardPrice(1))).rejects.toMatchObject({
      status: 403,
      code: 'insufficient_scope',
    });
  });
});
