/**
 * The pipeline over a real socket (the standalone platform and a closed port), without MSW: what a
 * connection error says, `attempts` on every error, the constructor's checks, the escape hatch
 * `client.request`, and a GET whose parameters travel in a JSON body (endpoint 6's way).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import https from 'node:https';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import * as z from 'zod';
import { apiRoute } from '../../mock/core/route.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { createPlatformWith } from '../../mock/platform.js';
import { allRoutes } from '../../mock/routes/index.js';
import { demoIds } from '../../mock/seeds/demo.js';
import { type Endpoint, eligibleForCampaign } from '../../src/endpoints.js';
import {
  APIConnectionError,
  APITimeoutError,
  ClientConfigurationError,
  InternalServerError,
  type Logger,
  NotFoundError,
  PlatformClient,
  type PlatformClientOptions,
  type RequestHeaders,
  RequestValidationError,
} from '../../src/index.js';
import { READ, scopesOf } from '../fixtures.js';
import { requestsTo } from '../journal.js';
import { paths } from '../paths.js';
import { until } from '../until.js';
import { recordingLogger } from './helpers.js';

/** A test endpoint that takes its parameters in the body of a GET, as endpoint 6 does, and echoes them. */
const echoGetBody = {
  number: 906,
  title: 'Echo a GET body (test)',
  sdk: 'test.echo',
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
    platform.faults.add({ path: paths.getProducts, status: 503, times: 3 });
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
      'a host with a query',
      { environment: 'stage', hosts: { ...hosts, api: 'https://api.example.test/?x=1' }, auth: token },
      'hosts.api',
    ],
    [
      'a host ending in a bare # (an empty fragment)',
      { environment: 'stage', hosts: { ...hosts, api: 'https://api.example.test#' }, auth: token },
      'hosts.api',
    ],
    [
      'a host ending in a bare ? (an empty query)',
      { environment: 'stage', hosts: { ...hosts, auth: 'https://auth.example.test/platform?' }, auth: token },
      'hosts.auth',
    ],
    [
      'a plain-http host beyond this machine (the spec: every exchange uses HTTPS)',
      { environment: 'stage', hosts: { ...hosts, auth: 'http://auth.example.test' }, auth: token },
      'hosts.auth',
    ],
    [
      'allowInsecureHttp that is no boolean',
      { environment: 'stage', hosts, auth: token, allowInsecureHttp: 'yes' },
      'allowInsecureHttp',
    ],
    [
      'an empty clientId',
      { environment: 'stage', hosts, auth: { clientId: '', clientSecret: 's', scopes: [] } },
      'auth.clientId',
    ],
    ['no scopes', { environment: 'stage', hosts, auth: { clientId: 'c', clientSecret: 's' } }, 'auth.scopes'],
    ['an empty token', { environment: 'stage', hosts, auth: { accessToken: '' } }, 'auth.accessToken'],
    [
      'a token with a line break (it goes in a header)',
      { environment: 'stage', hosts, auth: { accessToken: 'a-token\r\nX-Injected: 1' } },
      'auth.accessToken',
    ],
    ['a token with a NUL', { environment: 'stage', hosts, auth: { accessToken: 'a-token\u0000' } }, 'auth.accessToken'],
    [
      'a header value with a line break',
      { environment: 'stage', hosts, auth: token, headers: { 'x-api-key': 'api-key-0123-secret\nx' } },
      'headers.x-api-key',
    ],
    [
      'a header value beyond Latin-1, which a header cannot carry',
      { environment: 'stage', hosts, auth: token, headers: { 'x-note': 'caf\u00e9 \u20ac' } },
      'headers.x-note',
    ],
    ['a negative maxRetries', { environment: 'stage', hosts, auth: token, maxRetries: -1 }, 'maxRetries'],
    ['a timeout of 0', { environment: 'stage', hosts, auth: token, timeout: 0 }, 'timeout'],
    ['a timeout no timer holds', { environment: 'stage', hosts, auth: token, timeout: 2 ** 31 }, 'timeout'],
    ['a logger without error()', { environment: 'stage', hosts, auth: token, logger: { debug() {} } }, 'logger'],
    ['an option it does not know (a typo)', { environment: 'stage', hosts, auth: token, timeOut: 5 }, 'timeOut'],
    [
      'a host it does not know',
      { environment: 'stage', hosts: { ...hosts, sh0p: 'https://x.test' }, auth: token },
      'hosts.sh0p',
    ],
    [
      'a token beside a secret',
      { environment: 'stage', hosts, auth: { ...token, clientSecret: 's' } },
      'auth.clientSecret',
    ],
    [
      'a retry delay it does not know',
      { environment: 'stage', hosts, auth: token, retryDelay: { min: 1 } },
      'retryDelay.min',
    ],
    [
      'an SSO option it does not know',
      { environment: 'stage', hosts, auth: token, sso: { audience: 'a', organisationId: 'o', clockTolerance: 5 } },
      'sso.clockTolerance',
    ],
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

  test('plain http: to a loopback host always, beyond it only with allowInsecureHttp, and the message says how', () => {
    for (const api of ['http://localhost:4010', 'http://127.0.0.1:4010', 'http://[::1]:4010', 'http://LOCALHOST'])
      expect(() => new PlatformClient({ environment: 'stage', hosts: { ...hosts, api }, auth: token })).not.toThrow();
    // A subdomain of localhost is for the system's resolver to place: not this machine for sure.
    expect(
      () => new PlatformClient({ environment: 'stage', hosts: { ...hosts, api: 'http://app.localhost' }, auth: token }),
    ).toThrow('hosts.api: must use https');
    const lan = { ...hosts, api: 'http://platform-mock:4010' };
    expect(() => new PlatformClient({ environment: 'stage', hosts: lan, auth: token })).toThrow(
      'hosts.api: must use https (http only on a loopback host, or with allowInsecureHttp: true)',
    );
    expect(
      () => new PlatformClient({ environment: 'stage', hosts: lan, auth: token, allowInsecureHttp: true }),
    ).not.toThrow();
  });

  test('credentials may be the client-credentials auth object as it is, scopes and all', () => {
    const site = { clientId: 'demo-site', clientSecret: 'x'.repeat(32), scopes: ['/external/product/r'] };
    expect(() => new PlatformClient({ environment: 'stage', hosts, auth: site, credentials: site })).not.toThrow();
  });

  test('an option it does not know is named, and said to be none', () => {
    expect(() => new PlatformClient({ environment: 'stage', hosts, auth: token, timeOut: 5 } as never)).toThrow(
      'timeOut: is not an option of the client',
    );
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
    for (const options of [
      { auth: { accessToken: 'hunter2-token\r\nX: 1' } },
      { auth: token, headers: { 'x-api-key': 'hunter2-key\nx' } },
    ])
      expect(() => new PlatformClient({ environment: 'stage', hosts, ...options })).toThrow(
        expect.objectContaining({ message: expect.not.stringContaining('hunter2') }),
      );
  });
});

