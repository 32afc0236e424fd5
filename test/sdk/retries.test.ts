/**
 * Retries, timeouts and aborts: reads are retried, writes only when asked; Retry-After is honoured up
 * to a cap. A wait a test checks runs on fake timers (Date with them, so the platform clock and the
 * journal's arrival times are fake too): time moves only when the test moves it, once the call is
 * waiting; elsewhere retries wait a few real milliseconds.
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { refreshMargin } from '../../src/auth.js';
import {
  APIConnectionError,
  APITimeoutError,
  InternalServerError,
  NotFoundError,
  type PlatformClientOptions,
  RateLimitError,
  type RequestOptions,
  RequestValidationError,
} from '../../src/index.js';
import { retryAfterMs, retryWait } from '../../src/retry.js';
import {
  client,
  creditcardPrice,
  defaultHosts,
  demoAuth,
  paths,
  platform,
  received,
  recordingLogger,
  usePlatform,
} from './helpers.js';

usePlatform();
afterEach(async () => {
  // The platform answers what a test left it holding (a latency fault), before real time returns.
  if (vi.isFakeTimers()) await vi.runOnlyPendingTimersAsync();
  vi.useRealTimers();
});

/** Where the fake clock starts. */
const T0 = Date.parse('2030-01-01T00:00:00.000Z');

/** Fakes setTimeout and Date from T0; setImmediate stays real, so requests still go through MSW. */
function fakeTime(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: T0 });
}

/** One turn of the event loop: every promise callback pending runs, no fake timer does. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Lets the event loop run, with the fake clock standing still, until `done` holds: a request goes
 * through MSW and the platform with no timer of its own. The real-time bound only turns a hang into
 * a failure; it is far beyond what the work takes on a loaded machine.
 */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = performance.now() + 10_000;
  while (!done()) {
    if (performance.now() > deadline) throw new Error(`Never happened: ${what}`);
    await turn();
  }
}

/** How a call ended, and when, on the fake clock (ms after T0). */
interface Outcome {
  value?: unknown;
  error?: unknown;
  at: number;
}

/** Watches a call on fake time: its `outcome` to come (awaiting it waits for the call), and whether it came. */
function watch(call: Promise<unknown>): { outcome: Promise<Outcome>; settled: () => boolean } {
  let settled = false;
  const outcome = call
    .then(
      (value): Outcome => ({ value, at: Date.now() - T0 }),
      (error: unknown): Outcome => ({ error, at: Date.now() - T0 }),
    )
    .finally(() => {
      settled = true;
    });
  return { outcome, settled: () => settled };
}

/**
 * Starts a products call on fake time, through a fetch that counts the answers it hands the SDK;
 * answers the watched call once the first answer is in and the SDK has taken it (in the same turn),
 * so that its wait before a retry, if any, is the only timer.
 */
async function afterFirstAnswer(options: Partial<PlatformClientOptions> = {}, request: RequestOptions = {}) {
  fakeTime();
  let answers = 0;
  const counting: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    answers += 1;
    return response;
  };
  const call = watch(client({ fetch: counting, ...options }).products.list({}, request));
  await until(() => answers === 1, 'the first answer');
  await turn();
  return call;
}

/** Starts a products call on fake time; answers the watched call once its first request is at the platform. */
async function afterFirstRequest(options: Partial<PlatformClientOptions> = {}, request: RequestOptions = {}) {
  fakeTime();
  const call = watch(client(options).products.list({}, request));
  await until(() => productRequests().length === 1, 'the first request');
  return call;
}

/** The products requests the platform received: status and arrival, in ms after T0. */
function productRequests(): { status: number; at: number }[] {
  return platform.requests
    .list()
    .filter((r) => r.path === paths.getProducts)
    .map((r) => ({ status: r.status, at: Date.parse(r.received_at) - T0 }));
}

