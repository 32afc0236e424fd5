/**
 * Endpoints 13, 12, 5, 16 and 4 through the SDK, against the reference platform in process: the
 * happy paths, typed errors, checks before sending, and the batch helper of endpoint 4.
 */
import { describe, expect, test } from 'vitest';
import {
  BadRequestError,
  type ChangeLogEntry,
  ConflictError,
  NotFoundError,
  PermissionDeniedError,
  RequestValidationError,
} from '../../src/index.js';
import { paths } from '../paths.js';
import { client, demoIds, platform, received, usePlatform } from './helpers.js';

usePlatform();

const { anna, bo, eva, frank, hedda } = demoIds.accounts;
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
    expect(received()).toEqual([]);
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
    expect(received()).toEqual([]);
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
    expect(received()).toEqual([]);
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
    expect(received()).toEqual([`PUT ${paths.logToAccounts} 503`]);
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
      const puts = platform.requests.list().filter((r) => r.path === paths.logToAccounts);
      expect(puts.map((r) => r.status)).toEqual([207, 400, 207, 207]);
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
      expect(platform.requests.list().filter((r) => r.path === paths.logToAccounts)).toHaveLength(2);
      const refusedHere = list.flatMap((e, i) => (e.message === '' ? [i] : []));
      const sent = [...run.logged, ...run.failed.map((f) => f.index)].filter((i) => !refusedHere.includes(i));
      expect(sent).toHaveLength(1000);
      expect(run.notSent).toHaveLength(2500 - 1000 - refusedHere.length);
      expect(Math.min(...run.notSent)).toBeGreaterThan(Math.max(...sent));
      expect(new Set([...run.logged, ...run.failed.map((f) => f.index), ...run.notSent]).size).toBe(2500);
    });

    test('a batchSize out of 1..1000 is refused before anything is sent', async () => {
      await expect(sdk().accountChangeLog.logInBatches([entry(anna, 'a')], { batchSize: 1001 })).rejects.toMatchObject({
        constructor: RequestValidationError,
        field: 'batchSize',
      });
      expect(received()).toEqual([]);
    });
  });
});
