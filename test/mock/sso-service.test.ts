/**
 * The SSO service beyond endpoint 21 (the platform's public documentation and clients), through
 * both adapters with plain `fetch`: identify, createsession, sessionstatus, authenticate and
 * logout. Every operation answers a signed session token, errors included; jose builds and reads
 * the tokens here only.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { beforeEach, describe, expect, test } from 'vitest';
import type { StateDocument } from '../../mock/index.js';
import { SsoEnvelope, SsoSessionClaims } from '../../src/schemas/sign-on.js';
import { until } from '../until.js';
import {
  ADAPTERS,
  DEMO_SITE_LANDING_URL,
  DEMO_SSO_AUDIENCE,
  demoIds,
  demoSite,
  demoSiteB,
  demoUsers,
  expectError,
  expectOk,
  expectUnchanged,
  type Harness,
  holdCalls,
  useAdapter,
} from './harness.js';

const encoder = new TextEncoder();
const DEVICE = { ipa: '203.0.113.9', uas: 'Mozilla/5.0 sso-service-test' };
type Client = { clientId: string; clientSecret: string; organisationId?: string };
const SITE: Client = demoSite;
const SITE_B: Client = { ...demoSiteB, organisationId: demoSite.organisationId };
const COMPLEX: Client = { ...demoIds.clients.complex, organisationId: demoIds.organisations.complex };

interface SignOptions {
  client?: Client;
  lifetime?: number;
  secret?: string;
  alg?: 'HS256' | 'HS512' | 'none';
  /** Registered claims to set instead of the right ones (`iss`, `aud`, `iat`, `nbf`, `exp`). */
  registered?: Record<string, unknown>;
  /** Claims to leave out. */
  omit?: readonly string[];
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A request token as a site signs it, with whatever fault a test asks for. */
async function sign(h: Harness, claims: Record<string, unknown>, o: SignOptions = {}) {
  const client = o.client ?? SITE;
  const now = Math.floor(h.platform.clock.now().getTime() / 1000);
  const payload: Record<string, unknown> = {
    cid: client.clientId,
    ...claims,
    iat: now,
    nbf: now,
    exp: now + (o.lifetime ?? 10),
    iss: client.organisationId ?? demoSite.organisationId,
    aud: DEMO_SSO_AUDIENCE,
    ...o.registered,
  };
  for (const name of o.omit ?? []) delete payload[name];
  const alg = o.alg ?? 'HS256';
  if (alg === 'none') return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
  return new SignJWT(payload)
    .setProtectedHeader({ alg, typ: 'JWT' })
    .sign(encoder.encode(o.secret ?? client.clientSecret));
}

/**
 * Expects `after` to be `before` but for one more entry in the timeline of session `sid`: a refused
 * operation records the attempt and changes nothing else (no ticket, no state, no account).
 */
function expectOnlyRecorded(before: StateDocument, after: StateDocument, sid: string, outcome: string) {
  const session = after.sso_sessions.find((s) => s.sid === sid);
  expect(session?.timeline.at(-1)).toMatchObject({ operation: 'authenticate', outcome });
  const withoutLast = {
    ...after,
    sso_sessions: after.sso_sessions.map((s) => (s.sid === sid ? { ...s, timeline: s.timeline.slice(0, -1) } : s)),
  };
  expect(withoutLast).toEqual(before);
}

/** Verifies a session token for `client`; answers its claims. */
async function read(h: Harness, t: string, client: Client = SITE): Promise<SsoSessionClaims> {
  const { payload } = await jwtVerify(t, encoder.encode(client.clientSecret), {
    algorithms: ['HS256'],
    audience: client.clientId,
    issuer: DEMO_SSO_AUDIENCE,
    currentDate: h.platform.clock.now(),
  });
  return SsoSessionClaims.parse(payload);
}

