/**
 * The admin API's exposure (hardening): no CORS on `/__admin`, no request from another site's page
 * (Origin, Sec-Fetch-Site, a JSON Content-Type), an optional admin bearer token, no admin API at
 * all; a cross-site login on the shop; the node:http adapter's Host check (DNS rebinding), its own
 * refusals for a platform it reaches through `handle`, `trustProxy`, the request log's redaction,
 * and the warning when it listens beyond loopback with an open admin API.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { internalsOf } from '../../mock/core/internals.js';
import { createPlatform, type Platform } from '../../mock/index.js';
import {
  type RequestLogLine,
  type RunningServer,
  type StartServerOptions,
  startServer,
} from '../../mock/node/index.js';
import { until } from '../until.js';
import {
  ADAPTERS,
  type Answer,
  demoIds,
  demoShop,
  demoUsers,
  expectError,
  expectUnchanged,
  paths,
  READ,
  requestsTo,
  useAdapter,
} from './harness.js';
import { closedByServer, openSocket, rawRequest } from './raw-http.js';

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe.each(ADAPTERS)('the admin API through %s', (kind) => {
  describe('by default', () => {
    const h = useAdapter(kind);

    test('answers carry no CORS header (answers, errors, refusals and preflights): no web page can read them', async () => {
      const page = { origin: 'http://localhost:5173' };
      const state = await h.call('/__admin/state', { headers: page });
      expect(state.status).toBe(200);
      expect(corsHeaders(state.headers)).toEqual([]);
      const error = await h.call('/__admin/clock', { method: 'POST', json: { advance_seconds: 'x' }, headers: page });
      expect(error.status).toBe(400);
      expect(corsHeaders(error.headers)).toEqual([]);
      const refused = await h.call('/__admin/state', { headers: { origin: 'https://any-page.example' } });
      expect(refused.status).toBe(403);
      expect(corsHeaders(refused.headers)).toEqual([]);
      const preflight = await h.call('/__admin/reset', {
        method: 'OPTIONS',
        headers: { ...page, 'access-control-request-method': 'POST' },
      });
      expect(corsHeaders(preflight.headers)).toEqual([]);
    });

    test("the API itself keeps its CORS headers for a page of this machine (and, under MSW, for any page: it is the suite's own)", async () => {
      const origin = kind === 'msw' ? 'https://site.example' : 'http://localhost:5173';
      const answer = await h.call(paths.getProducts, { token: h.token(), headers: { origin } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    });
  });

  describe("refuses another site's web page, which can send a simple request without reading the answer", () => {
    const h = useAdapter(kind);
    /** What a page's form post or `text/plain` fetch would do to each kind of admin route. */
    const routes = [
      ['a write: POST /__admin/clock', 'POST', '/__admin/clock', '{"advance_seconds":86400}'],
      ['a write: POST /__admin/faults', 'POST', '/__admin/faults', '{"path":"/external/*","status":500}'],
      ['a write without a body: POST /__admin/reset', 'POST', '/__admin/reset', undefined],
      ['a write: POST /__admin/tokens', 'POST', '/__admin/tokens', '{"scopes":["/external/product/r"]}'],
      ['a read: GET /__admin/state', 'GET', '/__admin/state', undefined],
      ['a read: GET /__admin/requests', 'GET', '/__admin/requests', undefined],
      ['a read of the demo secrets: GET /__admin/demo', 'GET', '/__admin/demo', undefined],
    ] as const;
    const browsers = [
      [
        'Origin of another site and Sec-Fetch-Site: cross-site',
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
        'sec-fetch-site',
      ],
      ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, 'sec-fetch-site'],
      ['an Origin of another site, without Sec-Fetch-Site', { origin: 'https://evil.example' }, 'origin'],
      ['Origin: null (a sandboxed page)', { origin: 'null' }, 'origin'],
    ] as const;

    /**
     * Everything a refused admin request could have changed: the state, the clock, the faults, the
     * journal. The clock is frozen first, so that any move of it shows, however small.
     */
    async function expectNothingChanged(act: () => Promise<Answer>): Promise<Answer> {
      h.platform.clock.freeze();
      const clock = h.platform.clock.now().getTime();
      const faults = h.platform.faults.list();
      const journal = h.platform.requests.list().length;
      const answer = await expectUnchanged(h.platform, act);
      expect({ now: h.platform.clock.now().getTime(), frozen: h.platform.clock.frozen }).toEqual({
        now: clock,
        frozen: true,
      });
      expect(h.platform.faults.list()).toEqual(faults);
      expect(h.platform.requests.list()).toHaveLength(journal);
      return answer;
    }

    describe.each(browsers)('%s', (_, headers, field) => {
      test.each(routes)('%s: 403 cross_site_request; nothing changes', async (_, method, path, body) => {
        // State a reset would drop: a token and a journal entry.
        h.token();
        await h.call('/nope');
        const answer = await expectNothingChanged(() =>
          h.call(path, { method, body, headers: { ...headers, ...(body ? { 'content-type': 'text/plain' } : {}) } }),
        );
        expectError(answer, 403, 'cross_site_request', field);
        expect(corsHeaders(answer.headers)).toEqual([]);
      });
    });

    test.each(routes.filter(([, method]) => method === 'POST'))(
      '%s from a browser that sends no Origin: a body or a Content-Type other than application/json is 400 invalid_content_type_error; nothing changes',
      async (_, method, path, body) => {
        h.token();
        await h.call('/nope');
        for (const contentType of [
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
        ]) {
          const answer = await expectNothingChanged(() =>
            h.call(path, { method, body: body ?? '', headers: { 'content-type': contentType } }),
          );
          expectError(answer, 400, 'invalid_content_type_error', 'content-type');
        }
        if (body !== undefined) {
          // A body with no Content-Type at all (a Blob without a type) is refused too.
          const raw = await expectNothingChanged(async () => {
            const res = await fetch(`${h.origin()}${path}`, { method, body: new Blob([body]) });
            const text = await res.text();
            return { status: res.status, headers: res.headers, body: JSON.parse(text), text };
          });
          expectError(raw, 400, 'invalid_content_type_error', 'content-type');
        }
      },
    );

    test.each([
      [
        'its own origin, Sec-Fetch-Site: same-origin',
        (origin: string) => ({ origin, 'sec-fetch-site': 'same-origin' }),
      ],
      ['a loopback origin (a local dev server)', () => ({ origin: 'http://localhost:5173' })],
      ['Sec-Fetch-Site: none (typed in the address bar)', () => ({ 'sec-fetch-site': 'none' })],
      ['no Origin and no Sec-Fetch-Site (curl, Node, the SDK-less helpers)', () => ({})],
    ])('%s: answered', async (_, headers) => {
      const sent = headers(h.origin());
      expect((await h.call('/__admin/state', { headers: sent })).status).toBe(200);
      const answer = await h.call('/__admin/clock', { method: 'POST', json: { advance_seconds: 60 }, headers: sent });
      expect(answer.status).toBe(200);
      expect((await h.call('/__admin/reset', { method: 'POST', headers: sent })).status).toBe(204);
    });

    test('in process, platform.handle answers a request with neither header', async () => {
      const answer = await h.platform.handle(
        new Request('https://api.platform.test/__admin/clock', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"advance_seconds":60}',
        }),
      );
      expect(answer.status).toBe(200);
    });
  });

  describe('with adminToken', () => {
    const h = useAdapter(kind, { adminToken: 's3cret-admin-token' });

    test.each([
      ['no Authorization', undefined],
      ['a wrong bearer', 'Bearer wrong-token'],
      ['the token without "Bearer"', 's3cret-admin-token'],
    ])('%s: 401 invalid_token naming authorization; the reset does not happen', async (_, authorization) => {
      h.platform.clock.advance(3600);
      const frozenAt = h.platform.clock.now().toISOString();
      const answer = await expectUnchanged(h.platform, () =>
        h.call('/__admin/reset', { method: 'POST', headers: authorization ? { authorization } : {} }),
      );
      expectError(answer, 401, 'invalid_token', 'authorization');
      expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(answer.text).not.toContain('s3cret-admin-token');
      expect(h.platform.clock.now().toISOString() >= frozenAt).toBe(true);
    });

    test('the bearer opens it; the API is unaffected', async () => {
      const answer = await h.call('/__admin/state', { headers: { authorization: 'Bearer s3cret-admin-token' } });
      expect(answer.status).toBe(200);
      expect((await h.call(paths.getProducts, { token: h.token() })).status).toBe(200);
    });

    test('an empty admin token is refused when the platform is created', async () => {
      const { createPlatform } = await import('../../mock/index.js');
      expect(() => createPlatform({ adminToken: '' })).toThrow(expect.objectContaining({ field: 'adminToken' }));
    });
  });

  describe('with admin: false', () => {
    const h = useAdapter(kind, { admin: false });

    test.each(['/__admin/state', '/__admin/requests', '/__admin'])(
      '%s: 404 not_found, as an unknown path',
      async (path) => {
        expectError(await h.call(path), 404, 'not_found');
      },
    );
  });
});

