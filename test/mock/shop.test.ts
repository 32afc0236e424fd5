/**
 * The shop (endpoint 25) and the return flow (shop to site), through both adapters: HTML pages,
 * the `shop_session` cookie, purchases as user-products, tickets back to the site; and no secret
 * in the request journal after the whole sign-on flow.
 */
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { internalsOf } from '../../mock/core/internals.js';
import type { StateDocument } from '../../mock/index.js';
import { AccessTokenResponse, GenerateTicketResponse } from '../../src/schemas/authorization.js';
import { IdResponse } from '../../src/schemas/common.js';
import { OrderValidationResponse } from '../../src/schemas/orders.js';
import { GetPaymentPeriodsResponse } from '../../src/schemas/products.js';
import { SignedInUser, SsoEnvelope } from '../../src/schemas/sign-on.js';
import { until } from '../until.js';
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
  holdCalls,
  paths,
  useAdapter,
} from './harness.js';

const MARKET = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
const periods = demoIds.periods;
const { anna, bo } = demoIds.accounts;

function expectPage(answer: Answer, status = 200): string {
  expect(answer.status, answer.text).toBe(status);
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('referrer-policy')).toBe('same-origin');
  expect(answer.text).toMatch(/^<!doctype html>/);
  return answer.text;
}

function expectRedirect(answer: Answer): string {
  expect(answer.status, answer.text).toBe(303);
  // A redirect carries a ticket to the site: no Referer, not even the shop's own origin, goes with it.
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  return answer.headers.get('location')!;
}

/** The shop as a browser sees it: a cookie jar, and the CSRF token of the last page it showed. */
function browser(h: Harness) {
  const jar = new Map<string, string>();
  let csrf: string | undefined;
  const remember = (answer: Answer) => {
    for (const set of answer.headers.getSetCookie()) {
      const [pair = ''] = set.split(';');
      const eq = pair.indexOf('=');
      if (/Max-Age=0/.test(set)) jar.delete(pair.slice(0, eq));
      else jar.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    const token = /name="csrf_token" value="([^"]*)"/.exec(answer.text)?.[1];
    if (token !== undefined) csrf = token;
    return answer;
  };
  const headers = (): Record<string, string> | undefined =>
    jar.size > 0 ? { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } : undefined;
  return {
    /** The `shop_session` cookie, as sent. */
    get cookie() {
      const session = jar.get('shop_session');
      return session === undefined ? undefined : `shop_session=${session}`;
    },
    /** The CSRF token of the last page shown. */
    get csrf() {
      return csrf;
    },
    get: async (path: string, query?: Record<string, string>) =>
      remember(await h.call(path, { host: 'shop', query, headers: headers() })),
    /** Posts a form as the page would: with the page's CSRF token, unless `form` names its own. */
    post: async (path: string, form: Record<string, string>, extra: Record<string, string> = {}) =>
      remember(
        await h.call(path, {
          method: 'POST',
          host: 'shop',
          form: csrf === undefined ? form : { csrf_token: csrf, ...form },
          headers: { ...headers(), ...extra },
        }),
      ),
    /** Logs in with a ticket for `accountId` bound to the shop's client. */
    async loginWithTicket(accountId: string = anna, query: Record<string, string> = {}) {
      const at = h.platform.issueTicket({ accountId, clientId: demoShop.clientId });
      const location = expectRedirect(await this.get(MARKET, { at, ...query }));
      // The browser follows the redirect: the store page, with its forms' CSRF token.
      await this.get(location);
      return { at, location };
    },
  };
}

const market = { group_id: demoShop.groupId, marketplace_id: demoShop.marketplaceId };

/** A ticket for the shop, exchanged by the shop's client (endpoint 23). */
const exchangeForShop = (h: Harness, ticket: string) =>
  h.call(paths.accessToken, {
    method: 'POST',
    host: 'auth',
    json: { grant_type: 'ticket', ticket, client_id: demoShop.clientId, client_secret: demoShop.clientSecret },
  });

/** A ticket the shop sent back, exchanged by demo-site (endpoint 23), as the site would. */
const exchangeForSite = (h: Harness, ticket: string) =>
  h.call(paths.accessToken, {
    method: 'POST',
    host: 'auth',
    json: { grant_type: 'ticket', ticket, client_id: demoSite.clientId, client_secret: demoSite.clientSecret },
  });