describe('reads are retried on network errors, 408, 429 and 5xx', () => {
  test('a GET answered 503 once is retried and succeeds', async () => {
    platform.faults.add({ path: paths.getProducts, status: 503, times: 1 });
    const { items } = await client().products.list();
    expect(items.length).toBeGreaterThan(0);
    expect(received()).toEqual([`GET ${paths.getProducts} 503`, `GET ${paths.getProducts} 200`]);
  });

  test.each([408, 429, 500, 502, 504])('a GET answered %i once is retried', async (status) => {
    platform.faults.add({ path: paths.getProducts, status, times: 1 });
    await client().products.list();
    expect(received()).toEqual([`GET ${paths.getProducts} ${status}`, `GET ${paths.getProducts} 200`]);
  });

  test.each([400, 401, 403, 404, 409])('a GET answered %i is not retried', async (status) => {
    platform.faults.add({ path: paths.getProducts, status, times: 1 });
    await expect(client().products.list()).rejects.toMatchObject({ status });
    expect(received()).toHaveLength(1);
  });

  test("a fetch option whose answers are another class than the global Response (undici's own, a polyfill's): a retry's answer outside 2xx is still an answer, its class and status the platform's", async () => {
    /** A Fetch answer of its own class, reading through a real one. */
    class ForeignResponse {
      readonly #inner: Response;
      constructor(inner: Response) {
        this.#inner = inner;
      }
      get status() {
        return this.#inner.status;
      }
      get statusText() {
        return this.#inner.statusText;
      }
      get ok() {
        return this.#inner.ok;
      }
      get headers() {
        return this.#inner.headers;
      }
      get url() {
        return this.#inner.url;
      }
      get redirected() {
        return this.#inner.redirected;
      }
      get type() {
        return this.#inner.type;
      }
      get body() {
        return this.#inner.body;
      }
      get bodyUsed() {
        return this.#inner.bodyUsed;
      }
      text() {
        return this.#inner.text();
      }
      json() {
        return this.#inner.json();
      }
      arrayBuffer() {
        return this.#inner.arrayBuffer();
      }
      clone() {
        return new ForeignResponse(this.#inner.clone());
      }
    }
    const foreign = (async (input: RequestInfo | URL, init?: RequestInit) =>
      new ForeignResponse(await fetch(input, init))) as unknown as typeof fetch;
    platform.faults.add({ path: paths.getProducts, status: 503, times: 1 });
    platform.faults.add({ path: paths.getProducts, status: 404, times: 1 });
    await expect(client({ fetch: foreign, maxRetries: 3 }).products.list()).rejects.toMatchObject({
      constructor: NotFoundError,
      status: 404,
      attempts: 2,
    });
    expect(received()).toEqual([`GET ${paths.getProducts} 503`, `GET ${paths.getProducts} 404`]);
  });

  test('after maxRetries retries the last error is thrown', async () => {
    platform.faults.add({ path: paths.getProducts, status: 500, times: 10 });
    await expect(client({ maxRetries: 2 }).products.list()).rejects.toBeInstanceOf(InternalServerError);
    expect(received()).toHaveLength(3);
  });

  test('every attempt and every retry is logged with its number, and the error counts every attempt', async () => {
    platform.faults.add({ path: paths.getProducts, status: 500, times: 2 });
    platform.faults.add({ path: paths.getProducts, drop: true, times: 1 });
    const logger = recordingLogger();
    const error = await client({ logger, maxRetries: 2 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ attempts: 3 });
    const url = `${defaultHosts.api}${paths.getProducts}`;
    expect(logger.lines.map((l) => `${l.level} ${l.message}`)).toEqual([
      `debug GET ${url}`,
      `info GET ${url} retry 1: status 500`,
      `debug GET ${url}`,
      `info GET ${url} retry 2: status 500`,
      `debug GET ${url}`,
      expect.stringMatching(`^error GET ${url} failed after 3 attempts: `),
    ]);
    const attempts = logger.lines
      .filter((l) => l.level === 'debug')
      .map((l) => (l.meta as { attempt: number }).attempt);
    expect(attempts).toEqual([1, 2, 3]);
    expect(received()).toEqual([
      `GET ${paths.getProducts} 500`,
      `GET ${paths.getProducts} 500`,
      `GET ${paths.getProducts} 0`,
    ]);
  });

  test('maxRetries per request overrides the client', async () => {
    platform.faults.add({ path: paths.getProducts, status: 500, times: 10 });
    await expect(client({ maxRetries: 5 }).products.list({}, { maxRetries: 0 })).rejects.toBeInstanceOf(
      InternalServerError,
    );
    expect(received()).toHaveLength(1);
  });
});

describe('Retry-After', () => {
  test('429 with Retry-After: 1 waits a second before the retry, not a millisecond less', async () => {
    platform.faults.add({ path: paths.getProducts, status: 429, headers: { 'retry-after': '1' } });
    const { outcome } = await afterFirstAnswer({ retryDelay: { initial: 1, max: 1 } });
    await vi.advanceTimersToNextTimerAsync();
    expect(await outcome).toHaveProperty('value');
    expect(productRequests()).toEqual([
      { status: 429, at: 0 },
      { status: 200, at: 1_000 },
    ]);
  });

  test.each(['retry-after', 'ratelimit-reset', 'x-ratelimit-reset'])(
    '429 with %s holding an absolute epoch time (in seconds): waits until that time',
    async (header) => {
      platform.faults.add({ path: paths.getProducts, status: 429, headers: { [header]: String(T0 / 1000 + 2) } });
      const { outcome } = await afterFirstAnswer();
      await vi.advanceTimersToNextTimerAsync();
      expect(await outcome).toHaveProperty('value');
      expect(productRequests()).toEqual([
        { status: 429, at: 0 },
        { status: 200, at: 2_000 },
      ]);
    },
  );

  test('a Retry-After it cannot read ("1, 2") backs off as usual, not waiting maxRetryAfter', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    platform.faults.add({ path: paths.getProducts, status: 429, headers: { 'retry-after': '1, 2' } });
    const { outcome } = await afterFirstAnswer({ retryDelay: { initial: 100, max: 100 }, maxRetryAfter: 60_000 });
    await vi.advanceTimersToNextTimerAsync();
    expect(await outcome).toHaveProperty('value');
    expect(productRequests()).toEqual([
      { status: 429, at: 0 },
      { status: 200, at: 100 },
    ]);
  });

  test('a Retry-After beyond maxRetryAfter fails at once with RateLimitError instead of waiting', async () => {
    platform.faults.add({ path: paths.getProducts, status: 429, headers: { 'retry-after': '3600' } });
    const { outcome, settled } = await afterFirstAnswer({ maxRetryAfter: 2_000 });
    // Failed in the turn that brought the answer, no timer left: nothing waited for.
    expect(settled()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    const { error } = await outcome;
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('3600');
    expect(productRequests()).toEqual([{ status: 429, at: 0 }]);
  });
});

describe('the backoff', () => {
  test('the first retry after a 503 waits retryDelay.initial less its jitter (up to a quarter, by Math.random)', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    platform.faults.add({ path: paths.getProducts, status: 503, times: 1 });
    const { outcome } = await afterFirstAnswer({ retryDelay: { initial: 1_000, max: 8_000 } });
    await vi.advanceTimersToNextTimerAsync();
    expect(await outcome).toHaveProperty('value');
    // 1000 ms * (1 - 0.5 * 0.25)
    expect(productRequests()).toEqual([
      { status: 503, at: 0 },
      { status: 200, at: 875 },
    ]);
  });
});

