/** The test-suite tools over HTTP, under /__admin, through both adapters. */
import { readFileSync } from 'node:fs';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import type { StateDocument } from '../../mock/index.js';
import { adminRoutes } from '../../mock/routes/admin.js';
import type { DemoGuide } from '../../mock/seeds/demo-guide.js';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { SsoEnvelope } from '../../src/schemas/sign-on.js';
import {
  ADAPTERS,
  absent,
  DEMO_SSO_AUDIENCE,
  demoIds,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
} from './harness.js';

describe.each(ADAPTERS)('/__admin through %s', (kind) => {
  const h = useAdapter(kind);
  const admin = (method: string, path: string, json?: unknown) => h.call(`/__admin/${path}`, { method, json });
  /** The pending faults, as `GET /__admin/faults` lists them. */
  const pending = async () => ((await admin('GET', 'faults')).body as { items: unknown[] }).items;

  test('GET /__admin/state answers the state document; PUT replaces it; POST /__admin/reset returns to the seed', async () => {
    const state = (await admin('GET', 'state')).body as StateDocument;
    expect(state).toEqual(h.platform.snapshot());
    const gone = new Set(state.user_products.filter((u) => u.product_code === 'basic-news').map((u) => u.id));
    const basicNews = state.products.find((p) => p.product_code === 'basic-news')?.id;
    const changed = {
      ...state,
      products: state.products.filter((p) => p.product_code !== 'basic-news'),
      // Its sharing options go with it too.
      product_sharing: state.product_sharing.filter((s) => s.product_id !== basicNews),
      user_products: state.user_products.filter((u) => !gone.has(u.id)),
      // A user-product's orders and payment profiles go with it: the document keeps no dangling reference.
      orders: state.orders.filter((o) => !gone.has(o.user_product_id)),
      payment_profiles: state.payment_profiles.filter((p) => !gone.has(p.user_product_id)),
    };
    expect((await admin('PUT', 'state', changed)).status).toBe(204);
    const token = h.token([READ]);
    const list = async () =>
      expectOk(
        await h.call(paths.getProducts, { query: { product_type: 'packages' }, token }),
        GetProductsResponse,
      ).items.map((p) => p.product_code);
    expect(await list()).toEqual(['premium-digital']);
    expect((await admin('POST', 'reset')).status).toBe(204);
    expect(h.platform.snapshot()).toEqual(state);
  });

  test('PUT /__admin/state refuses an invalid document: 400 naming the field, nothing changes', async () => {
    const state = h.platform.snapshot();
    const bad = { ...state, accounts: [{ ...state.accounts[0], email: 42 }] };
    expectError(await admin('PUT', 'state', bad), 400, 'invalid_parameter', 'accounts[0].email');
    expectError(await admin('PUT', 'state', { ...state, users: [] }), 400, 'unknown_parameter', 'users');
    expect(h.platform.snapshot()).toEqual(state);
  });

  test('POST /__admin/tokens issues a token (user-bound when account_id is given)', async () => {
    const answer = await admin('POST', 'tokens', { scopes: [READ], account_id: demoIds.accounts.anna });
    const token = expectOk(answer, AccessTokenResponse);
    expect(token.scope).toBe(READ);
    expect(h.platform.snapshot().access_tokens[0]?.account_id).toBe(demoIds.accounts.anna);
    expectOk(await h.call(paths.getProducts, { token: token.access_token }), GetProductsResponse);
  });

  test('POST /__admin/tokens takes its JSON body only as application/json (curl -d sends a form type: add -H)', async () => {
    const body = JSON.stringify({ scopes: [READ], client_id: demoIds.clients.reader.clientId });
    for (const contentType of ['application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const refused = await expectUnchanged(h.platform, () =>
        h.call('/__admin/tokens', { method: 'POST', body, headers: { 'content-type': contentType } }),
      );
      expectError(refused, 400, 'invalid_content_type_error', 'content-type');
    }
    const answer = await h.call('/__admin/tokens', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectOk(answer, AccessTokenResponse);
    expect(h.platform.snapshot().access_tokens[0]?.client_id).toBe(demoIds.clients.reader.clientId);
  });

  test.each([
    [{}, 400, 'invalid_parameter', 'scopes'],
    [{ scopes: [READ], client_id: 'nobody' }, 404, 'not_found', 'client_id'],
    [{ scopes: [READ], account_id: absent.id }, 404, 'not_found', 'account_id'],
  ])('POST /__admin/tokens refuses %j: %s %s; no token is issued', async (json, status, code, field) => {
    expectError(await expectUnchanged(h.platform, () => admin('POST', 'tokens', json)), status, code, field);
  });

  test('POST /__admin/clock sets or advances the platform clock; GET reads it', async () => {
    // Frozen: it shows exactly what was set, however long the requests take.
    h.platform.clock.freeze();
    const set = await admin('POST', 'clock', { now: '2035-03-04T05:06:07Z' });
    expect(set.body).toEqual({ now: '2035-03-04T05:06:07.000Z', frozen: true });
    const advanced = await admin('POST', 'clock', { advance_seconds: 86_400 });
    expect(advanced.body).toEqual({ now: '2035-03-05T05:06:07.000Z', frozen: true });
    expect((await admin('GET', 'clock')).body).toEqual({ now: '2035-03-05T05:06:07.000Z', frozen: true });
    expectError(await admin('POST', 'clock', {}), 400, 'invalid_parameter', 'advance_seconds');
    expectError(await admin('POST', 'clock', { now: 'soon' }), 400, 'invalid_parameter', 'now');
  });

  test('GET /__admin/requests lists the journal; DELETE empties it', async () => {
    await h.call('/nowhere');
    const { items } = (await admin('GET', 'requests')).body as { items: { path: string; status: number }[] };
    expect(items.map((e) => `${e.path} ${e.status}`)).toEqual(['/nowhere 404']);
    expect((await admin('DELETE', 'requests')).status).toBe(204);
    expect(((await admin('GET', 'requests')).body as { items: unknown[] }).items).toEqual([]);
  });

  test('POST /__admin/faults adds a fault (snake_case); GET lists; DELETE clears', async () => {
    const added = await admin('POST', 'faults', {
      path: paths.getProducts,
      status: 503,
      headers: { 'retry-after': '1' },
      latency_ms: 10,
      times: 2,
    });
    expect(added.status).toBe(201);
    expect(((await admin('GET', 'faults')).body as { items: unknown[] }).items).toEqual([
      { path: paths.getProducts, status: 503, headers: { 'retry-after': '1' }, latency_ms: 10, times: 2 },
    ]);
    const faulted = await h.call(paths.getProducts, { token: h.token([READ]) });
    expectError(faulted, 503, 'internal_server_error');
    expect(faulted.headers.get('retry-after')).toBe('1');
    expect((await admin('DELETE', 'faults')).status).toBe(204);
    expectOk(await h.call(paths.getProducts, { token: h.token([READ]) }), GetProductsResponse);
    expectError(await admin('POST', 'faults', { path: '/x', status: 700 }), 400, 'invalid_parameter', 'status');
    expectError(await admin('POST', 'faults', { path: '/x', drop: 'yes' }), 400, 'invalid_parameter', 'drop');
  });

  test("a fault's path is a path: without a leading / or with a query (which no request path holds, so it would never happen) it is 400 naming path, saying why", async () => {
    for (const [path, message] of [
      ['external/api/v1/products', 'Parameter must be a path starting with /'],
      [
        `${paths.getProducts}?product_type=packages`,
        'Parameter must be a path without a query or a fragment: a fault matches the path alone',
      ],
      [
        `${paths.getProducts}#x`,
        'Parameter must be a path without a query or a fragment: a fault matches the path alone',
      ],
    ]) {
      const refused = expectError(
        await admin('POST', 'faults', { path, status: 500 }),
        400,
        'invalid_parameter',
        'path',
      );
      expect(refused.message, path).toBe(message);
      expect(() => h.platform.faults.add({ path: path!, status: 500 }), path).toThrow(message);
    }
    expect(((await admin('GET', 'faults')).body as { items: unknown[] }).items).toEqual([]);
  });

  test('at most 100 faults are pending: the 101st is 400 invalid_parameter saying how to make room, the list unchanged; a fault run out or DELETE makes room', async () => {
    for (let i = 0; i < 99; i++) h.platform.faults.add({ path: `/cap/${i}`, status: 500 });
    expect((await admin('POST', 'faults', { path: '/cap/99', status: 500 })).status).toBe(201);
    const full = await pending();
    expect(full).toHaveLength(100);
    const refused = expectError(
      await admin('POST', 'faults', { path: '/cap/100', status: 500, times: 5 }),
      400,
      'invalid_parameter',
    );
    const message =
      'A platform holds at most 100 pending faults: make room with DELETE /__admin/faults (platform.faults.clear()), or let some run out first';
    expect(refused.message).toBe(message);
    expect(() => h.platform.faults.add({ path: '/cap/100', status: 500 })).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_parameter', message }),
    );
    expect(await pending()).toEqual(full);
    // A fault that has happened is no longer pending: its place is free.
    expectError(await h.call('/cap/0'), 500, 'internal_server_error');
    expect((await admin('POST', 'faults', { path: '/cap/100', status: 500 })).status).toBe(201);
    expectError(await admin('POST', 'faults', { path: '/cap/101', status: 500 }), 400, 'invalid_parameter');
    expect((await admin('DELETE', 'faults')).status).toBe(204);
    expect((await admin('POST', 'faults', { path: '/cap/101', status: 500 })).status).toBe(201);
  });

  test.each([
    ['a path alone', { path: '/external/api/v1/products' }],
    ['drop: false', { path: '/external/api/v1/products', drop: false, times: 3 }],
    ['a code and headers without a status', { path: '/external/api/v1/products', code: 'x', headers: { 'x-a': '1' } }],
  ])(
    'a fault that says nothing happens (%s) is 400 invalid_parameter naming status, in process too; nothing is added',
    async (_, fault) => {
      const message = 'A fault needs status, latency_ms or drop: true, to say what happens to the requests it matches';
      expect(expectError(await admin('POST', 'faults', fault), 400, 'invalid_parameter', 'status').message).toBe(
        message,
      );
      expect(() => h.platform.faults.add(fault)).toThrow(expect.objectContaining({ field: 'status', message }));
      expect(await pending()).toEqual([]);
    },
  );

  /** `count` headers, `x-h0: v` on. */
  const headers = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`x-h${i}`, 'v']));
  test.each([
    [
      'path: 2048 characters',
      { path: `/${'p'.repeat(2047)}` },
      { path: `/${'p'.repeat(2048)}` },
      'path',
      'Parameter must be a path of at most 2048 characters',
    ],
    [
      'method: 20 characters',
      { method: 'M'.repeat(20) },
      { method: 'M'.repeat(21) },
      'method',
      'Parameter must be a method of 1 to 20 characters',
    ],
    [
      'code: 100 characters',
      { code: 'c'.repeat(100) },
      { code: 'c'.repeat(101) },
      'code',
      'Parameter must be an error code of 1 to 100 characters',
    ],
    [
      'headers: 10',
      { headers: headers(10) },
      { headers: headers(11) },
      'headers',
      'Parameter must have at most 10 headers',
    ],
    [
      'header name: 100 characters',
      { headers: { ['n'.repeat(100)]: 'v' } },
      { headers: { ['n'.repeat(101)]: 'v' } },
      'headers',
      'Parameter must have header names of 1 to 100 characters',
    ],
    [
      'header value: 1024 characters',
      { headers: { 'x-long': 'v'.repeat(1024) } },
      { headers: { 'x-long': 'v'.repeat(1025) } },
      'headers.x-long',
      'Parameter must be a header value of at most 1024 characters',
    ],
  ])(
    "a fault's %s at most: at the bound it is added, one over is 400 naming the field (in process too), the list unchanged",
    async (_, atBound, over, field, message) => {
      const fault = { path: '/sized', status: 503 };
      expect((await admin('POST', 'faults', { ...fault, ...atBound })).status).toBe(201);
      const before = await pending();
      expect(before).toHaveLength(1);
      const refused = expectError(
        await admin('POST', 'faults', { ...fault, ...over }),
        400,
        'invalid_parameter',
        field,
      );
      expect(refused.message).toBe(message);
      expect(() => h.platform.faults.add({ ...fault, ...over })).toThrow(
        expect.objectContaining({ status: 400, code: 'invalid_parameter', field, message }),
      );
      expect(await pending()).toEqual(before);
    },
  );

  test.each([
    [
      { 'bad name': 'x' },
      'headers',
      `Parameter must have header names of letters, digits and !#$%&'*+-.^_\`|~ only: "bad name" is not one`,
    ],
    [
      { 'x-a': 'a\u0001b' },
      'headers.x-a',
      'Parameter must be a header value of tabs, spaces and visible ASCII characters only',
    ],
    [
      { 'x-a': 'a\r\nx-b: c' },
      'headers.x-a',
      'Parameter must be a header value of tabs, spaces and visible ASCII characters only',
    ],
    [
      // node:http would write it as UTF-8, which a client reads as Latin-1: MSW and the server would differ.
      { 'x-a': 'caf\u00e9' },
      'headers.x-a',
      'Parameter must be a header value of tabs, spaces and visible ASCII characters only',
    ],
    [
      { 'x-a': '\u20ac' },
      'headers.x-a',
      'Parameter must be a header value of tabs, spaces and visible ASCII characters only',
    ],
    [
      { 'Content-Length': '5' },
      'headers.Content-Length',
      'Parameter must not be given: the platform sets content-length itself',
    ],
    [
      { 'transfer-encoding': 'chunked' },
      'headers.transfer-encoding',
      'Parameter must not be given: the platform sets transfer-encoding itself',
    ],
    [
      { 'content-type': 'text/plain' },
      'headers.content-type',
      'Parameter must not be given: the platform sets content-type itself',
    ],
    [
      // The body is plain JSON: a client told it is gzip fails to decode it (curl exits 61, fetch throws).
      { 'Content-Encoding': 'gzip' },
      'headers.Content-Encoding',
      'Parameter must not be given: the platform sets content-encoding itself',
    ],
    [{ connection: 'close' }, 'headers.connection', 'Parameter must not be given: the platform sets connection itself'],
    [
      { 'X-Correlation-Id': 'mine' },
      'headers.X-Correlation-Id',
      'Parameter must not be given: the platform sets x-correlation-id itself',
    ],
    [{ 'x-a': '1', 'X-A': '2' }, 'headers.X-A', 'Parameter must not be repeated'],
  ])(
    'a fault header no answer can carry, or one the platform sets itself (%j): 400 naming it, the list unchanged',
    async (faultHeaders, field, message) => {
      const refused = expectError(
        await admin('POST', 'faults', { path: '/headers', status: 503, headers: faultHeaders }),
        400,
        'invalid_parameter',
        field,
      );
      expect(refused.message).toBe(message);
      expect(() => h.platform.faults.add({ path: '/headers', status: 503, headers: faultHeaders })).toThrow(
        expect.objectContaining({ status: 400, field, message }),
      );
      expect(await pending()).toEqual([]);
    },
  );

  test('a fault header is sent as given, its name in lower case (a name in other letters is the same header)', async () => {
    const added = await admin('POST', 'faults', {
      path: '/headers',
      status: 503,
      headers: { 'Retry-After': '2', 'X-Note': 'fine \tok' },
    });
    expect(added.status).toBe(201);
    expect(await pending()).toEqual([
      {
        path: '/headers',
        status: 503,
        headers: { 'retry-after': '2', 'x-note': 'fine \tok' },
        times: 1,
      },
    ]);
    const faulted = await h.call('/headers');
    expectError(faulted, 503, 'internal_server_error');
    expect(faulted.headers.get('retry-after')).toBe('2');
    expect(faulted.headers.get('x-note')).toBe('fine \tok');
    expect(faulted.headers.get('content-type')).toBe('application/json');
  });

  test('a fault never touches /__admin itself', async () => {
    h.platform.faults.add({ path: '/__admin/*', status: 500 });
    expect((await admin('GET', 'state')).status).toBe(200);
  });

  test('an admin route with a body that is not JSON: 400 json_parser_error; no token is issued', async () => {
    const answer = await expectUnchanged(h.platform, () =>
      h.call('/__admin/tokens', {
        method: 'POST',
        body: '{',
        headers: { 'content-type': 'application/json' },
      }),
    );
    expectError(answer, 400, 'json_parser_error', 'body');
  });

  test('wrong method on an admin path: 405 with Allow; the state is unchanged', async () => {
    // A document that PUT would take: PATCH takes nothing.
    const changed = { ...h.platform.snapshot(), sso_audience: 'patched.example.test' };
    const answer = await expectUnchanged(h.platform, () => admin('PATCH', 'state', changed));
    expectError(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET, PUT');
  });
});