describe.each(ADAPTERS)('the shop (endpoint 25) through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z' });

  describe('signing in', () => {
    test('without a ticket and without a shop session: the login form, carrying returnUrl, campaign and period', async () => {
      const b = browser(h);
      const page = expectPage(
        await b.get(MARKET, { returnUrl: 'http://localhost:5173/back', campaign: 'premium-summer', period: 'p1' }),
      );
      for (const id of ['login-email', 'login-password', 'login-submit']) expect(page).toContain(`data-testid="${id}"`);
      expect(page).toContain('action="/shop/login"');
      expect(page).toContain('name="returnUrl" value="http://localhost:5173/back"');
      expect(page).toContain('name="campaign" value="premium-summer"');
      expect(page).toContain('name="period" value="p1"');
      expect(page).not.toContain('data-testid="signed-in-as"');
      expect(b.cookie).toBeUndefined();
    });

    test('an unknown marketplace: a 404 page', async () => {
      expectPage(await browser(h).get('/marketplace/demo/nowhere'), 404);
    });

    test('a valid ticket logs the user in and is stripped from the URL by a redirect; the cookie is HttpOnly, SameSite=Lax', async () => {
      const b = browser(h);
      const query = { returnUrl: 'http://localhost:5173/back?x=1', campaign: 'premium-summer' };
      const at = h.platform.issueTicket({ accountId: anna, clientId: demoShop.clientId });
      const answer = await b.get(MARKET, { at, ...query });
      const location = expectRedirect(answer);
      expect(location).toBe(`${MARKET}?${new URLSearchParams(query)}`);
      expect(location).not.toContain(at);
      const set = answer.headers.get('set-cookie')!;
      expect(set).toMatch(/^shop_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
      expect(set.includes('; Secure')).toBe(kind === 'msw'); // https under MSW, http behind the node server
      const page = expectPage(await b.get(location));
      expect(page).toContain(`Signed in as ${demoUsers.anna.email}`);
      expect(h.platform.snapshot().tickets.find((t) => t.ticket === at)?.used_at).not.toBeNull();
      // Shop sessions are browser state, not part of the state document.
      expect(JSON.stringify(h.platform.snapshot())).not.toContain(b.cookie!.split('=')[1]);
    });

    test.each([
      [
        'a used ticket',
        (h2: Harness) => h2.platform.issueTicket({ accountId: anna, clientId: demoShop.clientId }),
        true,
      ],
      [
        'a ticket bound to another client',
        (h2: Harness) => h2.platform.issueTicket({ accountId: anna, clientId: demoSite.clientId }),
        false,
      ],
      ['an unknown ticket', () => 'u'.repeat(43), false],
    ])('%s does not log in: still a redirect without it, then the login form', async (_, make, useFirst) => {
      const at = make(h);
      if (useFirst) expectRedirect(await browser(h).get(MARKET, { at }));
      const b = browser(h);
      const location = expectRedirect(await b.get(MARKET, { at, returnUrl: 'http://localhost/x' }));
      expect(location).toBe(`${MARKET}?returnUrl=${encodeURIComponent('http://localhost/x')}`);
      expect(b.cookie).toBeUndefined();
      expect(expectPage(await b.get(location))).toContain('data-testid="login-email"');
    });

    test("a ticket that signed a browser in, presented again: refused, and the shop session its use opened ends (the platform's documentation, RFC 6749 10.5)", async () => {
      const first = browser(h);
      const { at } = await first.loginWithTicket();
      expect(expectPage(await first.get(MARKET))).toContain(`Signed in as ${demoUsers.anna.email}`);
      const second = browser(h);
      expectRedirect(await second.get(MARKET, { at }));
      expect(second.cookie).toBeUndefined();
      expect(expectPage(await first.get(MARKET))).toContain('data-testid="login-email"');
      // A session another ticket opened is not this one's.
      const other = browser(h);
      await other.loginWithTicket(bo);
      expectRedirect(await browser(h).get(MARKET, { at }));
      expect(expectPage(await other.get(MARKET))).toContain(`Signed in as ${demoUsers.bo.email}`);
    });

    test('a ticket bound to another client stays usable by that client', async () => {
      const at = h.platform.issueTicket({ accountId: anna, clientId: demoSite.clientId });
      await browser(h).get(MARKET, { at });
      const answer = await h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        json: { grant_type: 'ticket', ticket: at, client_id: demoSite.clientId, client_secret: demoSite.clientSecret },
      });
      expectOk(answer, AccessTokenResponse);
    });

    test.each(['at', 'returnUrl', 'campaign', 'period'])(
      'an empty %s breaks its rule of endpoint 25: 400 invalid_parameter naming it; nothing changes',
      async (field) => {
        const answer = await expectUnchanged(h.platform, () => browser(h).get(MARKET, { [field]: '' }));
        expectError(answer, 400, 'invalid_parameter', field);
      },
    );

    test.each([
      ['another parameter broken', { campaign: '' }, 'campaign=', 'campaign'],
      ['another parameter repeated', { period: 'p1&period=p2' }, 'period=p1&period=p2', 'period'],
      ['the ticket repeated', { at2: '' }, '', 'at'],
    ])(
      'a ticket beside a query the page refuses (%s): the ticket leaves the address bar first, unused, by a 303; the refusal answers the next request',
      async (_, extra, rest, field) => {
        const at = h.platform.issueTicket({ accountId: anna, clientId: demoShop.clientId });
        const query = Object.hasOwn(extra, 'at2')
          ? `at=${at}&at=${at}`
          : `at=${at}&${Object.entries(extra)
              .map(([k, v]) => `${k}=${v}`)
              .join('&')}`;
        const answer = await expectUnchanged(h.platform, () => h.call(`${MARKET}?${query}`, { host: 'shop' }));
        const location = expectRedirect(answer);
        expect(location).toBe(rest ? `${MARKET}?${rest}` : MARKET);
        expect(answer.headers.get('set-cookie')).toBeNull();
        if (rest) expectError(await h.call(location, { host: 'shop' }), 400, 'invalid_parameter', field);
        // Unused: its client may still exchange it.
        expectOk(await exchangeForShop(h, at), AccessTokenResponse);
      },
    );

    test('an at of 513 characters, longer than any ticket: 400 invalid_parameter naming at, in the common JSON error body; nothing changes', async () => {
      const answer = await expectUnchanged(h.platform, () => browser(h).get(MARKET, { at: 'T'.repeat(513) }));
      expect(expectError(answer, 400, 'invalid_parameter', 'at').message).toBe('Parameter size must be at most 512');
    });

    test('parameters endpoint 25 does not name pass through the redirect that drops the ticket', async () => {
      const at = h.platform.issueTicket({ accountId: anna, clientId: demoShop.clientId });
      const query = { return_url: 'http://localhost/y', utm_source: 'news' };
      const location = expectRedirect(await browser(h).get(MARKET, { at, ...query }));
      expect(location).toBe(`${MARKET}?${new URLSearchParams(query)}`);
    });

    test('an expired ticket does not log in (the platform clock decides)', async () => {
      const at = h.platform.issueTicket({ accountId: anna, clientId: demoShop.clientId });
      h.platform.clock.advance(60);
      const b = browser(h);
      await b.get(MARKET, { at });
      expect(b.cookie).toBeUndefined();
    });

    test('the login form: a wrong password or an unknown e-mail re-shows it with an error; no session', async () => {
      for (const [email, password] of [
        [demoUsers.anna.email, 'wrong-password'],
        ['nobody@example.com', demoUsers.anna.password],
        [demoUsers.anna.email, ''],
      ]) {
        const b = browser(h);
        await b.get(MARKET);
        const page = expectPage(
          await b.post('/shop/login', {
            ...market,
            email: email!,
            password: password!,
            returnUrl: 'http://localhost/r',
          }),
          401,
        );
        expect(page).toContain('data-testid="login-error"');
        expect(page).toContain('Wrong e-mail address or password');
        expect(page).toContain('name="returnUrl" value="http://localhost/r"');
        expect(page).not.toContain(demoUsers.anna.password);
        expect(b.cookie).toBeUndefined();
      }
    });

    test('the login form takes an e-mail address of up to 1,024 characters, counted as a wrong password; one more is 400 invalid_parameter naming email, and nothing is counted', async () => {
      const counts = internalsOf(h.platform)!.state.loginFailures;
      const longest = `${'a'.repeat(1024 - '@example.com'.length)}@example.com`;
      const b = browser(h);
      await b.get(MARKET);
      const page = expectPage(await b.post('/shop/login', { ...market, email: longest, password: 'x' }), 401);
      expect(page).toContain('Wrong e-mail address or password');
      expect([...counts.keys()].some((key) => key.endsWith(`\n${longest}`))).toBe(true);
      const before = [...counts];
      const answer = await expectUnchanged(h.platform, () =>
        b.post('/shop/login', { ...market, email: `a${longest}`, password: 'x' }),
      );
      expect(expectError(answer, 400, 'invalid_parameter', 'email').message).toBe(
        'Parameter size must be at most 1024',
      );
      expect([...counts]).toEqual(before);
      expect(b.cookie).toBeUndefined();
    });

    test('an account that is not active cannot log in, even with its password', async () => {
      const b = browser(h);
      await b.get(MARKET);
      const page = expectPage(
        await b.post('/shop/login', { ...market, email: demoUsers.carl.email, password: demoUsers.carl.password }),
        403,
      );
      expect(page).toContain('This account cannot sign in');
      expect(b.cookie).toBeUndefined();
    });

    test('the right password logs in (e-mail case-insensitive) and returns to the marketplace with returnUrl, campaign, period', async () => {
      const b = browser(h);
      await b.get(MARKET);
      const location = expectRedirect(
        await b.post('/shop/login', {
          ...market,
          email: 'ANNA@example.com',
          password: demoUsers.anna.password,
          returnUrl: 'http://localhost/r',
          campaign: 'premium-summer',
          period: periods.summerCreditcard,
        }),
      );
      expect(location).toBe(
        `${MARKET}?returnUrl=${encodeURIComponent('http://localhost/r')}&campaign=premium-summer&period=${periods.summerCreditcard}`,
      );
      expect(b.cookie).toMatch(/^shop_session=/);
      expect(expectPage(await b.get(location))).toContain(`Signed in as ${demoUsers.anna.email}`);
    });

    test('sign out ends the shop session and clears the cookie', async () => {
      const b = browser(h);
      const { location } = await b.loginWithTicket();
      const old = b.cookie!;
      const answer = await b.post('/shop/logout', market);
      expect(expectRedirect(answer)).toBe(MARKET);
      expect(answer.headers.get('set-cookie')).toMatch(/^shop_session=; .*Max-Age=0/);
      const page = await h.call(location, { host: 'shop', headers: { cookie: old } });
      expect(expectPage(page)).toContain('data-testid="login-email"');
    });
  });

  describe('the marketplace page', () => {
    test('lists the packages and campaigns on sale with their enabled price periods as radio buttons and a Buy button', async () => {
      const b = browser(h);
      const page = expectPage(await b.get((await b.loginWithTicket()).location));
      for (const code of ['premium-digital', 'premium-summer', 'basic-news'])
        expect(page).toContain(`data-testid="product-${code}"`);
      for (const id of [
        periods.premiumCreditcard,
        periods.premiumPsp,
        periods.premiumInvoice,
        periods.summerCreditcard,
      ])
        expect(page).toMatch(
          new RegExp(`<input type="radio" name="period_id" value="${id}" id="period-${id}" data-testid="period-${id}"`),
        );
      expect(page).not.toContain(periods.premiumDirectdebitDisabled);
      expect(page).not.toContain('legacy-package');
      expect(page).toContain('data-testid="buy"');
      expect(page).not.toContain(' checked');
    });

    test('campaign pre-selects its first period; period pre-selects that period', async () => {
      const b = browser(h);
      await b.loginWithTicket();
      const withCampaign = expectPage(await b.get(MARKET, { campaign: 'premium-summer' }));
      expect(withCampaign).toMatch(new RegExp(`data-testid="period-${periods.summerCreditcard}"[^>]* checked>`));
      const withPeriod = expectPage(
        await b.get(MARKET, { campaign: 'premium-summer', period: periods.premiumInvoice }),
      );
      expect(withPeriod).toMatch(new RegExp(`data-testid="period-${periods.premiumInvoice}"[^>]* checked>`));
      expect(withPeriod.match(/ checked>/g)).toHaveLength(1);
    });

    test('a hostile returnUrl and campaign are escaped in the HTML', async () => {
      const hostile = {
        returnUrl: 'http://localhost/"><script>alert(1)</script>',
        campaign: `"><img src=x onerror=alert('x')>`,
        period: '<b>p</b>',
      };
      const login = expectPage(await browser(h).get(MARKET, hostile));
      const b = browser(h);
      await b.loginWithTicket();
      const store = expectPage(await b.get(MARKET, hostile));
      for (const page of [login, store]) {
        expect(page).not.toContain('<script>');
        expect(page).not.toContain('<img');
        expect(page).toContain('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
      }
      expect(login).toContain('&quot;&gt;&lt;img src=x onerror=alert(&#39;x&#39;)&gt;');
      expect(login).toContain('&lt;b&gt;p&lt;/b&gt;');
    });
  });

  describe('buying', () => {
    const buy = async (b: ReturnType<typeof browser>, form: Record<string, string>) =>
      b.post('/shop/purchase', { ...market, ...form });

    test('a purchase creates an activated, platform-controlled user-product, then the confirmation page', async () => {
      const b = browser(h);
      await b.loginWithTicket();
      const returnUrl = 'http://localhost:5173/account?tab=subscriptions';
      const location = expectRedirect(await buy(b, { period_id: periods.premiumCreditcard, returnUrl }));
      const [, id] = /^\/shop\/confirmation\/([a-f\d]{24})\?returnUrl=/.exec(location)!;
      const created = h.platform.snapshot().user_products.find((u) => u.id === id);
      expect(created).toEqual({
        id,
        account_id: anna,
        product_id: demoIds.products.premiumDigital,
        product_code: 'premium-digital',
        title_code: 'DAILY',
        created: expect.any(String),
        updated: expect.any(String),
        valid_from: expect.stringMatching(/^2030-01-15T12:00/),
        valid_to: expect.stringMatching(/^2030-02-15T12:00/),
        provision_service: null,
        subscription_type: 'recurring',
        state: 'activated',
        has_pending_change_request: false,
        external_start_date: null,
        payment_option: 'creditcard',
        period_id: periods.premiumCreditcard,
        order_id: expect.stringMatching(/^[a-f\d]{24}$/),
        cancelled_at: null,
        cancellation_reason_id: null,
        retention_offer_id: null,
        subscription_number: null,
      });
      // The purchase's order (the amount charged) and its payment profile.
      const doc = h.platform.snapshot();
      expect(doc.orders.filter((o) => o.user_product_id === id)).toEqual([
        {
          id: created?.order_id,
          account_id: anna,
          user_product_id: id,
          created: created?.created,
          product_id: demoIds.products.premiumDigital,
          product_code: 'premium-digital',
          period_id: periods.premiumCreditcard,
          payment_option: 'creditcard',
          amount: 99,
        },
      ]);
      expect(doc.payment_profiles.filter((p) => p.user_product_id === id)).toEqual([
        expect.objectContaining({ account_id: anna, payment_option: 'creditcard', details: null }),
      ]);
      const page = expectPage(await b.get(location));
      expect(page).toContain('data-testid="confirmation"');
      expect(page).toContain('Premium Digital');
      expect(page).toContain(
        `data-testid="return-to-site" href="/shop/return?returnUrl=${encodeURIComponent(returnUrl).replace(/%20/g, '+')}"`,
      );
    });

    test('endpoint 9 then answers already_subscribed for that package; buying it again is refused', async () => {
      const b = browser(h);
      await b.loginWithTicket();
      expectRedirect(await buy(b, { period_id: periods.summerCreditcard, product_code: 'premium-summer' }));
      const token = h.token(['/external/order_validation/r']);
      const answer = await h.call(paths.validateOrder, {
        query: { product_code: 'premium-digital', account_id: anna },
        token,
      });
      expect(expectOk(answer, OrderValidationResponse).item).toMatchObject({ reason: 'already_subscribed' });
      const again = expectPage(await buy(b, { period_id: periods.premiumCreditcard }), 409);
      expect(again).toContain('data-reason="already_subscribed"');
      expect(h.platform.snapshot().user_products.filter((u) => u.account_id === anna)).toHaveLength(2);
    });

    test('a limited purchase ends with its year: then endpoint 9 allows the package again, and the shop sells it again', async () => {
      const b = browser(h);
      await b.loginWithTicket();
      expectRedirect(await buy(b, { period_id: periods.premiumInvoice }));
      const ofAnna = () =>
        h.platform
          .snapshot()
          .user_products.filter((u) => u.account_id === anna && u.product_code === 'premium-digital');
      const bought = ofAnna().length;
      expectPage(await buy(b, { period_id: periods.premiumInvoice }), 409);
      h.platform.clock.advance(367 * 86_400);
      const answer = await h.call(paths.validateOrder, {
        query: { product_code: 'premium-digital', account_id: anna },
        token: h.token(['/external/order_validation/r']),
      });
      expect(expectOk(answer, OrderValidationResponse).item).toMatchObject({ purchase_allowed: true, reason: null });
      const later = browser(h);
      await later.loginWithTicket();
      expectRedirect(await buy(later, { period_id: periods.premiumInvoice }));
      expect(ofAnna()).toHaveLength(bought + 1);
    });

    test('a limited yearly period: valid for a year, subscription_type limited', async () => {
      const b = browser(h);
      await b.loginWithTicket();
      const location = expectRedirect(await buy(b, { period_id: periods.premiumInvoice }));
      const id = /confirmation\/(\w+)/.exec(location)![1];
      expect(h.platform.snapshot().user_products.find((u) => u.id === id)).toMatchObject({
        subscription_type: 'limited',
        payment_option: 'invoice',
        valid_to: expect.stringMatching(/^2031-01-15T12:00/),
      });
    });

    test('a buyer too young for the package is refused (as endpoint 9 would); nothing is created', async () => {
      const b = browser(h);
      await b.loginWithTicket(bo);
      const before = h.platform.snapshot().user_products;
      const page = expectPage(await buy(b, { period_id: periods.premiumCreditcard }), 409);
      expect(page).toContain('data-reason="too_young"');
      expect(h.platform.snapshot().user_products).toEqual(before);
    });

    test.each([
      ['no shop session', false, { period_id: periods.premiumCreditcard }, 401],
      ['a disabled period', true, { period_id: periods.premiumDirectdebitDisabled }, 400],
      ['a period of a package not on sale here', true, { period_id: periods.legacyCreditcard }, 400],
      ['no period', true, {}, 400],
      [
        "a product_code other than the period's product",
        true,
        { period_id: periods.premiumCreditcard, product_code: 'basic-news' },
        400,
      ],
    ])('a purchase with %s is refused with a page; nothing is created', async (_, signedIn, form, status) => {
      const b = browser(h);
      if (signedIn) await b.loginWithTicket();
      const before = h.platform.snapshot().user_products;
      expectPage(await buy(b, form), status);
      expect(h.platform.snapshot().user_products).toEqual(before);
    });

    test("another user's confirmation page is not found", async () => {
      const b = browser(h);
      await b.loginWithTicket();
      const location = expectRedirect(await buy(b, { period_id: periods.premiumCreditcard }));
      const other = browser(h);
      await other.loginWithTicket(demoIds.accounts.eva);
      expectPage(await other.get(location), 404);
      expectPage(await browser(h).get(location), 404);
    });

    test('no returnUrl: no return button', async () => {
      const b = browser(h);
      await b.loginWithTicket();
      const page = expectPage(await b.get(expectRedirect(await buy(b, { period_id: periods.basicCreditcard }))));
      expect(page).not.toContain('return-to-site');
    });

    test('a returnUrl that is not an http(s) URL is carried through the shop, and the confirmation has no return button', async () => {
      const b = browser(h);
      const returnUrl = 'javascript:alert(1)';
      expect(expectPage(await b.get(MARKET, { returnUrl }))).toContain('name="returnUrl" value="javascript:alert(1)"');
      await b.loginWithTicket();
      const location = expectRedirect(await buy(b, { period_id: periods.basicCreditcard, returnUrl }));
      const page = expectPage(await b.get(location));
      expect(page).toContain('data-testid="confirmation"');
      expect(page).not.toContain('return-to-site');
    });
  });

  describe('the return flow', () => {
    const exchange = (ticket: string) => exchangeForSite(h, ticket);
    const signedIn = async () => {
      const b = browser(h);
      await b.loginWithTicket();
      return b;
    };

    test('mode ReturnUrl (localhost): to the return URL with a ticket added, other parameters kept; demo-site exchanges it', async () => {
      const b = await signedIn();
      const returnUrl = 'http://localhost:5173/account?tab=1&ticket=planted';
      const location = new URL(expectRedirect(await b.get('/shop/return', { returnUrl })));
      expect(`${location.origin}${location.pathname}`).toBe('http://localhost:5173/account');
      expect(location.searchParams.get('tab')).toBe('1');
      expect(location.searchParams.getAll('ticket')).toHaveLength(1);
      const ticket = location.searchParams.get('ticket')!;
      expect(ticket).not.toBe('planted');
      const token = expectOk(await exchange(ticket), AccessTokenResponse);
      expect(expectOk(await h.call(paths.getSignedInUser, { token: token.access_token }), SignedInUser).id).toBe(anna);
    });

    test("mode ReturnUrl: the return URL's query as the site wrote it, the ticket added at its end (a planted one taken out, the fragment kept)", async () => {
      const b = await signedIn();
      const query = "q=a%20b&flag&ticket=planted&t=~!*()'&plus=a+b&ticket=again";
      const returnUrl = `http://localhost:5173/account?${query}#top`;
      const location = expectRedirect(await b.get('/shop/return', { returnUrl }));
      const ticket = new URL(location).searchParams.get('ticket')!;
      expect(location).toBe(`http://localhost:5173/account?q=a%20b&flag&t=~!*()%27&plus=a+b&ticket=${ticket}#top`);
      expectOk(await exchange(ticket), AccessTokenResponse);
    });

    test('mode SeparateTicketAuth (127.0.0.1): to the auth endpoint (a path on the return URL origin) with ticket and returnUrl', async () => {
      const b = await signedIn();
      const returnUrl = 'http://127.0.0.1:43210/after?x=1';
      const location = new URL(expectRedirect(await b.get('/shop/return', { returnUrl })));
      expect(`${location.origin}${location.pathname}`).toBe('http://127.0.0.1:43210/auth/ticket');
      expect(location.searchParams.get('returnUrl')).toBe(returnUrl);
      expectOk(await exchange(location.searchParams.get('ticket')!), AccessTokenResponse);
    });

    test('the domain matches case-insensitively, any port; aliases return_url and backUrl work', async () => {
      const b = await signedIn();
      for (const query of [
        { returnUrl: 'https://LOCALHOST:8443/x' } as Record<string, string>,
        { return_url: 'http://localhost/y' },
        { backUrl: 'http://localhost:1/z' },
      ]) {
        const location = new URL(expectRedirect(await b.get('/shop/return', query)));
        expect(location.searchParams.get('ticket')).toMatch(/^[\w-]{43}$/);
      }
    });

    test('an unregistered domain: back to the return URL without a ticket; none issued', async () => {
      const b = await signedIn();
      const before = h.platform.snapshot().tickets.length;
      const returnUrl = 'https://site.example/back?ticket=planted&a=b';
      expect(expectRedirect(await b.get('/shop/return', { returnUrl }))).toBe('https://site.example/back?a=b');
      expect(h.platform.snapshot().tickets).toHaveLength(before);
    });

    test('not logged into the shop: back without a ticket', async () => {
      expect(expectRedirect(await browser(h).get('/shop/return', { returnUrl: 'http://localhost:5173/x' }))).toBe(
        'http://localhost:5173/x',
      );
    });

    test.each([
      ['javascript:alert(1)'],
      ['data:text/html,<script>alert(1)</script>'],
      ['ftp://localhost/file'],
      ['//localhost/no-scheme'],
      ['/relative'],
      ['http://user:pass@localhost/'],
    ])('a return URL that is not plain http(s) is refused with a 400 page: %s', async (returnUrl) => {
      const b = await signedIn();
      const page = expectPage(await b.get('/shop/return', { returnUrl }), 400);
      expect(page).not.toContain('<script>');
    });

    test('no return URL: 400 page', async () => {
      expectPage(await (await signedIn()).get('/shop/return'), 400);
    });
  });
});

