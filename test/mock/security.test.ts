/**
 * The admin API's exposure (hardening): no CORS on `/__admin`, an optional admin bearer token, no
 * admin API at all; the node:http adapter's Host check (DNS rebinding), `trustProxy`, and the
 * warning when it listens beyond loopback with an open admin API.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type RunningServer, type StartServerOptions, startServer } from '../../mock/node/index.js';
import { ADAPTERS, demoShop, expectError, expectUnchanged, paths, useAdapter } from './harness.js';
import { rawRequest } from './raw-http.js';

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith('access-control-'));

describe.each(ADAPTERS)('the admin API through %s', (kind) => {
  describe('by default', () => {
    const h = useAdapter(kind);

    test('answers carry no CORS header (answers, errors and preflights): no web page can read them', async () => {
      const origin = { origin: 'https://any-page.example' };
      const state = await h.call('/__admin/state', { headers: origin });
      expect(state.status).toBe(200);
      expect(corsHeaders(state.headers)).toEqual([]);
      const error = await h.call('/__admin/clock', { method: 'POST', json: { advance_seconds: 'x' }, headers: origin });
      expect(error.status).toBe(400);
      expect(corsHeaders(error.headers)).toEqual([]);
      const preflight = await h.call('/__admin/reset', {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'POST' },
      });
      expect(corsHeaders(preflight.headers)).toEqual([]);
    });

    test('the API itself keeps its CORS headers', async () => {
      const answer = await h.call(paths.products, { token: h.token(), headers: { origin: 'https://site.example' } });
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
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
      expect((await h.call(paths.products, { token: h.token() })).status).toBe(200);
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
        for (const path of ['/__admin/state', paths.products]) {
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

    test("allowedHosts 'all' answers any host", async () => {
      const { url } = await start({ allowedHosts: 'all' });
      expect((await rawRequest(url, '/__admin/state', { headers: { host: 'anything.example' } })).status).toBe(200);
    });
  });

  describe('trustProxy', () => {
    const loginPage = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
    const forwarded = { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7, 10.0.0.1' };

    test('behind a TLS proxy the shop cookie is Secure, and the journal records the client IP', async () => {
      const { url, platform } = await start({ trustProxy: true });
      const answer = await rawRequest(url, loginPage, { headers: forwarded });
      expect(String(answer.headers['set-cookie'])).toMatch(/^shop_csrf=[^;]+;.*; Secure$/);
      expect(platform.requests.list().at(-1)?.ip).toBe('203.0.113.7');
    });

    test('without it, both headers are ignored', async () => {
      const { url, platform } = await start();
      const answer = await rawRequest(url, loginPage, { headers: forwarded });
      expect(String(answer.headers['set-cookie'])).not.toMatch(/Secure/);
      expect(platform.requests.list().at(-1)?.ip).toBe('127.0.0.1');
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
