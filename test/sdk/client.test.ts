/** The result of a call (withResponse, correlation id), client headers, and logging without secrets. */
import { describe, expect, test, vi } from 'vitest';
import { APIConnectionError, APIPromise, NotFoundError, PlatformClient } from '../../src/index.js';
import {
  client,
  creditcardPrice,
  defaultHosts,
  demoAuth,
  entryOf,
  paths,
  platform,
  recordingLogger,
  requestsTo,
  usePlatform,
} from './helpers.js';

usePlatform();

describe('withResponse()', () => {
  test('gives the data, the raw Response and the x-correlation-id of the answer', async () => {
    const { data, response, correlationId } = await client().products.list({ product_type: 'packages' }).withResponse();
    expect(data.items.length).toBeGreaterThan(0);
    expect(response.status).toBe(200);
    expect(correlationId).toBe(response.headers.get('x-correlation-id'));
    expect(entryOf(platform, correlationId ?? null)).toMatchObject({ path: paths.getProducts, status: 200 });
  });

  test('awaiting the call and withResponse() give the same data, from one request', async () => {
    const call = client().products.sharing({ code: 'premium-digital' });
    const [data, raw] = await Promise.all([call, call.withResponse()]);
    expect(raw.data).toBe(data);
    expect(requestsTo(platform, paths.getProductSharing)).toHaveLength(1);
  });

  test('the result is a Promise; then, catch and finally behave as on any promise', async () => {
    const call = client().products.list();
    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(APIPromise);
    let settled = false;
    const count = await call
      .then((d) => d.items.length)
      .finally(() => {
        settled = true;
      });
    expect(count).toBeGreaterThan(0);
    expect(settled).toBe(true);
    const caught = await client()
      .products.list({ product_code: 'missing' })
      .catch((e: unknown) => (e as { code: string }).code);
    expect(caught).toBe('not_found');
  });

  test('the data carries no hidden correlation id: it is exactly the schema type', async () => {
    const data = await client().prices.update(creditcardPrice(20));
    expect(Object.getOwnPropertyNames(data)).toEqual(['id']);
  });
});

describe('headers', () => {
  test('accept: application/json on every request; the client and request headers are added', async () => {
    await client({ headers: { 'x-integration': 'shop-sync' } }).products.list({}, { headers: { 'x-trace': 't-1' } });
    const [sent, ...more] = requestsTo(platform, paths.getProducts);
    expect(more).toEqual([]);
    expect(sent?.headers).toMatchObject({ accept: 'application/json', 'x-integration': 'shop-sync', 'x-trace': 't-1' });
    expect(sent?.headers['content-type']).toBeUndefined();
  });

  test("accept and a JSON body's content-type are the SDK's, as the spec has every request send them: a client's or a call's header of those names is not sent, and a request without a body has no content-type", async () => {
    const sdk = client({ headers: { accept: 'text/html', 'content-type': 'text/plain' } });
    await sdk.products.list({}, { headers: { Accept: 'application/xml' } });
    await sdk.prices.update(
      {
        package_integration_code: 'PREMIUM-DIGITAL',
        price_periods: [
          { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 9 },
        ],
      },
      { headers: { 'Content-Type': 'application/x-www-form-urlencoded' } },
    );
    const [read] = requestsTo(platform, paths.getProducts);
    const [write] = requestsTo(platform, paths.updatePrices);
    expect(read?.headers.accept).toBe('application/json');
    expect(read?.headers).not.toHaveProperty('content-type');
    expect(write?.headers).toMatchObject({ accept: 'application/json', 'content-type': 'application/json' });
    expect(write?.status).toBe(200);
  });
});

