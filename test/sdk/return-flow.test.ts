/**
 * The way there and back (spec: endpoints 22 and 25, "Return flow"), end to end with the reference
 * platform's shop: a ticket for the shop, the marketplace URL, a purchase in the shop's pages (a
 * cookie jar), the shop's return with a new ticket for the site, and the site's return handler.
 */
import { describe, expect, test } from 'vitest';
import {
  AuthenticationError,
  MemoryTicketStore,
  type PlatformClient,
  PlatformError,
  ReplayGuard,
  TicketReplayError,
} from '../../src/index.js';
import { paths } from '../paths.js';
import { browser, hrefOf } from './browser.js';
import { defaultHosts, demoIds, demoShop, demoSite, platform, siteClient, usePlatform } from './helpers.js';

usePlatform();

const { anna } = demoIds.accounts;
/** The demo seed registers `localhost` in mode ReturnUrl and `127.0.0.1` in mode SeparateTicketAuth (`/auth/ticket`). */
const RETURN_URL = 'http://localhost:3000/welcome?from=shop';
const SITE_127 = 'http://127.0.0.1:8080';
const TOKEN_PATH = paths.accessToken;

const tokenRequests = () => platform.requests.list().filter((e) => e.path === TOKEN_PATH).length;

/**
 * The user goes to the shop with a ticket (22 form a, 25), buys `premium-digital`, and clicks
 * "Return to site" on the confirmation: answers where the shop sent the browser.
 */
async function shopAndReturn(site: PlatformClient, returnUrl: string): Promise<string> {
  const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: demoShop.clientId });
  const url = site.shop.marketplaceUrl({
    groupId: demoShop.groupId,
    marketplaceId: demoShop.marketplaceId,
    ticket,
    returnUrl,
  });
  const b = browser();
  const store = await b.get(url);
  expect(store.status).toBe(200);
  // The ticket logged the user into the shop, and left the address bar.
  expect(store.text).toContain('Signed in as anna@example.com');
  expect(store.url).not.toContain(ticket);
  const confirmation = await b.post(`${defaultHosts.shop}/shop/purchase`, {
    group_id: demoShop.groupId,
    marketplace_id: demoShop.marketplaceId,
    period_id: demoIds.periods.premiumCreditcard,
    returnUrl,
  });
  expect(confirmation.text).toContain('data-testid="confirmation"');
  const back = hrefOf(confirmation.text, 'return-to-site');
  if (back === undefined) throw new Error('no way back on the confirmation page');
  const returned = await b.get(new URL(back, confirmation.url).href);
  if (returned.leftTo === undefined) throw new Error('the shop did not send the user back');
  return returned.leftTo;
}

describe('the marketplace URL (endpoint 25) on hosts.shop', () => {
  test('carries the ticket in at and the return URL, campaign and period', () => {
    const url = new URL(
      siteClient().shop.marketplaceUrl({
        groupId: demoShop.groupId,
        marketplaceId: demoShop.marketplaceId,
        ticket: 'tkt',
        returnUrl: RETURN_URL,
        campaign: 'premium-summer',
        period: demoIds.periods.summerCreditcard,
      }),
    );
    expect(url.origin + url.pathname).toBe(`${defaultHosts.shop}/marketplace/demo/main`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      at: 'tkt',
      returnUrl: RETURN_URL,
      campaign: 'premium-summer',
      period: demoIds.periods.summerCreditcard,
    });
  });
});