describe.each(ADAPTERS)('the SSO service through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-03-01T09:00:00Z' });

  /** Calls `POST {sso_url}/<operation>` with a token of `claims`; answers the verified claims of the answer. */
  async function call(operation: string, claims: Record<string, unknown>, client: Client = SITE) {
    const t = await sign(h, claims, { client });
    const answer = await h.call(`/${operation}`, { method: 'POST', host: 'sso', json: { t } });
    return read(h, expectOk(answer, SsoEnvelope).t, client);
  }
  const createSession = async (client: Client = SITE) =>
    (await call('createsession', { ...DEVICE, apn: 'News', apv: '1.0', osn: 'Android', osv: '15' }, client)).sid;
  const authenticate = (sid: string, usr: string, pwd: string, client: Client = SITE) =>
    call('authenticate', { sid, ...DEVICE, usr, pwd }, client);
  const status = (sid: string, lks = 'anon', client: Client = SITE) =>
    call('sessionstatus', { sid, ...DEVICE, lks }, client);
  const anna = demoUsers.anna;

  /**
   * Authenticates and expects the refusal `err`: no ticket, the session's state and account as they
   * were (`sts` says so), only the attempt recorded in its timeline.
   */
  async function refused(sid: string, usr: string, pwd: string, err: string, client: Client = SITE) {
    const before = h.platform.snapshot();
    const claims = await authenticate(sid, usr, pwd, client);
    expect(claims).toMatchObject({ err, sid, aid: '', at: '' });
    expect(claims.sts).toBe(before.sso_sessions.find((s) => s.sid === sid)?.state);
    expectOnlyRecorded(before, h.platform.snapshot(), sid, err);
    return claims;
  }

  /** Faults of a request token, each refused by every operation. */
  const now = () => Math.floor(h.platform.clock.now().getTime() / 1000);
  const faults: [string, () => SignOptions][] = [
    ['signed with another secret', () => ({ secret: `${demoSite.clientSecret}-other` })],
    ['living longer than 10 s', () => ({ lifetime: 11 })],
    ['of another issuer (iss)', () => ({ registered: { iss: demoIds.organisations.complex } })],
    ['for another audience (aud)', () => ({ registered: { aud: 'sso.elsewhere.test' } })],
    ['signed with HS512', () => ({ alg: 'HS512' })],
    ['with alg none', () => ({ alg: 'none' })],
    ['issued (iat) beyond the leeway in the future', () => ({ registered: { iat: now() + 6, exp: now() + 16 } })],
    ['not valid (nbf) until beyond the leeway', () => ({ registered: { nbf: now() + 6 } })],
    ['expired beyond the leeway', () => ({ registered: { iat: now() - 16, nbf: now() - 16, exp: now() - 6 } })],
    ...['exp', 'iat', 'nbf', 'iss', 'aud', 'sid', 'uas'].map((claim): [string, () => SignOptions] => [
      `without ${claim}`,
      () => ({ omit: [claim] }),
    ]),
  ];

  test.each(['createsession', 'sessionstatus', 'authenticate', 'logout'])(
    '%s: a query parameter on an operation that takes a body is 400 unknown_parameter naming it; nothing changes',
    async (operation) => {
      const sid = h.platform.sso.createSession({ clientId: SITE.clientId });
      const claims = {
        sid,
        ...DEVICE,
        apn: 'News',
        apv: '1.0',
        osn: 'Android',
        osv: '15',
        lks: 'anon',
        usr: anna.email,
        pwd: anna.password,
      };
      const t = await sign(h, claims);
      await expectUnchanged(h.platform, async () => {
        const answer = await h.call(`/${operation}`, {
          method: 'POST',
          host: 'sso',
          query: { foo: 'bar' },
          json: { t },
        });
        expect(expectError(answer, 400, 'unknown_parameter', 'foo').message).toBe('Unknown parameter: foo');
      });
    },
  );

  describe('createsession', () => {
    test('answers a new anonymous session', async () => {
      const sid = await createSession();
      expect(sid).toMatch(/^[\w-]{32}$/);
      expect(h.platform.sso.session(sid)).toMatchObject({
        state: 'anon',
        account_id: null,
        client_id: demoSite.clientId,
      });
      expect(await status(sid)).toMatchObject({ sts: 'anon', err: null, at: '' });
    });

    test('a claim missing (osv): invalid_request_token, signed; no session is made', async () => {
      const before = h.platform.snapshot().sso_sessions.length;
      const claims = await call('createsession', { ...DEVICE, apn: 'News', apv: '1.0', osn: 'Android' });
      expect(claims).toMatchObject({ err: 'invalid_request_token', sts: 'anon' });
      expect(h.platform.snapshot().sso_sessions).toHaveLength(before);
    });
  });

  describe('authenticate', () => {
    test('the right password logs the session in: sts loggedin, the account, a ticket for this client', async () => {
      const sid = await createSession();
      const claims = await authenticate(sid, 'ANNA@example.com', anna.password);
      expect(claims).toMatchObject({ sts: 'loggedin', sid, aid: anna.id, err: null });
      const ticket = h.platform.snapshot().tickets.find((t) => t.ticket === claims.at);
      expect(ticket).toMatchObject({ client_id: demoSite.clientId, account_id: anna.id, used_at: null });
      expect(h.platform.sso.session(sid)?.timeline.at(-1)).toMatchObject({
        operation: 'authenticate',
        outcome: 'loggedin',
      });
    });

    test('an unknown e-mail and a wrong password answer alike: invalid_credentials with raa; no ticket, still anonymous', async () => {
      const sid = await createSession();
      const unknown = await refused(sid, 'nobody@example.com', 'whatever-password', 'invalid_credentials');
      const wrong = await refused(sid, anna.email, 'not-the-password', 'invalid_credentials');
      for (const c of [unknown, wrong])
        expect(c).toMatchObject({
          err: 'invalid_credentials',
          ems: 'Wrong e-mail address or password',
          sts: 'anon',
          raa: 4,
        });
    });

    test('5 wrong passwords freeze the account: the right one is refused (account_frozen, frf), and works after the thaw', async () => {
      const sid = await createSession();
      const remaining: number[] = [];
      for (let i = 0; i < 5; i++) remaining.push((await authenticate(sid, anna.email, `wrong-${i}`)).raa);
      expect(remaining).toEqual([4, 3, 2, 1, 0]);
      const frozen = await refused(sid, anna.email, anna.password, 'account_frozen');
      expect(frozen).toMatchObject({
        err: 'account_frozen',
        ems: 'Too many wrong passwords: try again later',
        sts: 'anon',
        frf: 300,
        at: '',
      });
      h.platform.clock.advance(120);
      expect((await authenticate(sid, anna.email, anna.password)).frf).toBe(180);
      h.platform.clock.advance(180);
      expect(await authenticate(sid, anna.email, anna.password)).toMatchObject({ sts: 'loggedin', err: null });
      // The count starts again after a success.
      const other = await createSession();
      expect((await authenticate(other, anna.email, 'wrong')).raa).toBe(4);
    });

    test('an account that is not active: account_not_active, only with its right password', async () => {
      const sid = await createSession();
      expect((await authenticate(sid, demoUsers.carl.email, 'wrong')).err).toBe('invalid_credentials');
      expect(await refused(sid, demoUsers.carl.email, demoUsers.carl.password, 'account_not_active')).toMatchObject({
        err: 'account_not_active',
        ems: 'This account cannot log in',
        sts: 'anon',
      });
    });

    test('session_limit_reached past the maximum (5 by default); the session stays anonymous', async () => {
      for (let i = 0; i < 5; i++)
        expect((await authenticate(await createSession(), anna.email, anna.password)).sts).toBe('loggedin');
      const sixth = await createSession();
      expect(await refused(sixth, anna.email, anna.password, 'session_limit_reached')).toMatchObject({
        err: 'session_limit_reached',
        ems: 'The account has its maximum of logged-in sessions',
        sts: 'anon',
        slm: 5,
      });
      expect(h.platform.sso.session(sixth)).toMatchObject({ state: 'anon', account_id: null });
    });

    test("an organisation's own maximum (max_sessions_per_account) takes the place of the platform's", async () => {
      const doc = h.platform.snapshot();
      const account = doc.accounts.find((a) => a.id === anna.id);
      const own = doc.organisations.find((o) => o.id === account?.organisation_id);
      if (!own) throw new Error("the demo seed has Anna's organisation");
      own.max_sessions_per_account = 2;
      h.platform.restore(doc);
      for (let i = 0; i < 2; i++)
        expect(await authenticate(await createSession(), anna.email, anna.password)).toMatchObject({
          sts: 'loggedin',
          slm: 2,
        });
      const third = await createSession();
      expect(await refused(third, anna.email, anna.password, 'session_limit_reached')).toMatchObject({ slm: 2 });
      expect(h.platform.sso.session(third)).toMatchObject({ state: 'anon', account_id: null });
    });

    test('a session logged in on another account, or terminated, is refused; it stays as it was', async () => {
      const sid = await createSession();
      await authenticate(sid, anna.email, anna.password);
      expect(
        await refused(sid, demoUsers.bo.email, demoUsers.bo.password, 'session_already_logged_in_on_another_account'),
      ).toMatchObject({ ems: 'The session is logged in on another account: log out first' });
      expect(h.platform.sso.session(sid)).toMatchObject({ state: 'loggedin', account_id: anna.id });
      await call('logout', { sid, ...DEVICE });
      expect(await refused(sid, anna.email, anna.password, 'session_terminated')).toMatchObject({
        ems: 'The session is terminated',
      });
      expect(h.platform.sso.session(sid)).toMatchObject({ state: 'terminated', account_id: anna.id });
    });

    test("a session the state document holds as loggedin without an account is no account's: the account logs in elsewhere, and this session must log out first, which ends it alone", async () => {
      const sid = await createSession();
      const doc = h.platform.snapshot();
      h.platform.restore({
        ...doc,
        sso_sessions: doc.sso_sessions.map((s) => (s.sid === sid ? { ...s, state: 'loggedin' as const } : s)),
      });
      const elsewhere = await createSession();
      expect(await authenticate(elsewhere, anna.email, anna.password)).toMatchObject({ sts: 'loggedin', err: null });
      await refused(sid, anna.email, anna.password, 'session_already_logged_in_on_another_account');
      expect(h.platform.sso.session(sid)).toMatchObject({ state: 'loggedin', account_id: null });
      expect(await call('logout', { sid, ...DEVICE })).toMatchObject({ sts: 'terminated', err: null });
      expect(h.platform.sso.session(sid)?.timeline.at(-1)).toMatchObject({ outcome: 'terminated 1' });
      expect(h.platform.sso.session(elsewhere)?.state).toBe('loggedin');
    });

    test("an unknown session, or another organisation's: session_not_found, and nothing changes", async () => {
      const theirs = await createSession(COMPLEX);
      for (const sid of ['no-such-session', theirs]) {
        const claims = await expectUnchanged(h.platform, () => authenticate(sid, anna.email, anna.password));
        expect(claims).toMatchObject({ err: 'session_not_found', sts: 'anon', sid, aid: '', at: '' });
      }
    });

    test('the password never reaches the journal, the state or an answer', async () => {
      const sid = await createSession();
      await authenticate(sid, anna.email, 'a-wrong-secret-password');
      await authenticate(sid, anna.email, anna.password);
      // The password travels inside the signed t (base64url): the journal keeps none of it.
      const journal = h.platform.requests.list();
      const logins = journal.filter((e) => e.path === '/authenticate');
      expect(logins).toHaveLength(2);
      for (const entry of logins) expect(entry.body).toBe('{"t":"[redacted]"}');
      expect(JSON.stringify(journal)).not.toContain('eyJ');
      const everything = JSON.stringify([journal, h.platform.snapshot()]);
      expect(everything).not.toContain(anna.password);
      expect(everything).not.toContain('a-wrong-secret-password');
      const state = (await h.call('/__admin/state')).text;
      expect(state).not.toContain(anna.password);
      expect(state).not.toMatch(/"password"/);
      expect(state).toMatch(/"password_hash":"scrypt\$1024\$8\$1\$/);
    });
  });

  describe('sessionstatus', () => {
    test('a fresh ticket only when the site does not know yet that the session is logged in', async () => {
      const sid = await createSession();
      await authenticate(sid, anna.email, anna.password);
      const unaware = await status(sid, 'anon');
      expect(unaware).toMatchObject({ sts: 'loggedin', aid: anna.id, err: null });
      expect(unaware.at).toMatch(/^[\w-]{43}$/);
      const aware = await status(sid, 'loggedin');
      expect(aware).toMatchObject({ sts: 'loggedin', aid: anna.id, at: '' });
    });

    test('an unknown session: session_not_found; a session of another organisation is unknown too', async () => {
      expect(await status('no-such-session')).toMatchObject({ err: 'session_not_found', sid: 'no-such-session' });
      const theirs = await createSession(COMPLEX);
      expect((await status(theirs)).err).toBe('session_not_found');
      expect((await status(theirs, 'anon', COMPLEX)).err).toBeNull();
    });

    test('a session made by the admin tools is adopted by the first client that uses it: another site of the organisation leaves it so, another organisation finds none', async () => {
      const sid = h.platform.sso.createSession();
      expect(await status(sid, 'anon', SITE_B)).toMatchObject({ sts: 'anon', sid, err: null });
      expect(h.platform.sso.session(sid)?.client_id).toBe(demoSiteB.clientId);
      expect(await status(sid)).toMatchObject({ sts: 'anon', sid, err: null });
      expect(h.platform.sso.session(sid)?.client_id).toBe(demoSiteB.clientId);
      const theirs = await expectUnchanged(h.platform, () => status(sid, 'anon', COMPLEX));
      expect(theirs).toMatchObject({ err: 'session_not_found', sid });
    });

    test('an account whose log-in is disabled since gets no ticket: its sessions are terminated, on every site, and stay so', async () => {
      const sid = await createSession();
      const other = await createSession(SITE_B);
      await authenticate(sid, anna.email, anna.password);
      await authenticate(other, anna.email, anna.password, SITE_B);
      const doc = h.platform.snapshot();
      doc.accounts = doc.accounts.map((a) => (a.id === anna.id ? { ...a, status: 'inactive' } : a));
      h.platform.restore(doc);
      const tickets = h.platform.snapshot().tickets.length;
      expect(await status(sid, 'anon')).toMatchObject({ sts: 'terminated', sid, aid: '', at: '', err: null });
      expect(h.platform.snapshot().tickets).toHaveLength(tickets);
      expect(h.platform.sso.session(other)?.state).toBe('terminated');
      expect(await status(other, 'anon', SITE_B)).toMatchObject({ sts: 'terminated', at: '' });
    });

    test('a site of the same organisation sees the session (site B)', async () => {
      const sid = await createSession();
      await authenticate(sid, anna.email, anna.password);
      const seen = await status(sid, 'anon', SITE_B);
      expect(seen).toMatchObject({ sts: 'loggedin', aid: anna.id });
      const ticket = h.platform.snapshot().tickets.find((t) => t.ticket === seen.at);
      expect(ticket?.client_id).toBe(demoSiteB.clientId);
    });
  });

  describe('logout', () => {
    test('terminates the session and every other session of the account; another account is untouched', async () => {
      const first = await createSession();
      const second = await createSession(SITE_B);
      const bos = await createSession();
      await authenticate(first, anna.email, anna.password);
      await authenticate(second, anna.email, anna.password, SITE_B);
      await authenticate(bos, demoUsers.bo.email, demoUsers.bo.password);
      expect(await call('logout', { sid: second, ...DEVICE }, SITE_B)).toMatchObject({ sts: 'terminated', err: null });
      expect(h.platform.sso.session(second)?.timeline.at(-1)).toMatchObject({
        operation: 'logout',
        outcome: 'terminated 2',
      });
      expect((await status(first, 'loggedin')).sts).toBe('terminated');
      expect((await status(second, 'loggedin', SITE_B)).sts).toBe('terminated');
      expect((await status(bos, 'loggedin')).sts).toBe('loggedin');
    });

    test('an anonymous session: it alone is terminated (terminated 1); a logged-in session beside it stays', async () => {
      const sid = await createSession();
      const beside = await createSession();
      await authenticate(beside, anna.email, anna.password);
      expect(await call('logout', { sid, ...DEVICE })).toMatchObject({ sts: 'terminated', err: null });
      expect(h.platform.sso.session(sid)).toMatchObject({ state: 'terminated', account_id: null });
      expect(h.platform.sso.session(sid)?.timeline.at(-1)).toMatchObject({
        operation: 'logout',
        outcome: 'terminated 1',
      });
      expect(h.platform.sso.session(beside)?.state).toBe('loggedin');
    });

    test("a session terminated already (by the admin tools): nothing more ends (terminated 0), the account's other session stays logged in", async () => {
      const ended = await createSession();
      const other = await createSession();
      await authenticate(ended, anna.email, anna.password);
      await authenticate(other, anna.email, anna.password);
      h.platform.sso.terminate(ended);
      expect(await call('logout', { sid: ended, ...DEVICE })).toMatchObject({ sts: 'terminated', err: null });
      expect(h.platform.sso.session(ended)?.timeline.at(-1)).toMatchObject({
        operation: 'logout',
        outcome: 'terminated 0',
      });
      expect(h.platform.sso.session(other)).toMatchObject({ state: 'loggedin', account_id: anna.id });
    });

    test('an unknown session: session_not_found', async () => {
      expect((await call('logout', { sid: 'nope', ...DEVICE })).err).toBe('session_not_found');
    });
  });

  describe('request tokens are verified strictly', () => {
    test.each(faults)(
      'sessionstatus with a token %s: the signed invalid_request_token answer, nothing of the session revealed, nothing changes',
      async (_, fault) => {
        const sid = await createSession();
        await authenticate(sid, anna.email, anna.password);
        const o = fault();
        const t = await sign(h, { sid, ...DEVICE, lks: 'anon' }, o);
        const answer = await expectUnchanged(h.platform, () =>
          h.call('/sessionstatus', { method: 'POST', host: 'sso', json: { t } }),
        );
        const claims = await read(h, expectOk(answer, SsoEnvelope).t);
        // The sid as sent (none sent: empty), never read from the session.
        const echoed = o.omit?.includes('sid') ? '' : sid;
        expect(claims).toMatchObject({ err: 'invalid_request_token', sts: 'anon', sid: echoed, aid: '', at: '' });
      },
    );

    test.each(faults)('logout with a token %s: refused, the session stays logged in', async (_, fault) => {
      const sid = await createSession();
      await authenticate(sid, anna.email, anna.password);
      const o = fault();
      const t = await sign(h, { sid, ...DEVICE }, o);
      const answer = await expectUnchanged(h.platform, () =>
        h.call('/logout', { method: 'POST', host: 'sso', json: { t } }),
      );
      expect(await read(h, expectOk(answer, SsoEnvelope).t)).toMatchObject({
        err: 'invalid_request_token',
        sts: 'anon',
        sid: o.omit?.includes('sid') ? '' : sid,
        aid: '',
      });
      expect(h.platform.sso.session(sid)?.state).toBe('loggedin');
    });

    test('dated inside the leeway (iat and nbf 4 s ahead, or expired 4 s ago): accepted', async () => {
      const sid = await createSession();
      const ahead = await sign(
        h,
        { sid, ...DEVICE, lks: 'anon' },
        { registered: { iat: now() + 4, nbf: now() + 4, exp: now() + 14 } },
      );
      const late = await sign(
        h,
        { sid, ...DEVICE, lks: 'anon' },
        { registered: { iat: now() - 14, nbf: now() - 14, exp: now() - 4 } },
      );
      for (const t of [ahead, late]) {
        const answer = await h.call('/sessionstatus', { method: 'POST', host: 'sso', json: { t } });
        expect(await read(h, expectOk(answer, SsoEnvelope).t)).toMatchObject({ err: null, sts: 'anon', sid });
      }
    });

    test('a token naming no known client: 400 invalid_request_token (no key to sign an answer with)', async () => {
      const t = await sign(
        h,
        { ...DEVICE, apn: 'a', apv: '1', osn: 'o', osv: '1' },
        { client: { clientId: 'nobody', clientSecret: demoSite.clientSecret } },
      );
      expectError(
        await h.call('/createsession', { method: 'POST', host: 'sso', json: { t } }),
        400,
        'invalid_request_token',
        't',
      );
    });
  });

  describe('identify (a browser redirect)', () => {
    const identify = (t: string, r: string, cookie?: string) =>
      h.call('/identify', { host: 'sso', query: { t, r }, headers: cookie ? { cookie } : {} });

    test('a new browser: an anonymous session, a cookie on the SSO host, 302 to the landing page with t and r', async () => {
      const r = 'http://localhost:3000/articles/1?x=1';
      const answer = await identify(await sign(h, {}, { lifetime: 60 }), r);
      expect(answer.status).toBe(302);
      const location = new URL(answer.headers.get('location')!);
      expect(`${location.origin}${location.pathname}`).toBe(DEMO_SITE_LANDING_URL);
      expect(location.searchParams.get('r')).toBe(r);
      const claims = await read(h, location.searchParams.get('t')!);
      expect(claims).toMatchObject({ sts: 'anon', at: '', err: null });
      const cookie = answer.headers.get('set-cookie')!;
      expect(cookie).toMatch(new RegExp(`^sso_session=${claims.sid}; Path=/; HttpOnly; SameSite=Lax`));
    });

    test('a link whose request token is being verified when the state is reset: a 409 page saying to follow it again, no session made in the new state', async () => {
      const t = await sign(h, {}, { lifetime: 60 });
      // WebCrypto's verify, as the platform checks a request token's signature.
      const open = holdCalls(crypto.subtle, 'verify');
      try {
        const answer = identify(t, 'http://localhost:3000/');
        await until(() => expect(h.platform.requests.list().some((r) => r.path === '/identify')).toBe(true));
        h.platform.reset();
        const seeded = JSON.stringify(h.platform.snapshot());
        open();
        const refused = await answer;
        expect(refused.status).toBe(409);
        expect(refused.headers.get('content-type')).toBe('text/html; charset=utf-8');
        expect(refused.text).toContain('follow the link again');
        expect(JSON.stringify(h.platform.snapshot())).toBe(seeded);
      } finally {
        open();
      }
    });

    test("the session's timeline records the browser's user agent, its first 256 characters, and no IP address (a redirect carries none)", async () => {
      const agent = `Mozilla/5.0 ${'x'.repeat(300)}`;
      const answer = await h.call('/identify', {
        host: 'sso',
        query: { t: await sign(h, {}), r: 'http://localhost:3000/' },
        headers: { 'user-agent': agent },
      });
      const claims = await read(h, new URL(answer.headers.get('location')!).searchParams.get('t')!);
      expect(h.platform.sso.session(claims.sid)?.timeline).toEqual([
        {
          at: expect.any(String),
          operation: 'identify',
          outcome: 'anon',
          ip_address: '',
          user_agent: agent.slice(0, 256),
        },
      ]);
    });

    test('a browser whose session is logged in: sts loggedin and a ticket for the identifying client (site B)', async () => {
      const first = await identify(await sign(h, {}), 'http://localhost:3000/');
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const sid = cookie.split('=')[1]!;
      await authenticate(sid, anna.email, anna.password);
      const viaB = await identify(await sign(h, {}, { client: SITE_B }), 'http://localhost:3001/', cookie);
      const location = new URL(viaB.headers.get('location')!);
      expect(location.origin).toBe('http://localhost:3001');
      const claims = await read(h, location.searchParams.get('t')!, SITE_B);
      expect(claims).toMatchObject({ sts: 'loggedin', sid, aid: anna.id });
      expect(h.platform.snapshot().tickets.find((t) => t.ticket === claims.at)?.client_id).toBe(demoSiteB.clientId);
    });

    test('a browser whose account has its log-in disabled since: no ticket; its session ends and the landing is anonymous, on a new session', async () => {
      const first = await identify(await sign(h, {}), 'http://localhost:3000/');
      const cookie = first.headers.get('set-cookie')!.split(';')[0]!;
      const sid = cookie.split('=')[1]!;
      await authenticate(sid, anna.email, anna.password);
      const doc = h.platform.snapshot();
      doc.accounts = doc.accounts.map((a) => (a.id === anna.id ? { ...a, status: 'inactive' } : a));
      h.platform.restore(doc);
      const tickets = h.platform.snapshot().tickets.length;
      const again = await identify(await sign(h, {}), 'http://localhost:3000/', cookie);
      const claims = await read(h, new URL(again.headers.get('location')!).searchParams.get('t')!);
      expect(claims).toMatchObject({ sts: 'anon', aid: '', at: '' });
      expect(claims.sid).not.toBe(sid);
      expect(h.platform.sso.session(sid)?.state).toBe('terminated');
      expect(h.platform.snapshot().tickets).toHaveLength(tickets);
    });

    test.each([
      ['signed with another secret', { secret: `${demoSite.clientSecret}-x` }],
      ['living longer than 60 s', { lifetime: 61 }],
      ['of an unknown client', { client: { clientId: 'nobody', clientSecret: demoSite.clientSecret } }],
    ])('a token %s: an error page, never a redirect; nothing changes', async (_, o) => {
      const t = await sign(h, {}, o);
      const answer = await expectUnchanged(h.platform, () => identify(t, 'https://attacker.example/'));
      expect(answer.status).toBe(400);
      expect(answer.headers.get('location')).toBeNull();
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      expect(answer.text).not.toContain('attacker.example');
    });

    test("a cookie of another organisation's session is not reused: a new anonymous session; theirs is untouched", async () => {
      const COMPLEX_DORA = demoUsers.dora;
      const theirs = await createSession(COMPLEX);
      expect((await authenticate(theirs, COMPLEX_DORA.email, COMPLEX_DORA.password, COMPLEX)).sts).toBe('loggedin');
      const before = h.platform.sso.session(theirs);
      const answer = await identify(await sign(h, {}), 'http://localhost:3000/', `sso_session=${theirs}`);
      expect(answer.status).toBe(302);
      const claims = await read(h, new URL(answer.headers.get('location')!).searchParams.get('t')!);
      expect(claims).toMatchObject({ sts: 'anon', aid: '', at: '', err: null });
      expect(claims.sid).not.toBe(theirs);
      expect(answer.headers.get('set-cookie')).toMatch(new RegExp(`^sso_session=${claims.sid};`));
      expect(h.platform.sso.session(claims.sid)).toMatchObject({ state: 'anon', client_id: demoSite.clientId });
      expect(h.platform.sso.session(theirs)).toEqual(before);
    });

    test.each(faults.filter(([name]) => !name.includes('10 s') && name !== 'without sid' && name !== 'without uas'))(
      'a token %s: an error page, never a redirect, nothing changes',
      async (_, fault) => {
        const t = await sign(h, {}, fault());
        const answer = await expectUnchanged(h.platform, () => identify(t, 'https://attacker.example/'));
        expect(answer.status).toBe(400);
        expect(answer.headers.get('location')).toBeNull();
        expect(answer.headers.get('set-cookie')).toBeNull();
      },
    );

    test('a client without a landing page: an error page', async () => {
      const t = await sign(h, {}, { client: COMPLEX });
      const answer = await identify(t, 'http://localhost/');
      expect(answer.status).toBe(400);
      expect(answer.text).toContain('no landing page');
    });
  });
});

