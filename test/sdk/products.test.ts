/** Endpoints 2, 3 and 15 through the SDK: the happy paths, read as the spec words them. */
import { describe, expect, test } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { client, demoIds, paths, platform, requestsTo, usePlatform } from './helpers.js';

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

  test('a product that is absent: 404 not_found; nothing changes', async () => {
    const sdk = client();
    const before = platform.snapshot();
    await expect(sdk.products.list({ product_code: 'no-such-product' })).rejects.toMatchObject({
      constructor: NotFoundError,
      status: 404,
      code: 'not_found',
      field: 'product_code',
    });
    expect(platform.snapshot()).toEqual(before);
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

  test("by the spec's samples' id (a JavaScript caller's): sent as product_id, as the spec names it", async () => {
    const query = { id: demoIds.products.premiumSummer } as unknown as { product_id: string };
    const { items } = await client().products.paymentPeriods(query);
    expect(items).toMatchObject([{ id: demoIds.periods.summerCreditcard }]);
    expect(requestsTo(platform, paths.getPaymentPeriods)).toMatchObject([
      { query: { product_id: demoIds.products.premiumSummer } },
    ]);
    expect(requestsTo(platform, paths.getPaymentPeriods)[0]?.query).not.toHaveProperty('id');
    expect(query).toEqual({ id: demoIds.products.premiumSummer });
  });

  test('id beside product_id: refused before sending, as two names of one parameter', async () => {
    const query = { id: demoIds.products.premiumSummer, product_id: demoIds.products.premiumSummer };
    await expect(client().products.paymentPeriods(query as { product_id: string })).rejects.toMatchObject({
      name: 'RequestValidationError',
    });
    expect(requestsTo(platform, paths.getPaymentPeriods)).toEqual([]);
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