describe('a header value the wire cannot carry, given to one call: refused before anything is sent, unquoted', () => {
  test.each<[string, string, (sdk: PlatformClient) => Promise<unknown>]>([
    [
      'a header with a line break',
      'headers.x-api-key',
      (sdk) => sdk.products.list({}, { headers: { 'x-api-key': 'hunter2-key-0123\nx' } }),
    ],
    [
      'a header with a NUL',
      'headers.x-note',
      (sdk) => sdk.products.list({}, { headers: { 'x-note': 'hunter2\u0000' } }),
    ],
    ["a user's token with CR LF", 'accessToken', (sdk) => sdk.me.get({ accessToken: 'hunter2-user-token\r\nX: 1' })],
    [
      "a user's token with a line break at its end (which fetch would drop without a word)",
      'accessToken',
      (sdk) => sdk.me.get({ accessToken: 'hunter2-user-token\n' }),
    ],
  ])('%s: RequestValidationError naming %s', async (_, field, send) => {
    const logger = recordingLogger();
    const error = await send(client({ logger })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ field });
    for (const text of [String(error), JSON.stringify(error), inspect(error, { depth: 10 })])
      expect(text).not.toContain('hunter2');
    expect(JSON.stringify(logger.lines)).not.toContain('hunter2');
    expect(platform.requests.list()).toEqual([]);
  });
});