describe.each(ADAPTERS)('the shop through %s', (kind) => {
  const h = useAdapter(kind);
  const market = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
  /** Shop sessions live beside the state document, which snapshot() leaves out: counted in process. */
  const sessions = () => internalsOf(h.platform)?.state.shopSessions.size;

  test('a cross-site login post is refused with a 403 page and creates no shop session; the same post from the page logs in', async () => {
    const page = await h.call(market, { host: 'shop' });
    const cookie = page.headers.getSetCookie()[0]?.split(';')[0] ?? '';
    const form = {
      group_id: demoShop.groupId,
      marketplace_id: demoShop.marketplaceId,
      email: demoUsers.anna.email,
      password: demoUsers.anna.password,
      csrf_token: /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? '',
    };
    const post = (headers: Record<string, string>) =>
      h.call('/shop/login', { method: 'POST', host: 'shop', form, headers: { cookie, ...headers } });
    expect(sessions()).toBe(0);
    const refused = await expectUnchanged(h.platform, () =>
      post({ origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }),
    );
    expect(refused.status).toBe(403);
    expect(refused.headers.getSetCookie().some((c) => c.startsWith('shop_session='))).toBe(false);
    expect(sessions()).toBe(0);
    expect((await post({ 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect(sessions()).toBe(1);
  });
});

describe('the node:http adapter', () => {
  let server: RunningServer | undefined;
  const start = async (options: StartServerOptions = {}) => {
    server = await startServer({ port: 0, seed: 'demo', ...options });
    return server;
  };
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  describe('answers only the host names it is meant to be reached by (DNS rebinding)', () => {
    test.each(['evil.example', 'evil.example:4010', '192.168.1.20', ''])(
      'Host %j: 403 host_not_allowed naming host, on the API and on /__admin; nothing changes',
      async (host) => {
        const { url, platform } = await start();
        for (const path of ['/__admin/state', paths.getProducts]) {
          const answer = await expectUnchanged(platform, () => rawRequest(url, path, { headers: { host } }));
          expect(answer.status).toBe(403);
          expect(answer.json).toMatchObject({ code: 'host_not_allowed', field: 'host' });
          if (path.startsWith('/__admin')) expect(answer.headers['access-control-allow-origin']).toBeUndefined();
        }
      },
    );

    test.each(['localhost', 'LOCALHOST:4010', 'app.localhost', '127.0.0.1', '127.1.2.3:80', '[::1]:4010'])(
      'Host %j (loopback) is answered',
      async (host) => {
        const { url } = await start();
        expect((await rawRequest(url, '/__admin/state', { headers: { host } })).status).toBe(200);
      },
    );

    test('allowedHosts: an exact name, and a leading dot for a domain and its subdomains', async () => {
      const { url } = await start({ allowedHosts: ['mock.test', '.dev.example'] });
      for (const host of ['mock.test', 'dev.example', 'a.b.dev.example:8080'])
        expect((await rawRequest(url, '/__admin/state', { headers: { host } })).status, host).toBe(200);
      for (const host of ['other.test', 'notdev.example', 'mock.test.evil.example'])
        expect((await rawRequest(url, '/__admin/state', { headers: { host } })).status, host).toBe(403);
    });

    test('the verdict on each Host is remembered, boundedly: 200 host names in turn, twice over, each answered as the first time', async () => {
      const { url, platform } = await start({ allowedHosts: ['.dev.example'] });
      const hosts = Array.from({ length: 200 }, (_, i) => (i % 2 ? `h${i}.dev.example` : `h${i}.evil.example`));
      // The clock: the smallest answer of /__admin (the whole state, 200 times over, is most of the cost).
      for (const round of [1, 2])
        for (const [i, host] of hosts.entries()) {
          const answer = await rawRequest(url, '/__admin/clock', { headers: { host } });
          expect(answer.status, `${host} round ${round}`).toBe(i % 2 ? 200 : 403);
        }
      const refused = await expectUnchanged(platform, () =>
        rawRequest(url, paths.getProducts, { headers: { host: 'h0.evil.example' } }),
      );
      expect(refused.json).toMatchObject({ code: 'host_not_allowed', field: 'host' });
    });

    test('allowedHosts: an IPv4 address, an IPv6 one in brackets and a name with _ are hosts too; an entry that can match no host (a scheme, a port, a *, a path) refuses the start, naming it', async () => {
      const { url } = await start({ allowedHosts: ['10.0.0.2', '[fd00::2]', 'platform_mock'] });
      for (const host of ['10.0.0.2:4010', '[fd00::2]', 'platform_mock:4010'])
        expect((await rawRequest(url, '/__admin/clock', { headers: { host } })).status, host).toBe(200);
      for (const entry of ['http://mock.test', 'mock.test:8080', '*.dev.example', 'mock.test/x', 'a..test', '.'])
        await expect(startServer({ port: 0, allowedHosts: ['ok.test', entry] }), entry).rejects.toThrow(
          `${JSON.stringify(entry)} can match no request's host`,
        );
    });

    test("allowedHosts 'all' answers any host", async () => {
      const { url } = await start({ allowedHosts: 'all' });
      expect((await rawRequest(url, '/__admin/state', { headers: { host: 'anything.example' } })).status).toBe(200);
    });
  });

  describe('trustProxy', () => {
    const loginPage = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };

    /** Logs Anna in through the shop's login form, as a browser behind the proxy would; answers both Set-Cookie lines. */
    async function logIn(url: string): Promise<{ csrf: string; session: string }> {
      const page = await rawRequest(url, loginPage, { headers: forwarded });
      const csrf = String(page.headers['set-cookie']);
      const token = /name="csrf_token" value="([^"]*)"/.exec(page.text)?.[1] ?? '';
      const form = new URLSearchParams({
        group_id: demoShop.groupId,
        marketplace_id: demoShop.marketplaceId,
        email: demoUsers.anna.email,
        password: demoUsers.anna.password,
        csrf_token: token,
      });
      const login = await rawRequest(url, '/shop/login', {
        method: 'POST',
        headers: {
          ...forwarded,
          'content-type': 'application/x-www-form-urlencoded',
          cookie: csrf.slice(0, csrf.indexOf(';')),
        },
        body: form.toString(),
      });
      expect(login.status, login.text).toBe(303);
      const session = [login.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('shop_session='));
      return { csrf, session: session ?? '' };
    }

    test('behind a TLS proxy the shop cookies (shop_csrf, shop_session) are Secure, and the journal records the client IP', async () => {
      const { url, platform } = await start({ trustProxy: true });
      const { csrf, session } = await logIn(url);
      expect(csrf).toMatch(/^shop_csrf=[^;]+;.*; Secure$/);
      expect(session).toMatch(/^shop_session=[^;]+;.*; Secure$/);
      expect(requestsTo(platform, '/shop/login').map((e) => e.ip)).toEqual(['203.0.113.7']);
    });

    test('without it, both headers are ignored', async () => {
      const { url, platform } = await start();
      const { csrf, session } = await logIn(url);
      expect(csrf).toMatch(/^shop_csrf=/);
      expect(csrf).not.toMatch(/Secure/);
      expect(session).toMatch(/^shop_session=/);
      expect(session).not.toMatch(/Secure/);
      expect(requestsTo(platform, '/shop/login').map((e) => e.ip)).toEqual(['127.0.0.1']);
    });
  });

  describe('serving a platform not made by createPlatform (through its handle)', () => {
    /** A platform that wraps another and counts what reaches its handle. */
    function wrapped() {
      const inner = createPlatform({ seed: 'demo' });
      const seen: string[] = [];
      const outer: Platform = {
        ...inner,
        handle: (request, info) => {
          seen.push(`${request.method} ${new URL(request.url).pathname}`);
          return inner.handle(request, info);
        },
      };
      return { inner, outer, seen };
    }

    test('a Host it does not serve: the server answers 403 host_not_allowed as JSON; the platform never sees it', async () => {
      const { inner, outer, seen } = wrapped();
      const { url } = await start({ platform: outer });
      inner.mintToken({ scopes: ['/external/product/r'] });
      const answer = await expectUnchanged(inner, () =>
        rawRequest(url, '/__admin/reset', { method: 'POST', headers: { host: 'evil.example' } }),
      );
      expect(answer.status).toBe(403);
      expect(answer.json).toMatchObject({ code: 'host_not_allowed', field: 'host', message: expect.any(String) });
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(seen).toEqual([]);
      expect((await rawRequest(url, '/__admin/state')).status).toBe(200);
      expect(seen).toEqual(['GET /__admin/state']);
    });

    test('a body over the limit: the server answers 413 payload_too_large as JSON; the platform never sees it (the reset does not run without its body)', async () => {
      const { inner, outer, seen } = wrapped();
      const { url } = await start({ platform: outer, maxBodyBytes: 1024 });
      inner.mintToken({ scopes: ['/external/product/r'] });
      const body = JSON.stringify({ pad: 'x'.repeat(2048) });
      for (const headers of [{}, { 'transfer-encoding': 'chunked' }] as Record<string, string>[]) {
        const answer = await expectUnchanged(inner, () =>
          rawRequest(url, '/__admin/reset', {
            method: 'POST',
            headers: { 'content-type': 'application/json', ...headers },
            body,
          }),
        );
        expect(answer.status).toBe(413);
        expect(answer.json).toMatchObject({ code: 'payload_too_large', field: 'body', message: expect.any(String) });
      }
      const api = await rawRequest(url, paths.accessToken, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
      expect(api.status).toBe(413);
      expect(api.headers['access-control-allow-origin']).toBe('*');
      expect(seen).toEqual([]);
    });
  });

  describe("another site's web page may send, not read: no CORS headers for its origin", () => {
    const grant = JSON.stringify({
      grant_type: 'none',
      client_id: demoIds.clients.demo.clientId,
      client_secret: demoIds.clients.demo.clientSecret,
    });
    test.each(['https://evil.example', 'null', 'http://192.168.1.20:3000'])(
      'Origin %s: the token grant (the public demo secret) is answered without access-control-allow-origin, and the preflight of a price write allows nothing',
      async (origin) => {
        const { url } = await start();
        const token = await rawRequest(url, paths.accessToken, {
          method: 'POST',
          headers: { 'content-type': 'text/plain', origin },
          body: grant,
        });
        expect(Object.keys(token.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
        const preflight = await rawRequest(url, paths.updatePrices, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'authorization, content-type',
          },
        });
        expect(Object.keys(preflight.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      },
    );

    test.each(['http://localhost:5173', 'http://127.0.0.1:3000', undefined])(
      'Origin %s (a page of this machine, or no page): the API keeps its CORS headers',
      async (origin) => {
        const { url } = await start();
        const answer = await rawRequest(url, paths.accessToken, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
          body: grant,
        });
        expect(answer.status).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe('*');
        const preflight = await rawRequest(url, paths.updatePrices, {
          method: 'OPTIONS',
          headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST' },
        });
        expect(preflight.headers['access-control-allow-origin']).toBe('*');
      },
    );

    test('a host listed with --allowed-hosts is a page of the team: it keeps them', async () => {
      const { url } = await start({ allowedHosts: ['.dev.example'] });
      const answer = await rawRequest(url, paths.accessToken, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://app.dev.example' },
        body: grant,
      });
      expect(answer.headers['access-control-allow-origin']).toBe('*');
    });
  });

  describe('the request log (onRequest)', () => {
    test("an SSO session's sid in an admin path is redacted, as are secret query parameters", async () => {
      const lines: RequestLogLine[] = [];
      const { url } = await start({ onRequest: (line) => lines.push(line) });
      const sid = 'sid-in-the-path-0123456789abcdef';
      const targets = [
        [`/__admin/sso/sessions/${sid}`, 'GET', '/__admin/sso/sessions/[redacted]'],
        [`/__admin/sso/sessions/${sid}/`, 'GET', '/__admin/sso/sessions/[redacted]/'],
        [`/__admin/sso/sessions/${sid}?at=${sid}&x=1`, 'DELETE', '/__admin/sso/sessions/[redacted]?at=[redacted]&x=1'],
        [`/__admin/sso/sessions/${sid}/terminate`, 'POST', '/__admin/sso/sessions/[redacted]/terminate'],
        [`/__admin/sso/../sso/sessions/${sid}`, 'GET', '/__admin/sso/sessions/[redacted]'],
        [`/__admin/state?ticket=${sid}`, 'GET', '/__admin/state?ticket=[redacted]'],
      ] as const;
      for (const [target, method] of targets) {
        // Written as is on the socket: a client library would resolve the dot segment itself.
        const socket = await openSocket(url);
        const closed = closedByServer(socket);
        socket.write(`${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
        expect(await closed).toMatch(/^HTTP\/1\.1 \d{3} /);
      }
      await until(() => expect(lines).toHaveLength(targets.length));
      expect(lines.map((l) => l.path)).toEqual(targets.map(([, , logged]) => logged));
      expect(JSON.stringify(lines)).not.toContain(sid);
    });

    test("a line per answered request: method, path, status, time and the answer's correlation id", async () => {
      const lines: RequestLogLine[] = [];
      const { url, platform } = await start({ onRequest: (line) => lines.push(line) });
      const token = platform.mintToken({ scopes: [READ] }).access_token;
      const answers = [
        await rawRequest(url, `${paths.getProducts}?product_type=packages`, {
          headers: { authorization: `Bearer ${token}` },
        }),
        await rawRequest(url, paths.getProducts),
      ];
      await until(() => expect(lines).toHaveLength(2));
      expect(lines).toEqual([
        expect.objectContaining({ method: 'GET', path: `${paths.getProducts}?product_type=packages`, status: 200 }),
        expect.objectContaining({ method: 'GET', path: paths.getProducts, status: 401 }),
      ]);
      expect(lines.map((l) => l.correlationId)).toEqual(answers.map((a) => a.headers['x-correlation-id']));
      expect(lines.every((l) => typeof l.correlationId === 'string' && l.durationMs >= 0)).toBe(true);
    });
  });

  describe('listening beyond loopback', () => {
    test('with an open admin API: a warning that says what is exposed and what to do', async () => {
      const warnings: string[] = [];
      await start({ host: '0.0.0.0', warn: (m) => warnings.push(m) });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/admin/i);
      expect(warnings[0]).toMatch(/--admin-token|adminToken/);
    });

    test('with an admin token, or on loopback: no warning', async () => {
      const warnings: string[] = [];
      await start({ host: '0.0.0.0', adminToken: 'tok', warn: (m) => warnings.push(m) });
      await server?.close();
      await start({ warn: (m) => warnings.push(m) });
      expect(warnings).toEqual([]);
    });
  });
});

describe.each(ADAPTERS)('the admin token is compared whole, through %s', (kind) => {
  const ADMIN_TOKEN = 's3cret-admin-token';
  const h = useAdapter(kind, { adminToken: ADMIN_TOKEN });

  test.each([
    ['the right token with characters appended', `${ADMIN_TOKEN}x`],
    ['the right token twice', `${ADMIN_TOKEN}${ADMIN_TOKEN}`],
    ['the right token less its last character', ADMIN_TOKEN.slice(0, -1)],
    ['the right token in capitals', ADMIN_TOKEN.toUpperCase()],
  ])('%s: 401 invalid_token naming authorization; the reset does not happen', async (_, given) => {
    // A token minted first, so that a reset would show in the state.
    h.token();
    const answer = await expectUnchanged(h.platform, () =>
      h.call('/__admin/reset', { method: 'POST', headers: { authorization: `Bearer ${given}` } }),
    );
    expectError(answer, 401, 'invalid_token', 'authorization');
  });

  test('the right token, whole: the reset happens', async () => {
    h.token();
    const minted = h.platform.snapshot().access_tokens.length;
    const answer = await h.call('/__admin/reset', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(answer.status).toBe(204);
    expect(h.platform.snapshot().access_tokens.length).toBe(minted - 1);
  });
});

describe.each(ADAPTERS)('the admin guard as a caller meets it, through %s', (kind) => {
  describe('with adminToken', () => {
    const ADMIN_TOKEN = 's3cret-admin-token';
    const h = useAdapter(kind, { adminToken: ADMIN_TOKEN });

    test.each([
      ['the scheme in lower case', `bearer ${ADMIN_TOKEN}`],
      ['the scheme in capitals', `BEARER ${ADMIN_TOKEN}`],
      ['spaces between the scheme and the token', `Bearer   ${ADMIN_TOKEN}`],
    ])('%s: the state is answered', async (_, authorization) => {
      expect((await h.call('/__admin/state', { headers: { authorization } })).status).toBe(200);
    });

    test('the token under another scheme of the same length is refused', async () => {
      const answer = await h.call('/__admin/state', { headers: { authorization: `Basic: ${ADMIN_TOKEN}` } });
      expectError(answer, 401, 'invalid_token', 'authorization');
    });

    test('a refusal says what it requires, in a WWW-Authenticate challenge naming the realm', async () => {
      const answer = await h.call('/__admin/state', { headers: { authorization: 'Bearer wrong' } });
      const body = expectError(answer, 401, 'invalid_token', 'authorization');
      expect(body.message).toBe('The admin API requires Authorization: Bearer <admin token>');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer realm="platform-admin"');
    });
  });

  describe('by default', () => {
    const h = useAdapter(kind);

    test.each([
      ['an Origin with a path', 'http://localhost:5173/page'],
      ['an Origin that is no URL', 'not an origin'],
      ['a loopback Origin of another scheme', 'ftp://localhost'],
    ])('%s: 403 cross_site_request naming origin, in words; nothing changes', async (_, origin) => {
      const answer = await expectUnchanged(h.platform, () =>
        h.call('/__admin/clock', { method: 'POST', json: { advance_seconds: 60 }, headers: { origin } }),
      );
      const body = expectError(answer, 403, 'cross_site_request', 'origin');
      expect(body.message).toBe("The admin API refuses requests sent by another origin's web page");
    });

    test('a Sec-Fetch-Site of another site is named in the refusal, cut to 20 characters', async () => {
      const site = `cross-site${'x'.repeat(30)}`;
      const answer = await h.call('/__admin/state', { headers: { 'sec-fetch-site': site } });
      const body = expectError(answer, 403, 'cross_site_request', 'sec-fetch-site');
      expect(body.message).toBe(
        `The admin API refuses requests sent by another site's web page (Sec-Fetch-Site: ${site.slice(0, 20)})`,
      );
    });

    test('a loopback https Origin (a local dev server on TLS) is answered', async () => {
      const answer = await h.call('/__admin/state', { headers: { origin: 'https://127.0.0.1:5173' } });
      expect(answer.status).toBe(200);
    });

    test('an empty body without a Content-Type is no body: the reset happens', async () => {
      const res = await fetch(`${h.origin()}/__admin/reset`, { method: 'POST', body: new Blob([]) });
      expect(res.status).toBe(204);
    });

    test('a body of another type is refused in words naming the type required', async () => {
      const answer = await h.call('/__admin/clock', {
        method: 'POST',
        body: '{"advance_seconds":60}',
        headers: { 'content-type': 'text/plain' },
      });
      const body = expectError(answer, 400, 'invalid_content_type_error', 'content-type');
      expect(body.message).toBe('Content-Type must be application/json');
    });

    test('a Content-Type of application/json with parameters, in any letter case, is accepted', async () => {
      const answer = await h.call('/__admin/clock', {
        method: 'POST',
        body: '{"advance_seconds":60}',
        headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      });
      expect(answer.status).toBe(200);
    });
  });

  describe('with admin: false', () => {
    const h = useAdapter(kind, { admin: false });

    test('the 404 reads as for any path the platform does not serve', async () => {
      const body = expectError(await h.call('/__admin/state'), 404, 'not_found');
      expect(body.message).toBe('No route for GET /__admin/state');
    });
  });
});
