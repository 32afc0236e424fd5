/** The core's pipeline: routing, correlation ids, identity, environments, unexpected failures. */
import * as http from 'node:http';
import { describe, expect, test, vi } from 'vitest';
import * as z from 'zod';
import { apiRoute } from '../../mock/core/route.js';
import { createPlatform } from '../../mock/index.js';
import { createPlatformWith } from '../../mock/platform.js';
import { allRoutes } from '../../mock/routes/index.js';
import { type Endpoint, type Environment, endpoints, nameOf, pathOf } from '../../src/endpoints.js';
import { ErrorBody } from '../../src/schemas/common.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import {
  ADAPTERS,
  demoIds,
  entryOf,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  requestsTo,
  useAdapter,
} from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Test-only endpoints: one that needs a user, with a path per environment, and one that fails. */
const whoAmI = {
  number: 901,
  title: 'Who am I (test)',
  sdk: 'test.whoAmI',
  method: 'GET',
  host: 'api',
  path: { stage: '/test/stage/me', production: '/test/production/me' },
  scopes: ['/external/me/r'],
  identity: true,
  bearer: true,
  query: undefined,
  body: undefined,
  response: z.looseObject({ id: z.string() }),
  status: 200,
} as const satisfies Endpoint;

const boom = {
  ...whoAmI,
  number: 902,
  title: 'Fails (test)',
  path: '/test/boom',
  identity: false,
} as const satisfies Endpoint;

/** Needs two scopes, as endpoints 6 and 7 do. */
const twoScopes = {
  ...whoAmI,
  number: 903,
  title: 'Two scopes (test)',
  path: '/test/two-scopes',
  scopes: ['/external/me/w', '/external/me/r'],
  identity: false,
} as const satisfies Endpoint;

const testRoutes = [
  ...allRoutes,
  apiRoute(twoScopes, () => ({ body: { id: 'ok' } })),
  apiRoute(whoAmI, ({ auth }) => ({ body: { id: auth.account?.id ?? '' } })),
  apiRoute(boom, () => {
    throw new Error('secret detail of the failure');
  }),
];

