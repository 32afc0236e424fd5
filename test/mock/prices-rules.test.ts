/**
 * Endpoint 1 (update prices), rule by rule (`mock/core/prices.ts`, `mock/routes/prices.ts`; a
 * mutation run found each of these unchecked elsewhere): what each refusal says, which period an
 * update matches, what an update keeps of a period, and the cap on a package's price periods
 * (`test/mock/bounded-memory.test.ts` reaches it too, but the mutation run leaves that file out).
 */
import { describe, expect, test } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { CREDITCARD_PERIOD } from '../fixtures.js';
import { ADAPTERS, demoIds, expectError, expectOk, expectUnchanged, paths, useAdapter, WRITE } from './harness.js';

const creditcard = CREDITCARD_PERIOD;
const body = (...periods: object[]) => ({ package_integration_code: 'PREMIUM-DIGITAL', price_periods: periods });
const details = [{ name: 'Digital', price: 90, vat_code: 6 }];

describe.each(ADAPTERS)('update prices (endpoint 1) through %s', (kind) => {
  const h = useAdapter(kind);
  const update = (json: unknown, token = h.token()) => h.call(paths.updatePrices, { method: 'POST', json, token });
  const stored = (productId: string) => h.platform.snapshot().products.find((p) => p.id === productId)!.price_periods;

  test.each([
    [
      'a campaign period without monthly_payments',
      'price_periods[0].monthly_payments',
      'Parameter is required for a campaign',
      { package_integration_code: 'PREMIUM-SUMMER', price_periods: [creditcard] },
      undefined,
    ],
    [
      'details in the simple price model',
      'price_periods[0].details',
      'Parameter is allowed only in the complex price model',
      body({ ...creditcard, details }),
      undefined,
    ],
    [
      'a complex-model period without details',
      'price_periods[0].details',
      'Parameter is required in the complex price model',
      { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [creditcard] },
      demoIds.clients.complex.clientId,
    ],
  ])(
    'update prices refuses %s: 400 invalid_parameter %s, "%s", nothing changed',
    async (_, field, message, json, clientId) => {
      const token = h.token([WRITE], clientId);
      await expectUnchanged(h.platform, async () => {
        const answer = await update(json, token);
        expect(expectError(answer, 400, 'invalid_parameter', field).message).toBe(message);
      });
    },
  );

  test('update prices answers an unknown integration code 404 not_found "Package not found", nothing changed', async () => {
    const token = h.token();
    await expectUnchanged(h.platform, async () => {
      const answer = await update({ ...body(creditcard), package_integration_code: 'NO-SUCH-PACKAGE' }, token);
      expect(expectError(answer, 404, 'not_found', 'package_integration_code').message).toBe('Package not found');
    });
  });

  test.each([
    ['type', { ...creditcard, type: 'year' }],
    ['length', { ...creditcard, length: 3 }],
  ])(
    'a period that differs from one the package has only in its %s does not exist: it is created',
    async (_, period) => {
      expectOk(await update(body(period)), IdResponse);
      const periods = stored(demoIds.products.premiumDigital);
      expect(periods).toHaveLength(5);
      expect(periods.find((pp) => pp.id === demoIds.periods.premiumCreditcard)).toMatchObject({
        type: 'month',
        length: 1,
        price: 99,
      });
      expect(periods[4]).toMatchObject({ type: period.type, length: period.length, price: 12.9 });
    },
  );

  test("an update that does not send monthly_payments keeps the period's", async () => {
    expectOk(await update(body({ ...creditcard, monthly_payments: true })), IdResponse);
    expectOk(await update(body({ ...creditcard, price: 14 })), IdResponse);
    const period = stored(demoIds.products.premiumDigital).find((pp) => pp.id === demoIds.periods.premiumCreditcard);
    expect(period).toMatchObject({ price: 14, monthly_payments: true });
  });

  test('complex price model: a price sent beside the details is not kept', async () => {
    const token = h.token([WRITE], demoIds.clients.complex.clientId);
    const json = { package_integration_code: 'COMPLEX-BUNDLE', price_periods: [{ ...creditcard, details }] };
    expectOk(await update(json, token), IdResponse);
    const period = stored(demoIds.products.complexBundle).find((pp) => pp.id === demoIds.periods.complexCreditcard);
    expect(period).toMatchObject({ details });
    expect(period).not.toHaveProperty('price');
  });
});

describe.each(ADAPTERS)('a package holds at most retention.maxPricePeriods price periods, through %s', (kind) => {
  // The demo package PREMIUM-DIGITAL has 4 periods.
  const h = useAdapter(kind, { retention: { maxPricePeriods: 5 } });
  const update = (periods: object[], token = h.token()) =>
    h.call(paths.updatePrices, { method: 'POST', json: body(...periods), token });
  const count = () =>
    h.platform.snapshot().products.find((p) => p.id === demoIds.products.premiumDigital)!.price_periods.length;

  test('an update that would give it more is refused: 400 invalid_parameter price_periods, nothing changed', async () => {
    const token = h.token();
    const refused = await expectUnchanged(h.platform, () =>
      update(
        [
          { ...creditcard, length: 2 },
          { ...creditcard, payment_option: 'free' },
        ],
        token,
      ),
    );
    expect(expectError(refused, 400, 'invalid_parameter', 'price_periods').message).toBe(
      'A package or campaign holds at most 5 price periods: this update would give it 6',
    );
  });

  test('an update that brings it to the cap passes; at the cap, one of the periods it has passes', async () => {
    expectOk(await update([{ ...creditcard, length: 2 }]), IdResponse);
    expect(count()).toBe(5);
    expectOk(await update([{ ...creditcard, price: 15 }]), IdResponse);
    expect(count()).toBe(5);
  });
});

describe.each(ADAPTERS)('a package already over the cap (a lower cap than its periods), through %s', (kind) => {
  const h = useAdapter(kind, { retention: { maxPricePeriods: 3 } });

  test('an update of periods it has passes: none is dropped, none added', async () => {
    const answer = await h.call(paths.updatePrices, { method: 'POST', json: body(creditcard), token: h.token() });
    expectOk(answer, IdResponse);
    const periods = h.platform.snapshot().products.find((p) => p.id === demoIds.products.premiumDigital)!.price_periods;
    expect(periods).toHaveLength(4);
    expect(periods.find((pp) => pp.id === demoIds.periods.premiumCreditcard)?.price).toBe(12.9);
  });
});