describe.each(ADAPTERS)('GET /__admin/demo through %s', (kind) => {
  const demo = useAdapter(kind);

  test('answers the demo seed as a suite in any language needs it: clients, users and ids, each in the state', async () => {
    const guide = expectOk(await demo.call('/__admin/demo'), z.looseObject({})) as unknown as DemoGuide;
    const state = demo.platform.snapshot();
    expect(guide.clients.map((c) => c.client_id)).toEqual(state.clients.map((c) => c.client_id));
    for (const client of guide.clients) {
      const held = state.clients.find((c) => c.client_id === client.client_id);
      expect(held).toMatchObject({ client_secret: client.client_secret, organisation_id: client.organisation_id });
      expect(client.scopes).toEqual(held?.scopes);
    }
    expect(guide.users.map((u) => u.name)).toEqual(['anna', 'bo', 'carl', 'dora', 'eva']);
    for (const user of guide.users)
      expect(state.accounts.find((a) => a.id === user.account_id)?.email).toBe(user.email);
    expect(guide.organisations).toEqual(state.organisations.map(({ id, name }) => ({ id, name })));
    const text = JSON.stringify(state);
    const ids = Object.values(guide.ids).flatMap((group) => Object.values(group));
    expect(ids.length).toBeGreaterThan(50);
    for (const id of ids) expect(text).toContain(`"${id}"`);
    expect(guide.ids.user_products?.anna_premium_deactivated).toBe(demoIds.userProducts.annaPremiumDeactivated);
  });

  test('a client and a user from it get a server token, a ticket and a user token', async () => {
    const guide = (await demo.call('/__admin/demo')).body as DemoGuide;
    const site = guide.clients.find((c) => c.name === 'Demo site')!;
    const anna = guide.users.find((u) => u.name === 'anna')!;
    const grant = (body: Record<string, string>) =>
      demo.call(paths.accessToken, {
        method: 'POST',
        json: { client_id: site.client_id, client_secret: site.client_secret, ...body },
      });
    const server = expectOk(
      await grant({ grant_type: 'none', scope: '/api/authorization/ticket' }),
      AccessTokenResponse,
    );
    const ticket = await demo.call(paths.generateTicket, {
      method: 'POST',
      json: { accountId: anna.account_id, clientId: site.client_id },
      token: server.access_token,
    });
    const { ticket: value } = expectOk(ticket, z.object({ ticket: z.string() }));
    const user = expectOk(await grant({ grant_type: 'ticket', ticket: value }), AccessTokenResponse);
    const me = expectOk(await demo.call(paths.getSignedInUser, { token: user.access_token }), z.looseObject({}));
    expect(me).toMatchObject({ email: anna.email });
  });
});