describe('writes are retried only with retryWrite: true', () => {
  test('a POST answered 503 is not retried by default', async () => {
    platform.faults.add({ path: paths.updatePrices, status: 503, times: 1 });
    await expect(client().prices.update(creditcardPrice(10))).rejects.toBeInstanceOf(InternalServerError);
    expect(received()).toEqual([`POST ${paths.updatePrices} 503`]);
  });

  test('a POST dropped by the network is not retried by default', async () => {
    platform.faults.add({ path: paths.updatePrices, drop: true, times: 1 });
    await expect(client().prices.update(creditcardPrice(10))).rejects.toBeInstanceOf(APIConnectionError);
    expect(received()).toHaveLength(1);
  });

  test('with retryWrite: true a POST answered 503 is retried and the price is updated', async () => {
    platform.faults.add({ path: paths.updatePrices, status: 503, times: 1 });
    const sdk = client();
    await sdk.prices.update(creditcardPrice(10), { retryWrite: true });
    expect(received()).toEqual([`POST ${paths.updatePrices} 503`, `POST ${paths.updatePrices} 200`]);
    const { items } = await sdk.products.list({ product_code: 'premium-digital' });
    expect(items[0]?.price_periods.find((p) => p.payment_option === 'creditcard')?.price).toBe(10);
  });
});

