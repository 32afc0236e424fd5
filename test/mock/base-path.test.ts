/**
 * A platform under a base path (`createPlatform({ basePath })`, what a namespace of the standalone
 * server is), through both adapters: its routes are served there and nowhere else, and every URL it
 * writes keeps the base: the shop's forms, links and redirects, its cookies' `Path`, SSO identify's
 * cookie, the served OpenAPI document's servers. The journal and faults see the path after it.
 */
import { SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { createPlatform } from '../../mock/index.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import {
  ADAPTERS,
  type Answer,
  DEMO_SSO_AUDIENCE,
  demoIds,
  demoShop,
  demoSite,
  demoUsers,
  expectError,
  expectOk,
  expectUnchanged,
  type Harness,
  paths,
  useAdapter,
} from './harness.js';

const BASE = '/_ns/team-a';
const MARKET = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
const market = { group_id: demoShop.groupId, marketplace_id: demoShop.marketplaceId };

function location(answer: Answer, status = 303): string {
  expect(answer.status, answer.text).toBe(status);
  return answer.headers.get('location') ?? '';
}

/** Every root-relative URL of a page's links and forms. */
function urlsOf(page: string): string[] {
  return [...page.matchAll(/(?:href|action)="(\/[^"]*)"/g)].map((m) => m[1]!);
}