describe.each(ADAPTERS)('the request journal after the whole sign-on flow through %s', (kind) => {
  const h = useAdapter(kind);

  test('holds no ticket, token, password, client secret, session cookie or signed token', async () => {
    const call = h.call.bind(h);
    // The site: a server token, then a ticket for the shop (endpoint 22).
    const s2s = expectOk(
      await call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        form: { grant_type: 'none', client_id: demoSite.clientId, client_secret: demoSite.clientSecret },
      }),
      AccessTokenResponse,
    );
    const { ticket: at } = expectOk(
      await call(paths.generateTicket, {
        method: 'POST',
        host: 'auth',
        json: { accountId: anna, clientId: demoShop.clientId },
        token: s2s.access_token,
      }),
      GenerateTicketResponse,
    );
    // The shop: a wrong and a right password, the ticket, a purchase, the way back.
    const b = browser(h);
    await b.get(MARKET);
    await b.post('/shop/login', { ...market, email: demoUsers.bo.email, password: 'not-bo-password-123' });
    await b.post('/shop/login', { ...market, email: demoUsers.bo.email, password: demoUsers.bo.password });
    const boCookie = b.cookie!;
    const returnUrl = 'http://localhost:5173/back';
    await b.get(expectRedirect(await b.get(MARKET, { at, returnUrl })));
    const annaCookie = b.cookie!;
    const confirmation = expectRedirect(
      await b.post('/shop/purchase', { ...market, period_id: demoIds.periods.premiumCreditcard, returnUrl }),
    );
    await b.get(confirmation);
    const back = new URL(expectRedirect(await b.get('/shop/return', { returnUrl })));
    // The site again: exchange, read the user, refresh, and an SSO login with a new ticket.
    const user = expectOk(
      await call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        form: {
          grant_type: 'ticket',
          ticket: back.searchParams.get('ticket')!,
          client_id: demoSite.clientId,
          client_secret: demoSite.clientSecret,
        },
      }),
      AccessTokenResponse,
    );
    await call(paths.getSignedInUser, { token: user.access_token });
    await call(paths.accessToken, {
      method: 'POST',
      host: 'auth',
      json: {
        grant_type: 'refresh_token',
        refresh_token: user.refresh_token,
        client_id: demoSite.clientId,
        client_secret: demoSite.clientSecret,
      },
    });
    const { ticket: ssoTicket } = expectOk(
      await call(paths.generateTicket, {
        method: 'POST',
        host: 'auth',
        json: { client_id: demoSite.clientId },
        token: h.platform.mintToken({ scopes: ['/api/authorization/ticket'], accountId: anna }).access_token,
      }),
      GenerateTicketResponse,
    );
    const sid = h.platform.sso.createSession();
    const now = Math.floor(h.platform.clock.now().getTime() / 1000);
    const t = await new SignJWT({ cid: demoSite.clientId, sid, at: ssoTicket, ipa: '203.0.113.1', uas: 'UA' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 10)
      .setIssuer(demoSite.organisationId)
      .setAudience(DEMO_SSO_AUDIENCE)
      .sign(new TextEncoder().encode(demoSite.clientSecret));
    const session = expectOk(
      await call(paths.authenticateWithTicket, { method: 'POST', host: 'sso', json: { t } }),
      SsoEnvelope,
    );

    const state = h.platform.snapshot();
    const secrets = [
      ...state.tickets.map((x) => x.ticket),
      ...state.access_tokens.flatMap((x) => [x.access_token, x.refresh_token]),
      ...Object.values(demoUsers).map((u) => u.password),
      ...state.clients.map((c) => c.client_secret),
      'not-bo-password-123',
      b.csrf!,
      boCookie.split('=')[1]!,
      annaCookie.split('=')[1]!,
      t,
      session.t,
    ];
    expect(state.tickets.length).toBeGreaterThanOrEqual(4);
    const journal = JSON.stringify(h.platform.requests.list());
    // Every request of this test is there (a request another test left under way could add one).
    expect(h.platform.requests.list().length).toBeGreaterThanOrEqual(15);
    for (const secret of secrets) expect(journal).not.toContain(secret);
    // What was sent is still there, redacted.
    expect(journal).toContain('password=[redacted]');
    expect(journal).toContain('"at":"[redacted]"');
  });
});