describe('network failures and timeouts', () => {
  test('a dropped connection, every time: APIConnectionError with the cause, after the retries', async () => {
    platform.faults.add({ path: paths.getProducts, drop: true, times: 10 });
    const error = await client({ maxRetries: 2 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).not.toBeInstanceOf(APITimeoutError);
    expect((error as APIConnectionError).cause).toBeInstanceOf(Error);
    expect(received()).toEqual([
      `GET ${paths.getProducts} 0`,
      `GET ${paths.getProducts} 0`,
      `GET ${paths.getProducts} 0`,
    ]);
  });

  test('a dropped connection once is retried and succeeds', async () => {
    platform.faults.add({ path: paths.getProducts, drop: true, times: 1 });
    await client().products.list();
    expect(received()).toEqual([`GET ${paths.getProducts} 0`, `GET ${paths.getProducts} 200`]);
  });

  test('no answer within the timeout: APITimeoutError (an APIConnectionError), at the timeout', async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 300, times: 10 });
    const { outcome } = await afterFirstRequest({ timeout: 50, maxRetries: 0 });
    // The next timer is the call's timeout: the platform answers at 300 ms.
    await vi.advanceTimersToNextTimerAsync();
    const { error, at } = await outcome;
    expect(at).toBe(50);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  test('the timeout per request overrides the client', async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 300, times: 10 });
    const { outcome } = await afterFirstRequest({ timeout: 10_000, maxRetries: 0 }, { timeout: 50 });
    await vi.advanceTimersToNextTimerAsync();
    const { error, at } = await outcome;
    expect(at).toBe(50);
    expect(error).toBeInstanceOf(APITimeoutError);
  });

  test('a read that timed out once is retried', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    platform.faults.add({ path: paths.getProducts, latencyMs: 300, times: 1 });
    const { outcome } = await afterFirstRequest({ timeout: 100 });
    await vi.advanceTimersToNextTimerAsync(); // the timeout, at 100 ms
    await vi.advanceTimersToNextTimerAsync(); // the backoff: retryDelay.initial, 1 ms, without jitter
    const { value } = await outcome;
    expect(value).toMatchObject({ items: expect.any(Array) });
    expect(productRequests().map((r) => r.at)).toEqual([0, 101]);
  });
});