/** A browser of the shop: a cookie jar (keeping each cookie's `Path`) and the last page's CSRF token. */
function browser(h: Harness) {
  const jar = new Map<string, string>();
  const paths = new Map<string, string>();
  let csrf: string | undefined;
  const remember = (answer: Answer) => {
    for (const set of answer.headers.getSetCookie()) {
      const [pair = '', ...attributes] = set.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      paths.set(pair.slice(0, eq), attributes.find((a) => a.startsWith('Path='))?.slice(5) ?? '');
    }
    csrf = /name="csrf_token" value="([^"]*)"/.exec(answer.text)?.[1] ?? csrf;
    return answer;
  };
  const headers = () => ({ cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') });
  return {
    /** The `Path` of each cookie set so far. */
    paths,
    get: async (path: string, query?: Record<string, string>) =>
      remember(await h.call(path, { host: 'shop', query, headers: headers() })),
    post: async (path: string, form: Record<string, string>) =>
      remember(
        await h.call(path, {
          method: 'POST',
          host: 'shop',
          form: { csrf_token: csrf ?? '', ...form },
          headers: headers(),
        }),
      ),
  };
}

describe.each(ADAPTERS)('a platform under a base path, through %s', (kind) => {
  const h = useAdapter(kind, { basePath: BASE, now: '2030-01-15T12:00:00Z' });

  test('serves every route under the base; a path outside it is 404 not_found, and nothing changes', async () => {
    const token = h.token();
    const items = expectOk(await h.call(`${BASE}${paths.getProducts}`, { token }), GetProductsResponse).items;
    expect(items.length).toBeGreaterThan(0);
    for (const outside of [paths.getProducts, `/_ns/team-ab${paths.getProducts}`, '/_ns', '/__admin/state']) {
      const answer = await expectUnchanged(h.platform, () => h.call(outside, { token }));
      expectError(answer, 404, 'not_found');
    }
    expect((await h.call(`${BASE}/__admin/state`)).status).toBe(200);
  });

  test('the journal keeps the URL as received and the path after the base; a fault names that path', async () => {
    h.platform.faults.add({ path: paths.getProducts, status: 503 });
    const answer = await h.call(`${BASE}${paths.getProducts}`, { token: h.token() });
    expectError(answer, 503, 'internal_server_error');
    const id = answer.headers.get('x-correlation-id');
    const entry = h.platform.requests.list().find((e) => e.correlation_id === id);
    expect(entry?.path).toBe(paths.getProducts);
    expect(entry?.url).toBe(`${h.origin()}${BASE}${paths.getProducts}`);
  });

  test("the shop's pages, forms, redirects and cookies keep the base, from the ticket to the way back", async () => {
    const b = browser(h);
    const at = h.platform.issueTicket({ accountId: demoIds.accounts.anna, clientId: demoShop.clientId });
    const returnUrl = 'http://localhost:3000/back';
    // The ticket leaves the address bar by a redirect to the same page, under the base.
    const store = location(await b.get(`${BASE}${MARKET}`, { at, returnUrl }));
    expect(store).toBe(`${BASE}${MARKET}?returnUrl=${encodeURIComponent(returnUrl)}`);
    const page = (await b.get(store)).text;
    expect(urlsOf(page).sort()).toEqual([`${BASE}/shop/logout`, `${BASE}/shop/purchase`]);
    const bought = location(
      await b.post(`${BASE}/shop/purchase`, { ...market, period_id: demoIds.periods.premiumCreditcard, returnUrl }),
    );
    expect(bought).toMatch(new RegExp(`^${BASE}/shop/confirmation/[a-f\\d]{24}\\?returnUrl=`));
    const confirmation = (await b.get(bought)).text;
    const back = urlsOf(confirmation).find((u) => u.includes('/shop/return'));
    expect(back).toBe(`${BASE}/shop/return?returnUrl=${encodeURIComponent(returnUrl)}`);
    expect(urlsOf(confirmation)).toContain(`${BASE}/shop/logout`);
    // The way back carries a ticket to the site (localhost has a ticket configuration).
    const site = new URL(location(await b.get(back!.replace(/&amp;/g, '&'))));
    expect(site.origin + site.pathname).toBe(returnUrl);
    expect(site.searchParams.get('ticket')).toMatch(/\S/);
    expect(location(await b.post(`${BASE}/shop/logout`, market))).toBe(`${BASE}${MARKET}`);
    expect(Object.fromEntries(b.paths)).toEqual({ shop_session: BASE });
  });

  test("the login and sign-up forms post under the base, and the CSRF cookie and the session's are scoped to it", async () => {
    const b = browser(h);
    const login = (await b.get(`${BASE}${MARKET}`)).text;
    expect(urlsOf(login)).toEqual([`${BASE}/shop/login`, `${BASE}/shop/signup`]);
    const { anna } = demoUsers;
    const to = location(await b.post(`${BASE}/shop/login`, { ...market, email: anna.email, password: anna.password }));
    expect(to).toBe(`${BASE}${MARKET}`);
    expect(Object.fromEntries(b.paths)).toEqual({ shop_csrf: BASE, shop_session: BASE });
  });

  test("SSO identify's session cookie is scoped to the base", async () => {
    const now = Math.floor(h.platform.clock.now().getTime() / 1000);
    const t = await new SignJWT({ cid: demoSite.clientId })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 60)
      .setIssuer(demoSite.organisationId)
      .setAudience(DEMO_SSO_AUDIENCE)
      .sign(new TextEncoder().encode(demoSite.clientSecret));
    const answer = await h.call(`${BASE}/identify`, { host: 'sso', query: { t, r: 'http://localhost:3000/' } });
    location(answer, 302);
    expect(answer.headers.get('set-cookie')).toMatch(new RegExp(`^sso_session=[^;]+; Path=${BASE}; HttpOnly`));
  });

  test("the served OpenAPI document's servers are the platform's own URL, base included", async () => {
    const answer = await h.call(`${BASE}/openapi.json`);
    const document = answer.body as {
      servers: { url: string }[];
      paths: Record<string, Record<string, { servers?: unknown }>>;
    };
    // One server, this platform's URL with its base, for every host: no operation names another.
    expect(document.servers.map((s) => s.url)).toEqual([`${h.origin()}${BASE}`]);
    const own = Object.values(document.paths).flatMap((item) => Object.values(item).filter((op) => op.servers));
    expect(own).toEqual([]);
    expect(document.paths[paths.getProducts]?.get).toBeDefined();
  });
});

describe('the basePath option', () => {
  test.each(['/_ns/a/', '_ns/a', '/_ns//a', '/_ns/../a', '/a b'])('%s is refused, naming basePath', (basePath) => {
    expect(() => createPlatform({ basePath })).toThrow(expect.objectContaining({ status: 400, field: 'basePath' }));
  });

  test('an empty base path is the root: the platform as it always was', () => {
    expect(() => createPlatform({ basePath: '' })).not.toThrow();
  });
});