describe("a failure's own words: the call's secrets and what the logger redacts are taken out", () => {
  test("a fetch whose error quotes the URL and a header (node-fetch's way): the message, the cause and the log", async () => {
    const apiKey = 'api-key-0123-secret';
    const ssn = '19800101-1234';
    const quoting: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers);
      const error = new Error(`request to ${String(input)} failed, reason: socket hang up`);
      throw Object.assign(new TypeError(`fetch with x-api-key ${headers.get('x-api-key')} failed`, { cause: error }), {
        sent: `x-api-key: ${headers.get('x-api-key')}`,
      });
    };
    const logger = recordingLogger();
    const error = await client({ fetch: quoting, logger, maxRetries: 0, headers: { 'x-api-key': apiKey } })
      .orders.validate({ product_code: 'premium-digital', ssn })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      `GET ${server.url}${paths.validateOrder}?product_code=premium-digital&ssn=[REDACTED] failed after 1 attempt: fetch with x-api-key [REDACTED] failed`,
    );
    // The cause keeps its class and its chain, in words that quote nothing.
    const { cause } = error as Error;
    expect(cause).toBeInstanceOf(TypeError);
    expect(cause).toMatchObject({ message: 'fetch with x-api-key [REDACTED] failed', sent: 'x-api-key: [REDACTED]' });
    expect((cause as Error).cause).toMatchObject({ message: expect.stringContaining('ssn=[REDACTED] failed') });
    const shown = [String(error), JSON.stringify(error), inspect(error, { depth: 10 }), JSON.stringify(logger.lines)];
    for (const text of shown) for (const secret of [apiKey, ssn]) expect(text).not.toContain(secret);
  });

  test('a DOMException cause that quotes a secret stands in as an Error of its name, whose fields can be read', async () => {
    const apiKey = 'api-key-0123-secret';
    const quoting: typeof fetch = async () => {
      throw new DOMException(`refused with x-api-key ${apiKey}`, 'NetworkError');
    };
    const error = await client({ fetch: quoting, maxRetries: 0, headers: { 'x-api-key': apiKey } })
      .products.list()
      .catch((e: unknown) => e);
    const cause = (error as Error).cause as Error & { code?: unknown };
    expect(cause).toMatchObject({ name: 'NetworkError', message: 'refused with x-api-key [REDACTED]' });
    expect(() => cause.code).not.toThrow();
    expect(inspect(error, { depth: 10 })).not.toContain(apiKey);
  });

  test('a cause that quotes nothing is kept as it is', async () => {
    const failure = new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const error = await client({ fetch: () => Promise.reject(failure), maxRetries: 0 })
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).cause).toBe(failure);
  });
});

