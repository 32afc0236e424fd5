/** Pieces of the pipeline that need no platform: URLs per environment, query text, redaction, the runtime check. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, test } from 'vitest';
import { type Endpoint, eligibleForCampaign, getProducts, pathOf } from '../../src/endpoints.js';
import { makeAPIError, RequestValidationError, UnsupportedRequestError } from '../../src/errors.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PlatformClient,
  RateLimitError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { redact } from '../../src/logger.js';
import { retryAfterMs } from '../../src/retry.js';
import * as schemas from '../../src/schemas/index.js';
import { toSearchParams, urlOf } from '../../src/url.js';

const hosts = { api: 'https://api.example.test/', auth: 'https://auth.example.test' };

describe('environments: the environment decides the path, the hosts option the host', () => {
  // Endpoint 10's shape: a path that differs between stage and production.
  const differing: Endpoint = {
    ...getProducts,
    path: {
      stage: '/external/api/v1/helpdesk_message_templates',
      production: '/external/api/v1/helpdesk_messages_templates',
    },
  };

  test('stage and production paths of an endpoint whose path differs', () => {
    expect(urlOf(hosts, differing, 'stage')).toBe(
      'https://api.example.test/external/api/v1/helpdesk_message_templates',
    );
    expect(urlOf(hosts, differing, 'production')).toBe(
      'https://api.example.test/external/api/v1/helpdesk_messages_templates',
    );
  });

  test('an endpoint with one path has it in both environments', () => {
    expect(urlOf(hosts, getProducts, 'production')).toBe('https://api.example.test/external/api/v1/products');
    expect(urlOf(hosts, getProducts, 'stage')).toBe('https://api.example.test/external/api/v1/products');
  });

  test('a host with a base path keeps it', () => {
    expect(urlOf({ ...hosts, api: 'https://gw.example.test/platform' }, getProducts, 'stage')).toBe(
      'https://gw.example.test/platform/external/api/v1/products',
    );
  });

  test('a host that is not configured is refused', () => {
    expect(() => urlOf(hosts, { ...getProducts, host: 'sso' }, 'stage')).toThrow(/hosts\.sso/);
  });

  test('the client sends to the configured host (captured by a custom fetch)', async () => {
    const urls: string[] = [];
    const client = new PlatformClient({
      environment: 'production',
      hosts,
      auth: { accessToken: 'tok' },
      fetch: async (input) => {
        urls.push(input instanceof Request ? input.url : String(input));
        return Response.json({ items: [] }, { headers: { 'x-correlation-id': 'c-1' } });
      },
    });
    await client.products.list({ product_type: 'packages', include_inactive: true });
    expect(urls).toEqual([
      'https://api.example.test/external/api/v1/products?product_type=packages&include_inactive=true',
    ]);
  });
});

describe('query parameters', () => {
  test('booleans are sent as true/false, undefined values are left out', () => {
    expect(toSearchParams({ a: true, b: false, c: undefined, d: 'x', e: 3 })).toEqual({
      a: 'true',
      b: 'false',
      d: 'x',
      e: '3',
    });
  });
});

describe('Retry-After', () => {
  test('seconds, an HTTP date, absent', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }), now)).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(new Headers(), now)).toBeUndefined();
  });
});

describe('errors are made in one place from the status', () => {
  test.each([
    [400, BadRequestError],
    [401, AuthenticationError],
    [403, PermissionDeniedError],
    [404, NotFoundError],
    [409, ConflictError],
    [422, UnprocessableEntityError],
    [429, RateLimitError],
    [500, InternalServerError],
    [503, InternalServerError],
    [418, APIError],
  ])('%i', (status, Class) => {
    const error = makeAPIError(
      status,
      { code: 'x', field: 'f', message: 'm', api_correlation_id: 'body-id' },
      new Headers({ 'x-correlation-id': 'header-id' }),
    );
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ status, code: 'x', field: 'f', message: 'm', correlationId: 'header-id' });
  });

  test('each subclass types its status as the literal it stands for, as openai-node does', () => {
    expectTypeOf<BadRequestError['status']>().toEqualTypeOf<400>();
    expectTypeOf<AuthenticationError['status']>().toEqualTypeOf<401>();
    expectTypeOf<PermissionDeniedError['status']>().toEqualTypeOf<403>();
    expectTypeOf<NotFoundError['status']>().toEqualTypeOf<404>();
    expectTypeOf<ConflictError['status']>().toEqualTypeOf<409>();
    expectTypeOf<UnprocessableEntityError['status']>().toEqualTypeOf<422>();
    expectTypeOf<RateLimitError['status']>().toEqualTypeOf<429>();
    expectTypeOf<InternalServerError['status']>().toEqualTypeOf<number>();
    const error = makeAPIError(404, { code: 'not_found', message: 'm' }, new Headers());
    if (!(error instanceof NotFoundError)) throw new Error('a 404 is a NotFoundError');
    expectTypeOf(error.status).toEqualTypeOf<404>();
  });

  test('the correlation id falls back to api_correlation_id of the body; a body that is not JSON is kept', () => {
    expect(
      makeAPIError(404, { code: 'not_found', message: 'm', api_correlation_id: 'b' }, new Headers()),
    ).toMatchObject({
      correlationId: 'b',
    });
    expect(makeAPIError(502, '<html>bad gateway</html>', new Headers())).toMatchObject({
      status: 502,
      code: undefined,
      message: 'HTTP 502',
      body: '<html>bad gateway</html>',
    });
  });

  test('a request validation error names the field and the rule as the platform does; an unknown key first', () => {
    const result = schemas.GetProductsQuery.safeParse(
      { id: 'nope', colour: 'red' },
      { error: schemas.platformErrorMap },
    );
    expect(result.success).toBe(false);
    const error = new RequestValidationError(result.error?.issues ?? []);
    expect(error).toMatchObject({ code: 'unknown_parameter', field: 'colour', rule: 'Unknown parameter: colour' });
  });
});

describe('redact', () => {
  test('headers, query parameters, JSON text, bearer tokens and nested keys', () => {
    expect(
      redact({
        headers: new Headers({ authorization: 'Bearer abc.def', accept: 'application/json' }),
        url: 'https://x.test/marketplace/1/2?at=TICKET&returnUrl=https%3A%2F%2Fsite&t=JWT',
        body: { grant_type: 'none', client_id: 'c', client_secret: 's3cr3t', nested: [{ password: 'pw' }] },
        text: '{"access_token":"A","refresh_token":"R","ticket":"T","ok":1}',
        message: 'sent Bearer xyz',
      }),
    ).toEqual({
      headers: { authorization: '[REDACTED]', accept: 'application/json' },
      url: 'https://x.test/marketplace/1/2?at=[REDACTED]&returnUrl=https%3A%2F%2Fsite&t=[REDACTED]',
      body: { grant_type: 'none', client_id: 'c', client_secret: '[REDACTED]', nested: [{ password: '[REDACTED]' }] },
      text: '{"access_token":"[REDACTED]","refresh_token":"[REDACTED]","ticket":"[REDACTED]","ok":1}',
      message: 'sent Bearer [REDACTED]',
    });
  });

  test('prose about bearer tokens stays readable; a credential after Bearer is still redacted', () => {
    const refusal = 'Missing bearer token: send Authorization: Bearer <token>';
    expect(redact(refusal)).toBe(refusal);
    expect(redact({ message: refusal, challenge: 'Bearer realm="platform", error="invalid_token"' })).toEqual({
      message: refusal,
      challenge: 'Bearer realm="platform", error="invalid_token"',
    });
    expect(redact('the token: expired; Bearer realm')).toBe('the token: expired; Bearer realm');
    const token = 'Zq9xR3vT7yWb2LmN8pKd4HsJ6fGa1CeU0oIiYtXqVw_';
    expect(redact(`token: ${token}`)).toBe('token: [REDACTED]');
    expect(redact(`sent Bearer ${token}`)).toBe('sent Bearer [REDACTED]');
    expect(redact('sent Authorization: Bearer abc.def.ghi')).toBe('sent Authorization: Bearer [REDACTED]');
    expect(redact('sent Bearer xyz')).toBe('sent Bearer [REDACTED]');
  });

  test('text in, text out; an object or Headers in, an object out (no cast at the caller)', () => {
    const text: string = redact('https://x.test/?ticket=T');
    expect(text).toBe('https://x.test/?ticket=[REDACTED]');
    expectTypeOf(redact(new URL('https://x.test/'))).toEqualTypeOf<string>();
    expectTypeOf(redact(new Headers())).toEqualTypeOf<Record<string, unknown>>();
    expectTypeOf(redact({ password: 'p' })).toEqualTypeOf<Record<string, unknown>>();
  });
});

describe('endpoint 6 where no transport can send a GET with a body (a browser)', () => {
  // Whatever reaches this server: a request the SDK should not have sent.
  const received: { method: string; url: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', () => {
      received.push({ method: req.method ?? '', url: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'not_eligible', message: 'No campaign is offered for this subscription' }));
    });
  });
  let origin = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  let fetched = 0;
  const sdk = () =>
    new PlatformClient({
      environment: 'stage',
      hosts: { api: origin, auth: origin },
      auth: { accessToken: 'client-token' },
      maxRetries: 0,
      fetch: (input, init) => {
        fetched += 1;
        return fetch(input, init);
      },
    });
  const ask = (client: PlatformClient) =>
    client.meRetention.eligibleForCampaign({ order_id: 'order-1' }, { accessToken: 'user-token' });

  test('UnsupportedRequestError at once, saying a GET with a JSON body cannot be sent from this runtime; nothing sent', async () => {
    const client = sdk();
    // What the SDK checks: a Node `process`. Without one (a browser) it has no way to send the body.
    const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'process')!;
    let pending: Promise<unknown>;
    Object.defineProperty(globalThis, 'process', { value: undefined, configurable: true, writable: true });
    try {
      pending = ask(client).then(
        () => undefined,
        (e: unknown) => e,
      );
    } finally {
      Object.defineProperty(globalThis, 'process', descriptor);
    }
    const error = await pending;
    expect(error).toBeInstanceOf(UnsupportedRequestError);
    expect((error as Error).message).toBe(
      "Eligible for campaign sends its parameters in the JSON body of a GET, which this runtime's fetch cannot send (a browser): call it from a server (Node)",
    );
    expect((error as Error).message).not.toContain('user-token');
    expect(received).toEqual([]);
    expect(fetched).toBe(0);
  });

  test('the same call in Node reaches the server as a GET with its body (so the test above can fail)', async () => {
    const answer = await ask(sdk());
    expect(answer).toEqual({ eligible: false, code: 'not_eligible', message: expect.any(String) });
    expect(received).toEqual([
      { method: 'GET', url: pathOf(eligibleForCampaign, 'stage'), body: '{"order_id":"order-1"}' },
    ]);
  });
});
