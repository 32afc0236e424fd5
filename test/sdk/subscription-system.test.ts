/**
 * The external subscription system through the SDK (endpoints 17 to 20), and the sequential bulk
 * sync: 200 customers, a few failures, progress, abort, stop-at-first-error and go-on, and proof
 * from the platform's journal that no two syncs overlapped.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import { createHandlers, createPlatform, defaultHosts } from '../../mock/index.js';
import { ConflictError, NotFoundError, PlatformClient } from '../../src/index.js';
import { paths } from '../paths.js';
import { client, demoIds, server, usePlatform } from './helpers.js';

usePlatform();

const SCOPES = ['/external/subscription_system/w', '/external/subscription_system/r', '/external/order/r'];

describe('17, 18, 19, 20 one call each', () => {
  test('gift receiver, address, subscriptions and distribution', async () => {
    const sdk = client({}, SCOPES);
    const gift = await sdk.orders.validateGiftReceiver({
      giver_account_id: demoIds.accounts.anna,
      campaign_code: 'premium-summer',
      delivery_address: {
        first_name: 'K',
        last_name: 'K',
        street: 'Storgatan',
        street_number: '1',
        zip_code: '111 22',
        city: 'Stockholm',
        country_code: 'SE',
      },
    });
    expect(gift.item.receiver_eligible).toBe(false);
    expect((await sdk.subscriptionSystem.syncAddress({ customer_number: 'C1001' })).id).toBe(demoIds.accounts.anna);
    expect((await sdk.subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1007' })).id).toBe(
      demoIds.accounts.gus,
    );
    const { item } = await sdk.subscriptionSystem.distributionInformation({
      product_code: 'premium-digital',
      period_id: demoIds.periods.premiumInvoice,
      zip_code: '411 01',
    });
    expect(item).toEqual({
      distribution_days: [1, 2, 3, 4, 5, 6],
      distribution_price: '250.00',
      distribution_price_with_tax: '312.50',
    });
    await expect(sdk.subscriptionSystem.syncAddress({ customer_number: 'C9999' })).rejects.toBeInstanceOf(
      NotFoundError,
    );
  });
});

describe('syncInSequence: many customers, strictly one after another', () => {
  /** A platform of 200 customers (`K000`..`K199`), syncs taking 2 ms; K013, K077, K150 name an unknown product, K099 is unknown to the system. */
  const bulk = createPlatform({ seed: 'demo', syncProcessingMs: 2 });
  const numbers = Array.from({ length: 200 }, (_, i) => `K${String(i).padStart(3, '0')}`);
  const broken = ['K013', 'K077', 'K150'];
  {
    const doc = bulk.snapshot();
    const org = demoIds.organisations.demo;
    numbers.forEach((n, i) => {
      doc.accounts.push({
        id: `ac10000000000000000${String(i).padStart(5, '0')}`,
        organisation_id: org,
        email: `${n.toLowerCase()}@example.com`,
        first_name: n,
        last_name: 'Bulk',
        customer_number: n,
        status: 'active',
        verified: false,
      });
    });
    const system = doc.subscription_systems.find((s) => s.organisation_id === org)!;
    for (const n of numbers) {
      if (n === 'K099') continue;
      system.customers.push({
        customer_number: n,
        address: null,
        subscriptions: [
          {
            subscription_number: `PL-${n}`,
            product_code: broken.includes(n) ? 'weekend-paper' : 'e-paper',
            subscription_type: 'recurring',
            valid_from: '2024-01-01T00:00:00Z',
            valid_to: '2999-12-31T23:59:59Z',
            state: 'active',
          },
        ],
      });
    }
    bulk.restore(doc);
  }
  const start = bulk.snapshot();
  const token = () => bulk.mintToken({ scopes: SCOPES }).access_token;
  const sdk = () =>
    new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: { accessToken: token() },
      retryDelay: { initial: 1 },
    });
  const syncs = () => bulk.requests.list().filter((r) => r.path === paths.syncSubscriptions);

  beforeEach(() => {
    bulk.restore(start);
    bulk.requests.clear();
    server.use(...createHandlers(bulk, defaultHosts));
  });

  test('go on after a failure: a result per customer, progress before each, the failures named', async () => {
    const progress: string[] = [];
    const run = await sdk().subscriptionSystem.syncInSequence(numbers, {
      onProgress: ({ done, total, current }) => progress.push(`${done}/${total} ${current}`),
    });
    expect(run.results.map((r) => r.customer_number)).toEqual(numbers);
    const failed = run.results.filter((r) => r.status === 'failed').map((r) => r.customer_number);
    expect(failed).toEqual(['K013', 'K077', 'K099', 'K150']);
    expect(run.results.find((r) => r.customer_number === 'K099')).toMatchObject({
      status: 'failed',
      error: expect.objectContaining({ constructor: NotFoundError, field: 'customer_number' }),
    });
    expect(progress[0]).toBe('0/200 K000');
    expect(progress[13]).toBe('13/200 K013');
    expect(progress.at(-1)).toBe('200/200 K199');
    // The journal: 200 calls, one at a time (none refused as overlapping), in the order given.
    expect(syncs()).toHaveLength(200);
    expect(syncs().some((r) => r.status === 409)).toBe(false);
    const synced = bulk.snapshot().user_products.filter((u) => u.provision_service === 'paperline');
    expect(synced.filter((u) => u.subscription_number?.startsWith('PL-K'))).toHaveLength(196);
  });

  test('stop at the first error: the rest is not sent', async () => {
    const run = await sdk().subscriptionSystem.syncInSequence(numbers, { stopOnError: true });
    expect(run.results).toHaveLength(14);
    expect(run.results.at(-1)).toMatchObject({ customer_number: 'K013', status: 'failed' });
    expect(run.notSent).toEqual(numbers.slice(14));
    expect(syncs()).toHaveLength(14);
  });

  test('an abort between calls: what was synced is reported, the rest is not sent', async () => {
    const controller = new AbortController();
    const run = await sdk().subscriptionSystem.syncInSequence(numbers, {
      signal: controller.signal,
      onProgress: ({ done }) => {
        if (done === 50) controller.abort();
      },
    });
    expect(run.aborted).toBe(true);
    expect(run.results).toHaveLength(50);
    expect(run.notSent).toEqual(numbers.slice(50));
    expect(syncs()).toHaveLength(50);
  });

  test('two runs started at once on one client queue: never two syncs in flight', async () => {
    const one = sdk();
    const [a, b] = await Promise.all([
      one.subscriptionSystem.syncInSequence(numbers.slice(20, 50)),
      one.subscriptionSystem.syncInSequence(numbers.slice(100, 130)),
    ]);
    expect([...a.results, ...b.results].every((r) => r.status === 'synced')).toBe(true);
    expect(syncs()).toHaveLength(60);
    expect(syncs().some((r) => r.status === 409)).toBe(false);
  });

  test('why a sync is not retried: two clients in parallel get 409 sync_in_progress, and the SDK does not retry it', async () => {
    const slow = createPlatform({ seed: 'demo', syncProcessingMs: 200 });
    server.use(...createHandlers(slow, defaultHosts));
    const t = slow.mintToken({ scopes: SCOPES }).access_token;
    const make = () => new PlatformClient({ environment: 'stage', hosts: defaultHosts, auth: { accessToken: t } });
    const results = await Promise.allSettled([
      make().subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1001' }),
      make().subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1007' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ constructor: ConflictError, code: 'sync_in_progress', attempts: 1 });
  });
});