describe("a call's options are checked by the client's rules for them, before anything is sent", () => {
  const hosts = { api: 'https://api.example.test', auth: 'https://auth.example.test' };
  /** The constructor's message for the same option and value. */
  const constructorSays = (option: Record<string, unknown>) => {
    try {
      new PlatformClient({ environment: 'stage', hosts, auth: { accessToken: 'token' }, ...option });
    } catch (e) {
      return (e as Error).message;
    }
  };

  test.each<[string, Record<string, unknown>]>([
    ['timeout -1', { timeout: -1 }],
    ['timeout 0', { timeout: 0 }],
    ['timeout NaN', { timeout: Number.NaN }],
    ['timeout "5"', { timeout: '5' }],
    ['timeout 2^31', { timeout: 2 ** 31 }],
    ['maxRetries -5', { maxRetries: -5 }],
    ['maxRetries 1.5', { maxRetries: 1.5 }],
    ['maxRetries Infinity', { maxRetries: Number.POSITIVE_INFINITY }],
  ])("%s: the constructor's words, naming the option", async (_, option) => {
    const sdk = client();
    const error = await sdk.products.list({}, option).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error).toMatchObject({ field: Object.keys(option)[0], message: constructorSays(option) });
    expect(platform.requests.list()).toEqual([]);
  });

  test.each<[string, unknown, string]>([
    ['retryWrite "yes"', { retryWrite: 'yes' }, 'retryWrite: must be true or false'],
    ['a signal that is none', { signal: 'x' }, 'signal: must be an AbortSignal'],
    ['a header name fetch refuses', { headers: { 'x y': '1' } }, 'headers: must hold valid header names'],
    ['a header value fetch refuses', { headers: { x: 'a\nb' } }, 'headers.x: must not contain a line break'],
    ['a header value that is no text', { headers: { 'x-n': 5 } }, 'headers.x-n: must be a string'],
    [
      'a header value with a line break, in a Map',
      { headers: new Map([['x-api-key', 'sekret-value\r\nX-Evil: 1']]) },
      'headers.x-api-key: must not contain a line break',
    ],
    ['options that are no object', 'opts', 'options: must be an object'],
  ])('%s: RequestValidationError naming it', async (_, options, message) => {
    const sdk = client();
    const error = await sdk.products.list({}, options as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain(message);
    const raw = await sdk.request({ method: 'GET', path: paths.getProducts }, options as never).catch((e) => e);
    expect(raw).toMatchObject({ constructor: RequestValidationError, message: (error as Error).message });
    expect(platform.requests.list()).toEqual([]);
  });

  test.each<[string, Record<string, unknown>, string]>([
    ['a misspelt timeout', { timout: 5 }, 'timout'],
    ['a misspelt option beside a valid one', { timeout: 5_000, maxRetry: 1 }, 'maxRetry'],
    ["a client's option given to a call", { retryDelay: { initial: 1, max: 1 } }, 'retryDelay'],
  ])(
    "%s: refused as the client's options refuse an unknown one, naming it, before anything is sent",
    async (_, options, option) => {
      const sdk = client();
      const error = await sdk.products.list({}, options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({
        code: 'unknown_parameter',
        field: option,
        message: `${option}: is not an option of a call`,
      });
      const raw = await sdk.request({ method: 'GET', path: paths.getProducts }, options as never).catch((e) => e);
      expect(raw).toMatchObject({ constructor: RequestValidationError, message: (error as Error).message });
      expect(platform.requests.list()).toEqual([]);
    },
  );

  test('valid options go through: a timeout, retries, a signal, headers', async () => {
    const { signal } = new AbortController();
    const options = { timeout: 5_000, maxRetries: 0, retryWrite: false, signal, headers: { 'x-trace': '1' } };
    const products = { items: expect.arrayContaining([expect.objectContaining({ product_code: 'basic-news' })]) };
    await expect(client().products.list({}, options)).resolves.toMatchObject(products);
    // No signal (null): as typed.
    await expect(client().products.list({}, { signal: null })).resolves.toMatchObject(products);
    expect(platform.requests.list().map((r) => r.headers['x-trace'])).toEqual(['1', undefined]);
  });

  test.each<[string, RequestHeaders]>([
    ['an object', { 'x-trace': 'the-call' }],
    ['a Map', new Map([['x-trace', 'the-call']])],
    ['a list of pairs', [['x-trace', 'the-call']]],
    ['a Headers', new Headers({ 'x-trace': 'the-call' })],
  ])("a call's headers, as %s, are sent, over the client's header of the same name", async (_, headers) => {
    await client({ headers: { 'x-trace': 'the-client' } }).products.list({}, { headers });
    expect(platform.requests.list().map((r) => r.headers['x-trace'])).toEqual(['the-call']);
  });

  test.each<[string, RequestHeaders]>([
    ['an object', { 'x-trace': undefined }],
    ['a Map', new Map([['x-trace', undefined]])],
    ['a list of pairs', [['x-trace', undefined]]],
  ])("a header given undefined, in %s, is not sent, the client's own included (as in ky)", async (_, headers) => {
    await client({ headers: { 'x-trace': 'the-client' } }).products.list({}, { headers });
    expect(platform.requests.list()).toHaveLength(1);
    expect(platform.requests.list()[0]?.headers).not.toHaveProperty('x-trace');
  });
});

describe('client.request: a path the SDK does not wrap, through the same pipeline', () => {
  test('auth, query and a schema that types the answer', async () => {
    const Products = z.object({ items: z.array(z.object({ product_code: z.string() })) });
    const { items } = await client().request({
      method: 'GET',
      path: paths.getProducts,
      query: { product_type: 'campaigns', include_inactive: false },
      schema: Products,
    });
    expect(items.map((p) => p.product_code)).toEqual(['premium-summer']);
    expect(requestsTo(platform, paths.getProducts)).toMatchObject([
      { query: { product_type: 'campaigns', include_inactive: 'false' } },
    ]);
  });

  test('errors are the same as every method: 404 not_found is a NotFoundError', async () => {
    await expect(
      client().request({ method: 'GET', path: paths.getProducts, query: { product_code: 'none-such' } }),
    ).rejects.toMatchObject({ constructor: NotFoundError, code: 'not_found', field: 'product_code' });
  });

  test.each<[string, Record<string, unknown>, string, string]>([
    ['a method fetch would not send', { method: 'TRACE' }, 'method', 'GET, POST, PUT, PATCH, DELETE'],
    ['a method that is no method', { method: 'GE T' }, 'method', 'GET, POST, PUT, PATCH, DELETE'],
    ['a host the client has no option for', { method: 'GET', host: 'evil' }, 'host', 'api, auth, sso, shop'],
    ["a name of Object's prototype as the host", { method: 'GET', host: 'toString' }, 'host', 'api, auth, sso, shop'],
    ['a bearer that is no boolean', { method: 'GET', bearer: 'no' }, 'bearer', 'boolean'],
    ['a schema that is no zod schema', { method: 'POST', schema: 'abc', body: {} }, 'schema', 'zod schema'],
    ['an object with no safeParse as the schema', { method: 'POST', schema: { parse() {} } }, 'schema', 'zod schema'],
    ["ky's json for the body (it would be left out)", { method: 'POST', json: { a: 1 } }, 'json', 'Unknown'],
    ['a typo of query (it would be left out)', { method: 'GET', qeury: { product_code: 'x' } }, 'qeury', 'Unknown'],
  ])('%s: RequestValidationError naming it, nothing sent', async (_, params, field, rule) => {
    const sent = client().request({ path: paths.getProducts, ...params } as never);
    await expect(sent).rejects.toMatchObject({
      constructor: RequestValidationError,
      field,
      rule: expect.stringContaining(rule),
    });
    expect(platform.requests.list()).toEqual([]);
  });

  test('a host the client was not given: ClientConfigurationError naming its option, nothing sent', async () => {
    const sent = client().request({ method: 'GET', path: '/sso/x', host: 'sso' });
    await expect(sent).rejects.toMatchObject({ constructor: ClientConfigurationError, option: 'hosts.sso' });
    expect(platform.requests.list()).toEqual([]);
  });

  test.each([
    ['a URL', 'https://elsewhere.test/x'],
    ['a path from another host (//)', '//elsewhere.test/x'],
    ['a path from another host, a backslash for the second / (a URL reads it as /)', '/\\elsewhere.test/x'],
    ['a path from another host, split by a tab (a URL drops it)', '/\t/elsewhere.test/x'],
    ['a path without its leading /', 'external/x'],
    ['a path with a query', '/external/x?a=1'],
    ['a path with a fragment', '/external/x#a'],
    // A URL resolves dot segments: the request would leave the host's base path (`/platform` of
    // `https://gw.example.test/platform`), bearer token and all.
    ['a .. segment', '/../admin/users'],
    ['a .. segment further on', '/external/api/../../admin'],
    ['a . segment', '/external/./x'],
    ['a path ending in ..', '/external/..'],
    ['a .. segment percent-encoded', '/%2e%2e/admin/users'],
    ['a .. segment half encoded, in capitals', '/.%2E/admin'],
    ['a .. segment after a backslash (a URL reads it as /)', '/external\\..\\admin'],
    ['a .. segment split by a tab (a URL drops it)', '/.\t./admin'],
  ])('%s is refused before anything is sent', async (_, path) => {
    const sdk = client();
    await expect(sdk.request({ method: 'GET', path })).rejects.toMatchObject({
      constructor: RequestValidationError,
      field: 'path',
    });
    expect(platform.requests.list()).toEqual([]);
  });

  test.each<[string, () => unknown]>([
    ['a BigInt', () => ({ amount: 10n })],
    [
      'a circular reference',
      () => {
        const body: Record<string, unknown> = { client_secret: 'a-secret-of-the-body' };
        body.self = body;
        return body;
      },
    ],
  ])(
    'a body JSON cannot hold (%s): RequestValidationError naming body, nothing sent, no connection error logged',
    async (_, body) => {
      const logger = recordingLogger();
      const error = await client({ logger })
        .request({ method: 'POST', path: '/external/x', body: body() })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).not.toBeInstanceOf(APIConnectionError);
      expect(error).toMatchObject({ code: 'invalid_parameter', field: 'body' });
      expect(platform.requests.list()).toEqual([]);
      expect(logger.lines).toEqual([]);
    },
  );

  test('a segment that only holds dots among other characters is sent as it is', async () => {
    await expect(client().request({ method: 'GET', path: '/external/..x/...' })).rejects.toMatchObject({
      constructor: NotFoundError,
    });
    expect(platform.requests.list().map((r) => r.path)).toEqual(['/external/..x/...']);
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
    const [entry, ...more] = requestsTo(platform, '/test/get-with-body');
    expect(more).toEqual([]);
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

  test("a caller's header named as the SDK's marker of such a GET changes nothing: a POST is sent as a POST, without it", async () => {
    const marker = { 'x-platform-sdk-get-with-body': '1' };
    const sdk = client({ headers: marker });
    await expect(
      sdk.request({ method: 'POST', path: '/test/get-with-body', body: { order_id: 'o' } }, { headers: marker }),
    ).rejects.toMatchObject({ status: 405 });
    const [entry, ...more] = requestsTo(platform, '/test/get-with-body');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ method: 'POST', body: '{"order_id":"o"}' });
    expect(Object.keys(entry?.headers ?? {}).some((h) => h.includes('get-with-body'))).toBe(false);
  });

  test('it is retried like any read, and its errors map as any other', async () => {
    platform.faults.add({ path: '/test/get-with-body', status: 503, times: 1 });
    const answer = await client().request({ method: 'GET', path: '/test/get-with-body', body: { order_id: 'o' } });
    expect(answer).toEqual({ order_id: 'o', method: 'GET' });
    expect(requestsTo(platform, '/test/get-with-body').map((r) => `${r.method} ${r.status}`)).toEqual([
      'GET 503',
      'GET 200',
    ]);
    await expect(
      client().request({ method: 'GET', path: '/test/get-with-body', body: { order_id: 1 } }),
    ).rejects.toMatchObject({ status: 400, code: 'invalid_parameter', field: 'order_id' });
  });

  test('endpoint 6 itself: eligible for campaign reaches the standalone server as a GET with its body', async () => {
    const { gus } = demoIds.accounts;
    const accessToken = platform.mintToken({ scopes: scopesOf(eligibleForCampaign), accountId: gus }).access_token;
    const answer = await client().meRetention.eligibleForCampaign({ order_id: 'order-0008' }, { accessToken });
    expect(answer).toMatchObject({ eligible: true, item: { code: 'premium-summer' } });
    expect(requestsTo(platform, paths.eligibleForCampaign)).toMatchObject([
      { method: 'GET', body: '{"order_id":"order-0008"}', status: 200 },
    ]);
  });

  test('an abort under way rejects with the reason', async () => {
    // The platform holds the answer until the test is done with it (fake timers run its latency).
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      platform.faults.add({ path: '/test/get-with-body', latencyMs: 500 });
      const controller = new AbortController();
      const pending = client().request(
        { method: 'GET', path: '/test/get-with-body', body: { order_id: 'o' } },
        { signal: controller.signal },
      );
      // Aborted once the platform has the request: under way, and no request left to arrive later.
      await until(() => expect(requestsTo(platform, '/test/get-with-body')).toHaveLength(1));
      controller.abort(new Error('stopped by the caller'));
      await expect(pending).rejects.toThrow('stopped by the caller');
      await vi.advanceTimersByTimeAsync(500);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('endpoint 6 shares the pipeline: timeout, logging, https', () => {
  const ME = scopesOf(eligibleForCampaign);
  const userToken = () => platform.mintToken({ scopes: ME, accountId: demoIds.accounts.gus }).access_token;
  const url = () => `${server.url}${paths.eligibleForCampaign}`;

  test('a timeout (the per-call option): APITimeoutError after every attempt, each a GET with its body', async () => {
    // The client's timeouts and waits and the platform's latency all run on fake timers, moved on
    // only once each attempt has reached the platform: the same two attempts however slow the machine.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      platform.faults.add({ path: paths.eligibleForCampaign, latencyMs: 400, times: 2 });
      const attempts = () => requestsTo(platform, paths.eligibleForCampaign);
      const outcome = client()
        .meRetention.eligibleForCampaign(
          { order_id: 'order-0008' },
          { accessToken: userToken(), timeout: 60, maxRetries: 1 },
        )
        .catch((e: unknown) => e);
      await until(() => expect(attempts()).toHaveLength(1));
      await vi.advanceTimersByTimeAsync(60); // the first attempt's timeout
      await vi.advanceTimersByTimeAsync(2); // the wait before the retry (retryDelay: at most 2 ms)
      await until(() => expect(attempts()).toHaveLength(2));
      await vi.advanceTimersByTimeAsync(60); // the retry's timeout
      const error = await outcome;
      expect(error).toBeInstanceOf(APITimeoutError);
      expect(error).toMatchObject({ attempts: 2 });
      expect((error as Error).message).toBe(`GET ${url()} got no answer within 60 ms (2 attempts)`);
      // Both attempts reached the platform as GETs with the body, and were answered after the client gave up.
      await vi.advanceTimersByTimeAsync(400);
      await until(() =>
        expect(attempts()).toMatchObject([
          { method: 'GET', body: '{"order_id":"order-0008"}', status: 200 },
          { method: 'GET', body: '{"order_id":"order-0008"}', status: 200 },
        ]),
      );
    } finally {
      vi.useRealTimers();
    }
  });

  test('logged like any other call: the request and the answer, secrets redacted, no internal marker', async () => {
    const lines: { level: string; message: string; meta: Record<string, unknown> }[] = [];
    const at = (level: string) => (message: string, meta?: Record<string, unknown>) => {
      lines.push({ level, message, meta: meta ?? {} });
    };
    const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const token = userToken();
    await client({ logger }).meRetention.eligibleForCampaign({ order_id: 'order-0008' }, { accessToken: token });
    expect(lines.map((l) => `${l.level} ${l.message}`)).toEqual([`debug GET ${url()}`, `debug GET ${url()} 200`]);
    const [request, answer] = lines;
    expect(request?.meta).toEqual({
      method: 'GET',
      url: url(),
      endpoint: 'Eligible for campaign',
      attempt: 1,
      headers: {
        accept: 'application/json',
        authorization: '[REDACTED]',
        'content-type': 'application/json',
      },
      body: { order_id: 'order-0008' },
    });
    expect(answer?.meta).toEqual({
      method: 'GET',
      url: url(),
      endpoint: 'Eligible for campaign',
      status: 200,
      durationMs: expect.any(Number),
      attempt: 1,
      correlationId: expect.any(String),
    });
    expect(requestsTo(platform, paths.eligibleForCampaign).map((e) => e.correlation_id)).toEqual([
      answer?.meta.correlationId,
    ]);
    expect(JSON.stringify(lines)).not.toContain(token);
    expect(JSON.stringify(lines)).not.toContain('get-with-body');

    // The same details as a read through fetch, and a refusal logged as a warning.
    lines.length = 0;
    await client({ logger }).products.list({ product_type: 'packages' });
    const [plainRequest, plainAnswer] = lines;
    expect(Object.keys(request?.meta ?? {})).toEqual(Object.keys(plainRequest?.meta ?? {}));
    expect(Object.keys(answer?.meta ?? {})).toEqual(Object.keys(plainAnswer?.meta ?? {}));
    lines.length = 0;
    await client({ logger })
      .meRetention.eligibleForCampaign({ order_id: 'order-0002' }, { accessToken: token })
      .catch(() => undefined);
    expect(lines.map((l) => `${l.level} ${l.message}`)).toEqual([`debug GET ${url()}`, `warn GET ${url()} 404`]);
  });

  // A TLS front for the platform, with a self-signed certificate made by openssl.
  const openssl = spawnSync('openssl', ['version']).status === 0;
  describe.skipIf(!openssl)('over https, with a self-signed certificate', () => {
    let dir = '';
    let cert = '';
    let tls: TlsServer;
    let origin = '';
    let secureConnections = 0;
    const sockets = new Set<Socket>();

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'sdk-tls-'));
      const made = spawnSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
          '-days',
          '1',
          '-subj',
          '/CN=127.0.0.1',
          '-addext',
          'subjectAltName=IP:127.0.0.1',
        ],
        { encoding: 'utf8' },
      );
      if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
      cert = readFileSync(join(dir, 'cert.pem'), 'utf8');
      const { port } = new URL(server.url);
      tls = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, (socket) => {
        secureConnections += 1;
        const upstream = connect(Number(port), '127.0.0.1');
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.on('error', () => s.destroy());
          s.on('close', () => sockets.delete(s));
        }
        socket.pipe(upstream).pipe(socket);
      });
      await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
      origin = `https://127.0.0.1:${(tls.address() as AddressInfo).port}`;
    });
    afterAll(async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => tls.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    });

    const overTls = () => client({ hosts: { api: origin, auth: origin }, maxRetries: 0 });

    test('a certificate the runtime does not trust: APIConnectionError saying so; nothing reaches the platform', async () => {
      const error = await overTls()
        .meRetention.eligibleForCampaign({ order_id: 'order-0008' }, { accessToken: userToken() })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(APIConnectionError);
      // Node versions differ in what follows the cause (some add a hint about system CAs).
      expect(
        (error as Error).message.startsWith(
          `GET ${origin}${paths.eligibleForCampaign} failed after 1 attempt: self-signed certificate`,
        ),
      ).toBe(true);
      expect(platform.requests.list()).toEqual([]);
    });

    test("trusted through node:https's global agent (docs/assumptions.md): the GET with its body goes over TLS", async () => {
      const before = secureConnections;
      https.globalAgent.options.ca = cert;
      try {
        const answer = await overTls().meRetention.eligibleForCampaign(
          { order_id: 'order-0008' },
          { accessToken: userToken() },
        );
        expect(answer).toMatchObject({ eligible: true, item: { code: 'premium-summer' } });
      } finally {
        delete https.globalAgent.options.ca;
      }
      expect(secureConnections).toBe(before + 1);
      expect(requestsTo(platform, paths.eligibleForCampaign)).toMatchObject([
        { method: 'GET', body: '{"order_id":"order-0008"}', status: 200 },
      ]);
    });
  });
});