describe.each(ADAPTERS)('cross-site request forgery on the shop through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z' });
  const login = { ...market, email: demoUsers.anna.email, password: demoUsers.anna.password };
  const buy = { ...market, period_id: periods.premiumCreditcard };

  test('the login form carries a pre-session token bound to its shop_csrf cookie (HttpOnly, SameSite=Lax), not the cookie itself', async () => {
    const answer = await h.call(MARKET, { host: 'shop' });
    const set = answer.headers.getSetCookie().find((c) => c.startsWith('shop_csrf='))!;
    expect(set).toMatch(/^shop_csrf=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Lax(; Secure)?$/);
    const page = expectPage(answer);
    expect(page).toMatch(/name="csrf_token" value="[0-9a-f]{64}"/);
    expect(page).not.toContain(set.slice(10, 42));
  });

  test("a login without the token, or with a token other than the cookie's, is refused with a 403 page; no session", async () => {
    const b = browser(h);
    await b.get(MARKET);
    const mine = b.csrf!;
    // An attacker's own token, from its own visit to the login page.
    const theirs = browser(h);
    await theirs.get(MARKET);
    for (const token of ['', theirs.csrf!, `${mine}x`]) {
      const page = expectPage(await b.post('/shop/login', { ...login, csrf_token: token }), 403);
      expect(page).toContain('Request refused');
      expect(b.cookie).toBeUndefined();
    }
    // Without the cookie (what a cross-site form sends when the browser withholds it), even the right token fails.
    const bare = await h.call('/shop/login', { method: 'POST', host: 'shop', form: { ...login, csrf_token: mine } });
    expectPage(bare, 403);
    expect(bare.headers.getSetCookie().some((c) => c.startsWith('shop_session='))).toBe(false);
    // The page's own token still works.
    expectRedirect(await b.post('/shop/login', login));
    expect(b.cookie).toMatch(/^shop_session=/);
  });

  test.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }],
    ['an Origin of another site, without Sec-Fetch-Site', { origin: 'https://attacker.example' }],
  ])('a post with %s is refused first, even with the right token and cookie', async (_, headers) => {
    const b = browser(h);
    await b.get(MARKET);
    expectPage(await b.post('/shop/login', login, headers), 403);
    expect(b.cookie).toBeUndefined();
    await b.loginWithTicket();
    await expectUnchanged(h.platform, async () => {
      expectPage(await b.post('/shop/purchase', buy, headers), 403);
      expectPage(await b.post('/shop/logout', market, headers), 403);
    });
    expect(expectPage(await b.get(MARKET))).toContain('data-testid="signed-in-as"');
  });

  test.each([
    ['Sec-Fetch-Site: same-origin', { 'sec-fetch-site': 'same-origin' }],
    ['Sec-Fetch-Site: none (the user typed it)', { 'sec-fetch-site': 'none' }],
  ])('a post with %s and the right token passes', async (_, headers) => {
    const b = browser(h);
    await b.get(MARKET);
    expectRedirect(await b.post('/shop/login', login, headers));
    expect(b.cookie).toMatch(/^shop_session=/);
  });

  test("signed-in forms carry the session's own token: another session's, or none, is refused and nothing is bought", async () => {
    const anna = browser(h);
    await anna.loginWithTicket(demoIds.accounts.anna);
    const other = browser(h);
    await other.loginWithTicket(bo);
    expect(anna.csrf).not.toBe(other.csrf);
    await expectUnchanged(h.platform, async () => {
      expectPage(await anna.post('/shop/purchase', { ...buy, csrf_token: other.csrf! }), 403);
      expectPage(await anna.post('/shop/purchase', { ...buy, csrf_token: '' }), 403);
    });
    expectRedirect(await anna.post('/shop/purchase', buy));
  });

  test('a sign-out without the token is refused and the session goes on', async () => {
    const b = browser(h);
    await b.loginWithTicket();
    expectPage(await b.post('/shop/logout', { ...market, csrf_token: 'forged' }), 403);
    expect(expectPage(await b.get(MARKET))).toContain('data-testid="signed-in-as"');
    expectRedirect(await b.post('/shop/logout', market));
    expect(b.cookie).toBeUndefined();
  });
});

