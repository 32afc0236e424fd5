/** Bearer tokens on the API, and the server-to-server token endpoint (endpoint 23, grant_type=none). */
import { describe, expect, test } from 'vitest';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import {
  ADAPTERS,
  demoCredentials,
  demoIds,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
  WRITE,
} from './harness.js';

describe.each(ADAPTERS)('bearer tokens on the API through %s', (kind) => {
  const h = useAdapter(kind);

  test.each([
    ['get products', paths.getProducts, { product_type: 'packages' }],
    ['get payment periods', paths.getPaymentPeriods, { product_code: 'premium-digital' }],
    ['get product sharing', paths.getProductSharing, { code: 'premium-digital' }],
  ])('%s without a token: 401 invalid_token, WWW-Authenticate without an error', async (_, path, query) => {
    const answer = await expectUnchanged(h.platform, () => h.call(path, { query }));
    const body = expectError(answer, 401, 'invalid_token', 'authorization');
    expect(body.message).toMatch(/missing/i);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="platform"');
  });

  test.each([
    ['a malformed Authorization header', { authorization: 'Basic ZGVtbzpkZW1v' }, /malformed/i],
    ['Bearer without a token', { authorization: 'Bearer ' }, /malformed/i],
    ['an unknown token', { authorization: 'Bearer not-a-token-the-platform-issued' }, /unknown/i],
  ])('a request with %s: 401 invalid_token', async (_, headers, message) => {
    const answer = await expectUnchanged(h.platform, () => h.call(paths.getProducts, { headers }));
    const body = expectError(answer, 401, 'invalid_token', 'authorization');
    expect(body.message).toMatch(message);
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer realm="platform", error="invalid_token"/);
  });

  test('an expired token: 401 invalid_token (the platform clock decides)', async () => {
    const token = h.token([READ]);
    expect((await h.call(paths.getProducts, { token })).status).toBe(200);
    h.platform.clock.advance(3600);
    const body = expectError(await h.call(paths.getProducts, { token }), 401, 'invalid_token', 'authorization');
    expect(body.message).toMatch(/expired/i);
  });

  test('the scheme is case-insensitive', async () => {
    const answer = await h.call(paths.getProducts, { headers: { authorization: `bearer ${h.token([READ])}` } });
    expect(answer.status).toBe(200);
  });

  test('a token without the scope of the endpoint: 403 insufficient_scope naming it', async () => {
    const answer = await h.call(paths.getProducts, { token: h.token([WRITE]) });
    expectError(answer, 403, 'insufficient_scope');
    expect(answer.headers.get('www-authenticate')).toBe(
      'Bearer realm="platform", error="insufficient_scope", scope="/external/product/r"',
    );
  });

  test('authentication comes before validation: a bad query without a token is a 401', async () => {
    expectError(await h.call(paths.getProducts, { query: { id: 'bad' } }), 401, 'invalid_token', 'authorization');
  });
});

