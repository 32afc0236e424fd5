/**
 * The pipeline over a real socket (the standalone platform and a closed port), without MSW: what a
 * connection error says, `attempts` on every error, the constructor's checks, the escape hatch
 * `client.request`, and a GET whose parameters travel in a JSON body (endpoint 6's way).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import * as z from 'zod';
import { createPlatformWith } from '../../mock/core/platform.js';
import { apiRoute } from '../../mock/core/route.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { allRoutes } from '../../mock/routes/index.js';
import { demoIds } from '../../mock/seeds/demo.js';
import type { Endpoint } from '../../src/endpoints.js';
import {
  APIConnectionError,
  ClientConfigurationError,
  InternalServerError,
  NotFoundError,
  PlatformClient,
  type PlatformClientOptions,
  RequestValidationError,
} from '../../src/index.js';
import { paths } from '../paths.js';

const READ = '/external/product/r';

/** A test endpoint that takes its parameters in the body of a GET, as endpoint 6 does, and echoes them. */
const echoGetBody = {
  number: 906,
  title: 'Echo a GET body (test)',
  method: 'GET',
  host: 'api',
  path: '/test/get-with-body',
  scopes: [READ],
  identity: false,
  bearer: true,
  query: undefined,
  body: z.strictObject({ order_id: z.string().max(1024) }),
  response: z.object({ order_id: z.string(), method: z.string() }),
  status: 200,
} as const satisfies Endpoint;

const platform = createPlatformWith([
  ...allRoutes,
  apiRoute(echoGetBody, ({ input }) => ({ body: { order_id: input.order_id, method: 'GET' } })),
]);
let server: RunningServer;

beforeAll(async () => {
  server = await startServer({ platform, port: 0 });
});
afterAll(() => server.close());
beforeEach(() => platform.reset());

function client(options: Partial<PlatformClientOptions> = {}): PlatformClient {
  return new PlatformClient({
    environment: 'stage',
    hosts: { api: server.url, auth: server.url },
    auth: { accessToken: platform.mintToken({ scopes: [READ] }).access_token },
    retryDelay: { initial: 1, max: 2 },
    ...options,
  });
}