describe('integration mode ReturnUrl: handleReturnUrl', () => {
  test('the shop returns with a ticket for the site; the handler exchanges it and reads the user', async () => {
    const site = siteClient();
    const handler = site.signOn.returnHandler({ readUser: true });
    const returned = await shopAndReturn(site, RETURN_URL);
    expect(new URL(returned).searchParams.get('ticket')).toEqual(expect.any(String));

    const result = await handler.handleReturnUrl(returned);
    expect(result).toMatchObject({ status: 'signed_in', cleanUrl: RETURN_URL, user: { id: anna } });
    // The user bought premium-digital: order validation (endpoint 9) now says already_subscribed.
    const check = await siteClient({
      auth: { accessToken: platform.mintToken({ scopes: ['/external/order_validation/r'] }).access_token },
    }).orders.validate({ product_code: 'premium-digital', account_id: anna });
    expect(check.item.reason).toBe('already_subscribed');
  });

  test('a second use of the same return URL is refused by the replay guard before the platform', async () => {
    const site = siteClient();
    const handler = site.signOn.returnHandler();
    const returned = await shopAndReturn(site, RETURN_URL);
    await handler.handleReturnUrl(returned);
    const before = tokenRequests();
    const error = await handler.handleReturnUrl(returned).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TicketReplayError);
    expect(tokenRequests()).toBe(before);
  });

  test('a replay guard over a shared store refuses the ticket on another handler (another process)', async () => {
    const store = new MemoryTicketStore();
    const returned = await shopAndReturn(siteClient(), RETURN_URL);
    await siteClient()
      .signOn.returnHandler({ replayGuard: new ReplayGuard({ store }) })
      .handleReturnUrl(returned);
    await expect(
      siteClient()
        .signOn.returnHandler({ replayGuard: new ReplayGuard({ store }) })
        .handleReturnUrl(returned),
    ).rejects.toBeInstanceOf(TicketReplayError);
  });

  test('a failed validation does not mark the ticket used: a retry with the right credentials signs in', async () => {
    const guard = new ReplayGuard();
    const returned = await shopAndReturn(siteClient(), RETURN_URL);
    const misconfigured = siteClient({
      credentials: { clientId: demoSite.clientId, clientSecret: 'wrong-secret-0123456789abcdef0123456789' },
    });
    await expect(
      misconfigured.signOn.returnHandler({ replayGuard: guard }).handleReturnUrl(returned),
    ).rejects.toMatchObject({ status: 401, code: 'invalid_client' });
    await expect(
      siteClient().signOn.returnHandler({ replayGuard: guard }).handleReturnUrl(returned),
    ).resolves.toMatchObject({ status: 'signed_in' });
  });

  test('a return without a ticket (the domain is not registered) signs nobody in', async () => {
    const returned = await shopAndReturn(siteClient(), 'https://unregistered.example/back');
    expect(returned).toBe('https://unregistered.example/back');
    await expect(siteClient().signOn.returnHandler().handleReturnUrl(returned)).resolves.toEqual({
      status: 'no_ticket',
      url: returned,
    });
  });
});

describe('integration mode SeparateTicketAuth: handleSeparateTicketAuth', () => {
  const allowed = { allowedOrigins: [SITE_127] };

  test("the shop sends the user to the site's auth endpoint with ticket and returnUrl; signed in, then redirected", async () => {
    const site = siteClient();
    const returned = await shopAndReturn(site, `${SITE_127}/account`);
    const url = new URL(returned);
    expect(url.origin + url.pathname).toBe(`${SITE_127}/auth/ticket`);
    expect(url.searchParams.get('returnUrl')).toBe(`${SITE_127}/account`);
    const result = await site.signOn.returnHandler({ readUser: true }).handleSeparateTicketAuth(returned, allowed);
    expect(result).toMatchObject({ status: 'signed_in', redirectTo: `${SITE_127}/account`, user: { id: anna } });
  });

  test('a hostile returnUrl is refused before the ticket is spent; the genuine request then signs in', async () => {
    const site = siteClient();
    const handler = site.signOn.returnHandler();
    const genuine = await shopAndReturn(site, `${SITE_127}/account`);
    const hostile = new URL(genuine);
    hostile.searchParams.set('returnUrl', 'https://evil.example/steal');
    const before = tokenRequests();
    await expect(handler.handleSeparateTicketAuth(hostile, allowed)).resolves.toEqual({
      status: 'return_url_refused',
      reason: 'origin_not_allowed',
      fallbackUrl: `${SITE_127}/`,
    });
    expect(tokenRequests()).toBe(before);
    await expect(handler.handleSeparateTicketAuth(genuine, allowed)).resolves.toMatchObject({
      status: 'signed_in',
      redirectTo: `${SITE_127}/account`,
    });
  });

  test.each([
    ['a look-alike host', 'http://127.0.0.1.evil.example:8080/account'],
    ['another port', 'http://127.0.0.1:8081/account'],
    ['credentials in the URL', 'http://127.0.0.1:8080@evil.example/account'],
    ['a scheme-relative URL', '//evil.example/account'],
  ])('%s is refused: %s', async (_name, returnUrl) => {
    const site = siteClient();
    const genuine = await shopAndReturn(site, `${SITE_127}/account`);
    const hostile = new URL(genuine);
    hostile.searchParams.set('returnUrl', returnUrl);
    const result = await site.signOn.returnHandler().handleSeparateTicketAuth(hostile, allowed);
    expect(result.status).toBe('return_url_refused');
  });
});

