/**
 * The external subscription system through the SDK (endpoints 16 to 20), and the sequential bulk
 * sync: 200 customers, a few failures, progress, abort (between calls, never in one), a client
 * timeout shorter than the sync, stop-at-first-error and go-on, and proof from the platform's
 * journal that no two syncs overlapped.
 */
import { HttpResponse, http } from 'msw';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createHandlers, createPlatform, defaultHosts, type Platform } from '../../mock/index.js';
import {
  getDistributionInformation,
  reactivateSubscription,
  syncAddress,
  syncCustomerSubscriptions,
  validateGiftReceiver,
} from '../../src/endpoints.js';
import {
  APITimeoutError,
  BadRequestError,
  ConflictError,
  NotFoundError,
  PlatformClient,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { until } from '../until.js';
import {
  absent,
  client,
  demoIds,
  type ErrorClass,
  expectPlatformRefusal,
  paths,
  platform,
  RUN_OPTION_MISTAKES,
  requestsTo,
  scopesOf,
  server,
  usePlatform,
} from './helpers.js';

usePlatform();

/** A delivery address with every field the spec requires. */
const ADDRESS = {
  first_name: 'K',
  last_name: 'K',
  street: 'Storgatan',
  street_number: '1',
  zip_code: '111 22',
  city: 'Stockholm',
  country_code: 'SE',
};
const SCOPES = scopesOf(
  validateGiftReceiver,
  syncAddress,
  syncCustomerSubscriptions,
  getDistributionInformation,
  reactivateSubscription,
);

describe('17, 18, 19, 20 one call each', () => {
  test('gift receiver, address, subscriptions and distribution', async () => {
    const sdk = client({}, SCOPES);
    const gift = await sdk.orders.validateGiftReceiver({
      giver_account_id: demoIds.accounts.anna,
      campaign_code: 'premium-summer',
      delivery_address: ADDRESS,
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

describe('typed errors, and requests refused before they are sent', () => {
  const q = { product_code: 'premium-digital', period_id: demoIds.periods.premiumCreditcard, zip_code: '111 22' };

  test('17: an absent giver is a NotFoundError naming giver_account_id, and nothing changes', async () => {
    const sdk = client({}, SCOPES);
    const before = platform.snapshot();
    await expect(
      sdk.orders.validateGiftReceiver({
        giver_account_id: absent.account,
        campaign_code: 'premium-summer',
        delivery_address: ADDRESS,
      }),
    ).rejects.toMatchObject({ constructor: NotFoundError, status: 404, code: 'not_found', field: 'giver_account_id' });
    expect(platform.snapshot()).toEqual(before);
  });

  test('19, one call: an unknown customer number is a NotFoundError, and nothing changes', async () => {
    const sdk = client({}, SCOPES);
    const before = platform.snapshot();
    await expect(sdk.subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C9999' })).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'not_found',
      field: 'customer_number',
      attempts: 1,
    });
    expect(platform.snapshot()).toEqual(before);
  });

  test.each([
    ['an absent product', 'product_code', { product_code: 'nothing' }],
    ['a period of another product', 'period_id', { period_id: demoIds.periods.basicCreditcard }],
  ])('20: %s is a NotFoundError naming %s, and nothing changes', async (_, field, patch) => {
    const sdk = client({}, SCOPES);
    const before = platform.snapshot();
    await expect(sdk.subscriptionSystem.distributionInformation({ ...q, ...patch })).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'not_found',
      field,
    });
    expect(platform.snapshot()).toEqual(before);
  });

  /** Endpoint 20 answered with these prices, as the SDK reads them. */
  async function distributionPrices(price: string, withTax: string) {
    server.use(
      http.get(`${defaultHosts.api}${paths.getDistributionInformation}`, () =>
        HttpResponse.json({
          item: { distribution_days: [1], distribution_price: price, distribution_price_with_tax: withTax },
        }),
      ),
    );
    return client({}, SCOPES).subscriptionSystem.distributionInformation(q);
  }

  test.each([
    ['12.5', '15.63'],
    ['12', '15'],
    ['12.500', '15.625'],
    ['0', '0.00'],
  ])('20: the prices are read as any decimal string ("decimal string"): %s and %s', async (price, withTax) => {
    const { item } = await distributionPrices(price, withTax);
    expect(item).toMatchObject({ distribution_price: price, distribution_price_with_tax: withTax });
  });

  test.each(['-1.00', '12.', '.5', '1e3', '12,50', ' 12', '0x10', ''])(
    '20: a price that is no non-negative decimal string (%j) is a ResponseValidationError',
    async (price) => {
      await expect(distributionPrices(price, '1.00')).rejects.toMatchObject({
        constructor: ResponseValidationError,
        message: expect.stringContaining('item.distribution_price:'),
      });
    },
  );

  test('20: an integration without distribution information is a BadRequestError configuration_error, and nothing changes', async () => {
    const complex = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: {
        accessToken: platform.mintToken({ scopes: SCOPES, clientId: demoIds.clients.complex.clientId }).access_token,
      },
    });
    const before = platform.snapshot();
    await expect(
      complex.subscriptionSystem.distributionInformation({
        product_code: 'complex-bundle',
        period_id: demoIds.periods.complexCreditcard,
        zip_code: '0150',
      }),
    ).rejects.toMatchObject({ constructor: BadRequestError, status: 400, code: 'configuration_error' });
    expect(platform.snapshot()).toEqual(before);
  });

  test.each([
    [
      '17 without a city',
      (sdk: PlatformClient) =>
        sdk.orders.validateGiftReceiver({
          giver_account_id: demoIds.accounts.anna,
          campaign_code: 'premium-summer',
          // @ts-expect-error: every field of the address is required
          delivery_address: { ...ADDRESS, city: undefined },
        }),
      'invalid_parameter',
      'delivery_address.city',
    ],
    [
      '18 with a customer number that breaks the rule',
      (sdk: PlatformClient) => sdk.subscriptionSystem.syncAddress({ customer_number: 'C 1001' }),
      'invalid_parameter',
      'customer_number',
    ],
    [
      '19 with an unknown key',
      (sdk: PlatformClient) =>
        // @ts-expect-error: not a parameter of the endpoint
        sdk.subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1001', force: true }),
      'unknown_parameter',
      'force',
    ],
    [
      '20 with a zip code of 101 characters',
      (sdk: PlatformClient) => sdk.subscriptionSystem.distributionInformation({ ...q, zip_code: '1'.repeat(101) }),
      'invalid_parameter',
      'zip_code',
    ],
  ])('%s: a RequestValidationError, nothing sent', async (_, call, code, field) => {
    await expect(call(client({}, SCOPES))).rejects.toMatchObject({ constructor: RequestValidationError, code, field });
    expect(platform.requests.list()).toEqual([]);
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
  const syncs = () => bulk.requests.list().filter((r) => r.path === paths.syncCustomerSubscriptions);

  beforeEach(() => {
    bulk.restore(start);
    bulk.requests.clear();
    server.use(...createHandlers(bulk, defaultHosts));
  });

  // 200 calls, one after another: about 1.5 s on an idle machine; the bound holds at ten times that and more.
  test('go on after a failure: a result per customer, progress before each, the failures named', {
    timeout: 30_000,
  }, async () => {
    const progress: string[] = [];
    // What the client sent and what it got, as they happened: a call starts only after the one before is answered.
    const timeline: string[] = [];
    const isSync = (request: Request) => new URL(request.url).pathname === paths.syncCustomerSubscriptions;
    const onStart = ({ request }: { request: Request }) => {
      if (isSync(request)) timeline.push('sent');
    };
    const onAnswer = ({ request }: { request: Request }) => {
      if (isSync(request)) timeline.push('answered');
    };
    server.events.on('request:start', onStart);
    server.events.on('response:mocked', onAnswer);
    const run = await sdk()
      .subscriptionSystem.syncInSequence(numbers, {
        onProgress: ({ done, total, current }) => progress.push(`${done}/${total} ${current}`),
      })
      .finally(() => {
        server.events.removeListener('request:start', onStart);
        server.events.removeListener('response:mocked', onAnswer);
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
    // The journal: 200 calls in the order given, one at a time: none refused as overlapping, and
    // each one sent only once the one before was answered.
    expect(syncs().map((r) => JSON.parse(r.body ?? '{}').customer_number)).toEqual(numbers);
    expect(syncs().some((r) => r.status === 409)).toBe(false);
    expect(timeline).toEqual(numbers.flatMap(() => ['sent', 'answered']));
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

  test.each<[string, Record<string, unknown>, string]>([
    ['a first wait of 0 (it would double to 0 forever)', { initialMs: 0 }, 'waitWhileBusy.initialMs'],
    ['a first wait that is not a whole number', { initialMs: 2.5 }, 'waitWhileBusy.initialMs'],
    ['a wait past what a timer holds', { maxMs: 2 ** 31 }, 'waitWhileBusy.maxMs'],
    ['a wait below 0', { maxMs: -1 }, 'waitWhileBusy.maxMs'],
  ])('waitWhileBusy with %s: the run is refused at once, naming it, and nothing is sent', async (_, wait, field) => {
    const run = sdk().subscriptionSystem.syncInSequence(numbers, { waitWhileBusy: wait });
    await expect(run).rejects.toMatchObject({ constructor: RequestValidationError, field });
    expect(syncs()).toEqual([]);
  });

  test.each(RUN_OPTION_MISTAKES)(
    '%s: the run is refused once, at once, naming it, and nothing is sent',
    async (_, options, field, code) => {
      const { subscriptionSystem } = sdk();
      const before = bulk.snapshot();
      const run = subscriptionSystem.syncInSequence(numbers, options);
      await expect(run).rejects.toMatchObject({ constructor: RequestValidationError, field, code });
      expect(syncs()).toEqual([]);
      expect(bulk.snapshot()).toEqual(before);
    },
  );

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

  test.each<[string, unknown, string]>([
    ['one number alone (a string)', 'K000', 'customerNumbers'],
    ['null', null, 'customerNumbers'],
    ['a number', 42, 'customerNumbers'],
    ['a list with a number in it', ['K000', 1], 'customerNumbers[1]'],
  ])('customer numbers that are %s: RequestValidationError naming them, nothing sent', async (_, given, field) => {
    const one = sdk();
    await expect(one.subscriptionSystem.syncInSequence(given as string[])).rejects.toMatchObject({
      constructor: RequestValidationError,
      field,
    });
    expect(syncs()).toEqual([]);
    // The client's next run is not held up by the refused one.
    expect((await one.subscriptionSystem.syncInSequence(new Set(['K000']) as never)).results).toMatchObject([
      { customer_number: 'K000', status: 'synced' },
    ]);
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

  test('a queued run of the same client waits for the run before, however it ended', async () => {
    const one = sdk();
    const first = one.subscriptionSystem.syncInSequence(numbers.slice(0, 20), { stopOnError: true });
    const second = one.subscriptionSystem.syncInSequence(numbers.slice(20, 25));
    expect((await first).results.at(-1)).toMatchObject({ customer_number: 'K013', status: 'failed' });
    expect((await second).results.map((r) => r.status)).toEqual(['synced', 'synced', 'synced', 'synced', 'synced']);
    expect(syncs().map((r) => JSON.parse(r.body ?? '{}').customer_number)).toEqual([
      ...numbers.slice(0, 14),
      ...numbers.slice(20, 25),
    ]);
  });
});

describe('syncs slower than the client: abort and timeout', () => {
  /** A platform whose syncs take 300 ms; a fresh one for each test. */
  let slow: Platform;
  const slowClient = (options: Partial<ConstructorParameters<typeof PlatformClient>[0]> = {}) =>
    new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: { accessToken: slow.mintToken({ scopes: SCOPES }).access_token },
      retryDelay: { initial: 1 },
      ...options,
    });
  const syncs = () =>
    requestsTo(slow, paths.syncCustomerSubscriptions).map((r) => ({
      customer: JSON.parse(r.body ?? '{}').customer_number as string,
      status: r.status,
    }));
  const inFlight = () =>
    until(() => expect(slow.subscriptionSystems.syncInFlight(demoIds.organisations.demo)).toBe(true));
  /** Lets every timer run, the platform's processing included, until none is left: the platform is idle. */
  const idle = async () => {
    await vi.runAllTimersAsync();
    expect(slow.subscriptionSystems.syncInFlight(demoIds.organisations.demo)).toBe(false);
  };
  /** Whether the platform has Anna's e-paper from the external system (what syncing C1001 creates). */
  const annaSynced = () =>
    slow
      .snapshot()
      .user_products.some((u) => u.account_id === demoIds.accounts.anna && u.subscription_number === 'PL-1001-1');

  // The platform's processing time, the client's timeouts and its waits all run on fake timers,
  // moved by each test: which of them ends first never depends on how fast the machine is.
  beforeEach(() => {
    slow = createPlatform({ seed: 'demo', syncProcessingMs: 300 });
    server.use(...createHandlers(slow, defaultHosts));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('an abort in the middle of a call: the call completes and is reported synced, nothing else is sent', async () => {
    const controller = new AbortController();
    const running = slowClient().subscriptionSystem.syncInSequence(['C1001', 'C1007', 'C1005'], {
      signal: controller.signal,
    });
    await inFlight();
    controller.abort();
    await idle();
    const run = await running;
    expect(run).toEqual({
      results: [{ customer_number: 'C1001', status: 'synced', id: demoIds.accounts.anna }],
      notSent: ['C1007', 'C1005'],
      aborted: true,
    });
    expect(annaSynced()).toBe(true);
    expect(syncs().map((r) => [r.customer, r.status])).toEqual([['C1001', 200]]);
  });

  test('why a sync is not retried: the client gives up before the platform is done, and the platform still applies it', async () => {
    // Default: one attempt. The client reports a timeout; the sync lands anyway.
    const call = expect(
      slowClient().subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1001' }, { timeout: 60 }),
    ).rejects.toMatchObject({ constructor: APITimeoutError, attempts: 1 });
    await inFlight();
    await vi.advanceTimersByTimeAsync(60);
    await call;
    expect(annaSynced()).toBe(false);
    await idle();
    expect(annaSynced()).toBe(true);
    expect(syncs().map((r) => r.status)).toEqual([200]);
  });

  test('why a sync is not retried: with retryWrite the retry meets the first still under way, 409 sync_in_progress', async () => {
    const call = expect(
      slowClient().subscriptionSystem.syncCustomerSubscriptions(
        { customer_number: 'C1001' },
        { timeout: 60, retryWrite: true, maxRetries: 1 },
      ),
    ).rejects.toMatchObject({ constructor: ConflictError, code: 'sync_in_progress', attempts: 2 });
    await inFlight();
    await vi.advanceTimersByTimeAsync(60); // the first attempt's timeout
    await vi.advanceTimersByTimeAsync(1); // the wait before the retry (retryDelay: initial 1 ms)
    await call;
    await idle();
    // The journal, in the order the calls arrived: the first attempt landed; the retry, refused, changed nothing.
    expect(syncs().map((r) => [r.customer, r.status])).toEqual([
      ['C1001', 200],
      ['C1001', 409],
    ]);
    expect(annaSynced()).toBe(true);
  });

  test('a client timeout shorter than the sync: unknown, not failed; the next call waits until the platform is done', async () => {
    const running = slowClient().subscriptionSystem.syncInSequence(['C1001', 'C1007'], {
      timeout: 60,
      waitWhileBusy: { initialMs: 20 },
    });
    await idle();
    const run = await running;
    expect(run.results).toEqual([
      { customer_number: 'C1001', status: 'unknown', error: expect.any(APITimeoutError) },
      { customer_number: 'C1007', status: 'unknown', error: expect.any(APITimeoutError) },
    ]);
    // Both landed, one after the other. The journal, in the order the calls arrived: C1001 applied;
    // C1007 refused (409 sync_in_progress, no change) as long as C1001 was under way, then applied once.
    const log = syncs().map((r) => `${r.customer} ${r.status}`);
    expect(log[0]).toBe('C1001 200');
    expect(log.at(-1)).toBe('C1007 200');
    expect(log.slice(1, -1).every((r) => r === 'C1007 409')).toBe(true);
    expect(annaSynced()).toBe(true);
    expect(slow.snapshot().user_products.find((u) => u.id === demoIds.userProducts.gusPaperlineDigital)?.state).toBe(
      'deactivated',
    );
  });

  test('a run queued behind one whose last call timed out waits for the platform: synced, not refused', async () => {
    const one = slowClient();
    const first = one.subscriptionSystem.syncInSequence(['C1001'], { timeout: 60 });
    const second = one.subscriptionSystem.syncInSequence(['C1007']);
    await idle();
    expect((await first).results).toEqual([
      { customer_number: 'C1001', status: 'unknown', error: expect.any(APITimeoutError) },
    ]);
    expect((await second).results).toEqual([{ customer_number: 'C1007', status: 'synced', id: demoIds.accounts.gus }]);
    expect(annaSynced()).toBe(true);
  });

  test("another client's sync under way: the run waits and sends again; past maxMs the 409 is the result", async () => {
    const other = slowClient().subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1001' });
    await inFlight();
    const impatient = slowClient().subscriptionSystem.syncInSequence(['C1007'], {
      waitWhileBusy: { initialMs: 10, maxMs: 30 },
    });
    // Past its 30 ms of waiting, well before the other sync's 300 ms are over.
    await vi.advanceTimersByTimeAsync(100);
    expect((await impatient).results).toEqual([
      {
        customer_number: 'C1007',
        status: 'failed',
        error: expect.objectContaining({ constructor: ConflictError, code: 'sync_in_progress' }),
      },
    ]);
    expect(slow.subscriptionSystems.syncInFlight(demoIds.organisations.demo)).toBe(true);
    const patient = slowClient().subscriptionSystem.syncInSequence(['C1005'], {
      waitWhileBusy: { initialMs: 10 },
    });
    await idle();
    expect((await patient).results).toEqual([{ customer_number: 'C1005', status: 'synced', id: demoIds.accounts.eva }]);
    expect(
      syncs()
        .filter((r) => r.customer === 'C1005')
        .map((r) => r.status),
    ).toContain(409);
    await other;
  });

  test('an abort while waiting for the platform: the customer is not sent again, and reported not sent', async () => {
    const other = slowClient().subscriptionSystem.syncCustomerSubscriptions({ customer_number: 'C1001' });
    await inFlight();
    const controller = new AbortController();
    const running = slowClient().subscriptionSystem.syncInSequence(['C1007', 'C1005'], {
      signal: controller.signal,
      waitWhileBusy: { initialMs: 1_000 },
    });
    await until(() => expect(syncs().some((r) => r.status === 409)).toBe(true));
    controller.abort();
    expect(await running).toEqual({ results: [], notSent: ['C1007', 'C1005'], aborted: true });
    await idle();
    await other;
    expect(syncs().map((r) => [r.customer, r.status])).toEqual([
      ['C1001', 200],
      ['C1007', 409],
    ]);
  });
});

describe('16. reactivate platform-provisioned subscription', () => {
  const { eva } = demoIds.accounts;
  const ups = demoIds.userProducts;
  test('a cancelled subscription in its term is activated; an activated one is a ConflictError invalid_state', async () => {
    expect(
      (
        await client({}, SCOPES).subscriptionSystem.reactivate({
          account_id: eva,
          user_product_id: ups.evaSummerCancelled,
        })
      ).id,
    ).toBe(ups.evaSummerCancelled);
    const sdk = client({}, SCOPES);
    const before = platform.snapshot();
    await expect(
      sdk.subscriptionSystem.reactivate({ account_id: eva, user_product_id: ups.evaSummerCancelled }),
    ).rejects.toMatchObject({ constructor: ConflictError, code: 'invalid_state', status: 409 });
    expect(platform.snapshot()).toEqual(before);
  });
});

describe("the spec's errors of 16: the error class, the spec's code and field", () => {
  const { anna, bo, eva, hedda } = demoIds.accounts;
  const ups = demoIds.userProducts;
  const rows: [string, (c: PlatformClient) => Promise<unknown>, ErrorClass, string, string][] = [
    [
      'the account is absent',
      (c) => c.subscriptionSystem.reactivate({ account_id: absent.account, user_product_id: ups.evaSummerCancelled }),
      NotFoundError,
      'not_found',
      'account_id',
    ],
    [
      'the user-product is absent',
      (c) => c.subscriptionSystem.reactivate({ account_id: eva, user_product_id: absent.userProduct }),
      NotFoundError,
      'not_found',
      'user_product_id',
    ],
    [
      "another account's user-product",
      (c) => c.subscriptionSystem.reactivate({ account_id: anna, user_product_id: ups.evaSummerCancelled }),
      ConflictError,
      'user_product_not_belong_to_account',
      'user_product_id',
    ],
    [
      'a user-product of a provision service',
      (c) => c.subscriptionSystem.reactivate({ account_id: hedda, user_product_id: ups.heddaProvisioned }),
      ConflictError,
      'user_product_not_platform_provisioned',
      'user_product_id',
    ],
    [
      'a user-product that is not cancelled',
      (c) => c.subscriptionSystem.reactivate({ account_id: bo, user_product_id: ups.boBasic }),
      ConflictError,
      'invalid_state',
      'user_product_id',
    ],
  ];

  test.each(rows)('%s', (_, call, errorClass, code, field) => {
    const sdk = client({}, SCOPES);
    return expectPlatformRefusal(() => call(sdk), errorClass, code, field);
  });
});