describe('AbortSignal', () => {
  test("aborting a call under way rejects it with the signal's reason (AbortError), at once", async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 2_000 });
    const controller = new AbortController();
    const { outcome } = await afterFirstRequest({}, { signal: controller.signal });
    controller.abort();
    // The platform's answer, at 2 s, comes too late for a call that is over.
    await vi.advanceTimersToNextTimerAsync();
    const { error, at } = await outcome;
    expect(at).toBe(0);
    expect((error as Error).name).toBe('AbortError');
  });

  test('aborting during the wait before a retry stops the retries', async () => {
    platform.faults.add({ path: paths.getProducts, status: 503, headers: { 'retry-after': '30' }, times: 5 });
    const controller = new AbortController();
    const { outcome, settled } = await afterFirstAnswer({}, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await turn();
    expect(settled()).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    expect(((await outcome).error as Error).message).toBe('stop');
    expect(received()).toHaveLength(1);
  });

  test('calls sharing one signal wait on it through one listener: no MaxListenersExceededWarning, none left after', async () => {
    // Twelve reads under one long-lived signal (a server's shutdown) meet an outage, and back off together.
    platform.faults.add({ path: paths.getProducts, status: 503, times: 36 });
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const shutdown = new AbortController();
    let most = 0;
    const probe = setInterval(() => {
      most = Math.max(most, getEventListeners(shutdown.signal, 'abort').length);
    }, 2);
    try {
      const sdk = client({ retryDelay: { initial: 40, max: 40 }, maxRetries: 2 });
      const calls = Array.from({ length: 12 }, () =>
        sdk.products.list({}, { signal: shutdown.signal }).catch((e: unknown) => e),
      );
      const errors = await Promise.all(calls);
      expect(errors.every((error) => error instanceof InternalServerError)).toBe(true);
      expect(received()).toHaveLength(36);
      // A warning is emitted on the next tick.
      await turn();
      expect(warnings).toEqual([]);
      expect(most).toBe(1);
      expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
      // Aborted while they wait, all of them stop, and the listener goes with them.
      platform.faults.add({ path: paths.getProducts, status: 503, headers: { 'retry-after': '30' }, times: 12 });
      const stopped = Array.from({ length: 12 }, () =>
        sdk.products.list({}, { signal: shutdown.signal }).catch((e: unknown) => e),
      );
      await until(() => received().length === 48, 'twelve answers 503');
      shutdown.abort(new Error('shutting down'));
      expect((await Promise.all(stopped)).map((e) => (e as Error).message)).toEqual(Array(12).fill('shutting down'));
      expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
      await turn();
      expect(warnings).toEqual([]);
    } finally {
      clearInterval(probe);
      process.off('warning', onWarning);
    }
  });

  test('a long-lived signal holds nothing of the calls made under it once they are over', async () => {
    // What a signal keeps of the signals made to follow it (`AbortSignal.any`), read where Node keeps it.
    const followers = (signal: AbortSignal): number => {
      const key = Object.getOwnPropertySymbols(signal).find((s) => s.description === 'kDependantSignals');
      return key ? ((Reflect.get(signal, key) as Set<unknown> | undefined)?.size ?? 0) : 0;
    };
    // The measure sees what AbortSignal.any leaves on this runtime: a follower that is listened to, as
    // fetch listens to the signal it is given (Node 24 keeps no entry for one nobody listens to).
    const probe = new AbortController();
    AbortSignal.any([probe.signal]).addEventListener('abort', () => {});
    expect(followers(probe.signal)).toBe(1);

    // A server's shutdown signal, given to every call: first attempts, and a retry after a 503.
    platform.faults.add({ path: paths.getProducts, status: 503, times: 1 });
    const shutdown = new AbortController();
    const sdk = client();
    for (let i = 0; i < 5; i++) await sdk.products.list({}, { signal: shutdown.signal });
    expect(received(paths.getProducts)).toHaveLength(6);
    expect(followers(shutdown.signal)).toBe(0);
    expect(getEventListeners(shutdown.signal, 'abort')).toHaveLength(0);
  });

  test.each([
    ['client credentials (no token yet)', { auth: demoAuth }],
    ['a fixed token', {}],
  ])(
    "a call whose signal is aborted before it starts rejects with the signal's reason and sends nothing: %s",
    async (_, options: Partial<PlatformClientOptions>) => {
      const logger = recordingLogger();
      const fetched: string[] = [];
      const watching: typeof fetch = (input, init) => {
        fetched.push(input instanceof Request ? input.url : String(input));
        return fetch(input, init);
      };
      const reason = new Error('already stopped');
      const error = await client({ ...options, logger, fetch: watching })
        .products.list({}, { signal: AbortSignal.abort(reason) })
        .catch((e: unknown) => e);
      expect(error).toBe(reason);
      await turn();
      // Not the call, nor a request for the client's token; and no request in the log.
      expect(fetched).toEqual([]);
      expect(received()).toEqual([]);
      expect(logger.lines).toEqual([]);
    },
  );

  test('an invalid request is refused before the signal matters, and nothing is sent', async () => {
    const fetched: string[] = [];
    const watching: typeof fetch = (input, init) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    await expect(
      client({ fetch: watching }).products.list({ id: 'bad' }, { signal: AbortSignal.abort() }),
    ).rejects.toBeInstanceOf(RequestValidationError);
    await turn();
    expect(fetched).toEqual([]);
    expect(received()).toEqual([]);
  });
});

