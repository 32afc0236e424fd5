/**
 * Endpoints 13, 12, 5, 16 and 4 through the SDK, against the reference platform in process: the
 * happy paths, typed errors, checks before sending, and the batch helper of endpoint 4.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import {
  type APIError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  type PlatformClient,
  RequestValidationError,
} from '../../src/index.js';
import type { BatchProgress, ChangeLogEntry, LogInBatchesOptions, LogToAccountsRequest } from '../../src/types.js';
import { paths } from '../paths.js';
import { client, defaultHosts, demoIds, entryOf, platform, received, server, usePlatform } from './helpers.js';

usePlatform();

const { anna, bo, eva, frank, gus, hedda } = demoIds.accounts;
const ABSENT_ACCOUNT = 'ac00000000000000000000ff';
const ABSENT_USER_PRODUCT = 'd000000000000000000000ff';
const ups = demoIds.userProducts;
const all = [
  '/external/userproduct/w',
  '/external/subscription/w',
  '/external/subscription_system/w',
  '/external/account_change_log/w',
];
const sdk = () => client({}, all);

describe('13 and 12. user-products of the provision service', () => {
  test('provision, then deactivate and reactivate it with update', async () => {
    const { id } = await sdk().userProducts.provision({
      account_id: anna,
      package_code: 'premium-digital',
      subscription_type: 'recurring',
      valid_from: '2030-01-01T00:00:00Z',
      valid_to: '2031-01-01T00:00:00Z',
    });
    expect(platform.snapshot().user_products.find((u) => u.id === id)?.provision_service).toBe('demo-provision');
    expect((await sdk().userProducts.update({ account_id: anna, product_id: id, state: 'deactivated' })).id).toBe(id);
    expect(platform.snapshot().user_products.find((u) => u.id === id)?.state).toBe('deactivated');
  });

  test('another provision service owns it: PermissionDeniedError not_product_owner', async () => {
    await expect(
      sdk().userProducts.update({
        account_id: demoIds.accounts.gus,
        product_id: ups.gusOtherProvision,
        state: 'deactivated',
      }),
    ).rejects.toMatchObject({ constructor: PermissionDeniedError, code: 'not_product_owner', field: 'product_id' });
  });

  test('a client without a provision service: BadRequestError configuration_error', async () => {
    const unprovisioned = client({
      auth: {
        accessToken: platform.mintToken({ scopes: all, clientId: demoIds.clients.unprovisioned.clientId }).access_token,
      },
    });
    await expect(
      unprovisioned.userProducts.update({ account_id: hedda, product_id: ups.heddaProvisioned, state: 'activated' }),
    ).rejects.toMatchObject({ constructor: BadRequestError, code: 'configuration_error' });
  });

  test('an update with no change is refused before anything is sent', async () => {
    await expect(
      sdk().userProducts.update({ account_id: hedda, product_id: ups.heddaProvisioned }),
    ).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'subscription_type',
    });
    expect(received(paths.provisionUserProduct)).toEqual([]);
  });

  test('a malformed package code is refused before anything is sent', async () => {
    await expect(
      sdk().userProducts.provision({
        account_id: anna,
        package_code: 'not a code',
        subscription_type: 'recurring',
        valid_from: '2030-01-01T00:00:00Z',
        valid_to: '2031-01-01T00:00:00Z',
      }),
    ).rejects.toMatchObject({ constructor: RequestValidationError, field: 'package_code' });
    expect(received(paths.provisionUserProduct)).toEqual([]);
  });
});

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
});

describe('16. reactivate platform-provisioned subscription', () => {
  test('a cancelled subscription in its term is activated; an activated one is a ConflictError invalid_state', async () => {
    expect(
      (await sdk().subscriptionSystem.reactivate({ account_id: eva, user_product_id: ups.evaSummerCancelled })).id,
    ).toBe(ups.evaSummerCancelled);
    await expect(
      sdk().subscriptionSystem.reactivate({ account_id: eva, user_product_id: ups.evaSummerCancelled }),
    ).rejects.toMatchObject({ constructor: ConflictError, code: 'invalid_state', status: 409 });
  });
});

describe("the spec's errors through the SDK: the error class, the spec's code and field", () => {
  const provisionBody = {
    account_id: anna,
    package_code: 'premium-digital',
    subscription_type: 'recurring' as const,
    valid_from: '2030-01-01T00:00:00Z',
    valid_to: '2031-01-01T00:00:00Z',
  };
  const transferBody = {
    source_account_id: bo,
    subscription_id: ups.boBasic,
    target_account_email: 'anna@example.com',
  };
  type ErrorClass = new (...args: never[]) => APIError;
  const rows: [string, (c: PlatformClient) => Promise<unknown>, ErrorClass, string, string][] = [
    [
      '13: the account is absent',
      (c) => c.userProducts.provision({ ...provisionBody, account_id: ABSENT_ACCOUNT }),
      NotFoundError,
      'not_found',
      'account_id',
    ],
    [
      '13: the package is absent',
      (c) => c.userProducts.provision({ ...provisionBody, package_code: 'no-such-package' }),
      NotFoundError,
      'not_found',
      'package_code',
    ],
    [
      '13: the package provisioned twice for the same time',
      async (c) => {
        await c.userProducts.provision(provisionBody);
        return c.userProducts.provision(provisionBody);
      },
      ConflictError,
      'already_provisioned',
      'package_code',
    ],
    [
      '12: the account is absent',
      (c) =>
        c.userProducts.update({ account_id: ABSENT_ACCOUNT, product_id: ups.heddaProvisioned, state: 'activated' }),
      NotFoundError,
      'not_found',
      'account_id',
    ],
    [
      '12: the user-product is absent',
      (c) => c.userProducts.update({ account_id: hedda, product_id: ABSENT_USER_PRODUCT, state: 'activated' }),
      NotFoundError,
      'not_found',
      'product_id',
    ],
    [
      '12: the user-product is not controlled by this provision service',
      (c) => c.userProducts.update({ account_id: gus, product_id: ups.gusOtherProvision, state: 'deactivated' }),
      PermissionDeniedError,
      'not_product_owner',
      'product_id',
    ],
    [
      '16: the account is absent',
      (c) => c.subscriptionSystem.reactivate({ account_id: ABSENT_ACCOUNT, user_product_id: ups.evaSummerCancelled }),
      NotFoundError,
      'not_found',
      'account_id',
    ],
    [
      '16: the user-product is absent',
      (c) => c.subscriptionSystem.reactivate({ account_id: eva, user_product_id: ABSENT_USER_PRODUCT }),
      NotFoundError,
      'not_found',
      'user_product_id',
    ],
    [
      "16: another account's user-product",
      (c) => c.subscriptionSystem.reactivate({ account_id: anna, user_product_id: ups.evaSummerCancelled }),
      ConflictError,
      'user_product_not_belong_to_account',
      'user_product_id',
    ],
    [
      '16: a user-product of a provision service',
      (c) => c.subscriptionSystem.reactivate({ account_id: hedda, user_product_id: ups.heddaProvisioned }),
      ConflictError,
      'user_product_not_platform_provisioned',
      'user_product_id',
    ],
    [
      '16: a user-product that is not cancelled',
      (c) => c.subscriptionSystem.reactivate({ account_id: bo, user_product_id: ups.boBasic }),
      ConflictError,
      'invalid_state',
      'user_product_id',
    ],
    [
      '5: the source account is absent',
      (c) => c.subscriptions.transfer({ ...transferBody, source_account_id: ABSENT_ACCOUNT }),
      NotFoundError,
      'does_not_exist',
      'unspecified_field',
    ],
    [
      '5: the subscription is not on the source account',
      (c) => c.subscriptions.transfer({ ...transferBody, subscription_id: ups.evaSummerCancelled }),
      NotFoundError,
      'does_not_exist',
      'unspecified_field',
    ],
    [
      '5: no account has the target e-mail',
      (c) => c.subscriptions.transfer({ ...transferBody, target_account_email: 'nobody@example.com' }),
      NotFoundError,
      'account_not_found',
      'target_account_email',
    ],
    [
      '5: the target is the source account (the platform refuses it; a malformed address never leaves the SDK)',
      (c) => c.subscriptions.transfer({ ...transferBody, target_account_email: 'bo@example.com' }),
      BadRequestError,
      'invalid_parameter',
      'target_account_email',
    ],
    [
      '4: a category that is not available refuses the whole request',
      (c) =>
        c.accountChangeLog.logToAccounts({
          change_logs: [{ account_id: anna, category_type: 'gossip', message: 'm', requested_by: 'r' }],
        }),
      BadRequestError,
      'invalid_parameter',
      'change_logs[0].category_type',
    ],
  ];

  test.each(rows)('%s', async (_, call, errorClass, code, field) => {
    const error = await call(sdk()).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(errorClass);
    expect(error).toMatchObject({ code, field });
    // The platform answered it: the SDK did not refuse it before sending.
    expect(entryOf(platform, (error as APIError).correlationId ?? null).status).toBe((error as APIError).status);
  });
});

describe('4. log to accounts', () => {
  const entry = (account_id: string, message: string): ChangeLogEntry => ({
    account_id,
    category_type: 'address_change',
    message,
    requested_by: 'batch job',
  });

  test('the available categories', async () => {
    const { items } = await sdk().accountChangeLog.availableCategories();
    expect(items.map((c) => c.category_type)).toEqual(['address_change', 'customer_contact', 'complaint']);
  });

  test('a 207 is a success: { ok, errors }, never an exception', async () => {
    const answer = await sdk().accountChangeLog.logToAccounts({ change_logs: [entry(anna, 'a'), entry(frank, 'f')] });
    expect(answer.ok).toEqual([anna]);
    expect(answer.errors).toEqual([
      expect.objectContaining({
        error_message: 'The account is archived',
        payload: expect.objectContaining({ cateogory: 'address_change' }),
      }),
    ]);
  });

  test('a write is not retried: one 503 is the answer', async () => {
    platform.faults.add({ path: paths.logToAccounts, status: 503 });
    await expect(sdk().accountChangeLog.logToAccounts({ change_logs: [entry(anna, 'a')] })).rejects.toMatchObject({
      status: 503,
    });
    expect(received(paths.logToAccounts)).toEqual([`PUT ${paths.logToAccounts} 503`]);
  });

  describe('logInBatches: any number of entries, in requests of at most 1000, one after another', () => {
    /** 2,500 entries; every 97th is for the archived account, every 250th breaks a rule, #1234 has a category that is not available. */
    function entries(): ChangeLogEntry[] {
      return Array.from({ length: 2500 }, (_, i) => {
        if (i % 250 === 0) return entry(anna, '');
        if (i === 1234) return { ...entry(bo, `entry ${i}`), category_type: 'gossip' };
        return entry(i % 97 === 0 ? frank : i % 2 ? anna : bo, `entry ${i}`);
      });
    }

    test('every entry is accounted for by its index; progress is reported; failures can be resubmitted alone', async () => {
      const list = entries();
      const progress: number[] = [];
      const run = await sdk().accountChangeLog.logInBatches(list, {
        onProgress: ({ done, total }) => progress.push(done / total),
      });
      const archived = list.flatMap((e, i) => (e.account_id === frank && e.message !== '' ? [i] : []));
      const broken = list.flatMap((e, i) => (e.message === '' ? [i] : []));
      expect(run.failed.map((f) => f.index)).toEqual(
        [...new Set([...broken, ...archived, 1234])].sort((a, b) => a - b),
      );
      expect(run.logged).toHaveLength(2500 - run.failed.length);
      expect(run.notSent).toEqual([]);
      expect(run.aborted).toBe(false);
      expect(run.failed.find((f) => f.index === 1234)?.reason).toMatch(/available categories/);
      expect(run.failed.find((f) => f.index === archived[0])?.reason).toBe('The account is archived');
      expect(run.failed.find((f) => f.index === 0)?.reason).toMatch(/^message: Parameter size must be at least 1/);
      expect(progress.at(-1)).toBe(1);
      expect(progress.length).toBe(3);
      // Sent in sequence: 3 requests of at most 1000; the second, refused whole for #1234, sent again without it.
      expect(received(paths.logToAccounts).map((r) => r.split(' ').at(-1))).toEqual(['207', '400', '207', '207']);
      expect(platform.snapshot().account_change_logs).toHaveLength(run.logged.length);

      // Resubmit just the failures after fixing them: each is logged once, nothing twice.
      const fixed = run.failed.map((f) => ({
        ...f.entry,
        account_id: f.entry.account_id === frank ? anna : f.entry.account_id,
        category_type: 'complaint',
        message: f.entry.message || 'fixed',
      }));
      const again = await sdk().accountChangeLog.logInBatches(fixed);
      expect(again.failed).toEqual([]);
      expect(platform.snapshot().account_change_logs).toHaveLength(2500);
    });

    test('an abort between requests: what was sent is reported, the rest is listed as not sent', async () => {
      const list = entries();
      const controller = new AbortController();
      const run = await sdk().accountChangeLog.logInBatches(list, {
        batchSize: 500,
        onProgress: ({ done }) => {
          if (done >= 1000) controller.abort();
        },
        signal: controller.signal,
      });
      expect(run.aborted).toBe(true);
      // Two requests of 500 were sent; none after the abort. The 10 entries that break a rule were refused before.
      expect(received(paths.logToAccounts)).toHaveLength(2);
      const refusedHere = list.flatMap((e, i) => (e.message === '' ? [i] : []));
      const sent = [...run.logged, ...run.failed.map((f) => f.index)].filter((i) => !refusedHere.includes(i));
      expect(sent).toHaveLength(1000);
      expect(run.notSent).toHaveLength(2500 - 1000 - refusedHere.length);
      expect(Math.min(...run.notSent)).toBeGreaterThan(Math.max(...sent));
      expect(new Set([...run.logged, ...run.failed.map((f) => f.index), ...run.notSent]).size).toBe(2500);
    });

    test('a request is never retried, even when the options ask: a 503 on the second fails its entries after one attempt', async () => {
      const list = Array.from({ length: 25 }, (_, i) => entry(i % 2 ? anna : bo, `entry ${i}`));
      const smuggled = { retryWrite: true } as LogInBatchesOptions;
      const run = await client({ maxRetries: 3 }, all).accountChangeLog.logInBatches(list, {
        ...smuggled,
        batchSize: 10,
        onProgress: ({ done }) => {
          if (done === 10) platform.faults.add({ path: paths.logToAccounts, status: 503 });
        },
      });
      const put = `PUT ${paths.logToAccounts}`;
      expect(received(paths.logToAccounts)).toEqual([`${put} 207`, `${put} 503`, `${put} 207`]);
      const second = Array.from({ length: 10 }, (_, i) => 10 + i);
      expect(run.failed.map((f) => f.index)).toEqual(second);
      for (const f of run.failed) {
        expect(f.error).toBeInstanceOf(InternalServerError);
        expect(f.error).toMatchObject({ status: 503 });
        expect(f.reason).toBe((f.error as Error).message);
      }
      expect(run.logged).toEqual(list.map((_, i) => i).filter((i) => !second.includes(i)));
      expect(platform.snapshot().account_change_logs).toHaveLength(15);
    });

    test('ok is matched to the entries whatever the letter case of the account ids', async () => {
      // A platform that answers account ids in lower case, whatever case they were sent in.
      server.use(
        http.put(`${defaultHosts.api}${paths.logToAccounts}`, async ({ request }) => {
          const { change_logs } = (await request.json()) as LogToAccountsRequest;
          const [first, second] = change_logs;
          return HttpResponse.json(
            {
              ok: [first!.account_id.toLowerCase()],
              errors: [
                {
                  payload: {
                    account_id: second!.account_id.toLowerCase(),
                    created_at: '2030-01-01T00:00:00Z',
                    message: second!.message,
                    cateogory: second!.category_type,
                    requested_by: second!.requested_by,
                  },
                  error_message: 'The account is archived',
                },
              ],
            },
            { status: 207 },
          );
        }),
      );
      const run = await sdk().accountChangeLog.logInBatches([
        entry(anna.toUpperCase(), 'a'),
        entry(frank.toUpperCase(), 'f'),
      ]);
      expect(run.logged).toEqual([0]);
      expect(run.failed).toEqual([
        { index: 1, entry: entry(frank.toUpperCase(), 'f'), reason: 'The account is archived' },
      ]);
    });

    test('progress is reported even when every entry fails the checks before sending, and nothing is sent', async () => {
      const progress: BatchProgress[] = [];
      const run = await sdk().accountChangeLog.logInBatches([entry(anna, ''), entry(bo, '')], {
        onProgress: (p) => progress.push(p),
      });
      expect(progress).toEqual([{ done: 2, total: 2 }]);
      expect(run.failed.map((f) => f.index)).toEqual([0, 1]);
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([]);
    });

    test('progress counts the entries handled so far, in input order: not the invalid entries of later requests', async () => {
      // Entries 2, 7 and 8 break a rule; requests of 5: entries 0-1, 3-6, then 9.
      const list = Array.from({ length: 10 }, (_, i) => entry(anna, [2, 7, 8].includes(i) ? '' : `entry ${i}`));
      const progress: BatchProgress[] = [];
      const run = await sdk().accountChangeLog.logInBatches(list, {
        batchSize: 5,
        onProgress: (p) => progress.push(p),
      });
      expect(progress).toEqual([
        { done: 6, total: 10 },
        { done: 10, total: 10 },
      ]);
      expect(run.logged).toEqual([0, 1, 3, 4, 5, 6, 9]);
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([
        `PUT ${paths.logToAccounts} 207`,
        `PUT ${paths.logToAccounts} 207`,
      ]);
    });

    test('100 entries of unavailable categories among 1000: the categories are read once, not one request per bad entry', async () => {
      const bad = (i: number) => i % 10 === 3;
      const list = Array.from({ length: 1000 }, (_, i) =>
        bad(i) ? { ...entry(anna, `entry ${i}`), category_type: `gone-${i}` } : entry(bo, `entry ${i}`),
      );
      const run = await sdk().accountChangeLog.logInBatches(list, { batchSize: 500 });
      // The first request is refused whole; the categories are read; both requests then go without the bad entries.
      const put = `PUT ${paths.logToAccounts}`;
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([
        `${put} 400`,
        `GET ${paths.getAvailableCategories} 200`,
        `${put} 207`,
        `${put} 207`,
      ]);
      expect(run.failed.map((f) => f.index)).toEqual(list.flatMap((_, i) => (bad(i) ? [i] : [])));
      expect(run.failed.every((f) => /is not one of the available categories/.test(f.reason))).toBe(true);
      expect(run.logged).toHaveLength(900);
      expect(platform.snapshot().account_change_logs).toHaveLength(900);
    });

    test('when the categories cannot be read, every entry of a refused category goes at once, and they are not read again', async () => {
      platform.faults.add({ method: 'GET', path: paths.getAvailableCategories, status: 503 });
      const list = Array.from({ length: 10 }, (_, i) => ({
        ...entry(anna, `entry ${i}`),
        category_type: [1, 4, 6].includes(i) ? 'gossip' : [2, 8].includes(i) ? 'rumour' : 'address_change',
      }));
      const run = await client({ maxRetries: 0 }, all).accountChangeLog.logInBatches(list);
      const put = `PUT ${paths.logToAccounts}`;
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([
        `${put} 400`,
        `GET ${paths.getAvailableCategories} 503`,
        `${put} 400`,
        `${put} 207`,
      ]);
      expect(run.failed.map((f) => [f.index, f.entry.category_type])).toEqual([
        [1, 'gossip'],
        [2, 'rumour'],
        [4, 'gossip'],
        [6, 'gossip'],
        [8, 'rumour'],
      ]);
      expect(run.failed.every((f) => /available categories/.test(f.reason))).toBe(true);
      expect(run.logged).toEqual([0, 3, 5, 7, 9]);
    });

    test('a batchSize out of 1..1000 is refused before anything is sent', async () => {
      await expect(sdk().accountChangeLog.logInBatches([entry(anna, 'a')], { batchSize: 1001 })).rejects.toMatchObject({
        constructor: RequestValidationError,
        field: 'batchSize',
      });
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([]);
    });
  });
});