describe.each(ADAPTERS)("two organisations' marketplaces on one shop host, through %s", (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z' });
  /** Complex Media's marketplace: its client is Complex Media's, it sells that organisation's package. */
  const complex = { group_id: 'complex', marketplace_id: 'main' };
  const COMPLEX_MARKET = `/marketplace/${complex.group_id}/${complex.marketplace_id}`;
  /** Adds Complex Media's marketplace to the demo's (Demo Media's), on the same shop host. */
  const withComplexMarketplace = () => {
    const doc = h.platform.snapshot();
    doc.marketplaces.push({
      ...complex,
      name: 'Complex Media shop',
      client_id: demoIds.clients.complex.clientId,
      product_codes: ['complex-bundle'],
    });
    h.platform.restore(doc);
  };
  /** Signs anna in at the Demo Media marketplace, as the shop's pages do. */
  const signIn = {
    'a ticket (at)': async (b: ReturnType<typeof browser>) => {
      await b.loginWithTicket(anna);
    },
    'the login form': async (b: ReturnType<typeof browser>) => {
      await b.get(MARKET);
      const { email, password } = demoUsers.anna;
      await b.get(expectRedirect(await b.post('/shop/login', { ...market, email, password })));
    },
  };

  test("a Complex Media user signed in at Complex Media's marketplace sees its store", async () => {
    withComplexMarketplace();
    const b = browser(h);
    await b.get(COMPLEX_MARKET);
    const { email, password } = demoUsers.dora;
    const location = expectRedirect(await b.post('/shop/login', { ...complex, email, password }));
    expect(location).toBe(COMPLEX_MARKET);
    const page = expectPage(await b.get(location));
    expect(page).toContain(`Signed in as ${email}`);
    expect(page).toContain('data-testid="product-complex-bundle"');
  });

  test.each(Object.entries(signIn))(
    "a Demo Media user signed in at the Demo Media marketplace through %s gets the other organisation's login page, not its store",
    async (_, signInAt) => {
      withComplexMarketplace();
      const b = browser(h);
      await signInAt(b);
      const session = b.cookie;
      expect(session).toMatch(/^shop_session=/);
      const page = expectPage(await b.get(COMPLEX_MARKET));
      expect(page).toContain('data-testid="login-email"');
      expect(page).toContain('Complex Media shop');
      expect(page).not.toContain('data-testid="signed-in-as"');
      expect(page).not.toContain('data-testid="product-complex-bundle"');
      expect(page).not.toContain(demoUsers.anna.email);
      // The same cookie still signs her in at her own organisation's marketplace.
      expect(b.cookie).toBe(session);
      expect(expectPage(await b.get(MARKET))).toContain(`Signed in as ${demoUsers.anna.email}`);
    },
  );

  test.each(Object.entries(signIn))(
    "a purchase at the other organisation's marketplace with her session (through %s) and its CSRF token is refused: Sign in first; nothing changes",
    async (_, signInAt) => {
      withComplexMarketplace();
      const b = browser(h);
      await signInAt(b);
      const csrf = b.csrf!;
      const answer = await expectUnchanged(h.platform, () =>
        b.post('/shop/purchase', { ...complex, period_id: periods.complexCreditcard, csrf_token: csrf }),
      );
      expect(expectPage(answer, 401)).toContain('Sign in first');
      // The same session and token buy at her own organisation's marketplace.
      expectRedirect(
        await b.post('/shop/purchase', { ...market, period_id: periods.basicCreditcard, csrf_token: csrf }),
      );
    },
  );
});