describe.each(ADAPTERS)('GET /__admin/demo of a platform started with its own SSO audience, through %s', (kind) => {
  const own = useAdapter(kind, { ssoAudience: 'sso.team.test' });

  test("sso_audience is the one the platform checks: createsession signed for it is answered, one signed for the seed's is invalid_request_token", async () => {
    const guide = expectOk(await own.call('/__admin/demo'), z.looseObject({})) as unknown as DemoGuide;
    expect(guide.sso_audience).toBe('sso.team.test');
    const site = guide.clients.find((c) => c.name === 'Demo site')!;
    const key = new TextEncoder().encode(site.client_secret);
    const createSession = async (audience: string) => {
      const now = Math.floor(own.platform.clock.now().getTime() / 1000);
      const t = await new SignJWT({
        cid: site.client_id,
        ipa: '203.0.113.9',
        uas: 'Mozilla/5.0 admin-test',
        apn: 'News',
        apv: '1.0',
        osn: 'Android',
        osv: '15',
      })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(site.organisation_id)
        .setAudience(audience)
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + 10)
        .sign(key);
      const answer = await own.call('/createsession', { method: 'POST', host: 'sso', json: { t } });
      const envelope = expectOk(answer, SsoEnvelope);
      const { payload } = await jwtVerify(envelope.t, key, { currentDate: own.platform.clock.now() });
      return payload.err;
    };
    expect(await createSession(guide.sso_audience)).toBeNull();
    expect(await createSession(DEMO_SSO_AUDIENCE)).toBe('invalid_request_token');
  });
});