describe('one ticket rule: every SDK input that carries a ticket takes 1 to 512 characters ("Authorization ticket": a string)', () => {
  const VISITOR = { sessionId: 'a-session', ipAddress: '203.0.113.9', userAgent: 'a-browser/1.0' };
  /** Each input that carries a ticket, and its call with `ticket`. */
  const inputs: [string, (site: PlatformClient, ticket: string) => unknown][] = [
    ['authorization.exchangeTicket', (site, ticket) => site.authorization.exchangeTicket({ ticket })],
    [
      'signOn.returnHandler().handleReturnUrl',
      (site, ticket) => site.signOn.returnHandler().handleReturnUrl(`${RETURN_URL}&ticket=${ticket}`),
    ],
    ['sso.authenticateWithTicket', (site, ticket) => site.sso.authenticateWithTicket({ ...VISITOR, ticket })],
    [
      'shop.marketplaceUrl',
      (site, ticket) =>
        site.shop.marketplaceUrl({ groupId: demoShop.groupId, marketplaceId: demoShop.marketplaceId, ticket }),
    ],
  ];

  test.each(inputs)('%s refuses a ticket of 513 characters before sending, naming ticket', async (_, call) => {
    const error = await (async () => call(siteClient(), 'T'.repeat(513)))().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect(error).toMatchObject({ field: 'ticket', message: 'ticket: Parameter size must be at most 512' });
    expect(platform.requests.list()).toEqual([]);
  });

  /**
   * A site client that keeps the ticket each request it sends carries: a token request's `ticket`,
   * or the `at` claim of the token an SSO request posts (the journal redacts both).
   */
  function recordingSite(): { site: PlatformClient; tickets: unknown[] } {
    const tickets: unknown[] = [];
    const site = siteClient({
      fetch: async (input, init) => {
        const request = new Request(input, init);
        const body = JSON.parse((await request.clone().text()) || '{}') as { ticket?: string; t?: string };
        const claims = body.t?.split('.')[1];
        tickets.push(
          claims === undefined
            ? body.ticket
            : (JSON.parse(Buffer.from(claims, 'base64url').toString()) as { at?: string }).at,
        );
        return fetch(request);
      },
    });
    return { site, tickets };
  }

  /** The platform's answer to a ticket it never issued: the ticket was read, and is unknown. */
  const unknownTicket = { constructor: AuthenticationError, status: 401, code: 'invalid_grant', field: 'ticket' };
  /** What each input does with a ticket of 512 characters (one the platform never issued). */
  const outcomes: Record<string, (outcome: unknown, ticket: string) => void> = {
    'authorization.exchangeTicket': (outcome) => expect(outcome).toMatchObject(unknownTicket),
    'signOn.returnHandler().handleReturnUrl': (outcome) => expect(outcome).toMatchObject(unknownTicket),
    // The visitor's session is none of the platform's: the SSO service answers so, as it does to any ticket.
    'sso.authenticateWithTicket': (outcome) =>
      expect(outcome).toMatchObject({ status: 'error', error: 'session_not_found' }),
    // A URL, nothing sent: the ticket goes into it whole.
    'shop.marketplaceUrl': (outcome, ticket) => expect(new URL(outcome as string).searchParams.get('at')).toBe(ticket),
  };

  test.each(inputs)('%s takes a ticket of 512 characters, and sends it whole', async (name, call) => {
    const ticket = 'T'.repeat(512);
    const { site, tickets } = recordingSite();
    const outcome = await (async () => call(site, ticket))().catch((e: unknown) => e);
    (outcomes[name] ?? expect.fail(`no outcome for ${name}`))(outcome, ticket);
    expect(tickets).toEqual(name === 'shop.marketplaceUrl' ? [] : [ticket]);
    expect(platform.requests.list()).toHaveLength(tickets.length);
  });
});