describe.each(ADAPTERS)('where the shop sends tickets, through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z' });
  const signedIn = async () => {
    const b = browser(h);
    await b.loginWithTicket();
    return b;
  };
  /** Adds ticket configurations to the demo's. */
  const register = (
    ...configs: { domain: string; mode?: 'ReturnUrl' | 'SeparateTicketAuth'; [k: string]: unknown }[]
  ) => {
    const doc = h.platform.snapshot();
    for (const c of configs)
      doc.ticket_configurations.push({
        client_id: demoSite.clientId,
        mode: 'ReturnUrl',
        auth_endpoint: null,
        ...c,
      } as (typeof doc.ticket_configurations)[number]);
    h.platform.restore(doc);
  };
  const ticketOf = (location: string) => new URL(location).searchParams.get('ticket');

  test('a registered domain gets tickets over https only: plain http goes back without one, none issued', async () => {
    register({ domain: 'site.example' });
    const b = await signedIn();
    expect(ticketOf(expectRedirect(await b.get('/shop/return', { returnUrl: 'https://site.example/a' })))).toMatch(
      /^[\w-]{43}$/,
    );
    const answer = await expectUnchanged(h.platform, () =>
      b.get('/shop/return', { returnUrl: 'http://site.example/a?ticket=planted' }),
    );
    expect(expectRedirect(answer)).toBe('http://site.example/a');
  });

  test('loopback hosts are the exception: http to localhost, 127.0.0.1 and *.localhost gets a ticket', async () => {
    register({ domain: 'app.localhost' });
    const b = await signedIn();
    for (const returnUrl of ['http://localhost:5173/', 'http://127.0.0.1:3000/x', 'http://app.localhost:8080/'])
      expect(expectRedirect(await b.get('/shop/return', { returnUrl })), returnUrl).toMatch(/[?&]ticket=[\w-]{43}/);
  });

  test('a configuration that pins a port sends tickets to that port only (the default port when none is named)', async () => {
    register({ domain: 'pinned.example', port: 8443 }, { domain: 'default-port.example', port: 443 });
    const b = await signedIn();
    expect(
      ticketOf(expectRedirect(await b.get('/shop/return', { returnUrl: 'https://pinned.example:8443/' }))),
    ).not.toBeNull();
    expect(
      ticketOf(expectRedirect(await b.get('/shop/return', { returnUrl: 'https://default-port.example/' }))),
    ).not.toBeNull();
    for (const returnUrl of [
      'https://pinned.example/',
      'https://pinned.example:9443/',
      'https://default-port.example:8443/',
    ]) {
      const answer = await expectUnchanged(h.platform, () => b.get('/shop/return', { returnUrl }));
      expect(ticketOf(expectRedirect(answer)), returnUrl).toBeNull();
    }
  });

  test('mode SeparateTicketAuth with an auth endpoint over plain http to another host: no ticket', async () => {
    register({
      domain: 'split.example',
      mode: 'SeparateTicketAuth',
      auth_endpoint: 'http://auth.split.example/ticket',
    });
    const b = await signedIn();
    const answer = await expectUnchanged(h.platform, () =>
      b.get('/shop/return', { returnUrl: 'https://split.example/after' }),
    );
    expect(expectRedirect(answer)).toBe('https://split.example/after');
  });

  test('a port out of range in a ticket configuration is refused by the state document', () => {
    const doc = h.platform.snapshot();
    doc.ticket_configurations.push({
      domain: 'x.example',
      client_id: demoSite.clientId,
      mode: 'ReturnUrl',
      auth_endpoint: null,
      port: 70000,
    });
    expect(() => h.platform.restore(doc)).toThrow(expect.objectContaining({ field: expect.stringMatching(/\.port$/) }));
  });
});

describe.each(ADAPTERS)('returnInterstitial through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z', returnInterstitial: true });

  test('an unregistered domain gets a "you are leaving" page with a link, not a redirect; no ticket', async () => {
    const b = browser(h);
    await b.loginWithTicket();
    const answer = await expectUnchanged(h.platform, () =>
      b.get('/shop/return', { returnUrl: 'https://elsewhere.example/x?ticket=planted&a=<b>' }),
    );
    const page = expectPage(answer);
    expect(answer.headers.get('location')).toBeNull();
    expect(page).toContain('You are leaving the shop');
    expect(page).toContain('href="https://elsewhere.example/x?a=%3Cb%3E"');
    expect(page).not.toContain('<b>');
  });

  test('a registered domain still gets its redirect with a ticket', async () => {
    const b = browser(h);
    await b.loginWithTicket();
    const location = expectRedirect(await b.get('/shop/return', { returnUrl: 'http://localhost:5173/' }));
    expect(new URL(location).searchParams.get('ticket')).toMatch(/^[\w-]{43}$/);
  });
});

describe.each(ADAPTERS)('what a purchase records, through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z' });
  const details = [
    { name: 'Digital', price: 80.5, vat_code: 6 },
    { name: 'Paper', price: 120.25, vat_code: 25 },
  ];
  type Period = StateDocument['products'][number]['price_periods'][number];
  /**
   * Premium Digital with its monthly card period priced by details, and its yearly period free;
   * then `change` applied to the period bought.
   */
  const withPrices = (periodId: string, change: (period: Period) => Period) => {
    const doc = h.platform.snapshot();
    const premium = doc.products.find((p) => p.id === demoIds.products.premiumDigital);
    if (!premium) throw new Error('the demo seed has Premium Digital');
    premium.price_periods = premium.price_periods.map((pp) => {
      if (pp.id === periods.premiumCreditcard) {
        const { price: _, ...withoutPrice } = pp;
        return { ...withoutPrice, details };
      }
      return pp.id === periods.premiumInvoice ? { ...pp, payment_option: 'free', price: 0 } : pp;
    });
    premium.price_periods = premium.price_periods.map((pp) => (pp.id === periodId ? change(pp) : pp));
    h.platform.restore(doc);
  };
  /** Buys `period_id` (changed by `change`) as anna; answers the new user-product, its order and payment profiles. */
  const purchase = async (period_id: string, change: (period: Period) => Period = (pp) => pp) => {
    withPrices(period_id, change);
    const b = browser(h);
    await b.loginWithTicket();
    const location = expectRedirect(await b.post('/shop/purchase', { ...market, period_id }));
    const id = /^\/shop\/confirmation\/([a-f\d]{24})/.exec(location)?.[1];
    const doc = h.platform.snapshot();
    return {
      userProduct: doc.user_products.find((u) => u.id === id),
      orders: doc.orders.filter((o) => o.user_product_id === id),
      profiles: doc.payment_profiles.filter((p) => p.user_product_id === id),
    };
  };

  test('a purchase on a price made of details records their sum as the amount, on the order and the payment profile', async () => {
    const { orders, profiles } = await purchase(periods.premiumCreditcard);
    expect(orders).toEqual([expect.objectContaining({ payment_option: 'creditcard', amount: 200.75 })]);
    expect(profiles).toEqual([expect.objectContaining({ payment_option: 'creditcard', amount: 200.75 })]);
  });

  test('in the complex price model, a price sent beside details to update prices (endpoint 1) is not kept: a purchase charges the sum of the details, as get payment periods answers', async () => {
    const doc = h.platform.snapshot();
    for (const o of doc.organisations) if (o.id === demoIds.organisations.demo) o.price_model = 'complex';
    h.platform.restore(doc);
    const period = { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1 };
    const json = { package_integration_code: 'PREMIUM-DIGITAL', price_periods: [{ ...period, price: 3, details }] };
    expectOk(await h.call(paths.updatePrices, { method: 'POST', json, token: h.token() }), IdResponse);
    const listed = await h.call(paths.getPaymentPeriods, {
      query: { product_code: 'premium-digital' },
      token: h.token(),
    });
    const card = expectOk(listed, GetPaymentPeriodsResponse).items.find((p) => p.id === periods.premiumCreditcard);
    expect(card?.price).toBe(200.75);
    const b = browser(h);
    await b.loginWithTicket();
    const location = expectRedirect(
      await b.post('/shop/purchase', { ...market, period_id: periods.premiumCreditcard }),
    );
    const id = /^\/shop\/confirmation\/([a-f\d]{24})/.exec(location)?.[1];
    const after = h.platform.snapshot();
    expect(after.orders.filter((o) => o.user_product_id === id)).toEqual([expect.objectContaining({ amount: 200.75 })]);
    expect(after.payment_profiles.filter((p) => p.user_product_id === id)).toEqual([
      expect.objectContaining({ amount: 200.75 }),
    ]);
    const stored = after.products.find((p) => p.id === demoIds.products.premiumDigital);
    expect(stored?.price_periods.find((pp) => pp.id === periods.premiumCreditcard)).not.toHaveProperty('price');
  });

  test('a free purchase: its order, of amount 0, and no payment profile', async () => {
    const { orders, profiles } = await purchase(periods.premiumInvoice);
    expect(orders).toEqual([expect.objectContaining({ payment_option: 'free', amount: 0 })]);
    expect(profiles).toEqual([]);
  });

  test.each([
    ['day', 3, 3],
    ['week', 2, 14],
    ['month', 1, 31],
    ['year', 1, 365],
  ] as const)('a period of %s, length %i, gives access for %i days from the purchase', async (type, length, days) => {
    const { userProduct } = await purchase(periods.premiumCreditcard, (pp) => ({ ...pp, type, length }));
    if (!userProduct) throw new Error('the purchase made a user-product');
    expect(Date.parse(userProduct.valid_to) - Date.parse(userProduct.valid_from)).toBe(days * 24 * 3600 * 1000);
  });

  test('a period stored with neither a price nor details costs nothing: an order of amount 0', async () => {
    const unpriced = ({ price: _, details: __, ...pp }: Period): Period => pp;
    const { orders, profiles } = await purchase(periods.premiumCreditcard, unpriced);
    expect(orders).toEqual([expect.objectContaining({ payment_option: 'creditcard', amount: 0 })]);
    expect(profiles).toEqual([expect.objectContaining({ payment_option: 'creditcard', amount: 0 })]);
  });

  test("a psp purchase keeps the period's payment option details on its payment profile", async () => {
    const mastercard = { type: 'mastercard', name: 'Mastercard' };
    const psp = (pp: Period): Period => ({ ...pp, payment_option: 'psp', payment_option_details: mastercard });
    const { profiles } = await purchase(periods.premiumCreditcard, psp);
    expect(profiles).toEqual([expect.objectContaining({ payment_option: 'psp', details: mastercard })]);
  });

  test('a card purchase records no payment option details, even where its period holds some', async () => {
    const withDetails = (pp: Period): Period => ({ ...pp, payment_option_details: { type: 'visa', name: 'Visa' } });
    const { profiles } = await purchase(periods.premiumCreditcard, withDetails);
    expect(profiles).toEqual([expect.objectContaining({ payment_option: 'creditcard', details: null })]);
  });
});