describe.each(ADAPTERS)('access token, grant_type=none (endpoint 23) through %s', (kind) => {
  const h = useAdapter(kind);
  const credentials = { client_id: demoCredentials.clientId, client_secret: demoCredentials.clientSecret };
  const tokenCall = (json: unknown) => h.call(paths.accessToken, { method: 'POST', json, host: 'auth' });

  test('JSON body, no scope: a token with every scope of the client, usable on the API', async () => {
    const answer = await tokenCall({ grant_type: 'none', ...credentials });
    const token = expectOk(answer, AccessTokenResponse);
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(3600);
    expect(token.scope?.split(' ')).toContain('/external/price/w');
    expect(token.access_token).toMatch(/^[\w-]{43}$/);
    expect(token.refresh_token).toMatch(/^[\w-]{43}$/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expectOk(await h.call(paths.getProducts, { token: token.access_token }), GetProductsResponse);
  });

  test('a query parameter on an endpoint that takes a body: 400 unknown_parameter naming it; no token is issued', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        query: { foo: 'bar' },
        json: { grant_type: 'none', ...credentials },
      }),
    );
    expect(expectError(answer, 400, 'unknown_parameter', 'foo').message).toBe('Unknown parameter: foo');
  });

  test('form body with a space-separated scope: only those scopes', async () => {
    const form = new URLSearchParams({ grant_type: 'none', ...credentials, scope: `${READ} ${READ}` });
    const answer = await h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const token = expectOk(answer, AccessTokenResponse);
    expect(token.scope).toBe(READ);
    const write = await h.call(paths.updatePrices, { method: 'POST', json: {}, token: token.access_token });
    expectError(write, 403, 'insufficient_scope');
  });

  test('scope is at most 1,024 characters: the longest is granted; one more is 400 invalid_parameter naming scope, no token issued', async () => {
    // The client's scopes, each asked for again and again: 1,024 characters, granted once each.
    const longest = `${READ} `.repeat(51).padEnd(1024, ' ');
    expect(longest).toHaveLength(1024);
    const token = expectOk(
      await tokenCall({ grant_type: 'none', ...credentials, scope: longest }),
      AccessTokenResponse,
    );
    expect(token.scope).toBe(READ);
    const answer = await expectUnchanged(h.platform, () =>
      tokenCall({ grant_type: 'none', ...credentials, scope: `${longest} ` }),
    );
    expect(expectError(answer, 400, 'invalid_parameter', 'scope').message).toBe('Parameter size must be at most 1024');
  });

  test('a client with only /external/product/r gets only that', async () => {
    const { clientId, clientSecret } = demoIds.clients.reader;
    const token = expectOk(
      await tokenCall({ grant_type: 'none', client_id: clientId, client_secret: clientSecret }),
      AccessTokenResponse,
    );
    expect(token.scope).toBe(READ);
  });

  test.each([
    ['an unknown client', { grant_type: 'none', client_id: 'nobody', client_secret: 'x' }],
    [
      'a wrong client secret',
      { grant_type: 'none', client_id: demoCredentials.clientId, client_secret: 'wrong-secret-value' },
    ],
  ])('access token refuses %s: 401 invalid_client, without echoing the secret', async (_, json) => {
    const answer = await expectUnchanged(h.platform, () => tokenCall(json));
    expectError(answer, 401, 'invalid_client');
    expect(answer.text).not.toContain(json.client_secret);
  });

  test.each([
    [
      'a scope the client does not have',
      { scope: '/external/price/w' },
      demoIds.clients.reader,
      400,
      'invalid_scope',
      'scope',
    ],
    [
      'a scope of white space alone (it names none, a malformed request)',
      { scope: ' \u00a0 ' },
      demoIds.clients.demo,
      400,
      'invalid_parameter',
      'scope',
    ],
    [
      'grant_type password',
      { grant_type: 'password' },
      demoIds.clients.demo,
      400,
      'unsupported_grant_type',
      'grant_type',
    ],
    ['a missing grant_type', { grant_type: undefined }, demoIds.clients.demo, 400, 'invalid_parameter', 'grant_type'],
    [
      'a missing client_secret',
      { client_secret: undefined },
      demoIds.clients.demo,
      400,
      'invalid_parameter',
      'client_secret',
    ],
    ['an unknown field', { audience: 'x' }, demoIds.clients.demo, 400, 'unknown_parameter', 'audience'],
  ])('access token refuses %s: %s %s', async (_, extra, client, status, code, field) => {
    const json = { grant_type: 'none', client_id: client.clientId, client_secret: client.clientSecret, ...extra };
    await expectUnchanged(h.platform, async () => expectError(await tokenCall(json), status, code, field));
  });

  test.each([
    ['client_credentials', "(this platform's client-credentials grant is grant_type=none)"],
    ['authorization_code', '(a ticket is exchanged with grant_type=ticket)'],
    ['password', undefined],
  ])(
    'access token refuses grant_type %s, what OAuth libraries send, saying what to send instead',
    async (grant, hint) => {
      const { clientId, clientSecret } = demoIds.clients.demo;
      const json = { grant_type: grant, client_id: clientId, client_secret: clientSecret };
      const body = await expectUnchanged(h.platform, async () =>
        expectError(await tokenCall(json), 400, 'unsupported_grant_type', 'grant_type'),
      );
      const listed = 'Parameter must be one of: none, ticket, refresh_token';
      expect(body.message).toBe(hint ? `${listed} ${hint}` : listed);
    },
  );

  test('access token refuses a body that is not JSON: 400 json_parser_error; no token is issued', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        body: 'grant_type=none',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expectError(answer, 400, 'json_parser_error', 'body');
  });

  test('access token refuses text/plain: 400 invalid_content_type_error; no token is issued', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        body: JSON.stringify({ grant_type: 'none', ...credentials }),
      }),
    );
    expectError(answer, 400, 'invalid_content_type_error', 'content-type');
  });
});

describe('access token lifetime', () => {
  const h = useAdapter('msw', { accessTokenLifetimeSeconds: 60 });

  test('tokens live accessTokenLifetimeSeconds', async () => {
    const answer = await h.call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: { grant_type: 'none', client_id: demoCredentials.clientId, client_secret: demoCredentials.clientSecret },
    });
    const token = expectOk(answer, AccessTokenResponse);
    expect(token.expires_in).toBe(60);
    h.platform.clock.advance(59);
    expect((await h.call(paths.getProducts, { token: token.access_token })).status).toBe(200);
    h.platform.clock.advance(1);
    expect((await h.call(paths.getProducts, { token: token.access_token })).status).toBe(401);
  });
});