/** A loopback origin nothing listens on: a port taken, then given back. */
async function closedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('a connection error says what failed, where, why and how often', () => {
  test('a closed port: APIConnectionError naming the method, the URL, ECONNREFUSED and the attempts', async () => {
    const closed = await closedOrigin();
    const sdk = client({ hosts: { api: closed, auth: closed }, maxRetries: 2 });
    const error = await sdk.products.list({ product_type: 'packages' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(error).toMatchObject({ attempts: 3, causeCode: 'ECONNREFUSED' });
    expect((error as Error).message).toBe(
      `GET ${closed}/external/api/v1/products?product_type=packages failed after 3 attempts: ECONNREFUSED`,
    );
  });

  test('a secret in the URL is redacted from the message', async () => {
    const closed = await closedOrigin();
    const sdk = client({ hosts: { api: closed, auth: closed }, maxRetries: 0 });
    const error = await sdk
      .request({ method: 'GET', path: '/somewhere', query: { ticket: 'a-ticket-value-0123456789' } })
      .catch((e: unknown) => e);
    expect((error as Error).message).toContain('ticket=[REDACTED]');
    expect((error as Error).message).not.toContain('a-ticket-value');
    expect(error).toMatchObject({ attempts: 1 });
  });

  test('an APIError after retries carries the number of attempts; one without retries says 1', async () => {
    platform.faults.add({ path: paths.products, status: 503, times: 3 });
    await expect(client({ maxRetries: 2 }).products.list()).rejects.toMatchObject({
      constructor: InternalServerError,
      status: 503,
      attempts: 3,
    });
    await expect(client().products.list({ product_code: 'nothing-here' })).rejects.toMatchObject({
      constructor: NotFoundError,
      attempts: 1,
    });
  });
});

describe('the constructor checks its options at once, naming the option', () => {
  const token = { accessToken: 'token' };
  const hosts = { api: 'https://api.example.test', auth: 'https://auth.example.test' };
  test.each<[string, Record<string, unknown>, string]>([
    ['an unknown environment', { environment: 'prod', hosts, auth: token }, 'environment'],
    [
      'a host that is not a URL',
      { environment: 'stage', hosts: { ...hosts, api: 'api.example.test' }, auth: token },
      'hosts.api',
    ],
    [
      'a host with credentials',
      { environment: 'stage', hosts: { ...hosts, auth: 'https://u:p@auth.example.test' }, auth: token },
      'hosts.auth',
    ],
    [
      'an empty clientId',
      { environment: 'stage', hosts, auth: { clientId: '', clientSecret: 's', scopes: [] } },
      'auth.clientId',
    ],
    ['no scopes', { environment: 'stage', hosts, auth: { clientId: 'c', clientSecret: 's' } }, 'auth.scopes'],
    ['an empty token', { environment: 'stage', hosts, auth: { accessToken: '' } }, 'auth.accessToken'],
    ['a negative maxRetries', { environment: 'stage', hosts, auth: token, maxRetries: -1 }, 'maxRetries'],
    ['a timeout of 0', { environment: 'stage', hosts, auth: token, timeout: 0 }, 'timeout'],
    ['a logger without error()', { environment: 'stage', hosts, auth: token, logger: { debug() {} } }, 'logger'],
  ])('%s: ClientConfigurationError naming %s', (_, options, option) => {
    const error = (() => {
      try {
        new PlatformClient(options as unknown as PlatformClientOptions);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ClientConfigurationError);
    expect(error).toMatchObject({ option });
    expect((error as Error).message.startsWith(`${option}: `)).toBe(true);
  });

  test('a secret is never quoted', () => {
    expect(
      () =>
        new PlatformClient({
          environment: 'stage',
          hosts,
          auth: { clientId: 'c', clientSecret: 'hunter2-secret', scopes: 'x' } as never,
        }),
    ).toThrow(expect.objectContaining({ message: expect.not.stringContaining('hunter2') }));
  });
});

describe('client.request: a path the SDK does not wrap, through the same pipeline', () => {
  test('auth, query and a schema that types the answer', async () => {
    const Products = z.object({ items: z.array(z.object({ product_code: z.string() })) });
    const { items } = await client().request({
      method: 'GET',
      path: paths.products,
      query: { product_type: 'campaigns', include_inactive: false },
      schema: Products,
    });
    expect(items.map((p) => p.product_code)).toEqual(['premium-summer']);
    expect(platform.requests.list()[0]?.query).toEqual({ product_type: 'campaigns', include_inactive: 'false' });
  });

  test('errors are the same as every method: 404 not_found is a NotFoundError', async () => {
    await expect(
      client().request({ method: 'GET', path: paths.products, query: { product_code: 'none-such' } }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'not_found', field: 'product_code' });
  });

  test('a path that is not a path is refused before anything is sent', async () => {
    await expect(client().request({ method: 'GET', path: 'https://elsewhere.test/x' })).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'path',
    });
    expect(platform.requests.list()).toEqual([]);
  });
});

describe('a GET with a JSON body (endpoint 6) over node:http', () => {
  test('the body travels on a GET, with the same auth, and is read by the platform', async () => {
    const sdk = client();
    const answer = await sdk.request({
      method: 'GET',
      path: '/test/get-with-body',
      body: { order_id: 'order-1' },
      schema: echoGetBody.response,
    });
    expect(answer).toEqual({ order_id: 'order-1', method: 'GET' });
    const [entry] = platform.requests.list();
    expect(entry).toMatchObject({
      method: 'GET',
      path: '/test/get-with-body',
      body: '{"order_id":"order-1"}',
      status: 200,
    });
    expect(entry?.headers['content-type']).toBe('application/json');
    expect(entry?.headers.authorization).toBe('Bearer [redacted]');
    expect(Object.keys(entry?.headers ?? {}).some((h) => h.includes('get-with-body'))).toBe(false);
  });

  test('it is retried like any read, and its errors map as any other', async () => {
    platform.faults.add({ path: '/test/get-with-body', status: 503, times: 1 });
    const answer = await client().request({ method: 'GET', path: '/test/get-with-body', body: { order_id: 'o' } });
    expect(answer).toEqual({ order_id: 'o', method: 'GET' });
    expect(platform.requests.list().map((r) => `${r.method} ${r.status}`)).toEqual(['GET 503', 'GET 200']);
    await expect(
      client().request({ method: 'GET', path: '/test/get-with-body', body: { order_id: 1 } }),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_parameter', field: 'order_id' });
  });

  test('endpoint 6 itself: eligible for campaign reaches the standalone server as a GET with its body', async () => {
    const { gus } = demoIds.accounts;
    const accessToken = platform.mintToken({
      scopes: ['/external/me/w', '/external/me/r'],
      accountId: gus,
    }).access_token;
    const answer = await client().meRetention.eligibleForCampaign({ order_id: 'order-0008' }, { accessToken });
    expect(answer).toMatchObject({ eligible: true, item: { code: 'premium-summer' } });
    expect(platform.requests.list()[0]).toMatchObject({
      method: 'GET',
      path: paths.eligibleForCampaign,
      body: '{"order_id":"order-0008"}',
      status: 200,
    });
  });

  test('an abort under way rejects with the reason', async () => {
    platform.faults.add({ path: '/test/get-with-body', latencyMs: 500 });
    const controller = new AbortController();
    const pending = client().request(
      { method: 'GET', path: '/test/get-with-body', body: { order_id: 'o' } },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(new Error('stopped by the caller')), 20);
    await expect(pending).rejects.toThrow('stopped by the caller');
  });
});
