/** Endpoint 9, order validation, through the SDK against the reference platform. */
import { describe, expect, test } from 'vitest';
import { NotFoundError, RequestValidationError } from '../../src/index.js';
import type { OrderValidationQuery } from '../../src/types.js';
import {
  absent,
  client,
  demoIds,
  paths,
  platform,
  received,
  recordingLogger,
  requestsTo,
  usePlatform,
} from './helpers.js';

usePlatform();

const SCOPE = '/external/order_validation/r';
const PATH = paths.validateOrder;
const orders = () => client({}, [SCOPE]).orders;

describe('order validation (endpoint 9): may this buyer purchase the package?', () => {
  test('an adult account without the package may buy it: purchase_allowed true, no reason', async () => {
    const { item } = await orders().validate({ product_code: 'premium-digital', account_id: demoIds.accounts.anna });
    expect(item).toEqual({ purchase_allowed: true, reason: null, message: null, fallback_package_code: null });
    expect(received(PATH)).toEqual([`GET ${PATH} 200`]);
  });

  test('the query carries product_code and the one buyer field (the journal redacts an ssn)', async () => {
    await orders().validate({ product_code: 'basic-news', ssn: '19850412-1234' });
    expect(requestsTo(platform, PATH)).toMatchObject([
      { query: { product_code: 'basic-news', ssn: '[redacted]' }, status: 200 },
    ]);
  });

  describe('a refusal is a 200 with purchase_allowed false, a reason and a message', () => {
    test('already_subscribed: the account holds a live user-product of the package', async () => {
      const { item } = await orders().validate({ product_code: 'basic-news', account_id: demoIds.accounts.bo });
      expect(item).toMatchObject({
        purchase_allowed: false,
        reason: 'already_subscribed',
        fallback_package_code: null,
      });
      expect(item.message).toEqual(expect.any(String));
    });

    test('already_subscribed: a cancelled campaign still running counts for its package', async () => {
      const { item } = await orders().validate({ product_code: 'premium-digital', account_id: demoIds.accounts.eva });
      expect(item).toMatchObject({ purchase_allowed: false, reason: 'already_subscribed' });
    });

    test('too_young by date_of_birth, with the fallback package offered', async () => {
      const { item } = await orders().validate({
        product_code: 'premium-digital',
        date_of_birth: '2014-06-15T00:00:00Z',
      });
      expect(item).toMatchObject({ purchase_allowed: false, reason: 'too_young', fallback_package_code: 'basic-news' });
      expect(item.message).toEqual(expect.any(String));
    });

    test('too_young by ssn: the account of the ssn is judged by its date of birth', async () => {
      const { item } = await orders().validate({ product_code: 'premium-digital', ssn: '20140615-5678' });
      expect(item).toMatchObject({ purchase_allowed: false, reason: 'too_young', fallback_package_code: 'basic-news' });
    });
  });

  describe('exactly one of account_id, date_of_birth, ssn: none or more than one is refused, nothing sent', () => {
    // Each of these is also a compile error: the query's type is a union with exactly one of the three.
    // @ts-expect-error none of account_id, date_of_birth, ssn
    const none: OrderValidationQuery = { product_code: 'premium-digital' };
    // @ts-expect-error two of them
    const two: OrderValidationQuery = { product_code: 'premium-digital', account_id: demoIds.accounts.anna, ssn: '1' };
    // @ts-expect-error two of them
    const other: OrderValidationQuery = {
      product_code: 'premium-digital',
      date_of_birth: '1985-04-12T00:00:00Z',
      ssn: '1',
    };
    test.each<[string, OrderValidationQuery, string]>([
      ['none', none, 'account_id'],
      ['account_id and ssn', two, 'ssn'],
      ['date_of_birth and ssn', other, 'ssn'],
    ])('%s: RequestValidationError', async (_name, query, field) => {
      const error = await orders()
        .validate(query)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({ code: 'invalid_parameter', field });
      expect(received(PATH)).toEqual([]);
    });

    test('a malformed account_id is refused before sending', async () => {
      const error = await orders()
        .validate({ product_code: 'premium-digital', account_id: 'nope' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ name: 'RequestValidationError', field: 'account_id' });
      expect(received(PATH)).toEqual([]);
    });
  });

  test('404 not_found: no package with that code on sale; nothing changes', async () => {
    const sdk = orders();
    const before = platform.snapshot();
    const error = await sdk
      .validate({ product_code: 'no-such-package', account_id: demoIds.accounts.anna })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'not_found', field: 'product_code' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('404 not_found: no such account; nothing changes', async () => {
    const sdk = orders();
    const before = platform.snapshot();
    const error = await sdk
      .validate({ product_code: 'premium-digital', account_id: absent.account })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, code: 'not_found', field: 'account_id' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('403 insufficient_scope without /external/order_validation/r; nothing changes', async () => {
    const sdk = client({}, ['/external/product/r']);
    const before = platform.snapshot();
    const error = await sdk.orders
      .validate({ product_code: 'premium-digital', account_id: demoIds.accounts.anna })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 403, code: 'insufficient_scope' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('an ssn never reaches a log line', async () => {
    const logger = recordingLogger();
    await client({ logger }, [SCOPE]).orders.validate({ product_code: 'basic-news', ssn: '19850412-1234' });
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(JSON.stringify(logger.lines)).not.toContain('19850412-1234');
  });
});