describe.each(ADAPTERS)('one lockout for the shop login and SSO authenticate, through %s', (kind) => {
  const T0 = Date.parse('2030-03-01T09:00:00Z');
  const h = useAdapter(kind, { now: new Date(T0).toISOString() });
  const { email, password } = demoUsers.anna;
  /** Every attempt at T0 unless a test moves the clock: the fifth wrong password freezes until T0 + 300 s. */
  const standStill = () => {
    h.platform.clock.freeze();
    h.platform.clock.set(new Date(T0));
  };

  /** One shop login on a fresh browser: the answer, and whether it opened a shop session. */
  const shopLogin = async (usr: string, pwd: string) => {
    const b = browser(h);
    await b.get(MARKET);
    const answer = await b.post('/shop/login', { ...market, email: usr, password: pwd });
    return { answer, session: b.cookie !== undefined };
  };

  /** One SSO authenticate on a new session of the demo site: the session token's claims. */
  const ssoLogin = async (usr: string, pwd: string) => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const now = Math.floor(h.platform.clock.now().getTime() / 1000);
    const t = await new SignJWT({ cid: demoSite.clientId, sid, ipa: '203.0.113.1', uas: 'UA', usr, pwd })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 10)
      .setIssuer(demoSite.organisationId)
      .setAudience(DEMO_SSO_AUDIENCE)
      .sign(new TextEncoder().encode(demoSite.clientSecret));
    const answer = expectOk(
      await h.call(paths.ssoAuthenticate, { method: 'POST', host: 'sso', json: { t } }),
      SsoEnvelope,
    );
    return decodeJwt(answer.t);
  };

  /** Expects the shop's frozen login page: 429, the seconds left in the page and in Retry-After, no session. */
  const expectFrozenAtShop = async (seconds: number) => {
    const { answer, session } = await shopLogin(email, password);
    const page = expectPage(answer, 429);
    expect(page).toContain(`Too many wrong passwords: try again in ${seconds} seconds`);
    expect(answer.headers.get('retry-after')).toBe(String(seconds));
    expect(session).toBe(false);
  };

  test('five wrong passwords at the shop, in any letter case, freeze the account there and for SSO authenticate; the thaw opens both', async () => {
    standStill();
    for (const spelling of ['anna@example.com', 'ANNA@EXAMPLE.COM', 'Anna@Example.com', 'aNNA@example.COM', email]) {
      const { answer, session } = await shopLogin(spelling, 'wrong-password');
      expect(expectPage(answer, 401)).toContain('Wrong e-mail address or password');
      expect(session).toBe(false);
    }
    await expectFrozenAtShop(300);
    expect(await ssoLogin(email, password)).toMatchObject({ err: 'account_frozen', frf: 300, sts: 'anon' });
    h.platform.clock.set(new Date(T0 + 299_001));
    await expectFrozenAtShop(1);
    h.platform.clock.set(new Date(T0 + 300_000));
    expect((await shopLogin('ANNA@example.com', password)).session).toBe(true);
    expect(await ssoLogin(email, password)).toMatchObject({ err: null, sts: 'loggedin' });
  });

  test('an account frozen through SSO authenticate cannot sign in at the shop, whatever the password', async () => {
    standStill();
    for (let i = 0; i < 5; i++) await ssoLogin(email.toUpperCase(), `wrong-${i}`);
    await expectFrozenAtShop(300);
    const { answer, session } = await shopLogin(email, 'still-wrong');
    expectPage(answer, 429);
    expect(session).toBe(false);
  });

  test('wrong passwords at the shop and through SSO add up: three and two freeze the account', async () => {
    standStill();
    for (let i = 0; i < 3; i++) await shopLogin(email, `wrong-${i}`);
    expect(await ssoLogin(email, 'wrong-3')).toMatchObject({ err: 'invalid_credentials', raa: 1 });
    expect(await ssoLogin(email, 'wrong-4')).toMatchObject({ err: 'invalid_credentials', raa: 0 });
    await expectFrozenAtShop(300);
  });

  test('a right password at the shop clears the count for SSO too', async () => {
    standStill();
    for (let i = 0; i < 4; i++) await ssoLogin(email, `wrong-${i}`);
    expect((await shopLogin(email, password)).session).toBe(true);
    expect(await ssoLogin(email, 'one-more-typo')).toMatchObject({ err: 'invalid_credentials', raa: 4 });
  });
});