describe.each(ADAPTERS)('GET /__admin/demo, another seed, through %s', (kind) => {
  const empty = useAdapter(kind, { seed: 'empty' });

  test('a platform not started with the demo seed: 404 not_found, pointing to /__admin/state', async () => {
    const before = empty.platform.snapshot();
    const answer = await empty.call('/__admin/demo');
    expectError(answer, 404, 'not_found');
    expect((answer.body as { message: string }).message).toContain('GET /__admin/state');
    expect(empty.platform.snapshot()).toEqual(before);
  });
});

test("docs/other-languages.md's admin table names every /__admin route of the platform, and no other", () => {
  const page = readFileSync(new URL('../../docs/other-languages.md', import.meta.url), 'utf8');
  const table = page.split('## The admin API')[1]?.split('\n## ')[0] ?? '';
  // Each row's first cell: `METHOD /path` items, or a bare `METHOD` that takes the path of the next item.
  const documented = new Set<string>();
  for (const [, cell = ''] of table.matchAll(/^\| (`[^|]*`) \|/gm)) {
    let pending: string[] = [];
    for (const [, item = ''] of cell.matchAll(/`([^`]+)`/g)) {
      const [method = '', path] = item.split(' ');
      if (path === undefined) {
        pending.push(method);
        continue;
      }
      for (const m of [...pending, method]) documented.add(`${m} ${path.replace(/\{[^}]+\}/g, '{}')}`);
      pending = [];
    }
  }
  const served = adminRoutes.map((r) => `${r.method} ${String(r.path).replace(/\{[^}]+\}/g, '{}')}`);
  expect([...documented].sort()).toEqual([...new Set(served)].sort());
});
