/**
 * Endpoint 21, SSO authenticatewithticket, through both adapters: every row of the spec's SSO
 * session table, the strict verification of request tokens (RFC 8725), the session token's claims,
 * the session timeline, and the `/__admin/sso/sessions` tools.
 */
import { decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import type { SsoSessionRecord } from '../../mock/index.js';
import { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { SignedInUser, SsoEnvelope, SsoSessionClaims } from '../../src/schemas/sign-on.js';
import { until } from '../until.js';
import {
  ADAPTERS,
  DEMO_SSO_AUDIENCE,
  demoIds,
  demoSite,
  expectError,
  expectOk,
  expectUnchanged,
  type Harness,
  holdCalls,
  paths,
  useAdapter,
} from './harness.js';

const { anna, bo } = demoIds.accounts;
const IP = '203.0.113.7';
const UA = 'Mozilla/5.0 (X11; Linux x86_64) sso-test';
const encoder = new TextEncoder();
const REQUEST_CLAIMS = ['cid', 'sid', 'at', 'ipa', 'uas', 'nbf', 'exp', 'iat', 'iss', 'aud'] as const;

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

interface RequestTokenOptions {
  sid: string;
  ticket: string;
  /** Claims to set (or override). */
  claims?: Record<string, unknown>;
  /** Claims to leave out. */
  omit?: readonly string[];
  alg?: 'HS256' | 'HS384' | 'HS512' | 'none';
  /** The header's `typ`: `JWT` by default; null leaves it out. */
  typ?: string | null;
  secret?: string;
  /** Creation time in epoch seconds; the platform clock by default. */
  now?: number;
}

/** A request token of endpoint 21 as a site signs it, with whatever fault a test asks for. */
async function requestToken(h: Harness, o: RequestTokenOptions): Promise<string> {
  const now = o.now ?? Math.floor(h.platform.clock.now().getTime() / 1000);
  const claims: Record<string, unknown> = {
    cid: demoSite.clientId,
    sid: o.sid,
    at: o.ticket,
    ipa: IP,
    uas: UA,
    nbf: now,
    iat: now,
    exp: now + 10,
    iss: demoSite.organisationId,
    aud: DEMO_SSO_AUDIENCE,
    ...o.claims,
  };
  for (const k of o.omit ?? []) delete claims[k];
  const alg = o.alg ?? 'HS256';
  if (alg === 'none') return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`;
  const typ = o.typ === undefined ? 'JWT' : o.typ;
  return new SignJWT(claims)
    .setProtectedHeader(typ === null ? { alg } : { alg, typ })
    .sign(encoder.encode(o.secret ?? demoSite.clientSecret));
}

/** Verifies a session token with the client secret, HS256, on the platform clock; answers its claims. */
async function verifySession(h: Harness, t: string): Promise<SsoSessionClaims> {
  const { payload } = await jwtVerify(t, encoder.encode(demoSite.clientSecret), {
    algorithms: ['HS256'],
    audience: demoSite.clientId,
    issuer: DEMO_SSO_AUDIENCE,
    currentDate: h.platform.clock.now(),
  });
  return SsoSessionClaims.parse(payload);
}

describe.each(ADAPTERS)('SSO authenticatewithticket (endpoint 21) through %s', (kind) => {
  const h = useAdapter(kind);
  const post = (t: string) => h.call(paths.authenticateWithTicket, { method: 'POST', host: 'sso', json: { t } });
  const authenticate = async (o: RequestTokenOptions) => {
    const answer = await post(await requestToken(h, o));
    return verifySession(h, expectOk(answer, SsoEnvelope).t);
  };
  const ticketFor = (accountId: string = anna, clientId: string = demoSite.clientId) =>
    h.platform.issueTicket({ accountId, clientId });
  const session = (sid: string) => h.platform.sso.session(sid)!;
  /** Whether demo-site can still exchange the ticket (endpoint 23): proves a ticket was left untouched. */
  const exchangeable = async (ticket: string) =>
    (
      await h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        json: { grant_type: 'ticket', ticket, client_id: demoSite.clientId, client_secret: demoSite.clientSecret },
      })
    ).status === 200;
  /** A session logged in on `accountId`. */
  const loggedInSession = async (accountId: string = anna) => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const claims = await authenticate({ sid, ticket: ticketFor(accountId) });
    expect(claims.err).toBeNull();
    return sid;
  };

  test('a query parameter on an endpoint that takes a body: 400 unknown_parameter naming it; the ticket is not judged', async () => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const ticket = ticketFor();
    const t = await requestToken(h, { sid, ticket });
    await expectUnchanged(h.platform, async () => {
      const answer = await h.call(paths.authenticateWithTicket, {
        method: 'POST',
        host: 'sso',
        query: { foo: 'bar' },
        json: { t },
      });
      expect(expectError(answer, 400, 'unknown_parameter', 'foo').message).toBe('Unknown parameter: foo');
    });
    expect(session(sid).state).toBe('anon');
    expect(await exchangeable(ticket)).toBe(true);
  });

  describe('the session table', () => {
    test('Anon + valid ticket -> LoggedIn: sts loggedin, aid set, a new ticket in at; the ticket is consumed', async () => {
      const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
      const ticket = ticketFor();
      const claims = await authenticate({ sid, ticket });
      expect(claims).toMatchObject({ sts: 'loggedin', sid, aid: anna, err: null, ems: '' });
      expect(claims.at).toMatch(/^[\w-]{43}$/);
      expect(claims.at).not.toBe(ticket);
      expect(session(sid)).toMatchObject({ state: 'loggedin', account_id: anna });
      // The new ticket is bound to the calling client and exchangeable for the user's token.
      const token = expectOk(
        await h.call(paths.accessToken, {
          method: 'POST',
          host: 'auth',
          json: {
            grant_type: 'ticket',
            ticket: claims.at,
            client_id: demoSite.clientId,
            client_secret: demoSite.clientSecret,
          },
        }),
        AccessTokenResponse,
      );
      expect((await h.call(paths.getSignedInUser, { token: token.access_token })).body).toMatchObject({ id: anna });
      // Consumed: it cannot be exchanged (and so presented again, see below).
      expect(await exchangeable(ticket)).toBe(false);
    });

    test('an operation whose request token is being verified when the state is reset: 409 invalid_state, and the ticket, the session and the new state untouched', async () => {
      const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
      const ticket = ticketFor();
      const t = await requestToken(h, { sid, ticket });
      // WebCrypto's verify, as the platform checks a request token's signature.
      const open = holdCalls(crypto.subtle, 'verify');
      try {
        const answer = post(t);
        await until(() =>
          expect(h.platform.requests.list().some((r) => r.path === paths.authenticateWithTicket)).toBe(true),
        );
        // A state with the same session and ticket, loaded while the operation waits.
        const doc = h.platform.snapshot();
        h.platform.restore(doc);
        const restored = JSON.stringify(h.platform.snapshot());
        open();
        expectError(await answer, 409, 'invalid_state');
        expect(JSON.stringify(h.platform.snapshot())).toBe(restored);
      } finally {
        open();
      }
      expect(session(sid).state).toBe('anon');
      expect(await exchangeable(ticket)).toBe(true);
    });

    test("a ticket that logged a session in, presented again: refused, and what its use issued is revoked (the platform's documentation, RFC 6749 10.5): the log-in ends, the ticket it answered with is used up, and that one's token revoked", async () => {
      const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
      const ticket = ticketFor();
      const { at: answered } = await authenticate({ sid, ticket });
      const exchanged = await h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        json: {
          grant_type: 'ticket',
          ticket: answered,
          client_id: demoSite.clientId,
          client_secret: demoSite.clientSecret,
        },
      });
      const { access_token } = expectOk(exchanged, AccessTokenResponse);
      // Presented again, here (a second session) or at endpoint 23: refused either way.
      const other = h.platform.sso.createSession({ clientId: demoSite.clientId });
      expect(await authenticate({ sid: other, ticket })).toMatchObject({ sts: 'anon', err: 'invalid_ticket' });
      expect(session(sid).state).toBe('terminated');
      expect(session(other).state).toBe('anon');
      expectError(await h.call(paths.getSignedInUser, { token: access_token }), 401, 'invalid_token', 'authorization');
      expect(await exchangeable(ticket)).toBe(false);
    });

    test('the ticket a first use answered with, not used yet when the first comes again: used up, and the log-in ends', async () => {
      const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
      const ticket = ticketFor();
      const { at: answered } = await authenticate({ sid, ticket });
      expect(await exchangeable(ticket)).toBe(false);
      expect(session(sid).state).toBe('terminated');
      expect(await exchangeable(answered)).toBe(false);
    });

    test('a ticket that only verified a session already logged in, presented again: the session stays logged in (that use did not log it in); the ticket it answered with is used up', async () => {
      const sid = await loggedInSession(anna);
      const ticket = ticketFor(anna);
      const { at: answered, sts } = await authenticate({ sid, ticket });
      expect(sts).toBe('loggedin');
      expect(await exchangeable(ticket)).toBe(false);
      expect(session(sid).state).toBe('loggedin');
      expect(await exchangeable(answered)).toBe(false);
    });

    test.each([
      ['unknown', () => 'x'.repeat(43)],
      [
        'bound to another client',
        (h2: Harness) => h2.platform.issueTicket({ accountId: anna, clientId: 'shop-client' }),
      ],
      [
        'of an account that is not active',
        (h2: Harness) => h2.platform.issueTicket({ accountId: demoIds.accounts.carl, clientId: demoSite.clientId }),
      ],
    ])('Anon + a ticket %s -> Anon, err invalid_ticket, aid and at empty', async (_, make) => {
      const sid = h.platform.sso.createSession();
      const claims = await authenticate({ sid, ticket: make(h) });
      expect(claims).toMatchObject({ sts: 'anon', sid, aid: '', at: '', err: 'invalid_ticket' });
      expect(session(sid).state).toBe('anon');
    });

    test('Anon + an expired ticket -> Anon, invalid_ticket (the platform clock decides)', async () => {
      const sid = h.platform.sso.createSession();
      const ticket = ticketFor();
      h.platform.clock.advance(60);
      expect(await authenticate({ sid, ticket })).toMatchObject({ sts: 'anon', err: 'invalid_ticket' });
    });

    test('Anon + a ticket already used -> Anon, invalid_ticket', async () => {
      const ticket = ticketFor();
      expect(await exchangeable(ticket)).toBe(true);
      const sid = h.platform.sso.createSession();
      expect(await authenticate({ sid, ticket })).toMatchObject({ sts: 'anon', err: 'invalid_ticket' });
    });

    test('a ticket used at endpoint 23 presented here again: the token its exchange issued is revoked (RFC 6749 10.5); the session stays Anon and records the attempt', async () => {
      const ticket = ticketFor();
      const exchanged = await h.call(paths.accessToken, {
        method: 'POST',
        host: 'auth',
        json: { grant_type: 'ticket', ticket, client_id: demoSite.clientId, client_secret: demoSite.clientSecret },
      });
      const { access_token } = expectOk(exchanged, AccessTokenResponse);
      expectOk(await h.call(paths.getSignedInUser, { token: access_token }), SignedInUser);
      const sid = h.platform.sso.createSession();
      expect(await authenticate({ sid, ticket })).toMatchObject({ sts: 'anon', aid: '', err: 'invalid_ticket' });
      expectError(await h.call(paths.getSignedInUser, { token: access_token }), 401, 'invalid_token', 'authorization');
      expect(session(sid)).toMatchObject({ state: 'anon', account_id: null });
      expect(session(sid).timeline.map((e) => e.outcome)).toEqual(['invalid_ticket']);
    });

    test('LoggedIn + a ticket of the same account -> LoggedIn, verification only: ticket consumed, a new one in at', async () => {
      const sid = await loggedInSession(anna);
      const ticket = ticketFor(anna);
      const claims = await authenticate({ sid, ticket });
      expect(claims).toMatchObject({ sts: 'loggedin', sid, aid: anna, err: null });
      expect(claims.at).toMatch(/^[\w-]{43}$/);
      expect(await exchangeable(ticket)).toBe(false);
      expect(session(sid).timeline.map((e) => e.outcome)).toEqual(['loggedin', 'verified']);
    });

    test('LoggedIn + a ticket of another account -> LoggedIn, err session_already_logged_in_on_another_account; the ticket is not consumed', async () => {
      const sid = await loggedInSession(anna);
      const ticket = ticketFor(bo);
      const claims = await authenticate({ sid, ticket });
      expect(claims).toMatchObject({
        sts: 'loggedin',
        aid: '',
        at: '',
        err: 'session_already_logged_in_on_another_account',
      });
      expect(session(sid)).toMatchObject({ state: 'loggedin', account_id: anna });
      expect(await exchangeable(ticket)).toBe(true);
    });

    test('LoggedIn + an invalid ticket -> LoggedIn, invalid_ticket', async () => {
      const sid = await loggedInSession(anna);
      expect(await authenticate({ sid, ticket: 'y'.repeat(43) })).toMatchObject({
        sts: 'loggedin',
        err: 'invalid_ticket',
      });
    });

    test('Terminated + any ticket -> Terminated, err session_terminated; the ticket is untouched', async () => {
      const sid = await loggedInSession(anna);
      h.platform.sso.terminate(sid);
      const ticket = ticketFor(anna);
      const claims = await authenticate({ sid, ticket });
      expect(claims).toMatchObject({ sts: 'terminated', aid: '', at: '', err: 'session_terminated' });
      expect(session(sid).state).toBe('terminated');
      expect(await exchangeable(ticket)).toBe(true);
    });

    test('an unknown session: err session_not_found; the ticket is untouched', async () => {
      const ticket = ticketFor();
      const claims = await authenticate({ sid: 'no-such-session', ticket });
      expect(claims).toMatchObject({ sts: 'anon', sid: 'no-such-session', err: 'session_not_found' });
      expect(await exchangeable(ticket)).toBe(true);
    });

    test("a session of another organisation's client is not found", async () => {
      const sid = h.platform.sso.createSession({ clientId: 'complex-client' });
      expect(await authenticate({ sid, ticket: ticketFor() })).toMatchObject({ err: 'session_not_found' });
    });

    test("two requests racing with one ticket: exactly one logs its session in, and the other, a second presentation, ends that log-in (RFC 6749 10.5, as endpoint 23's race revokes its token)", async () => {
      const ticket = ticketFor();
      const sids = [h.platform.sso.createSession(), h.platform.sso.createSession()];
      const tokens = await Promise.all(sids.map((sid) => requestToken(h, { sid, ticket })));
      const answers = await Promise.all(tokens.map(post));
      const claims = await Promise.all(answers.map((a) => verifySession(h, SsoEnvelope.parse(a.body).t)));
      expect(claims.map((c) => c.err).sort()).toEqual(['invalid_ticket', null]);
      expect(sids.map((sid) => session(sid).state).sort()).toEqual(['anon', 'terminated']);
    });
  });

  describe('the timeline and the session token', () => {
    test('every attempt is recorded in the session timeline with IP address and user agent', async () => {
      const sid = h.platform.sso.createSession();
      await authenticate({ sid, ticket: 'z'.repeat(43) });
      await authenticate({ sid, ticket: ticketFor(), claims: { ipa: '198.51.100.9', uas: 'Other agent' } });
      const timeline = session(sid).timeline;
      expect(timeline).toEqual([
        {
          at: expect.any(String),
          operation: 'authenticatewithticket',
          outcome: 'invalid_ticket',
          ip_address: IP,
          user_agent: UA,
        },
        {
          at: expect.any(String),
          operation: 'authenticatewithticket',
          outcome: 'loggedin',
          ip_address: '198.51.100.9',
          user_agent: 'Other agent',
        },
      ]);
    });

    test('the timeline keeps the first 64 characters of the IP address and the first 256 of the user agent', async () => {
      const sid = h.platform.sso.createSession();
      const ipa = `2001:db8::${'a'.repeat(80)}`;
      const uas = `Mozilla/5.0 ${'u'.repeat(300)}`;
      await authenticate({ sid, ticket: 'z'.repeat(43), claims: { ipa, uas } });
      expect(session(sid).timeline).toEqual([
        {
          at: expect.any(String),
          operation: 'authenticatewithticket',
          outcome: 'invalid_ticket',
          ip_address: ipa.slice(0, 64),
          user_agent: uas.slice(0, 256),
        },
      ]);
    });

    test('the timeline keeps only the latest 20 entries', async () => {
      const sid = h.platform.sso.createSession();
      for (let i = 1; i <= 22; i++)
        await authenticate({ sid, ticket: 'z'.repeat(43), claims: { ipa: `198.51.100.${i}` } });
      const kept = session(sid).timeline.map((e) => e.ip_address);
      expect(kept).toEqual(Array.from({ length: 20 }, (_, i) => `198.51.100.${i + 3}`));
    });

    test('a session token verifies with the client secret (HS256) and carries every claim of the spec', async () => {
      // Frozen there: the token is issued at that very second.
      h.platform.clock.freeze();
      h.platform.clock.set('2031-03-04T05:06:07Z');
      const sid = h.platform.sso.createSession();
      const answer = await post(await requestToken(h, { sid, ticket: ticketFor() }));
      const { t } = expectOk(answer, SsoEnvelope);
      expect(decodeProtectedHeader(t)).toEqual({ alg: 'HS256', typ: 'JWT' });
      const claims = await verifySession(h, t);
      const now = Math.floor(Date.parse('2031-03-04T05:06:07Z') / 1000);
      expect(claims).toEqual({
        sts: 'loggedin',
        sid,
        aid: anna,
        at: expect.stringMatching(/^[\w-]{43}$/),
        err: null,
        ems: '',
        frf: -1,
        raa: -1,
        // The platform's limit of logged-in sessions per account (5 by default).
        slm: 5,
        otp: '',
        ses: null,
        nbf: now,
        iat: now,
        exp: now + 10,
        iss: DEMO_SSO_AUDIENCE,
        aud: demoSite.clientId,
      });
    });
  });

  describe('request tokens are verified strictly; a failure answers err invalid_request_token and leaves the ticket usable', () => {
    const now = () => Math.floor(h.platform.clock.now().getTime() / 1000);
    const WRONG_SECRET = 'wrong-secret-0123456789abcdef0123456789abcdef';
    const cases: [string, (sid: string, ticket: string) => Promise<string>][] = [
      ['alg none', (sid, ticket) => requestToken(h, { sid, ticket, alg: 'none' })],
      ['HS384', (sid, ticket) => requestToken(h, { sid, ticket, alg: 'HS384' })],
      ['HS512', (sid, ticket) => requestToken(h, { sid, ticket, alg: 'HS512' })],
      ['no typ', (sid, ticket) => requestToken(h, { sid, ticket, typ: null })],
      ['typ JOSE', (sid, ticket) => requestToken(h, { sid, ticket, typ: 'JOSE' })],
      [
        'a wrong secret',
        (sid, ticket) => requestToken(h, { sid, ticket, secret: 'wrong-secret-0123456789abcdef0123456789abcdef' }),
      ],
      [
        "another client's secret",
        (sid, ticket) => requestToken(h, { sid, ticket, secret: demoIds.clients.shop.clientSecret }),
      ],
      ['a wrong aud', (sid, ticket) => requestToken(h, { sid, ticket, claims: { aud: 'sso.elsewhere.test' } })],
      [
        'a wrong iss',
        (sid, ticket) => requestToken(h, { sid, ticket, claims: { iss: demoIds.organisations.complex } }),
      ],
      [
        'the iss in capitals (StringOrURI values compare exactly, RFC 7519 section 2)',
        (sid, ticket) => requestToken(h, { sid, ticket, claims: { iss: demoSite.organisationId.toUpperCase() } }),
      ],
      [
        'the aud in capitals',
        (sid, ticket) => requestToken(h, { sid, ticket, claims: { aud: DEMO_SSO_AUDIENCE.toUpperCase() } }),
      ],
      ['an expired token', (sid, ticket) => requestToken(h, { sid, ticket, now: now() - 30 })],
      ['a token dated in the future', (sid, ticket) => requestToken(h, { sid, ticket, now: now() + 60 })],
      [
        'a nbf in the future',
        (sid, ticket) => requestToken(h, { sid, ticket, claims: { nbf: now() + 60, exp: now() + 70 } }),
      ],
      ['a lifetime over 10 s', (sid, ticket) => requestToken(h, { sid, ticket, claims: { exp: now() + 11 } })],
      ['a claim of the wrong type', (sid, ticket) => requestToken(h, { sid, ticket, claims: { ipa: 42 } })],
      [
        'a claim over 1,024 characters, as in every operation of the SSO service',
        (sid, ticket) => requestToken(h, { sid, ticket, claims: { uas: 'u'.repeat(1025) } }),
      ],
      [
        'a tampered signature',
        async (sid, ticket) => {
          // The signature's first character carries 6 bits of it (the last one may carry padding only).
          const [header, payload, signature] = (await requestToken(h, { sid, ticket })).split('.');
          const first = signature!.startsWith('A') ? 'B' : 'A';
          return `${header}.${payload}.${first}${signature!.slice(1)}`;
        },
      ],
      [
        'a tampered payload',
        async (sid, ticket) => {
          // One token's signature over another token's claims.
          const [header, , signature] = (await requestToken(h, { sid, ticket, claims: { ipa: '10.0.0.1' } })).split(
            '.',
          );
          const [, payload] = (await requestToken(h, { sid, ticket })).split('.');
          return `${header}.${payload}.${signature}`;
        },
      ],
      ...REQUEST_CLAIMS.filter((c) => c !== 'cid').map(
        (claim) =>
          [
            `a missing ${claim} claim`,
            (sid: string, ticket: string) => requestToken(h, { sid, ticket, omit: [claim] }),
          ] as [string, (sid: string, ticket: string) => Promise<string>],
      ),
    ];

    test.each(cases)('%s', async (_, make) => {
      const sid = h.platform.sso.createSession();
      const ticket = ticketFor();
      const answer = await post(await make(sid, ticket));
      const claims = await verifySession(h, expectOk(answer, SsoEnvelope).t);
      expect(claims).toMatchObject({ sts: 'anon', aid: '', at: '', err: 'invalid_request_token' });
      expect(session(sid)).toMatchObject({ state: 'anon', timeline: [] });
      expect(await exchangeable(ticket)).toBe(true);
    });

    test.each(['jwt', 'application/JWT'])(
      'typ %s is JWT (RFC 7515 compares media types without case, application/ left out): verified, logged in',
      async (typ) => {
        const sid = h.platform.sso.createSession();
        const answer = await post(await requestToken(h, { sid, ticket: ticketFor(), typ }));
        expect(await verifySession(h, expectOk(answer, SsoEnvelope).t)).toMatchObject({ sts: 'loggedin', err: null });
      },
    );

    test('a failure reveals nothing of the session: a logged-in session answers sts anon, the sid as sent', async () => {
      const sid = await loggedInSession();
      const ticket = ticketFor();
      const before = session(sid);
      const answer = await post(await requestToken(h, { sid, ticket, alg: 'HS512' }));
      const claims = await verifySession(h, expectOk(answer, SsoEnvelope).t);
      expect(claims).toMatchObject({ sts: 'anon', sid, aid: '', at: '', err: 'invalid_request_token' });
      expect(session(sid)).toEqual(before);
      expect(await exchangeable(ticket)).toBe(true);
    });

    test('a failure answers the same for a real and an unknown sid (no session oracle)', async () => {
      const real = await loggedInSession();
      const strip = (c: Record<string, unknown>) => {
        const { sid: _sid, iat: _iat, nbf: _nbf, exp: _exp, ...rest } = c;
        return rest;
      };
      const answers = [];
      for (const sid of [real, 'no-such-session']) {
        const answer = await post(await requestToken(h, { sid, ticket: ticketFor(), secret: WRONG_SECRET }));
        answers.push(strip(await verifySession(h, expectOk(answer, SsoEnvelope).t)));
      }
      expect(answers[0]).toEqual(answers[1]);
    });

    test('a session token (an answer) replayed as a request: no cid, so 400 invalid_request_token; its ticket stays usable', async () => {
      const sid = h.platform.sso.createSession();
      const { t } = expectOk(await post(await requestToken(h, { sid, ticket: ticketFor() })), SsoEnvelope);
      const next = (await verifySession(h, t)).at;
      expectError(await post(t), 400, 'invalid_request_token', 't');
      expect(session(sid).timeline).toHaveLength(1);
      expect(await exchangeable(next)).toBe(true);
    });

    test.each([
      ['not a JWT', async () => 'not-a-jwt'],
      ['no cid', (sid: string, ticket: string) => requestToken(h, { sid, ticket, omit: ['cid'] })],
      ['an unknown cid', (sid: string, ticket: string) => requestToken(h, { sid, ticket, claims: { cid: 'nobody' } })],
    ])(
      '%s: no client to sign a session token for, so 400 invalid_request_token; the ticket stays usable',
      async (_, make) => {
        const sid = h.platform.sso.createSession();
        const ticket = ticketFor();
        expectError(await post(await make(sid, ticket)), 400, 'invalid_request_token', 't');
        expect(await exchangeable(ticket)).toBe(true);
      },
    );

    test('a malformed envelope, refused before its token is read: 400 in the common error body like any request; nothing changes', async () => {
      const before = h.platform.snapshot();
      expectError(
        await h.call(paths.authenticateWithTicket, {
          method: 'POST',
          host: 'sso',
          body: JSON.stringify({ t: 'x' }),
          headers: { 'content-type': 'text/plain' },
        }),
        400,
        'invalid_content_type_error',
        'content-type',
      );
      expectError(
        await h.call(paths.authenticateWithTicket, {
          method: 'POST',
          host: 'sso',
          body: '{"t":',
          headers: { 'content-type': 'application/json' },
        }),
        400,
        'json_parser_error',
        'body',
      );
      expectError(
        await h.call(paths.authenticateWithTicket, { method: 'POST', host: 'sso', json: {} }),
        400,
        'invalid_parameter',
        't',
      );
      expectError(
        await h.call(paths.authenticateWithTicket, { method: 'POST', host: 'sso', json: { t: 'x', extra: 1 } }),
        400,
        'unknown_parameter',
        'extra',
      );
      expect(h.platform.snapshot()).toEqual(before);
    });
  });
});

describe.each(ADAPTERS)('endpoint 21 keeps the session limit (login.maxSessionsPerAccount 1) through %s', (kind) => {
  const h = useAdapter(kind, { login: { maxSessionsPerAccount: 1 } });
  const authenticate = async (sid: string, ticket: string) => {
    const answer = await h.call(paths.authenticateWithTicket, {
      method: 'POST',
      host: 'sso',
      json: { t: await requestToken(h, { sid, ticket }) },
    });
    return verifySession(h, expectOk(answer, SsoEnvelope).t);
  };
  const ticketFor = (accountId: string = anna) => h.platform.issueTicket({ accountId, clientId: demoSite.clientId });
  const unused = (ticket: string) => h.platform.snapshot().tickets.find((t) => t.ticket === ticket)?.used_at === null;

  test('a second session of the account is refused: session_limit_reached, it stays anonymous, the ticket unused', async () => {
    const first = h.platform.sso.createSession({ clientId: demoSite.clientId });
    expect(await authenticate(first, ticketFor())).toMatchObject({ sts: 'loggedin', err: null, slm: 1 });
    const second = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const ticket = ticketFor();
    const claims = await authenticate(second, ticket);
    expect(claims).toMatchObject({ sts: 'anon', sid: second, aid: '', at: '', err: 'session_limit_reached', slm: 1 });
    expect(h.platform.sso.session(second)).toMatchObject({ state: 'anon', account_id: null });
    expect(h.platform.sso.session(second)?.timeline.map((e) => e.outcome)).toEqual(['session_limit_reached']);
    expect(unused(ticket)).toBe(true);
  });

  test('the session that holds the place verifies again; after logout another one logs in', async () => {
    const first = h.platform.sso.createSession({ clientId: demoSite.clientId });
    await authenticate(first, ticketFor());
    expect((await authenticate(first, ticketFor())).err).toBeNull();
    h.platform.sso.terminate(first);
    const second = h.platform.sso.createSession({ clientId: demoSite.clientId });
    expect(await authenticate(second, ticketFor())).toMatchObject({ sts: 'loggedin', err: null });
    // Another account has places of its own.
    const bos = h.platform.sso.createSession({ clientId: demoSite.clientId });
    expect((await authenticate(bos, ticketFor(bo))).err).toBeNull();
  });
});

describe('the SSO audience option', () => {
  const h = useAdapter('msw', { ssoAudience: 'sso.custom.test' });

  test('overrides the state document: request tokens must carry it, session tokens are issued by it', async () => {
    const sid = h.platform.sso.createSession();
    const post = async (aud: string) => {
      const ticket = h.platform.issueTicket({ accountId: anna, clientId: demoSite.clientId });
      const t = await requestToken(h, { sid, ticket, claims: { aud } });
      const answer = await h.call(paths.authenticateWithTicket, { method: 'POST', host: 'sso', json: { t } });
      const { payload } = await jwtVerify(SsoEnvelope.parse(answer.body).t, encoder.encode(demoSite.clientSecret), {
        issuer: 'sso.custom.test',
        audience: demoSite.clientId,
        currentDate: h.platform.clock.now(),
      });
      return payload.err;
    };
    expect(await post(DEMO_SSO_AUDIENCE)).toBe('invalid_request_token');
    expect(await post('sso.custom.test')).toBeNull();
  });
});

describe.each(ADAPTERS)('/__admin/sso/sessions through %s', (kind) => {
  const h = useAdapter(kind);
  const admin = (method: string, path: string, json?: unknown) => h.call(`/__admin/${path}`, { method, json });

  test('POST creates an Anon session (201 { sid }); GET shows it with its timeline; DELETE terminates it', async () => {
    const created = await admin('POST', 'sso/sessions', { client_id: demoSite.clientId });
    expect(created.status).toBe(201);
    const { sid } = created.body as { sid: string };
    expect(sid).toMatch(/^[\w-]{32}$/);
    const read = await admin('GET', `sso/sessions/${sid}`);
    expect(read.body).toEqual({
      sid,
      state: 'anon',
      account_id: null,
      client_id: demoSite.clientId,
      created_at: expect.any(String),
      timeline: [],
      // No sessionstatus has found it yet: no last_status_at.
    } satisfies Record<Exclude<keyof SsoSessionRecord, 'last_status_at'>, unknown>);
    expect((await admin('DELETE', `sso/sessions/${sid}`)).status).toBe(204);
    expect(h.platform.sso.session(sid)?.state).toBe('terminated');
  });

  test('platform.sso.session(sid) answers a copy: changing it changes no session', async () => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const copy = h.platform.sso.session(sid)!;
    copy.state = 'terminated';
    copy.timeline.push({
      at: copy.created_at,
      operation: 'logout',
      outcome: 'terminated 1',
      ip_address: '',
      user_agent: '',
    });
    expect(h.platform.sso.session(sid)).toMatchObject({ state: 'anon', timeline: [] });
  });

  test('POST .../terminate terminates; a session without a client is allowed', async () => {
    const { sid } = (await admin('POST', 'sso/sessions')).body as { sid: string };
    expect(h.platform.sso.session(sid)?.client_id).toBeNull();
    expect((await admin('POST', `sso/sessions/${sid}/terminate`)).status).toBe(204);
    expect(h.platform.sso.session(sid)?.state).toBe('terminated');
  });

  test('unknown sid: 404 not_found naming sid (No such SSO session); unknown client: 404 naming client_id (No such client)', async () => {
    for (const [method, path] of [
      ['GET', 'sso/sessions/nope'],
      ['DELETE', 'sso/sessions/nope'],
      ['POST', 'sso/sessions/nope/terminate'],
    ] as const)
      expect(expectError(await admin(method, path), 404, 'not_found', 'sid').message).toBe('No such SSO session');
    expect(
      expectError(await admin('POST', 'sso/sessions', { client_id: 'nobody' }), 404, 'not_found', 'client_id').message,
    ).toBe('No such client');
    expect(() => h.platform.sso.terminate('nope')).toThrow(
      expect.objectContaining({ status: 404, message: 'No such SSO session' }),
    );
    expect(() => h.platform.sso.createSession({ clientId: 'nobody' })).toThrow(
      expect.objectContaining({ status: 404, message: 'No such client' }),
    );
    expect(h.platform.sso.session('nope')).toBeUndefined();
  });

  test('POST /__admin/tickets issues a ticket bound to a client', async () => {
    const answer = await admin('POST', 'tickets', { account_id: anna, client_id: demoSite.clientId });
    expect(answer.status).toBe(201);
    const { ticket } = answer.body as { ticket: string };
    expect(h.platform.snapshot().tickets).toMatchObject([{ ticket, account_id: anna, client_id: demoSite.clientId }]);
    expectError(
      await admin('POST', 'tickets', { account_id: anna, client_id: 'nobody' }),
      404,
      'not_found',
      'client_id',
    );
  });

  test('sessions and the journal: /__admin is not journaled; reset ends every session', async () => {
    const { sid } = (await admin('POST', 'sso/sessions')).body as { sid: string };
    expect(h.platform.requests.list()).toEqual([]);
    await admin('POST', 'reset');
    expect(h.platform.sso.session(sid)).toBeUndefined();
  });
});