describe.each(ADAPTERS)('the login limits are platform options, through %s', (kind) => {
  const h = useAdapter(kind, { login: { maxFailedAttempts: 2, freezeSeconds: 10, maxSessionsPerAccount: 1 } });
  const call = async (operation: string, claims: Record<string, unknown>) => {
    const t = await sign(h, claims);
    return read(
      h,
      expectOk(await h.call(`/${operation}`, { method: 'POST', host: 'sso', json: { t } }), SsoEnvelope).t,
    );
  };
  const session = async () => (await call('createsession', { ...DEVICE, apn: 'a', apv: '1', osn: 'o', osv: '1' })).sid;

  test('2 attempts, 10 s frozen, 1 session', async () => {
    const sid = await session();
    const auth = (pwd: string, s = sid) => call('authenticate', { sid: s, ...DEVICE, usr: demoUsers.bo.email, pwd });
    expect((await auth('x')).raa).toBe(1);
    expect((await auth('y')).raa).toBe(0);
    expect(await auth(demoUsers.bo.password)).toMatchObject({ err: 'account_frozen', frf: 10 });
    h.platform.clock.advance(10);
    expect(await auth(demoUsers.bo.password)).toMatchObject({ sts: 'loggedin', slm: 1 });
    expect(await auth(demoUsers.bo.password, await session())).toMatchObject({
      err: 'session_limit_reached',
      sts: 'anon',
      slm: 1,
    });
  });

  test.each([0, 1001, 2.5, '5', null])(
    'a limit of %j is refused when the platform is created, naming it, in one sentence whatever is wrong',
    async (maxFailedAttempts) => {
      const { createPlatform } = await import('../../mock/index.js');
      // @ts-expect-error: a limit is a number
      expect(() => createPlatform({ login: { maxFailedAttempts } })).toThrow(
        expect.objectContaining({
          field: 'login.maxFailedAttempts',
          message: 'Parameter must be an integer from 1 to 1000',
        }),
      );
    },
  );
});