describe('logging', () => {
  test('a full run logged at debug level holds method, URL, status, duration, retries, correlation id and no secret', async () => {
    const logger = recordingLogger();
    const secrets = new Set<string>([demoAuth.clientSecret]);
    // Collect every token the run uses: the grants' answers and the Authorization headers.
    const spyFetch: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      const auth = request.headers.get('authorization');
      if (auth) secrets.add(auth.replace(/^Bearer /, ''));
      const response = await fetch(request);
      if (request.url.endsWith(paths.accessToken) && response.ok) {
        const body = (await response.clone().json()) as Record<string, string>;
        for (const key of ['access_token', 'refresh_token'] as const) if (body[key]) secrets.add(body[key]);
      }
      return response;
    };
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: demoAuth,
      logger,
      fetch: spyFetch,
      retryDelay: { initial: 1, max: 5 },
    });

    await sdk.products.list({ product_type: 'packages' });
    platform.faults.add({ path: paths.getPaymentPeriods, status: 503, times: 1 });
    await sdk.products.paymentPeriods({ product_code: 'premium-digital' });
    await sdk.prices.update(creditcardPrice(15));
    platform.reset(); // every token forgotten: a 401, a new grant, a retry
    await sdk.products.sharing({ code: 'premium-digital' });
    platform.faults.add({ path: paths.getProducts, drop: true, times: 3 });
    await sdk.products.list().catch(() => undefined);
    await sdk.products.list({ product_code: 'missing' }).catch(() => undefined);

    expect(secrets.size).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify(logger.lines);
    for (const secret of secrets) expect(text).not.toContain(secret);

    const levels = new Set(logger.lines.map((l) => l.level));
    expect(levels).toEqual(new Set(['debug', 'info', 'warn', 'error']));
    const grant = logger.lines.find(
      (l) => l.level === 'debug' && l.message.startsWith('POST') && l.message.includes(paths.accessToken),
    );
    expect(grant?.meta).toMatchObject({ body: { grant_type: 'none', client_secret: '[REDACTED]' } });
    const request = logger.lines.find(
      (l) => l.level === 'debug' && l.message === `GET ${defaultHosts.api}${paths.getProducts}?product_type=packages`,
    );
    expect(request?.meta).toMatchObject({ headers: { authorization: '[REDACTED]' } });
    const answer = logger.lines.find((l) => (l.meta as { status?: number })?.status === 200);
    expect(answer?.meta).toMatchObject({
      method: 'POST',
      url: `${defaultHosts.auth}${paths.accessToken}`,
      status: 200,
      durationMs: expect.any(Number),
      attempt: 1,
      correlationId: expect.any(String),
    });
    const retry = logger.lines.find((l) => l.level === 'info' && l.message.includes('status 503'));
    expect(retry?.meta).toMatchObject({ method: 'GET', retryCount: 1, reason: 'status 503' });
    expect(logger.lines.some((l) => l.level === 'info' && l.message.includes('token refused'))).toBe(true);
    expect(logger.lines.find((l) => l.level === 'error')?.meta).toMatchObject({
      error: 'APIConnectionError',
      attempts: 3,
    });
    expect(
      logger.lines.find((l) => l.level === 'warn' && (l.meta as { status?: number }).status === 404),
    ).toBeDefined();
  });

  test('without a logger nothing is logged (and nothing fails)', async () => {
    const methods = ['debug', 'info', 'warn', 'error', 'log', 'trace'] as const;
    const spies = methods.map((method) => vi.spyOn(console, method));
    const sdk = new PlatformClient({
      environment: 'stage',
      hosts: defaultHosts,
      auth: demoAuth,
      retryDelay: { initial: 1, max: 5 },
    });
    // What the logger test logs at every level: requests and answers, a retry, a refused token, a
    // connection error, a 404.
    await expect(sdk.products.list({ product_type: 'packages' })).resolves.toMatchObject({
      items: expect.arrayContaining([expect.objectContaining({ product_code: 'premium-digital' })]),
    });
    platform.faults.add({ path: paths.getPaymentPeriods, status: 503, times: 1 });
    await sdk.products.paymentPeriods({ product_code: 'premium-digital' });
    platform.reset(); // every token forgotten: a 401, a new grant, a retry
    await sdk.products.sharing({ code: 'premium-digital' });
    platform.faults.add({ path: paths.getProducts, drop: true, times: 3 });
    await expect(sdk.products.list()).rejects.toBeInstanceOf(APIConnectionError);
    await expect(sdk.products.list({ product_code: 'missing' })).rejects.toBeInstanceOf(NotFoundError);
    for (const [i, spy] of spies.entries()) expect(spy, `console.${methods[i]}`).not.toHaveBeenCalled();
  });
});
