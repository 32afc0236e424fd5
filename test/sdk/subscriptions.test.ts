/**
 * Endpoint 5 through the SDK, against the reference platform in process: a subscription transferred
 * to another account, the spec's errors, and the checks before sending.
 */
import { describe, expect, test } from 'vitest';
import { transferSubscription } from '../../src/endpoints.js';
import { BadRequestError, NotFoundError, type PlatformClient, RequestValidationError } from '../../src/index.js';
import {
  absent,
  client,
  demoIds,
  type ErrorClass,
  expectPlatformRefusal,
  paths,
  platform,
  received,
  scopesOf,
  usePlatform,
} from './helpers.js';

usePlatform();

const { anna, bo } = demoIds.accounts;
const ups = demoIds.userProducts;
const sdk = () => client({}, scopesOf(transferSubscription));

describe('5. transfer subscription', () => {
  test('moves the subscription; the target is told apart from a missing source by its code', async () => {
    const { id } = await sdk().subscriptions.transfer({
      source_account_id: bo,
      subscription_id: ups.boBasic,
      target_account_email: 'anna@example.com',
    });
    expect(platform.snapshot().user_products.find((u) => u.id === id)?.account_id).toBe(anna);
    await expect(
      sdk().subscriptions.transfer({
        source_account_id: bo,
        subscription_id: ups.boBasic,
        target_account_email: 'anna@example.com',
      }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'does_not_exist', field: 'unspecified_field' });
    await expect(
      sdk().subscriptions.transfer({
        source_account_id: anna,
        subscription_id: ups.boBasic,
        target_account_email: 'nobody@example.com',
      }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'account_not_found', field: 'target_account_email' });
  });

  test('a malformed e-mail address is refused before anything is sent', async () => {
    await expect(
      sdk().subscriptions.transfer({ source_account_id: bo, subscription_id: ups.boBasic, target_account_email: 'x@' }),
    ).rejects.toMatchObject({ constructor: RequestValidationError, field: 'target_account_email' });
    expect(received(paths.transferSubscription)).toEqual([]);
  });

  test.each([["#!$%&'*+/=?^_`{|}~-@example.org"], ['åsa@example.se']])(
    'an address with atext specials or beyond ASCII (%s) is sent, and the platform finds its account',
    async (email) => {
      const doc = platform.snapshot();
      doc.accounts.find((a) => a.id === anna)!.email = email;
      platform.restore(doc);
      const { id } = await sdk().subscriptions.transfer({
        source_account_id: bo,
        subscription_id: ups.boBasic,
        target_account_email: email,
      });
      expect(platform.snapshot().user_products.find((u) => u.id === id)?.account_id).toBe(anna);
    },
  );
});

describe("the spec's errors of 5: the error class, the spec's code and field", () => {
  const transferBody = {
    source_account_id: bo,
    subscription_id: ups.boBasic,
    target_account_email: 'anna@example.com',
  };
  const rows: [string, (c: PlatformClient) => Promise<unknown>, ErrorClass, string, string][] = [
    [
      'the source account is absent',
      (c) => c.subscriptions.transfer({ ...transferBody, source_account_id: absent.account }),
      NotFoundError,
      'does_not_exist',
      'unspecified_field',
    ],
    [
      'the subscription is not on the source account',
      (c) => c.subscriptions.transfer({ ...transferBody, subscription_id: ups.evaSummerCancelled }),
      NotFoundError,
      'does_not_exist',
      'unspecified_field',
    ],
    [
      'no account has the target e-mail',
      (c) => c.subscriptions.transfer({ ...transferBody, target_account_email: 'nobody@example.com' }),
      NotFoundError,
      'account_not_found',
      'target_account_email',
    ],
    [
      'the target is the source account (the platform refuses it; a malformed address never leaves the SDK)',
      (c) => c.subscriptions.transfer({ ...transferBody, target_account_email: 'bo@example.com' }),
      BadRequestError,
      'invalid_parameter',
      'target_account_email',
    ],
  ];

  test.each(rows)('%s', (_, call, errorClass, code, field) => {
    const client = sdk();
    return expectPlatformRefusal(() => call(client), errorClass, code, field);
  });
});
