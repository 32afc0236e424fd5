/** Endpoint 9, order validation, through both adapters. The platform clock is fixed at 2030-01-01. */
import { describe, expect, test } from 'vitest';
import { IdResponse } from '../../src/schemas/common.js';
import { ActiveProductsResponse } from '../../src/schemas/me.js';
import { OrderValidationResponse } from '../../src/schemas/orders.js';
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
} from './harness.js';

const SCOPE = '/external/order_validation/r';
const { anna, bo, dora, eva } = demoIds.accounts;
const ALLOWED = { purchase_allowed: true, reason: null, message: null, fallback_package_code: null };

describe.each(ADAPTERS)('order validation (endpoint 9) through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-01-01T00:00:00Z' });
  const validate = (query: Record<string, string>, token = h.token([SCOPE])) =>
    h.call(paths.validateOrder, { query, token });
  const item = async (query: Record<string, string>) => expectOk(await validate(query), OrderValidationResponse).item;

  test('an account that may buy: purchase_allowed true, no reason, no message, no fallback', async () => {
    // Anna's earlier premium-digital is deactivated: it does not count.
    expect(await item({ product_code: 'premium-digital', account_id: anna })).toEqual(ALLOWED);
  });

  test("the demo site's client has the scope", async () => {
    const token = h.token([SCOPE], demoIds.clients.site.clientId);
    expect(
      expectOk(await validate({ product_code: 'basic-news', account_id: anna }, token), OrderValidationResponse).item,
    ).toEqual(ALLOWED);
  });

  test('refused, already_subscribed: the account holds an activated user-product of the package', async () => {
    const result = await item({ product_code: 'basic-news', account_id: bo });
    expect(result).toMatchObject({
      purchase_allowed: false,
      reason: 'already_subscribed',
      fallback_package_code: null,
    });
    expect(result.message).toEqual(expect.any(String));
  });

  test('refused, already_subscribed: a cancelled campaign of the package whose term has not ended counts', async () => {
    expect(await item({ product_code: 'premium-digital', account_id: eva })).toMatchObject({
      purchase_allowed: false,
      reason: 'already_subscribed',
    });
    expect(await item({ product_code: 'premium-summer', account_id: eva })).toMatchObject({
      reason: 'already_subscribed',
    });
  });

  /** Anna's premium-digital, provisioned (endpoint 13) for `valid_from` to `valid_to`: its id. */
  async function provisionAnnas(subscription_type: 'limited' | 'recurring', valid_from: string, valid_to: string) {
    const provisioned = await h.call(paths.provisionUserProduct, {
      method: 'POST',
      token: h.token(['/external/userproduct/w']),
      json: { account_id: anna, package_code: 'premium-digital', subscription_type, valid_from, valid_to },
    });
    return expectOk(provisioned, IdResponse, 201).id;
  }
  /** Anna's active products, as her account's read answers them. */
  const active = async () =>
    expectOk(
      await h.call(paths.getAccountActiveProducts, {
        query: { account_id: anna },
        token: h.token(['/external/account/r']),
      }),
      ActiveProductsResponse,
    ).item.active_products;

  test('a subscription that starts in the future counts: already_subscribed (a purchase now would overlap it), though active products list it only from its start', async () => {
    await provisionAnnas('recurring', '2031-01-01T00:00:00Z', '2032-01-01T00:00:00Z');
    expect(await item({ product_code: 'premium-digital', account_id: anna })).toMatchObject({
      purchase_allowed: false,
      reason: 'already_subscribed',
    });
    expect(await active()).not.toContain('premium-digital');
    h.platform.clock.set('2031-01-01T00:00:00Z');
    expect(await active()).toContain('premium-digital');
  });

  test('a cancelled user-product whose term has ended does not count', async () => {
    expect(await item({ product_code: 'basic-news', account_id: eva })).toEqual(ALLOWED);
  });

  describe('at the end of a term, order validation, active products and the me API agree', () => {
    /** Anna's premium-digital, provisioned for January 2030, of `subscription_type`. */
    const provisionTerm = (subscription_type: 'limited' | 'recurring') =>
      provisionAnnas(subscription_type, '2030-01-01T00:00:00Z', '2030-02-01T00:00:00Z');
    /** What each read says of Anna's premium-digital `id`. */
    async function reads(id: string) {
      const codes = await active();
      const me = await h.call('/external/api/v3/me', {
        token: h.platform.mintToken({ scopes: ['/external/me/w'], accountId: anna }).access_token,
      });
      const shown = (me.body as { item: { user_products: { id: string; state: string }[] } }).item.user_products;
      return {
        reason: (await item({ product_code: 'premium-digital', account_id: anna })).reason,
        active: codes.includes('premium-digital'),
        state: shown.find((u) => u.id === id)?.state,
      };
    }

    test('a limited subscription ends with its term: a new purchase is allowed, and it is read deactivated', async () => {
      const id = await provisionTerm('limited');
      expect(await reads(id)).toEqual({ reason: 'already_subscribed', active: true, state: 'activated' });
      h.platform.clock.set('2030-02-01T00:00:00Z');
      expect(await reads(id)).toEqual({ reason: null, active: false, state: 'deactivated' });
    });

    test('an activated recurring subscription renews at the end of its term: it still counts, and still gives access', async () => {
      const id = await provisionTerm('recurring');
      h.platform.clock.set('2030-03-01T00:00:00Z');
      expect(await reads(id)).toEqual({ reason: 'already_subscribed', active: true, state: 'activated' });
    });
  });

  test("refused, too_young: the account's date of birth is less than minimum_age years ago; the fallback package is offered", async () => {
    const result = await item({ product_code: 'premium-digital', account_id: bo });
    expect(result).toMatchObject({ purchase_allowed: false, reason: 'too_young', fallback_package_code: 'basic-news' });
    expect(result.message).toMatch(/18/);
  });

  test("a campaign without its own minimum age takes its package's", async () => {
    expect(await item({ product_code: 'premium-summer', account_id: bo })).toMatchObject({
      reason: 'too_young',
      fallback_package_code: 'basic-news',
    });
  });

  test('date_of_birth: too_young until the 18th birthday, by the platform clock', async () => {
    const query = { product_code: 'premium-digital', date_of_birth: '2012-06-15T00:00:00Z' };
    expect(await item(query)).toMatchObject({ reason: 'too_young' });
    h.platform.clock.set('2030-06-14T23:59:59Z');
    expect(await item(query)).toMatchObject({ reason: 'too_young' });
    h.platform.clock.set('2030-06-15T00:00:00Z');
    expect(await item(query)).toEqual(ALLOWED);
    expect(await item({ product_code: 'premium-digital', date_of_birth: '1990-01-01T00:00:00+01:00' })).toEqual(
      ALLOWED,
    );
  });

  test('a package without a minimum age has no age check', async () => {
    expect(await item({ product_code: 'basic-news', date_of_birth: '2029-01-01T00:00:00Z' })).toEqual(ALLOWED);
  });

  test('ssn: the account with that ssn is checked like account_id; an unknown ssn is a new customer', async () => {
    expect(await item({ product_code: 'basic-news', ssn: '20140615-5678' })).toMatchObject({
      reason: 'already_subscribed',
    });
    expect(await item({ product_code: 'premium-digital', ssn: '20140615-5678' })).toMatchObject({
      reason: 'too_young',
    });
    expect(await item({ product_code: 'premium-digital', ssn: '19991231-0000' })).toEqual(ALLOWED);
  });

  test.each([
    ['none of account_id, date_of_birth, ssn', { product_code: 'basic-news' }, 'invalid_parameter', 'account_id'],
    ['account_id and ssn', { product_code: 'basic-news', account_id: anna, ssn: '1' }, 'invalid_parameter', 'ssn'],
    [
      'account_id and date_of_birth',
      { product_code: 'basic-news', account_id: anna, date_of_birth: '1990-01-01T00:00:00Z' },
      'invalid_parameter',
      'date_of_birth',
    ],
    [
      'all three',
      { product_code: 'basic-news', account_id: anna, date_of_birth: '1990-01-01T00:00:00Z', ssn: '1' },
      'invalid_parameter',
      'date_of_birth',
    ],
    ['a missing product_code', { account_id: anna }, 'invalid_parameter', 'product_code'],
    [
      'a product_code off the pattern',
      { product_code: 'basic news!', account_id: anna },
      'invalid_parameter',
      'product_code',
    ],
    ['a product_code over 50', { product_code: 'a'.repeat(51), account_id: anna }, 'invalid_parameter', 'product_code'],
    ['an ssn over 50', { product_code: 'basic-news', ssn: '1'.repeat(51) }, 'invalid_parameter', 'ssn'],
    [
      'a date_of_birth over 35 characters',
      { product_code: 'basic-news', date_of_birth: '1990-01-01T00:00:00.1234567890+01:00' },
      'invalid_parameter',
      'date_of_birth',
    ],
    ['an empty ssn', { product_code: 'basic-news', ssn: '' }, 'invalid_parameter', 'ssn'],
    [
      'an account_id off the pattern',
      { product_code: 'basic-news', account_id: 'anna' },
      'invalid_parameter',
      'account_id',
    ],
    [
      'a date_of_birth that is no date-time',
      { product_code: 'basic-news', date_of_birth: '1990-01-01' },
      'invalid_parameter',
      'date_of_birth',
    ],
    [
      'an unknown parameter',
      { product_code: 'basic-news', account_id: anna, campaign: 'x' },
      'unknown_parameter',
      'campaign',
    ],
  ])('%s: 400 %s naming %s', async (_, query, code, field) => {
    const token = h.token([SCOPE]);
    await expectUnchanged(h.platform, async () => expectError(await validate(query, token), 400, code, field));
  });

  test.each([
    ['an unknown package', { product_code: 'no-such-package', account_id: anna }, 'product_code'],
    ['a plain product (not a package or campaign)', { product_code: 'digital-news', account_id: anna }, 'product_code'],
    ['a package no longer on sale', { product_code: 'legacy-package', account_id: anna }, 'product_code'],
    ["another organisation's package", { product_code: 'complex-bundle', account_id: anna }, 'product_code'],
    ['an unknown account', { product_code: 'basic-news', account_id: absent.id }, 'account_id'],
    ["another organisation's account", { product_code: 'basic-news', account_id: dora }, 'account_id'],
  ])('%s: 404 not_found naming %s', async (_, query, field) => {
    const token = h.token([SCOPE]);
    await expectUnchanged(h.platform, async () => expectError(await validate(query, token), 404, 'not_found', field));
  });

  test('401 without a token; 403 insufficient_scope without /external/order_validation/r', async () => {
    const query = { product_code: 'basic-news', account_id: anna };
    const token = h.token([READ]);
    await expectUnchanged(h.platform, async () => {
      expectError(await h.call(paths.validateOrder, { query }), 401, 'invalid_token', 'authorization');
      expectError(await validate(query, token), 403, 'insufficient_scope');
    });
  });
});
