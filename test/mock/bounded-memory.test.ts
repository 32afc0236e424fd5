/**
 * A server that runs for weeks stays small: access tokens, tickets and sessions of no more use are
 * dropped on the platform clock, a few each time one of their kind is added, and each kind has a
 * cap beyond which its oldest go first (the `retention` option). What the spec needs is kept: a
 * used ticket until its expiry (its reuse is refused as such, and revokes what it issued), a
 * refresh token after its access token has expired. Counts, never timings or memory.
 *
 * The soak sends its requests through the platform's own `handle` (a Fetch `Request` in, a
 * `Response` out: what MSW hands it), so that tens of thousands of them take seconds.
 */
import { decodeJwt, SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { OffsetClock } from '../../mock/core/clock.js';
import { ssoSessionOver, tokenDone } from '../../mock/core/eviction.js';
import { internalsOf } from '../../mock/core/internals.js';
import { purchase } from '../../mock/core/user-products.js';
import { createPlatform, defaultHosts, type Platform, type PlatformOptions } from '../../mock/index.js';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { IdResponse } from '../../src/schemas/common.js';
import { SsoEnvelope } from '../../src/schemas/sign-on.js';
import {
  ADAPTERS,
  absent,
  DEMO_SSO_AUDIENCE,
  demoIds,
  demoShop,
  demoSite,
  demoUsers,
  expectError,
  expectOk,
  expectUnchanged,
  paths,
  READ,
  useAdapter,
} from './harness.js';

const T0 = '2030-01-01T00:00:00.000Z';
const { anna } = demoIds.accounts;
const MARKET = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;

/** A request token of the demo site for an SSO operation, on the platform's clock. */
function ssoToken(platform: Platform, claims: Record<string, unknown>): Promise<string> {
  const now = Math.floor(platform.clock.now().getTime() / 1000);
  return new SignJWT({ cid: demoSite.clientId, ipa: '203.0.113.7', uas: 'soak', ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setNotBefore(now)
    .setExpirationTime(now + 10)
    .setIssuer(demoSite.organisationId)
    .setAudience(DEMO_SSO_AUDIENCE)
    .sign(new TextEncoder().encode(demoSite.clientSecret));
}

/** One request through the platform's own handle: the status and the body as text. */
async function send(
  platform: Platform,
  host: keyof typeof defaultHosts,
  path: string,
  init: { method?: string; json?: unknown; form?: Record<string, string>; token?: string } = {},
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let body: string | undefined;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] = 'application/json';
  }
  if (init.form !== undefined) {
    body = new URLSearchParams(init.form).toString();
    headers['content-type'] = 'application/x-www-form-urlencoded';
  }
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const method = init.method ?? (body === undefined ? 'GET' : 'POST');
  const answer = await platform.handle(new Request(`${defaultHosts[host]}${path}`, { method, headers, body }));
  return { status: answer.status, text: await answer.text() };
}

/** How many of each kind the platform holds now. */
function counts(platform: Platform) {
  const state = internalsOf(platform)!.state;
  const document = platform.snapshot();
  return {
    accessTokens: document.access_tokens.length,
    tickets: document.tickets.length,
    ssoSessions: document.sso_sessions.length,
    longestTimeline: Math.max(0, ...document.sso_sessions.map((s) => s.timeline.length)),
    shopSessions: state.shopSessions.size,
    wrongPasswordCounts: state.loginFailures.size,
    journal: platform.requests.list().length,
  };
}

describe('a soak of tens of thousands of mixed requests, the clock moving on', () => {
  const caps = {
    maxAccessTokens: 1000,
    maxTickets: 1000,
    maxSsoSessions: 1000,
    maxShopSessions: 100,
    maxWrongPasswordCounts: 100,
  };
  const options: PlatformOptions = {
    now: T0,
    journalLimit: 500,
    retention: caps,
    login: { maxSessionsPerAccount: 1000 },
  };

  /**
   * One round of the mix, 12 requests: a client-credentials grant, a ticket (endpoint 22) and its
   * exchange, a refresh, a replayed ticket (refused), createsession, an SSO log-in with a ticket,
   * a shop log-in with a ticket, a read, two refused reads; every 25th round a wrong password for
   * a new address, through SSO.
   */
  async function round(platform: Platform, i: number): Promise<number> {
    const site = { client_id: demoSite.clientId, client_secret: demoSite.clientSecret };
    const s2s = AccessTokenResponse.parse(
      JSON.parse((await send(platform, 'auth', paths.accessToken, { form: { grant_type: 'none', ...site } })).text),
    );
    const ticketOf = async (json: unknown) =>
      (
        JSON.parse((await send(platform, 'auth', paths.generateTicket, { json, token: s2s.access_token })).text) as {
          ticket: string;
        }
      ).ticket;
    const ticket = await ticketOf({ accountId: anna, clientId: demoSite.clientId });
    const exchange = () =>
      send(platform, 'auth', paths.accessToken, { json: { grant_type: 'ticket', ticket, ...site } });
    const user = AccessTokenResponse.parse(JSON.parse((await exchange()).text));
    await send(platform, 'auth', paths.accessToken, {
      json: { grant_type: 'refresh_token', refresh_token: user.refresh_token, ...site },
    });
    expect((await exchange()).status).toBe(401);
    const created = await send(platform, 'sso', paths.ssoCreateSession, {
      json: { t: await ssoToken(platform, { apn: 'a', apv: '1', osn: 'o', osv: '1' }) },
    });
    const { sid } = decodeJwt(SsoEnvelope.parse(JSON.parse(created.text)).t) as { sid: string };
    const at = await ticketOf({ accountId: anna, clientId: demoSite.clientId });
    await send(platform, 'sso', paths.authenticateWithTicket, { json: { t: await ssoToken(platform, { sid, at }) } });
    const shopTicket = await ticketOf({ accountId: anna, clientId: demoShop.clientId });
    expect((await send(platform, 'shop', `${MARKET}?at=${shopTicket}`)).status).toBe(303);
    expect((await send(platform, 'api', paths.getProducts, { token: s2s.access_token })).status).toBe(200);
    expect((await send(platform, 'api', paths.getProducts, { token: 'not-a-token' })).status).toBe(401);
    expect((await send(platform, 'api', `${paths.getProducts}?nope=1`, { token: s2s.access_token })).status).toBe(400);
    if (i % 25 !== 0) return 12;
    const usr = `nobody-${i}@example.com`;
    await send(platform, 'sso', paths.ssoAuthenticate, {
      json: { t: await ssoToken(platform, { sid, usr, pwd: 'wrong-password' }) },
    });
    return 13;
  }

  test('every kind stays within its cap and the journal within its limit; past every lifetime, what is of no more use is dropped', async () => {
    const platform = createPlatform(options);
    platform.clock.freeze();
    let sent = 0;
    for (let i = 1; sent < 20_000; i++) {
      sent += await round(platform, i);
      // Ten minutes of the platform clock every forty rounds: tickets and access tokens expire as it goes.
      if (i % 40 === 0) platform.clock.advance(600);
      if (i % 200 === 0) {
        const now = counts(platform);
        expect(now.accessTokens).toBeLessThanOrEqual(caps.maxAccessTokens);
        expect(now.tickets).toBeLessThanOrEqual(caps.maxTickets);
        expect(now.ssoSessions).toBeLessThanOrEqual(caps.maxSsoSessions);
        expect(now.shopSessions).toBeLessThanOrEqual(caps.maxShopSessions);
        expect(now.wrongPasswordCounts).toBeLessThanOrEqual(caps.maxWrongPasswordCounts);
        expect(now.longestTimeline).toBeLessThanOrEqual(20);
        expect(now.journal).toBeLessThanOrEqual(500);
      }
    }
    const full = counts(platform);
    // Tickets live 60 s and are dropped as they expire: far fewer than the cap are kept.
    expect(full.tickets).toBeLessThan(caps.maxTickets / 2);
    expect(full).toMatchObject({ accessTokens: caps.maxAccessTokens, ssoSessions: caps.maxSsoSessions });

    // 31 days on, every token, ticket and session has ended: 300 rounds later (each kind's sweep has
    // gone round its list), none of them is left.
    platform.clock.advance(31 * 86_400);
    const before = Date.parse(platform.clock.now().toISOString());
    for (let i = 1; i <= 300; i++) await round(platform, i);
    const document = platform.snapshot();
    const nowMs = platform.clock.now().getTime();
    const retention = internalsOf(platform)!.settings.retention;
    expect(document.access_tokens.filter((t) => tokenDone(t, nowMs))).toEqual([]);
    expect(document.tickets.filter((t) => Date.parse(t.issued_at) < before)).toEqual([]);
    expect(document.sso_sessions.filter((s) => ssoSessionOver(retention, s, nowMs))).toEqual([]);
    // What is left was added in those 300 rounds: one session a round, fewer tokens than before.
    const after = counts(platform);
    expect(after.accessTokens).toBeLessThan(full.accessTokens);
    expect(after.ssoSessions).toBeLessThanOrEqual(300);
  }, 300_000);
});

describe.each(ADAPTERS)('what is kept, and for how long, through %s', (kind) => {
  const h = useAdapter(kind, {
    now: T0,
    retention: { maxAccessTokens: 50, maxTickets: 50, maxSsoSessions: 50 },
  });
  const site = { client_id: demoSite.clientId, client_secret: demoSite.clientSecret };
  const grant = (json: Record<string, string>) =>
    h.call(paths.accessToken, { method: 'POST', host: 'auth', json: { ...json, ...site } });
  const ticketFor = () => h.platform.issueTicket({ accountId: anna, clientId: demoSite.clientId });
  const sso = async (path: string, claims: Record<string, unknown>) =>
    decodeJwt(
      expectOk(
        await h.call(path, { method: 'POST', host: 'sso', json: { t: await ssoToken(h.platform, claims) } }),
        SsoEnvelope,
      ).t,
    );

  test('over the cap, the oldest access token goes first: it is refused, the newer ones are not', async () => {
    h.platform.clock.freeze();
    const tokens = Array.from({ length: 51 }, () => h.token([READ]));
    expect(h.platform.snapshot().access_tokens.length).toBeLessThanOrEqual(50);
    expectError(await h.call(paths.getProducts, { token: tokens[0] }), 401, 'invalid_token', 'authorization');
    expect((await h.call(paths.getProducts, { token: tokens[1] })).status).toBe(200);
    expect((await h.call(paths.getProducts, { token: tokens[50] })).status).toBe(200);
  });

  test('a used ticket is kept until its expiry: replayed after many others were issued, it is refused as used and revokes its token', async () => {
    h.platform.clock.freeze();
    const ticket = ticketFor();
    const first = expectOk(await grant({ grant_type: 'ticket', ticket }), AccessTokenResponse);
    for (let i = 0; i < 40; i++) ticketFor();
    const replay = expectError(await grant({ grant_type: 'ticket', ticket }), 401, 'invalid_grant', 'ticket');
    expect(replay.message).toMatch(/already used/);
    expectError(await h.call(paths.getProducts, { token: first.access_token }), 401, 'invalid_token', 'authorization');
    // Past its expiry, the next tickets issued drop it.
    h.platform.clock.advance(61);
    for (let i = 0; i < 20; i++) ticketFor();
    expect(h.platform.snapshot().tickets.some((t) => t.ticket === ticket)).toBe(false);
  });

  test('a refresh token outlives its access token until its own expiry (30 days), then it is refused and dropped', async () => {
    h.platform.clock.freeze();
    const first = expectOk(await grant({ grant_type: 'none' }), AccessTokenResponse);
    h.platform.clock.advance(2 * 3600);
    for (let i = 0; i < 20; i++) h.token([READ]);
    const second = expectOk(
      await grant({ grant_type: 'refresh_token', refresh_token: first.refresh_token ?? '' }),
      AccessTokenResponse,
    );
    h.platform.clock.advance(30 * 86_400);
    const late = expectError(
      await grant({ grant_type: 'refresh_token', refresh_token: second.refresh_token ?? '' }),
      401,
      'invalid_grant',
      'refresh_token',
    );
    expect(late.message).toMatch(/expired/);
    for (let i = 0; i < 20; i++) h.token([READ]);
    const kept = h.platform.snapshot().access_tokens.map((t) => t.access_token);
    expect(kept).not.toContain(first.access_token);
    expect(kept).not.toContain(second.access_token);
  });

  test('an SSO session unused for a day ends (session_not_found) and is dropped; one in use ends 30 days after it was created', async () => {
    h.platform.clock.freeze();
    const idle = (await sso(paths.ssoCreateSession, { apn: 'a', apv: '1', osn: 'o', osv: '1' })).sid as string;
    const busy = (await sso(paths.ssoCreateSession, { apn: 'a', apv: '1', osn: 'o', osv: '1' })).sid as string;
    // A log-in attempt every half day keeps `busy` in use; `idle` sees none.
    const attempt = () => sso(paths.ssoAuthenticate, { sid: busy, usr: 'nobody@example.com', pwd: 'wrong' });
    for (let half = 1; half <= 59; half++) {
      h.platform.clock.advance(43_200);
      await attempt();
      if (half === 2) {
        expect(await sso(paths.ssoSessionStatus, { sid: idle, lks: 'anon' })).toMatchObject({
          err: 'session_not_found',
        });
        // The test tools agree with the service at once, before any sweep drops the record.
        expect(h.platform.snapshot().sso_sessions.map((s) => s.sid)).toContain(idle);
        expect(h.platform.sso.session(idle)).toBeUndefined();
        expect(expectError(await h.call(`/__admin/sso/sessions/${idle}`), 404, 'not_found', 'sid').message).toMatch(
          /has ended/,
        );
        expectError(
          await h.call(`/__admin/sso/sessions/${idle}/terminate`, { method: 'POST' }),
          404,
          'not_found',
          'sid',
        );
        expect(h.platform.sso.session(busy)).toBeDefined();
        expect((await h.call(`/__admin/sso/sessions/${busy}`)).status).toBe(200);
      }
    }
    expect(await sso(paths.ssoSessionStatus, { sid: busy, lks: 'anon' })).toMatchObject({ err: null, sts: 'anon' });
    // 30 days after it was created, in use half a day ago: it has ended.
    h.platform.clock.advance(43_200);
    expect(await sso(paths.ssoSessionStatus, { sid: busy, lks: 'anon' })).toMatchObject({ err: 'session_not_found' });
    for (let i = 0; i < 20; i++) h.platform.sso.createSession({ clientId: demoSite.clientId });
    const sids = h.platform.snapshot().sso_sessions.map((s) => s.sid);
    expect(sids).not.toContain(idle);
    expect(sids).not.toContain(busy);
  });

  test('a session a site asks sessionstatus about every half day stays (its timeline does not record it); once it stops asking, a day later the session has ended', async () => {
    h.platform.clock.freeze();
    const sid = (await sso(paths.ssoCreateSession, { apn: 'a', apv: '1', osn: 'o', osv: '1' })).sid as string;
    const status = () => sso(paths.ssoSessionStatus, { sid, lks: 'anon' });
    for (let half = 1; half <= 6; half++) {
      h.platform.clock.advance(43_200);
      expect(await status()).toMatchObject({ err: null, sts: 'anon' });
    }
    expect(h.platform.sso.session(sid)?.timeline.map((e) => e.operation)).toEqual(['createsession']);
    expect(h.platform.sso.session(sid)?.last_status_at).toBe(h.platform.clock.now().toISOString());
    // A day after the last sessionstatus: ended.
    h.platform.clock.advance(86_400);
    expect(await status()).toMatchObject({ err: 'session_not_found' });
  });

  test("a session's timeline keeps its latest 20 entries, and 256 characters of a user agent", async () => {
    h.platform.clock.freeze();
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    for (let i = 0; i < 25; i++)
      await sso(paths.ssoAuthenticate, { sid, usr: `nobody-${i}@example.com`, pwd: 'wrong', uas: 'u'.repeat(1000) });
    const timeline = h.platform.sso.session(sid)?.timeline ?? [];
    expect(timeline).toHaveLength(20);
    expect(timeline.every((e) => e.user_agent === 'u'.repeat(256))).toBe(true);
  });

  test('logged-in sessions that have ended do not count against the limit of logged-in sessions', async () => {
    h.platform.clock.freeze();
    const session = () => h.platform.sso.createSession({ clientId: demoSite.clientId });
    const logIn = (sid: string) =>
      sso(paths.ssoAuthenticate, { sid, usr: demoUsers.anna.email, pwd: demoUsers.anna.password });
    for (let i = 0; i < 5; i++) expect(await logIn(session())).toMatchObject({ sts: 'loggedin' });
    expect(await logIn(session())).toMatchObject({ err: 'session_limit_reached' });
    h.platform.clock.advance(23 * 3600);
    const sixth = session();
    // A day after their last log-in the five have ended (not yet dropped: nothing was added since).
    h.platform.clock.advance(3600);
    expect(await logIn(sixth)).toMatchObject({ sts: 'loggedin', err: null });
  });
});

describe('over the cap of wrong-password counts, a freeze holds', () => {
  /** A wrong (or right) password for `usr` through SSO authenticate: the session token's claims. */
  async function authenticate(platform: Platform, usr: string, pwd: string) {
    const created = await send(platform, 'sso', paths.ssoCreateSession, {
      json: { t: await ssoToken(platform, { apn: 'a', apv: '1', osn: 'o', osv: '1' }) },
    });
    const { sid } = decodeJwt(SsoEnvelope.parse(JSON.parse(created.text)).t) as { sid: string };
    const answer = await send(platform, 'sso', paths.ssoAuthenticate, {
      json: { t: await ssoToken(platform, { sid, usr, pwd }) },
    });
    return decodeJwt(SsoEnvelope.parse(JSON.parse(answer.text)).t) as { sts: string; err: string | null; raa: number };
  }

  test('wrong passwords for more made-up addresses than the cap keeps do not thaw a frozen address: its right password is still refused account_frozen', async () => {
    const platform = createPlatform({
      now: T0,
      retention: { maxWrongPasswordCounts: 3 },
      login: { maxFailedAttempts: 2, freezeSeconds: 300 },
    });
    platform.clock.freeze();
    const { email, password } = demoUsers.anna;
    for (let i = 0; i < 2; i++) await authenticate(platform, email, 'wrong-password');
    expect(await authenticate(platform, email, password)).toMatchObject({ err: 'account_frozen' });
    for (let i = 0; i < 10; i++) await authenticate(platform, `nobody-${i}@example.com`, 'wrong-password');
    expect(internalsOf(platform)!.state.loginFailures.size).toBeLessThanOrEqual(3);
    expect(await authenticate(platform, email, password)).toMatchObject({ err: 'account_frozen', sts: 'anon' });
    // Once the freeze is over, the right password logs in.
    platform.clock.advance(300);
    expect(await authenticate(platform, email, password)).toMatchObject({ err: null, sts: 'loggedin' });
  });

  test('a count still under way is not swept: wrong passwords for another address in between, and the next one still freezes', async () => {
    const platform = createPlatform({ now: T0, login: { maxFailedAttempts: 2, freezeSeconds: 300 } });
    platform.clock.freeze();
    const { email, password } = demoUsers.anna;
    await authenticate(platform, email, 'wrong-password');
    await authenticate(platform, 'nobody@example.com', 'wrong-password');
    expect(await authenticate(platform, email, 'wrong-password')).toMatchObject({ err: 'invalid_credentials', raa: 0 });
    expect(await authenticate(platform, email, password)).toMatchObject({ err: 'account_frozen' });
  });

  test('when every count kept is a live freeze, a new address is not counted: the cap holds', async () => {
    const platform = createPlatform({
      now: T0,
      retention: { maxWrongPasswordCounts: 2 },
      login: { maxFailedAttempts: 1, freezeSeconds: 300 },
    });
    platform.clock.freeze();
    for (const usr of ['a@example.com', 'b@example.com', 'c@example.com'])
      await authenticate(platform, usr, 'wrong-password');
    const counts = internalsOf(platform)!.state.loginFailures;
    expect([...counts.keys()].map((k) => k.split('\n')[1])).toEqual(['a@example.com', 'b@example.com']);
    // A thawed count makes room again.
    platform.clock.advance(300);
    await authenticate(platform, 'c@example.com', 'wrong-password');
    expect([...counts.keys()].map((k) => k.split('\n')[1])).toContain('c@example.com');
  });
});

describe.each(ADAPTERS)('the records requests add stay within their caps, through %s', (kind) => {
  // The demo seed's 14 user-products are the document's own: the cap counts those requests add.
  const h = useAdapter(kind, {
    now: T0,
    retention: { maxAccountChangeLogs: 5, maxUserProducts: 2, maxPricePeriods: 6 },
    syncProcessingMs: 0,
  });
  const entry = (message: string, account_id: string = anna) => ({
    account_id,
    category_type: 'address_change',
    message,
    requested_by: 'customer service',
  });
  const log = (...messages: string[]) =>
    h.call(paths.logToAccounts, {
      method: 'PUT',
      json: { change_logs: messages.map((m) => entry(m)) },
      token: h.token(['/external/account_change_log/w']),
    });
  const messages = () => h.platform.snapshot().account_change_logs.map((l) => l.message);

  test('change-log entries (endpoint 4): over the cap, the oldest logged go first; a batch larger than the cap keeps its last ones', async () => {
    expect((await log('m1', 'm2', 'm3')).status).toBe(207);
    expect((await log('m4', 'm5', 'm6')).status).toBe(207);
    expect(messages()).toEqual(['m2', 'm3', 'm4', 'm5', 'm6']);
    expect((await log('b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7')).status).toBe(207);
    expect(messages()).toEqual(['b3', 'b4', 'b5', 'b6', 'b7']);
  });

  test('an endpoint 4 request that logs nothing drops nothing; a refused one changes nothing', async () => {
    await log('m1', 'm2', 'm3', 'm4', 'm5');
    const token = h.token(['/external/account_change_log/w']);
    // Every entry refused on its own (no such account): 207, nothing logged, nothing dropped.
    const none = await expectUnchanged(h.platform, () =>
      h.call(paths.logToAccounts, {
        method: 'PUT',
        json: { change_logs: [entry('x', absent.account)] },
        token,
      }),
    );
    expect(none.status).toBe(207);
    // A category that is not available refuses the whole request.
    const refused = await expectUnchanged(h.platform, () =>
      h.call(paths.logToAccounts, {
        method: 'PUT',
        json: { change_logs: [{ ...entry('x'), category_type: 'nope' }] },
        token,
      }),
    );
    expectError(refused, 400, 'invalid_parameter', 'change_logs[0].category_type');
    expect(messages()).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  const provision = (year: number) =>
    h.call(paths.provisionUserProduct, {
      method: 'POST',
      json: {
        account_id: anna,
        package_code: 'premium-digital',
        subscription_type: 'recurring',
        valid_from: `${year}-01-01T00:00:00Z`,
        valid_to: `${year + 1}-01-01T00:00:00Z`,
      },
      token: h.token(['/external/userproduct/w']),
    });

  test("user-products requests add (endpoint 13): over the cap, the oldest added goes first; the document's own, the seed's, are kept", async () => {
    const seeded = h.platform.snapshot().user_products.map((u) => u.id);
    expect(seeded).toHaveLength(14);
    const added: string[] = [];
    for (const year of [2040, 2042, 2044]) added.push(expectOk(await provision(year), IdResponse, 201).id);
    expect(h.platform.snapshot().user_products.map((u) => u.id)).toEqual([...seeded, ...added.slice(1)]);
    // A document restored is the document's own again: its 16 are kept, and the cap counts anew.
    h.platform.restore(h.platform.snapshot());
    const next = expectOk(await provision(2046), IdResponse, 201).id;
    expect(h.platform.snapshot().user_products.map((u) => u.id)).toEqual([...seeded, ...added.slice(1), next]);
  });

  test('user-products a purchase adds: over the cap, the oldest added goes with its order and payment profile; the state document stays whole', () => {
    const { state } = internalsOf(h.platform)!;
    // The shop's purchase, as its page makes it (the page's flow is the shop's tests').
    const clock = new OffsetClock(Date.parse(T0));
    const product = state.products.get(demoIds.products.premiumDigital)!;
    const period = product.price_periods.find((p) => p.payment_option === 'creditcard')!;
    const buy = () => purchase(state, clock, { accountId: anna, product, period }).id;
    const before = h.platform.snapshot();
    const [first, second, third] = [buy(), buy(), buy()];
    const after = h.platform.snapshot();
    const of = (id: string) => ({
      userProducts: after.user_products.filter((u) => u.id === id).length,
      orders: after.orders.filter((o) => o.user_product_id === id).length,
      profiles: after.payment_profiles.filter((p) => p.user_product_id === id).length,
    });
    expect(of(first)).toEqual({ userProducts: 0, orders: 0, profiles: 0 });
    expect(of(second)).toEqual({ userProducts: 1, orders: 1, profiles: 1 });
    expect(of(third)).toEqual({ userProducts: 1, orders: 1, profiles: 1 });
    expect(after.user_products).toHaveLength(before.user_products.length + 2);
    expect(after.orders).toHaveLength(before.orders.length + 2);
    expect(after.payment_profiles).toHaveLength(before.payment_profiles.length + 2);
    // What is left is a state document the platform takes back (no order names a user-product it has not).
    expect(() => h.platform.restore(after)).not.toThrow();
  });

  test('a sync (endpoint 19) that creates a user-product over the cap changes its others first: the oldest added, one it changes, goes whole', async () => {
    const { gus } = demoIds.accounts;
    const state = internalsOf(h.platform)!.state;
    const subscription = (subscription_number: string, valid_to: string) => ({
      subscription_number,
      product_code: 'digital-news',
      subscription_type: 'recurring' as const,
      valid_from: '2024-01-01T00:00:00Z',
      valid_to,
      state: 'active' as const,
    });
    const sync = async (...subscriptions: ReturnType<typeof subscription>[]) => {
      h.platform.subscriptionSystems.setCustomer(demoIds.organisations.demo, {
        customer_number: 'C1007',
        address: null,
        subscriptions,
      });
      const synced = await h.call(paths.syncCustomerSubscriptions, {
        method: 'PUT',
        json: { customer_number: 'C1007' },
        token: h.token(['/external/subscription_system/w']),
      });
      expectOk(synced, IdResponse);
      return h.platform.snapshot().user_products;
    };
    const numbered = (rows: { subscription_number?: string | null; id: string }[], n: string) =>
      rows.filter((u) => u.subscription_number === n).map((u) => u.id);
    // Two user-products added by syncs: the cap is full.
    const [first] = numbered(await sync(subscription('PL-9-1', '2999-12-31T23:59:59Z')), 'PL-9-1');
    await sync(subscription('PL-9-1', '2999-12-31T23:59:59Z'), subscription('PL-9-2', '2999-12-31T23:59:59Z'));
    // Read by id before (so by an index of ids), as a request to it would.
    expect(state.userProducts.get(first!)).toBeDefined();
    // The third changes the first (its end) and creates one more: the first, changed, goes whole.
    const after = await sync(
      subscription('PL-9-3', '2999-12-31T23:59:59Z'),
      subscription('PL-9-1', '2998-12-31T23:59:59Z'),
      subscription('PL-9-2', '2999-12-31T23:59:59Z'),
    );
    expect(after.map((u) => u.id)).not.toContain(first);
    expect(numbered(after, 'PL-9-2')).toHaveLength(1);
    expect(numbered(after, 'PL-9-3')).toHaveLength(1);
    // Every lookup agrees with the document: the dropped one is in none of them.
    expect(state.userProductsOf(gus).map((u) => u.id)).toEqual(
      after.filter((u) => u.account_id === gus).map((u) => u.id),
    );
    expect(state.userProducts.get(first!)).toBeUndefined();
  });

  test('price periods: endpoint 1 refuses an update that would give a package more than the cap (400 invalid_parameter, price_periods), changing nothing', async () => {
    const token = h.token();
    const update = (...periods: object[]) =>
      h.call(paths.updatePrices, {
        method: 'POST',
        json: { package_integration_code: 'PREMIUM-DIGITAL', price_periods: periods },
        token,
      });
    const period = (payment_option: string, length: number) => ({
      subscription_type: 'recurring',
      payment_option,
      type: 'month',
      length,
      price: 10,
    });
    const periods = () =>
      h.platform.snapshot().products.find((p) => p.id === demoIds.products.premiumDigital)!.price_periods;
    expect(periods()).toHaveLength(4);
    const refused = await expectUnchanged(h.platform, () =>
      update(period('creditcard', 7), period('invoice', 7), period('directdebit', 7)),
    );
    const error = expectError(refused, 400, 'invalid_parameter', 'price_periods');
    expect(error.message).toBe('A package or campaign holds at most 6 price periods: this update would give it 7');
    expectOk(await update(period('creditcard', 7), period('invoice', 7)), IdResponse);
    expect(periods()).toHaveLength(6);
    // At the cap, an update of periods it has passes; one more is refused.
    expectOk(await update(period('creditcard', 7)), IdResponse);
    expectError(await update(period('creditcard', 8)), 400, 'invalid_parameter', 'price_periods');
    expect(periods()).toHaveLength(6);
  });
});