describe('how long a retry waits, rule by rule', () => {
  const delays = { initial: 1_000, max: 8_000, maxRetryAfter: 60_000 };
  const answer = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

  test.each([
    ['ratelimit-reset', '5', 5_000],
    ['x-ratelimit-retry-after', '3', 3_000],
    ['x-ratelimit-reset', '4', 4_000],
    ['x-rate-limit-reset', '6', 6_000],
  ])('a 429 with %s: %s s asks for that many seconds', (header, value, ms) => {
    expect(retryAfterMs(new Headers({ [header]: value }), T0)).toBe(ms);
    expect(retryWait(delays, answer(429, { [header]: value }), 1)).toBe(ms);
  });

  test('a number of seconds from 2024-01-01 on is an epoch time, that instant included', () => {
    const from2024 = Date.parse('2024-01-01') / 1000;
    const before = Date.parse('2023-12-31T23:59:00Z'); // a minute before
    expect(retryAfterMs(new Headers({ 'retry-after': String(from2024) }), before)).toBe(60_000);
    // An epoch time already past asks for no wait.
    expect(retryAfterMs(new Headers({ 'retry-after': String(from2024) }), T0)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': String(from2024 - 1) }), T0)).toBe((from2024 - 1) * 1000);
  });

  test('Retry-After is read before the rate-limit headers', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2', 'ratelimit-reset': '9' }), T0)).toBe(2_000);
  });

  test('a wait it cannot read is the backoff, not maxRetryAfter; a wait of exactly maxRetryAfter is still waited', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }), T0)).toBeUndefined();
    expect(retryWait(delays, answer(503, { 'retry-after': 'soon' }), 1)).toBe(1_000);
    expect(retryWait(delays, answer(503, { 'retry-after': 'soon' }), 2)).toBe(2_000);
    expect(retryWait(delays, answer(503, { 'retry-after': '60' }), 1)).toBe(60_000);
    expect(retryWait(delays, answer(503, { 'retry-after': '61' }), 1)).toBe(false);
  });

  test.each([
    ['1, 2', 'two values (Date.parse takes it for a day of 2001)'],
    ['-5', 'a negative number'],
    ['1.5', 'a fraction'],
    ['1e3', 'an exponent'],
    ['1e400', 'a number beyond a double'],
    [' ', 'white space'],
    ['2030-01-01T00:00:30Z', 'an ISO date'],
    ['Tue, 01 Jan 2030 00:00:30 CET', 'a date not in GMT'],
    ['Tue, 31 Feb 2030 00:00:30 GMT', 'a day that does not exist'],
    ['Tue, 01 Jan 2030 24:00:30 GMT', 'an hour that does not exist'],
    ['Tue, 01 Jan 2030 00:60:30 GMT', 'a minute that does not exist'],
    ['Tue, 01 Jan 2030 00:00:61 GMT', 'a second that does not exist'],
    ['Tue, 01 Foo 2030 00:00:30 GMT', 'a month that does not exist'],
    ['Tue, 01 jan 2030 00:00:30 GMT', 'a month not spelled as the RFC spells it'],
    ['Tue Jan 32 00:00:30 2030', 'an asctime day that does not exist'],
  ])('Retry-After %j (%s) is not RFC 9110: the backoff', (value) => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryAfterMs(new Headers({ 'retry-after': value }), T0)).toBeUndefined();
    expect(retryWait(delays, answer(429, { 'retry-after': value }), 1)).toBe(1_000);
  });

  test.each([
    ['0', 0],
    ['7', 7_000],
    ['Tue, 01 Jan 2030 00:00:30 GMT', 30_000],
    ['Tuesday, 01-Jan-30 00:00:30 GMT', 30_000],
    ['Tue Jan  1 00:00:30 2030', 30_000],
    ['Tue Jan  1 00:00:05 2030', 5_000],
    ['Tue, 01 Jan 2030 00:00:29 GMT', 29_000],
    ['Mon, 31 Dec 2029 23:59:60 GMT', 0],
    ['Tuesday, 01-Jan-30 00:00:45 GMT', 45_000],
    ['Mon, 31 Dec 2029 23:59:00 GMT', 0],
  ])('Retry-After %j, one of RFC 9110 forms, asks for %i ms (a past date: none)', (value, ms) => {
    fakeTime();
    expect(retryAfterMs(new Headers({ 'retry-after': value }), T0)).toBe(ms);
    expect(retryWait(delays, answer(503, { 'retry-after': value }), 1)).toBe(ms);
  });

  test('each month of an HTTP-date, in each of its three forms, is read as that month', () => {
    const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
    names.forEach((name, i) => {
      const iso = `2031-${String(i + 1).padStart(2, '0')}-15T12:00:00Z`;
      const weekday = new Date(iso).toUTCString().slice(0, 3);
      const long = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][
        new Date(iso).getUTCDay()
      ];
      for (const value of [
        `${weekday}, 15 ${name} 2031 12:00:00 GMT`,
        `${long}, 15-${name}-31 12:00:00 GMT`,
        `${weekday} ${name} 15 12:00:00 2031`,
      ])
        expect(retryAfterMs(new Headers({ 'retry-after': value }), T0), value).toBe(Date.parse(iso) - T0);
    });
  });

  test('a leap second (23:59:60) is the second after 23:59:59, not a day that does not exist', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 31 Dec 2030 23:59:60 GMT' }), T0)).toBe(
      Date.parse('2031-01-01T00:00:00Z') - T0,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue Dec 31 23:59:30 2030' }), T0)).toBe(
      Date.parse('2030-12-31T23:59:30Z') - T0,
    );
  });

  test("an RFC 850 date's two-digit year is this century's, or the last one's when over 50 years ahead", () => {
    // 2030 now: '80' is 2080 (50 years ahead) and '81' 1981.
    expect(retryAfterMs(new Headers({ 'retry-after': 'Monday, 01-Jan-80 00:00:00 GMT' }), T0)).toBe(
      Date.parse('2080-01-01T00:00:00Z') - T0,
    );
    expect(retryAfterMs(new Headers({ 'retry-after': 'Thursday, 01-Jan-81 00:00:00 GMT' }), T0)).toBe(0);
  });

  test('the rate-limit headers: seconds, a fraction allowed; anything else is the backoff', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryAfterMs(new Headers({ 'ratelimit-reset': '1.5' }), T0)).toBe(1_500);
    expect(retryAfterMs(new Headers({ 'ratelimit-reset': '1.25' }), T0)).toBe(1_250);
    expect(retryAfterMs(new Headers({ 'ratelimit-reset': '2s' }), T0)).toBeUndefined();
    expect(retryAfterMs(new Headers({ 'x-ratelimit-reset': '-5' }), T0)).toBeUndefined();
    expect(retryWait(delays, answer(429, { 'x-ratelimit-reset': 'Tue, 01 Jan 2030 00:00:30 GMT' }), 1)).toBe(1_000);
  });

  test('only 429 and 503 are held to their Retry-After; a 500 that sends one backs off as usual', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryWait(delays, answer(500, { 'retry-after': '30' }), 1)).toBe(1_000);
  });

  test.each([408, 429, 500, 502, 503, 504])('%i is retried', (status) => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect(retryWait(delays, answer(status), 1)).toBe(1_000);
  });

  test.each([400, 404, 409, 422, 501])('%i is not retried', (status) => {
    expect(retryWait(delays, answer(status), 1)).toBe(false);
  });

  test('the backoff doubles per retry, is capped by retryDelay.max, then cut by up to a quarter: retries at the cap still spread out', () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    expect([1, 2, 3, 4, 5, 2_000].map((n) => retryWait(delays, undefined, n))).toEqual([
      1_000, 2_000, 4_000, 8_000, 8_000, 8_000,
    ]);
    vi.spyOn(Math, 'random').mockReturnValue(1);
    expect([1, 2, 3, 4, 5, 2_000].map((n) => retryWait(delays, undefined, n))).toEqual([
      750, 1_500, 3_000, 6_000, 6_000, 6_000,
    ]);
    // No delay at all stays none, however many retries (0 times 2^2000 would be NaN).
    expect(retryWait({ ...delays, initial: 0 }, undefined, 2_000)).toBe(0);
  });
});

describe('when a client-credentials token is refreshed', () => {
  test('60 s before it expires, or a tenth of its lifetime when that is shorter', () => {
    expect(refreshMargin(3_600_000)).toBe(60_000);
    expect(refreshMargin(600_000)).toBe(60_000);
    expect(refreshMargin(100_000)).toBe(10_000);
  });
});