describe.each(ADAPTERS)('the core through %s', (kind) => {
  const onError = vi.fn();
  const h = useAdapter(kind, createPlatformWith(testRoutes, { seed: 'demo', onError }));

  test('every answer carries a fresh x-correlation-id; an error body repeats it', async () => {
    const token = h.token([READ]);
    const a = await h.call(paths.getProducts, { token });
    const b = await h.call(paths.getProducts, { token });
    expect(a.headers.get('x-correlation-id')).toMatch(UUID);
    expect(b.headers.get('x-correlation-id')).toMatch(UUID);
    expect(a.headers.get('x-correlation-id')).not.toBe(b.headers.get('x-correlation-id'));
    expectError(await h.call('/nowhere'), 404, 'not_found');
  });

  test.each(['/marketplace/%ED%A0%80/x', '/external/api/v1/%FF', '/%'])(
    'a path that is not valid percent-encoding (%s) is answered, not a 500 (found by the fuzz suite)',
    async (path) => {
      const answer = await h.call(path, { host: path.startsWith('/marketplace') ? 'shop' : 'api' });
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
    },
  );

  test.each([
    ['only the first', ['/external/me/w']],
    ['only the second', ['/external/me/r']],
    ['neither', ['/external/product/r']],
  ])('a route needing two scopes refuses a token with %s: 403 insufficient_scope naming both', async (_, scopes) => {
    const token = h.token(scopes);
    const answer = await expectUnchanged(h.platform, () => h.call('/test/two-scopes', { token }));
    expectError(answer, 403, 'insufficient_scope');
    expect(answer.headers.get('www-authenticate')).toContain('scope="/external/me/w /external/me/r"');
  });

  test('a route needing two scopes accepts a token with both, in any order', async () => {
    const answer = await h.call('/test/two-scopes', { token: h.token(['/external/me/r', '/external/me/w']) });
    expect(answer.status).toBe(200);
  });

  test('an unknown path: 404 not_found, whatever the method', async () => {
    expectError(await h.call('/external/api/v1/nothing', { method: 'DELETE' }), 404, 'not_found');
  });

  test.each([
    ['POST', paths.getProducts, 'GET, HEAD'],
    ['GET', paths.updatePrices, 'POST'],
    ['DELETE', paths.accessToken, 'POST'],
  ])('%s on %s: 405 method_not_allowed with Allow: %s', async (method, path, allow) => {
    const answer = await h.call(path, { method, token: h.token() });
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe(allow);
  });

  test("HEAD on an API read is its GET without the body (RFC 9110): the status, the headers, the body's content-length; journaled as HEAD; a refusal too; not on an admin tool", async () => {
    const token = h.token([READ]);
    const get = await h.call(paths.getProducts, { token });
    const head = await h.call(paths.getProducts, { method: 'HEAD', token });
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(String(Buffer.byteLength(get.text)));
    expect(h.platform.requests.list().at(-1)).toMatchObject({ method: 'HEAD', status: 200 });
    const refused = await expectUnchanged(h.platform, () => h.call(paths.getProducts, { method: 'HEAD' }));
    expect(refused.status).toBe(401);
    expect(refused.text).toBe('');
    const admin = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'HEAD' }));
    expect(admin.status).toBe(405);
    expect(admin.headers.get('allow')).not.toContain('HEAD');
  });

  test('a trailing slash finds the same route', async () => {
    expectOk(await h.call(`${paths.getProducts}/`, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('paths route regardless of host: API, authorization API, SSO and shop share one path space', async () => {
    for (const host of ['api', 'auth', 'sso', 'shop'] as const) {
      expectOk(await h.call(paths.getProducts, { token: h.token([READ]), host }), GetProductsResponse);
    }
  });

  test('a CORS preflight is answered; answers allow any origin (the standalone server: any page of this machine)', async () => {
    // Another site's page gets no CORS headers from the standalone server (security.test.ts).
    const origin = kind === 'msw' ? 'https://site.test' : 'http://localhost:5173';
    const answer = await h.call(paths.updatePrices, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST' },
    });
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-methods')).toBe('POST');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
  });

  test('an exception in a handler: 500 internal_server_error with a generic message; the platform goes on', async () => {
    onError.mockClear();
    const token = h.token(['/external/me/r']);
    const answer = await h.call('/test/boom', { token });
    const body = expectError(answer, 500, 'internal_server_error');
    expect(answer.text).not.toContain('secret detail');
    expect(body.message).toBe('Internal server error');
    expect(onError).toHaveBeenCalledOnce();
    expect(entryOf(h.platform, answer).status).toBe(500);
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
  });

  test('an endpoint that needs a user refuses a token without one: 403 identity_required', async () => {
    const token = h.token(['/external/me/r']);
    const answer = await expectUnchanged(h.platform, () => h.call('/test/stage/me', { token }));
    expectError(answer, 403, 'identity_required');
    // The message says how to get the token it needs.
    expect((answer.body as { message: string }).message).toContain('grant_type=ticket');
    const userToken = h.platform.mintToken({
      scopes: ['/external/me/r'],
      accountId: demoIds.accounts.anna,
    }).access_token;
    expect((await h.call('/test/stage/me', { token: userToken })).body).toEqual({ id: demoIds.accounts.anna });
  });

  test('the scope check comes before the identity check', async () => {
    const token = h.token([READ]);
    expectError(
      await expectUnchanged(h.platform, () => h.call('/test/stage/me', { token })),
      403,
      'insufficient_scope',
    );
  });
});

describe('environments', () => {
  test('a stage platform routes by stage paths, a production platform by production paths', async () => {
    for (const environment of ['stage', 'production'] as const) {
      const platform = createPlatformWith(testRoutes, { environment });
      const token = platform.mintToken({ scopes: ['/external/me/r'], accountId: demoIds.accounts.bo }).access_token;
      const get = (path: string) =>
        platform.handle(
          new Request(`https://api.platform.test${path}`, { headers: { authorization: `Bearer ${token}` } }),
        );
      expect((await get(`/test/${environment}/me`)).status).toBe(200);
      const other = environment === 'stage' ? 'production' : 'stage';
      expect((await get(`/test/${other}/me`)).status).toBe(404);
      expect(platform.environment).toBe(environment);
    }
  });
});

describe('endpoints without a route', () => {
  /** A path of the entry that a request can take: `{name}` segments filled in. */
  const concrete = (e: Endpoint, environment: Environment) => pathOf(e, environment).replace(/\{\w+\}/g, 'x');

  test.each(endpoints.map((e) => [nameOf(e), e] as const))(
    '%s without a handler answers 501 not_implemented naming it, before any check',
    async (name, e) => {
      for (const environment of ['stage', 'production'] as const) {
        const platform = createPlatformWith([], { environment });
        // No token, no body: "not built" is told apart from every refusal and from "record missing" (404).
        const answer = await platform.handle(
          new Request(`https://api.platform.test${concrete(e, environment)}`, { method: e.method }),
        );
        const body = ErrorBody.parse(await answer.json());
        expect({ status: answer.status, code: body.code }).toEqual({ status: 501, code: 'not_implemented' });
        expect(body.message).toBe(`${name} is not implemented yet`);
      }
    },
  );
});

describe('the node:http adapter', () => {
  const h = useAdapter('http');

  test('a GET may carry a body: the core receives it (the journal shows it)', async () => {
    const url = new URL(`${h.origin()}${paths.getProducts}`);
    const token = h.token([READ]);
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        url,
        {
          method: 'GET',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': '18' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end('{"order_id":"abc"}');
    });
    expect(status).toBe(200);
    expect(requestsTo(h.platform, paths.getProducts).map((e) => e.body)).toEqual(['{"order_id":"abc"}']);
  });
});

describe('handle() in process', () => {
  test('answers a plain Fetch Request without any adapter', async () => {
    const platform = createPlatform();
    const token = platform.mintToken({ scopes: [READ] }).access_token;
    const answer = await platform.handle(
      new Request(`https://anywhere.test${paths.getProducts}?product_type=campaigns`, {
        headers: { authorization: `Bearer ${token}` },
      }),
    );
    const { items } = GetProductsResponse.parse(await answer.json());
    expect(items.map((p) => p.product_code)).toEqual(['premium-summer']);
  });
});