describe.each(ADAPTERS)(
  'creating an account in the shop (Return flow 1: "A user who created a new account is logged into the shop automatically") through %s',
  (kind) => {
    const h = useAdapter(kind);
    const nora = { first_name: 'Nora', last_name: 'New', email: 'nora.new@example.com', password: 'a-new-password-1' };
    const accounts = () => h.platform.snapshot().accounts;
    const exchange = (ticket: string) => exchangeForSite(h, ticket);

    test('the sign-in page has a form to create an account, carrying returnUrl, campaign and the page token', async () => {
      const page = expectPage(
        await browser(h).get(MARKET, { returnUrl: 'http://localhost/r', campaign: 'premium-summer' }),
      );
      for (const id of ['signup-first-name', 'signup-last-name', 'signup-email', 'signup-password', 'signup-submit'])
        expect(page).toContain(`data-testid="${id}"`);
      expect(page).toContain('action="/shop/signup" id="signup-form"');
      const form = page.slice(page.indexOf('id="signup-form"'));

      expect(form).toContain('name="returnUrl" value="http://localhost/r"');
      expect(form).toContain('name="campaign" value="premium-summer"');
      expect(form).toContain('name="csrf_token"');
    });

    test("a new account: active, in the marketplace's organisation, signed in at once, back on the marketplace; the way back brings a ticket demo-site exchanges, and endpoint 24 reads the new user", async () => {
      const b = browser(h);
      await b.get(MARKET);
      const before = accounts().length;
      const returnUrl = 'http://localhost:5173/account';
      const location = expectRedirect(
        await b.post('/shop/signup', { ...market, ...nora, email: ' Nora.New@example.com ', returnUrl }),
      );
      expect(location).toBe(`${MARKET}?returnUrl=${encodeURIComponent(returnUrl)}`);
      expect(b.cookie).toMatch(/^shop_session=/);
      expect(accounts()).toHaveLength(before + 1);
      const account = accounts().at(-1)!;
      expect(account).toMatchObject({
        organisation_id: demoIds.organisations.demo,
        email: 'Nora.New@example.com',
        first_name: 'Nora',
        last_name: 'New',
        status: 'active',
        verified: false,
      });
      expect(account.customer_number).toMatch(/^SHOP-\d{6}$/);
      expect(account.password_hash).toMatch(/^scrypt\$/);
      // The password is in neither the state nor the journal.
      expect(JSON.stringify(h.platform.snapshot())).not.toContain(nora.password);
      expect(JSON.stringify(h.platform.requests.list())).not.toContain(nora.password);
      expect(expectPage(await b.get(location))).toContain('Signed in as Nora.New@example.com');
      const back = new URL(expectRedirect(await b.get('/shop/return', { returnUrl })));
      const token = expectOk(await exchange(back.searchParams.get('ticket')!), AccessTokenResponse);
      const user = expectOk(await h.call(paths.getSignedInUser, { token: token.access_token }), SignedInUser);
      expect(user).toMatchObject({ id: account.id, email: 'Nora.New@example.com', firstName: 'Nora', lastName: 'New' });
      // The state with the new account loads again (a state file, a restore), and its password
      // signs it in again, in any letter case of the address.
      h.platform.restore(h.platform.snapshot());
      expect(accounts().at(-1)).toEqual(account);
      const again = browser(h);
      await again.get(MARKET);
      expectRedirect(
        await again.post('/shop/login', { ...market, email: 'NORA.NEW@example.com', password: nora.password }),
      );
      expect(again.cookie).toMatch(/^shop_session=/);
    });

    test.each<[string, Record<string, string>, number, string]>([
      ['an e-mail address that is not one', { email: 'nora' }, 400, 'Enter a valid e-mail address'],
      ['no first name', { first_name: '  ' }, 400, 'Enter a first and a last name, each of 1 to 100 characters'],
      [
        'a last name of 101 characters',
        { last_name: 'n'.repeat(101) },
        400,
        'Enter a first and a last name, each of 1 to 100 characters',
      ],
      ['a password of 7 characters', { password: 'seven77' }, 400, 'Choose a password of at least 8 characters'],
      [
        'the e-mail address of an account of the organisation, in other letter case',
        { email: demoUsers.anna.email.toUpperCase() },
        409,
        'An account with this e-mail address exists: sign in above',
      ],
    ])(
      '%s: the form again with the error, what was typed kept but the password; no account, no session',
      async (_, change, status, error) => {
        const b = browser(h);
        await b.get(MARKET);
        const answer = await expectUnchanged(h.platform, () =>
          b.post('/shop/signup', { ...market, ...nora, ...change }),
        );
        const page = expectPage(answer, status);
        expect(page).toContain(`data-testid="signup-error">${error}`);
        expect(page).not.toContain(nora.password);
        // What was typed is shown again, but the password.
        expect(page).toContain(`value="${change.email ?? nora.email}"`);
        expect(b.cookie).toBeUndefined();
      },
    );

    test('a field of more than 1,024 characters: 400 invalid_parameter naming it, in the common JSON error body; nothing changes', async () => {
      const b = browser(h);
      await b.get(MARKET);
      const answer = await expectUnchanged(h.platform, () =>
        b.post('/shop/signup', { ...market, ...nora, first_name: 'n'.repeat(1025) }),
      );
      expectError(answer, 400, 'invalid_parameter', 'first_name');
    });

    test('without the page token, or from another site, a 403 page; no account, no session', async () => {
      const b = browser(h);
      await b.get(MARKET);
      await expectUnchanged(h.platform, async () => {
        expectPage(await b.post('/shop/signup', { ...market, ...nora, csrf_token: '' }), 403);
        expectPage(await b.post('/shop/signup', { ...market, ...nora }, { 'sec-fetch-site': 'cross-site' }), 403);
      });
      expect(b.cookie).toBeUndefined();
    });

    test('a sign-up whose password is being hashed when the state is reset: 409 invalid_state, and no account nor session in the new state', async () => {
      const b = browser(h);
      await b.get(MARKET);
      // node:crypto's own scrypt, as the platform's password hash calls it.
      const open = holdCalls(process.getBuiltinModule('node:crypto'), 'scrypt');
      try {
        const answer = b.post('/shop/signup', { ...market, ...nora });
        // Once journaled, the sign-up has been judged and waits for its hash (one synchronous step).
        await until(() => expect(h.platform.requests.list().some((r) => r.path === '/shop/signup')).toBe(true));
        h.platform.reset();
        const seeded = JSON.stringify(h.platform.snapshot());
        open();
        expectError(await answer, 409, 'invalid_state');
        expect(JSON.stringify(h.platform.snapshot())).toBe(seeded);
      } finally {
        open();
      }
      expect(b.cookie).toBeUndefined();
    });

    test('two sign-ups with one e-mail address at once: one account, the other refused on the form (409)', async () => {
      const before = accounts().length;
      const pages = [browser(h), browser(h)];
      for (const b of pages) await b.get(MARKET);
      // Both are judged before either password is hashed: the address is judged again once it is.
      const answers = await Promise.all(
        pages.map((b, i) => b.post('/shop/signup', { ...market, ...nora, first_name: `Twin ${i}` })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
      expect(accounts()).toHaveLength(before + 1);
    });

    test("an account at its longest (names of 100 characters, an e-mail address of 254) takes at most 743 characters of the state's JSON (docs/security.md)", async () => {
      const email = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
      expect(email).toHaveLength(254);
      const b = browser(h);
      await b.get(MARKET);
      const longest = { first_name: 'f'.repeat(100), last_name: 'l'.repeat(100), email, password: nora.password };
      expectRedirect(await b.post('/shop/signup', { ...market, ...longest }));
      const account = accounts().find((a) => a.email === email);
      expect(JSON.stringify(account).length).toBeLessThanOrEqual(743);
    });

    test('an unknown marketplace: a 404 page; no account', async () => {
      const b = browser(h);
      await b.get(MARKET);
      const answer = await expectUnchanged(h.platform, () =>
        b.post('/shop/signup', { group_id: 'nowhere', marketplace_id: 'none', ...nora }),
      );
      expectPage(answer, 404);
    });
  },
);

describe.each(ADAPTERS)('the cap of accounts the shop adds (retention.maxShopAccounts) through %s', (kind) => {
  const h = useAdapter(kind, { retention: { maxShopAccounts: 1 } });

  test("at the cap, a sign-up is refused on the form (503) and nothing is added; the state document's own accounts do not count", async () => {
    const first = browser(h);
    await first.get(MARKET);
    const signUp = (b: ReturnType<typeof browser>, email: string) =>
      b.post('/shop/signup', { ...market, first_name: 'A', last_name: 'B', email, password: 'a-password-1' });
    expectRedirect(await signUp(first, 'first@example.com'));
    const second = browser(h);
    await second.get(MARKET);
    const answer = await expectUnchanged(h.platform, () => signUp(second, 'second@example.com'));
    expect(expectPage(answer, 503)).toContain('The shop takes no more new accounts (--max-shop-accounts)');
    expect(second.cookie).toBeUndefined();
  });
});