describe.each(ADAPTERS)('stored password hashes are checked when the state is loaded, through %s', (kind) => {
  const h = useAdapter(kind, { now: '2030-03-01T09:00:00Z' });
  const call = async (operation: string, claims: Record<string, unknown>) => {
    const t = await sign(h, claims);
    return read(
      h,
      expectOk(await h.call(`/${operation}`, { method: 'POST', host: 'sso', json: { t } }), SsoEnvelope).t,
    );
  };
  /** The state with anna's password stored as `hash`. */
  const withAnnaHash = (hash: string) => {
    const state = h.platform.snapshot();
    const index = state.accounts.findIndex((a) => a.id === demoUsers.anna.id);
    return {
      index,
      doc: { ...state, accounts: state.accounts.with(index, { ...state.accounts[index]!, password_hash: hash }) },
    };
  };
  /** A hash of `password` with these parameters, made with node:crypto as any tool would. */
  const scryptHash = (password: string, n: number, r: number, p: number) => {
    const salt = randomBytes(16);
    const key = scryptSync(password, salt, 32, { N: n, r, p });
    return `scrypt$${n}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
  };

  test.each([
    ['N = 1', 1, 8, 1, /N must be a power of two/],
    ['N not a power of two', 1000, 8, 1, /N must be a power of two/],
    ['N over 2^16', 2 ** 17, 2, 1, /N must be a power of two/],
    ['r = 0', 1024, 0, 1, /r must be an integer from 1 to 16/],
    ['p over 16', 1024, 8, 17, /p must be an integer from 1 to 16/],
    ['N * r * p over 2^17', 2 ** 14, 4, 4, /N·r·p \(the work of one check\) must be at most 131072/],
  ])('%s: PUT /__admin/state is refused naming the field, nothing changes', async (_, n, r, p, message) => {
    const { index, doc } = withAnnaHash(`scrypt$${n}$${r}$${p}$${'A'.repeat(22)}$${'A'.repeat(43)}`);
    const answer = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: doc }));
    const body = expectError(answer, 400, 'invalid_parameter', `accounts[${index}].password_hash`);
    expect(body.message).toMatch(message);
  });

  test('a seed with such a hash is refused when the platform is created', async () => {
    const { createPlatform } = await import('../../mock/index.js');
    const { doc } = withAnnaHash(`scrypt$1$8$1$${'A'.repeat(22)}$${'A'.repeat(43)}`);
    expect(() => createPlatform({ seed: doc })).toThrow(/N must be a power of two/);
  });

  test('a hash made elsewhere with other parameters in range (N = 2^4, r = 2, p = 2) logs in', async () => {
    const { doc } = withAnnaHash(scryptHash('made-elsewhere', 16, 2, 2));
    expect((await h.call('/__admin/state', { method: 'PUT', json: doc })).status).toBe(204);
    const sid = (await call('createsession', { ...DEVICE, apn: 'a', apv: '1', osn: 'o', osv: '1' })).sid;
    const login = (pwd: string) => call('authenticate', { sid, ...DEVICE, usr: demoUsers.anna.email, pwd });
    expect((await login('wrong')).err).toBe('invalid_credentials');
    expect(await login('made-elsewhere')).toMatchObject({ sts: 'loggedin', err: null, aid: demoUsers.anna.id });
  });
});

describe.each(ADAPTERS)('wrong passwords and the freeze, on a frozen platform clock, through %s', (kind) => {
  const T0 = Date.parse('2030-03-01T09:00:00Z');
  const h = useAdapter(kind, { now: new Date(T0).toISOString() });
  /** Every attempt at T0 unless a test moves the clock: the fifth wrong password freezes until T0 + 300 s. */
  beforeEach(() => {
    h.platform.clock.freeze();
    h.platform.clock.set(new Date(T0));
  });
  const anna = demoUsers.anna;
  const call = async (operation: string, claims: Record<string, unknown>) => {
    const t = await sign(h, claims);
    return read(
      h,
      expectOk(await h.call(`/${operation}`, { method: 'POST', host: 'sso', json: { t } }), SsoEnvelope).t,
    );
  };
  /**
   * One login on a new session: its claims. A refused one changes nothing but the session's
   * timeline (the count of wrong passwords is not part of the state document).
   */
  const login = async (usr: string, pwd: string) => {
    const { sid } = await call('createsession', { ...DEVICE, apn: 'a', apv: '1', osn: 'o', osv: '1' });
    const before = h.platform.snapshot();
    const claims = await call('authenticate', { sid, ...DEVICE, usr, pwd });
    if (claims.err !== null) expectOnlyRecorded(before, h.platform.snapshot(), sid, claims.err);
    return claims;
  };
  /** The passwords remaining after each of `count` wrong ones for anna's e-mail, spelled by `spelling(i)`. */
  const typos = async (count: number, spelling: (i: number) => string = () => anna.email) => {
    const remaining: number[] = [];
    for (let i = 0; i < count; i++) remaining.push((await login(spelling(i), `wrong-${i}`)).raa);
    return remaining;
  };

  test('wrong passwords are counted per e-mail whatever its letter case: five spellings, five tries, then frozen', async () => {
    const spellings = [
      'anna@example.com',
      'ANNA@EXAMPLE.COM',
      'Anna@Example.com',
      'aNNA@example.COM',
      'anna@EXAMPLE.com',
    ];
    expect(await typos(5, (i) => spellings[i] ?? anna.email)).toEqual([4, 3, 2, 1, 0]);
    expect(await login('ANNA@example.com', anna.password)).toMatchObject({ err: 'account_frozen', frf: 300 });
  });

  test('a correct login resets the count: four wrong passwords, a login, then one wrong password leaves four tries', async () => {
    expect(await typos(4)).toEqual([4, 3, 2, 1]);
    expect(await login(anna.email, anna.password)).toMatchObject({ sts: 'loggedin', err: null });
    expect(await login(anna.email, 'one-more-typo')).toMatchObject({ err: 'invalid_credentials', raa: 4 });
    expect(await login(anna.email, anna.password)).toMatchObject({ sts: 'loggedin', err: null });
  });

  test('only letter case is set aside: straße@ and strasse@ are two addresses, each with five tries of its own', async () => {
    expect(await typos(5, () => 'straße@example.com')).toEqual([4, 3, 2, 1, 0]);
    expect(await login('STRAßE@example.com', 'wrong')).toMatchObject({ err: 'account_frozen', frf: 300 });
    expect(await login('strasse@example.com', 'wrong')).toMatchObject({ err: 'invalid_credentials', raa: 4 });
  });

  test('frozen until the thaw exactly; after it, one wrong password does not freeze again: the count starts over', async () => {
    expect(await typos(5)).toEqual([4, 3, 2, 1, 0]);
    h.platform.clock.set(new Date(T0 + 299_999));
    expect(await login(anna.email, anna.password)).toMatchObject({ err: 'account_frozen', frf: 1 });
    h.platform.clock.set(new Date(T0 + 300_000));
    expect(await login(anna.email, 'a-typo-after-the-thaw')).toMatchObject({ err: 'invalid_credentials', raa: 4 });
    expect(await login(anna.email, anna.password)).toMatchObject({ sts: 'loggedin', err: null });
  });
});
