/** Retries, timeouts and aborts: reads are retried, writes only when asked; Retry-After is honoured up to a cap. */
import { describe, expect, test } from 'vitest';
import {
  APIConnectionError,
  APITimeoutError,
  InternalServerError,
  RateLimitError,
  RequestValidationError,
} from '../../src/index.js';
import {
  client,
  creditcardPrice,
  defaultHosts,
  paths,
  platform,
  received,
  recordingLogger,
  usePlatform,
} from './helpers.js';

usePlatform();

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
  test('429 with Retry-After: 1 waits a second before the retry', async () => {
    platform.faults.add({ path: paths.getProducts, status: 429, headers: { 'retry-after': '1' } });
    const started = performance.now();
    await client({ retryDelay: { initial: 1, max: 1 } }).products.list();
    expect(performance.now() - started).toBeGreaterThanOrEqual(950);
    expect(received()).toEqual([`GET ${paths.getProducts} 429`, `GET ${paths.getProducts} 200`]);
  });

  test('a Retry-After beyond maxRetryAfter fails at once with RateLimitError instead of waiting', async () => {
    platform.faults.add({ path: paths.getProducts, status: 429, headers: { 'retry-after': '3600' } });
    const started = performance.now();
    const error = await client({ maxRetryAfter: 2_000 })
      .products.list()
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).headers.get('retry-after')).toBe('3600');
    expect(received()).toHaveLength(1);
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

  test('no answer within the timeout: APITimeoutError (an APIConnectionError)', async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 300, times: 10 });
    const started = performance.now();
    const error = await client({ timeout: 50, maxRetries: 0 })
      .products.list()
      .catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(250);
    expect(error).toBeInstanceOf(APITimeoutError);
    expect(error).toBeInstanceOf(APIConnectionError);
  });

  test('the timeout per request overrides the client', async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 300, times: 10 });
    await expect(client({ timeout: 10_000, maxRetries: 0 }).products.list({}, { timeout: 50 })).rejects.toBeInstanceOf(
      APITimeoutError,
    );
  });

  test('a read that timed out once is retried', async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 300, times: 1 });
    const { items } = await client({ timeout: 100 }).products.list();
    expect(items.length).toBeGreaterThan(0);
  });
});

describe('AbortSignal', () => {
  test("aborting a call under way rejects it with the signal's reason (AbortError)", async () => {
    platform.faults.add({ path: paths.getProducts, latencyMs: 2_000 });
    const controller = new AbortController();
    const pending = client().products.list({}, { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    const started = performance.now();
    const error = await pending.catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((error as Error).name).toBe('AbortError');
  });

  test('aborting during the wait before a retry stops the retries', async () => {
    platform.faults.add({ path: paths.getProducts, status: 503, headers: { 'retry-after': '30' }, times: 5 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 50);
    const error = await client()
      .products.list({}, { signal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('stop');
    expect(received()).toHaveLength(1);
  });

  test('an invalid request is refused before the signal matters', async () => {
    await expect(client().products.list({ id: 'bad' }, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(
      RequestValidationError,
    );
  });
});
