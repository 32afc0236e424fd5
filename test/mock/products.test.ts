/** Endpoints 2 (get products), 3 (get payment periods) and 15 (get product sharing), through both adapters. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { documentWith } from '../../bench/documents.js';
import { internalsOf } from '../../mock/core/internals.js';
import { keptProductJson } from '../../mock/core/kept-json.js';
import { createPlatform, defaultHosts } from '../../mock/index.js';
import {
  GetPaymentPeriodsResponse,
  GetProductSharingResponse,
  GetProductsResponse,
} from '../../src/schemas/products.js';
import {
  ADAPTERS,
  absent,
  demoIds,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
  WRITE,
} from './harness.js';

const ids = demoIds.products;
const codesOf = (items: { product_code: string }[]) => items.map((p) => p.product_code).sort();

describe.each(ADAPTERS)('products through %s', (kind) => {
  const h = useAdapter(kind);
  const list = (query: Record<string, string> | string, token = h.token([READ])) =>
    h.call(paths.getProducts, { query, token });

  describe('get products (endpoint 2)', () => {
    test("without filters answers the caller's organisation's active products", async () => {
      const { items } = expectOk(await list({}), GetProductsResponse);
      expect(codesOf(items)).toEqual(['basic-news', 'digital-news', 'e-paper', 'premium-digital', 'premium-summer']);
    });

    test('the list is in the order of the state document, whatever it is', async () => {
      const inOrder = (items: { product_code: string }[]) => items.map((p) => p.product_code);
      const seeded = inOrder(expectOk(await list({}), GetProductsResponse).items);
      expect(seeded).toEqual(['digital-news', 'e-paper', 'premium-digital', 'premium-summer', 'basic-news']);
      const doc = h.platform.snapshot();
      doc.products.reverse();
      h.platform.restore(doc);
      expect(inOrder(expectOk(await list({}), GetProductsResponse).items)).toEqual([...seeded].reverse());
    });

    test('get products answers each product as it is now, after any update prices, restore or reset: the bytes a platform restored from the same state answers', async () => {
      // The platform keeps each product's JSON by its record (records are replaced, never changed).
      const organisations = [
        { clientId: undefined, packages: ['PREMIUM-DIGITAL', 'PREMIUM-SUMMER', 'LEGACY'] },
        { clientId: 'complex-client', packages: ['COMPLEX-BUNDLE'] },
      ];
      const period = fc.record({
        subscription_type: fc.constantFrom('recurring', 'limited'),
        payment_option: fc.constantFrom('creditcard', 'invoice', 'directdebit'),
        type: fc.constantFrom('month', 'year'),
        length: fc.integer({ min: 1, max: 2 }),
        cents: fc.integer({ min: 0, max: 99_999 }),
      });
      const step = fc.oneof(
        fc.record({ kind: fc.constant('update prices' as const), organisation: fc.nat(1), at: fc.nat(2), period }),
        fc.record({ kind: fc.constant('restore' as const), at: fc.nat(20), name: fc.string({ maxLength: 8 }) }),
        fc.constant({ kind: 'reset' as const }),
      );
      const listed = async (clientId: string | undefined) => {
        const answer = await list({ include_inactive: 'true' }, h.token([READ], clientId));
        expect(answer.status).toBe(200);
        return answer.text;
      };
      // Restored, its records are new ones, whose JSON nothing has kept.
      const fresh = createPlatform({ seed: 'demo' });
      const afresh = async (clientId: string | undefined) => {
        const token = fresh.mintToken({ scopes: [READ], clientId }).access_token;
        const url = `${defaultHosts.api}${paths.getProducts}?include_inactive=true`;
        return (await fresh.handle(new Request(url, { headers: { authorization: `Bearer ${token}` } }))).text();
      };
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          h.platform.reset();
          // Each organisation's answer read once first, so that what follows meets JSON kept already.
          for (const { clientId } of organisations) await listed(clientId);
          for (const s of steps) {
            if (s.kind === 'update prices') {
              const { clientId, packages } = organisations[s.organisation]!;
              const { cents, ...rest } = s.period;
              const price = cents / 100;
              const input = {
                ...rest,
                ...(clientId === undefined ? { price } : { details: [{ name: 'Digital', price, vat_code: 6 }] }),
                ...(packages[s.at % packages.length] === 'PREMIUM-SUMMER' ? { monthly_payments: true } : {}),
              };
              const answer = await h.call(paths.updatePrices, {
                method: 'POST',
                json: { package_integration_code: packages[s.at % packages.length], price_periods: [input] },
                token: h.token([WRITE], clientId),
              });
              expect(answer.status).toBe(200);
            } else if (s.kind === 'restore') {
              const doc = h.platform.snapshot();
              const product = doc.products[s.at % doc.products.length]!;
              product.name = s.name;
              h.platform.restore(doc);
            } else h.platform.reset();
            const doc = h.platform.snapshot();
            fresh.restore(doc);
            for (const { clientId } of organisations) {
              const text = await listed(clientId);
              expect(text).toBe(await afresh(clientId));
              // And what changed reads as the state has it now (a kept JSON shared by both would pass the above).
              for (const item of GetProductsResponse.parse(JSON.parse(text)).items) {
                const record = doc.products.find((p) => p.id === item.id)!;
                expect([item.name, item.updated]).toEqual([record.name, record.updated]);
                expect(item.price_periods.map((pp) => [pp.id, pp.price ?? pp.details])).toEqual(
                  record.price_periods.map((pp) => [pp.id, clientId === undefined ? pp.price : pp.details]),
                );
              }
            }
          }
        }),
        { numRuns: 15, seed: 20261127 },
      );
    });

    test('include_inactive=true adds inactive products; false does not', async () => {
      const all = expectOk(await list({ include_inactive: 'true' }), GetProductsResponse);
      expect(codesOf(all.items)).toContain('legacy-package');
      const active = expectOk(await list({ include_inactive: 'false' }), GetProductsResponse);
      expect(codesOf(active.items)).not.toContain('legacy-package');
    });

    test('id answers that product (in any letter case)', async () => {
      const { items } = expectOk(await list({ id: ids.premiumDigital.toUpperCase() }), GetProductsResponse);
      expect(items.map((p) => p.id)).toEqual([ids.premiumDigital]);
    });

    test('product_code answers that product', async () => {
      const { items } = expectOk(await list({ product_code: 'basic-news' }), GetProductsResponse);
      expect(items.map((p) => p.id)).toEqual([ids.basicNews]);
    });

    test.each([
      ['packages', ['basic-news', 'premium-digital']],
      ['campaigns', ['premium-summer']],
      ['products', ['digital-news', 'e-paper']],
    ])('product_type=%s', async (productType, codes) => {
      const { items } = expectOk(await list({ product_type: productType }), GetProductsResponse);
      expect(codesOf(items)).toEqual(codes);
    });

    test('title_code', async () => {
      const { items } = expectOk(await list({ title_code: 'EPAPER' }), GetProductsResponse);
      expect(codesOf(items)).toEqual(['e-paper']);
    });

    test.each([
      ['news', ['basic-news', 'premium-digital', 'premium-summer']],
      ['news,premium', ['premium-digital']],
      ['news, campaign', ['premium-summer']],
      ['News', []],
      ['news,digital', []],
      ['news premium', ['premium-digital']],
      ['news\tcampaign ', ['premium-summer']],
      ['news,\n premium', ['premium-digital']],
    ])(
      'tags=%j: a product must carry every listed tag (names separated by commas and/or white space), case sensitive',
      async (tags, codes) => {
        const { items } = expectOk(await list({ tags }), GetProductsResponse);
        expect(codesOf(items)).toEqual(codes);
      },
    );

    test('filters that match nothing answer 200 with no items', async () => {
      const answer = await list({ product_type: 'campaigns', title_code: 'EPAPER' });
      expect(expectOk(answer, GetProductsResponse)).toEqual({ items: [] });
    });

    test('a product reads as the spec writes it: simple price model', async () => {
      const { items } = expectOk(await list({ product_code: 'premium-digital' }), GetProductsResponse);
      const p = items[0]!;
      expect(Object.keys(p).sort()).toEqual(
        [
          'created',
          'customer_can_cancel',
          'description',
          'id',
          'integration_code',
          'is_campaign',
          'is_package',
          'name',
          'parent_product_code',
          'parent_product_id',
          'price_periods',
          'products',
          'tags',
          'title_code',
          'updated',
          'valid_from',
          'valid_to',
          'vat_code',
          'product_code',
        ].sort(),
      );
      expect(p.integration_code).toBe('PREMIUM-DIGITAL');
      expect(p.vat_code).toBe('25');
      expect(p.products.map((m) => m.product_code)).toEqual(['digital-news', 'e-paper']);
      expect(p.tags).toEqual([
        { name: 'news', type: 'package' },
        { name: 'premium', type: 'package' },
      ]);
      expect(p.price_periods[0]).toEqual({
        id: demoIds.periods.premiumCreditcard,
        purchase_type: 'recurring',
        payment_option: 'creditcard',
        type: 'month',
        length: 1,
        price: 99,
      });
    });

    test('a campaign names its package; a product without an integration code has none', async () => {
      const { items } = expectOk(await list({ product_type: 'campaigns' }), GetProductsResponse);
      expect(items[0]).toMatchObject({ parent_product_id: ids.premiumDigital, parent_product_code: 'premium-digital' });
      const basic = expectOk(await list({ product_code: 'basic-news' }), GetProductsResponse);
      expect(basic.items[0]).not.toHaveProperty('integration_code');
    });

    test('complex price model: periods carry details instead of price, and no vat_code', async () => {
      const token = h.token([READ], demoIds.clients.complex.clientId);
      const { items } = expectOk(await list({}, token), GetProductsResponse);
      expect(codesOf(items)).toEqual(['complex-bundle']);
      expect(items[0]).not.toHaveProperty('vat_code');
      expect(items[0]!.price_periods[0]).toEqual({
        id: demoIds.periods.complexCreditcard,
        purchase_type: 'recurring',
        payment_option: 'creditcard',
        type: 'month',
        length: 1,
        details: [
          { name: 'Digital', price: 80.5, vat_code: 6 },
          { name: 'Paper', price: 120, vat_code: 25 },
        ],
      });
    });

    test.each([
      ['id absent', { id: absent.id }, 'id'],
      ["id of another organisation's product", { id: ids.complexBundle }, 'id'],
      ['id of an inactive product without include_inactive', { id: ids.legacy }, 'id'],
      ['product_code absent', { product_code: 'no-such-product' }, 'product_code'],
      ["product_code of another organisation's product", { product_code: 'complex-bundle' }, 'product_code'],
    ])('get products answers 404 not_found: %s', async (_, query, field) => {
      const token = h.token([READ]);
      await expectUnchanged(h.platform, async () => expectError(await list(query, token), 404, 'not_found', field));
    });

    test('id of an inactive product with include_inactive=true answers it', async () => {
      const { items } = expectOk(await list({ id: ids.legacy, include_inactive: 'true' }), GetProductsResponse);
      expect(items.map((p) => p.product_code)).toEqual(['legacy-package']);
    });

    test.each([
      ['id not 24 hex characters', { id: 'xyz' }, 'invalid_parameter', 'id'],
      ['id longer than 24', { id: `${ids.premiumDigital}0` }, 'invalid_parameter', 'id'],
      [
        'id together with product_code',
        { id: ids.premiumDigital, product_code: 'premium-digital' },
        'invalid_parameter',
        'product_code',
      ],
      ['product_code empty', { product_code: '' }, 'invalid_parameter', 'product_code'],
      ['product_code longer than 50', { product_code: 'a'.repeat(51) }, 'invalid_parameter', 'product_code'],
      ['product_code with a space', { product_code: 'premium digital' }, 'invalid_parameter', 'product_code'],
      [
        'product_type not packages, campaigns or products',
        { product_type: 'bundles' },
        'invalid_parameter',
        'product_type',
      ],
      ['title_code longer than 15', { title_code: 'T'.repeat(16) }, 'invalid_parameter', 'title_code'],
      ['title_code with a dot', { title_code: 'A.B' }, 'invalid_parameter', 'title_code'],
      ['tags longer than 100', { tags: 'a'.repeat(101) }, 'invalid_parameter', 'tags'],
      ['tags not comma-separated names', { tags: 'news;sport' }, 'invalid_parameter', 'tags'],
      ['include_inactive not a boolean', { include_inactive: 'yes' }, 'invalid_parameter', 'include_inactive'],
      ['an unknown parameter', { colour: 'red' }, 'unknown_parameter', 'colour'],
      ['a repeated parameter', '?id=b00000000000000000000010&id=b00000000000000000000012', 'invalid_parameter', 'id'],
    ])('get products refuses %s: 400 %s %s', async (_, query, code, field) => {
      const token = h.token([READ]);
      await expectUnchanged(h.platform, async () => expectError(await list(query, token), 400, code, field));
    });

    test.each([
      ['not of its shape', 'xyz'],
      ['longer than 24', 'b000000000000000000000100'],
    ])(
      'an id %s is told it must be 24 hexadecimal characters, in the platform\u2019s documented words; nothing changes',
      async (_, id) => {
        const token = h.token([READ]);
        const answer = await expectUnchanged(h.platform, () => list({ id }, token));
        expectError(answer, 400, 'invalid_parameter', 'id');
        expect((answer.body as { message: string }).message).toBe(
          'Parameter must match format (/^[a-f\\d]{24}$/i): 24 hexadecimal characters',
        );
      },
    );

    test('get products refuses a Content-Type other than application/json: 400 invalid_content_type_error', async () => {
      const answer = await h.call(paths.getProducts, {
        token: h.token([READ]),
        headers: { 'content-type': 'text/plain' },
      });
      expectError(answer, 400, 'invalid_content_type_error', 'content-type');
    });
  });

  describe('get payment periods (endpoint 3)', () => {
    const periods = (query: Record<string, string> | string, token = h.token([READ])) =>
      h.call(paths.getPaymentPeriods, { query, token });

    const premiumPeriods = [
      {
        id: demoIds.periods.premiumCreditcard,
        payment_method: 'creditcard',
        type: 'recurring',
        enabled: true,
        iteration_type: 'month',
        iteration_length: 1,
        price: 99,
      },
      {
        id: demoIds.periods.premiumPsp,
        payment_method: 'psp',
        type: 'recurring',
        enabled: true,
        iteration_type: 'month',
        iteration_length: 1,
        price: 99,
        details: { name: 'Visa', type: 'visa' },
      },
      {
        id: demoIds.periods.premiumInvoice,
        payment_method: 'invoice',
        type: 'limited',
        enabled: true,
        iteration_type: 'year',
        iteration_length: 1,
        price: 990,
      },
      {
        id: demoIds.periods.premiumDirectdebitDisabled,
        payment_method: 'directdebit',
        type: 'recurring',
        enabled: false,
        iteration_type: 'month',
        iteration_length: 1,
        price: 95,
      },
    ];

    test.each([
      ['product_id', { product_id: ids.premiumDigital }],
      ['its alias id', { id: ids.premiumDigital }],
      ['product_code', { product_code: 'premium-digital' }],
    ])('by %s answers the periods of the package; details only for psp', async (_, query) => {
      const { items } = expectOk(await periods(query), GetPaymentPeriodsResponse);
      expect(items).toEqual(premiumPeriods);
    });

    test('a campaign has payment periods too', async () => {
      const { items } = expectOk(await periods({ product_code: 'premium-summer' }), GetPaymentPeriodsResponse);
      expect(items.map((p) => p.id)).toEqual([demoIds.periods.summerCreditcard]);
    });

    test('complex price model: the price is the sum of the details', async () => {
      const token = h.token([READ], demoIds.clients.complex.clientId);
      const { items } = expectOk(await periods({ product_code: 'complex-bundle' }, token), GetPaymentPeriodsResponse);
      expect(items.map((p) => [p.payment_method, p.price, p.details])).toEqual([
        ['creditcard', 200.5, undefined],
        ['psp', 80.5, { name: 'Mastercard', type: 'mastercard' }],
      ]);
    });

    test.each([
      ['product_id absent', { product_id: absent.id }, 'product_id'],
      ['id absent', { id: absent.id }, 'id'],
      ['product_code absent', { product_code: 'no-such-package' }, 'product_code'],
      ['a product that is neither package nor campaign', { product_code: 'digital-news' }, 'product_code'],
      ["another organisation's package", { product_id: ids.complexBundle }, 'product_id'],
    ])('get payment periods answers 404 not_found: %s', async (_, query, field) => {
      const token = h.token([READ]);
      await expectUnchanged(h.platform, async () => expectError(await periods(query, token), 404, 'not_found', field));
    });

    test.each([
      ['neither product_id nor product_code', {}, 'invalid_parameter', 'product_id'],
      [
        'both product_id and product_code',
        { product_id: ids.premiumDigital, product_code: 'x' },
        'invalid_parameter',
        'product_code',
      ],
      ['product_id not 24 hex characters', { product_id: 'nope' }, 'invalid_parameter', 'product_id'],
      ['product_code with a space', { product_code: 'a b' }, 'invalid_parameter', 'product_code'],
      ['an unknown parameter', { product_code: 'premium-digital', page: '2' }, 'unknown_parameter', 'page'],
    ])('get payment periods refuses %s: 400 %s %s', async (_, query, code, field) => {
      const token = h.token([READ]);
      await expectUnchanged(h.platform, async () => expectError(await periods(query, token), 400, code, field));
    });

    test('get payment periods refuses a Content-Type other than application/json: 400 invalid_content_type_error', async () => {
      const answer = await h.call(paths.getPaymentPeriods, {
        query: { product_code: 'premium-digital' },
        token: h.token([READ]),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expectError(answer, 400, 'invalid_content_type_error', 'content-type');
    });
  });

  describe('get product sharing (endpoint 15)', () => {
    const sharing = (query: Record<string, string>, token = h.token([READ])) =>
      h.call(paths.getProductSharing, { query, token });

    test('a shareable product answers its limit and texts, as an array under item', async () => {
      const body = expectOk(await sharing({ id: ids.premiumDigital }), GetProductSharingResponse);
      expect(body.item).toEqual([
        {
          shareable: true,
          limit: 3,
          sharing_text: 'Share Premium Digital with up to three people in your household',
          sharing_title: 'Share your subscription',
          received_product_text: 'You can now read Premium Digital, shared with you',
          received_product_title: 'A subscription was shared with you',
        },
      ]);
    });

    const notShareable = {
      shareable: false,
      limit: 0,
      sharing_text: null,
      sharing_title: null,
      received_product_text: null,
      received_product_title: null,
    };

    test('a product that is not shareable: limit 0, texts null (by code)', async () => {
      expect(expectOk(await sharing({ code: 'basic-news' }), GetProductSharingResponse).item).toEqual([notShareable]);
    });

    test('an inactive product (outside its validity window) is still found, by code and by id: its option', async () => {
      expect(expectOk(await sharing({ code: 'legacy-package' }), GetProductSharingResponse).item).toEqual([
        notShareable,
      ]);
      expect(expectOk(await sharing({ id: ids.legacy }), GetProductSharingResponse).item).toEqual([notShareable]);
    });

    test('a product without a sharing record is not shareable', async () => {
      expect(expectOk(await sharing({ code: 'e-paper' }), GetProductSharingResponse).item).toEqual([notShareable]);
    });

    test.each([
      ['id absent', { id: absent.id }, 'id'],
      ['code absent', { code: 'no-such-product' }, 'code'],
      ["another organisation's product", { code: 'complex-bundle' }, 'code'],
    ])('get product sharing answers 404 not_found: %s', async (_, query, field) => {
      const token = h.token([READ]);
      await expectUnchanged(h.platform, async () => expectError(await sharing(query, token), 404, 'not_found', field));
    });

    test.each([
      ['neither id nor code', {}, 'invalid_parameter', 'id'],
      ['both id and code', { id: ids.premiumDigital, code: 'premium-digital' }, 'invalid_parameter', 'code'],
      ['id not 24 hex characters', { id: '123' }, 'invalid_parameter', 'id'],
      ['code longer than 50', { code: 'c'.repeat(51) }, 'invalid_parameter', 'code'],
      ['an unknown parameter', { code: 'basic-news', product_code: 'basic-news' }, 'unknown_parameter', 'product_code'],
    ])('get product sharing refuses %s: 400 %s %s', async (_, query, code, field) => {
      const token = h.token([READ]);
      await expectUnchanged(h.platform, async () => expectError(await sharing(query, token), 400, code, field));
    });
  });
});

describe('get products over a catalogue larger than what is kept', () => {
  test('each product is answered as it is, read after read, when the kept JSON of the oldest is dropped', async () => {
    // 3,500 products of about 1,340 characters each: more than the 4 Mi units of JSON kept.
    const document = documentWith(3500);
    const platform = createPlatform({ seed: document });
    const ours = document.products.filter((p) => p.organisation_id === document.products.at(-1)!.organisation_id);
    const fresh = createPlatform({ seed: 'demo' });
    const read = async (p: typeof platform) => {
      const token = p.mintToken({ scopes: [READ] }).access_token;
      const url = `${defaultHosts.api}${paths.getProducts}?include_inactive=true`;
      const answer = await p.handle(new Request(url, { headers: { authorization: `Bearer ${token}` } }));
      expect(answer.status).toBe(200);
      return answer.text();
    };
    const state = internalsOf(platform)!.state;
    const first = await read(platform);
    expect(GetProductsResponse.parse(JSON.parse(first)).items).toHaveLength(ours.length);
    // What is kept stays within 4 Mi units: the JSON of some of the products, not all.
    const kept = keptProductJson(state);
    expect(kept.units).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(kept.units).toBeGreaterThan(3 * 1024 * 1024);
    expect(kept.products).toBeLessThan(ours.length);
    // Read again: the first products' JSON was dropped to keep the last ones'.
    expect(await read(platform)).toBe(first);
    const token = platform.mintToken({ scopes: [WRITE] }).access_token;
    const write = await platform.handle(
      new Request(`${defaultHosts.api}${paths.updatePrices}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          package_integration_code: 'BENCH-0',
          price_periods: [
            { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 1.5 },
          ],
        }),
      }),
    );
    expect(write.status).toBe(200);
    const after = await read(platform);
    expect(after).not.toBe(first);
    fresh.restore(platform.snapshot());
    expect(after).toBe(await read(fresh));
    // A reset drops all of it: nothing of the state before is kept; the seed's read keeps as the first did.
    platform.reset();
    expect(keptProductJson(state)).toEqual({ products: 0, units: 0 });
    await read(platform);
    expect(keptProductJson(state)).toEqual(kept);
  });
});
