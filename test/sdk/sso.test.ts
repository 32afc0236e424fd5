/**
 * SSO authenticatewithticket (endpoint 21) through the SDK: the signed request token, the verified
 * session token, and every state transition of the spec's SSO session table.
 */
import { SignJWT } from 'jose';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { type PlatformClient, SsoTokenError } from '../../src/index.js';
import type { AuthenticateWithTicketResult } from '../../src/types.js';
import { paths } from '../paths.js';
import { defaultHosts, demoIds, demoSite, platform, server, siteClient, usePlatform } from './helpers.js';

usePlatform();

const { anna, bo } = demoIds.accounts;
const USER = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (test)' };
const SSO_PATH = paths.authenticateWithTicket;

/** A ticket for `accountId` bound to the site, the client that calls SSO (endpoint 22 form a). */
async function ticketFor(site: PlatformClient, accountId: string = anna): Promise<string> {
  return (await site.authorization.generateTicket({ accountId, clientId: demoSite.clientId })).ticket;
}

async function login(site: PlatformClient, sessionId: string, accountId: string = anna) {
  return site.sso.authenticateWithTicket({ sessionId, ticket: await ticketFor(site, accountId), ...USER });
}

describe('authenticatewithticket: Anon with a valid ticket becomes LoggedIn', () => {
  test('the typed result: loggedin with the account id, the session id and a new ticket', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    const ticket = await ticketFor(site);
    const result = await site.sso.authenticateWithTicket({ sessionId, ticket, ...USER });
    expect(result).toMatchObject({ status: 'loggedin', accountId: anna, sessionId });
    if (result.status !== 'loggedin') throw new Error('not logged in');
    expect(result.ticket).toEqual(expect.any(String));
    expect(result.ticket).not.toBe(ticket);
    expect(result.claims).toMatchObject({
      sts: 'loggedin',
      err: null,
      aud: demoSite.clientId,
      iss: demoSite.ssoAudience,
    });
    expect(platform.sso.session(sessionId)).toMatchObject({ state: 'loggedin', account_id: anna });
  });

  test('the request is { t }, an HS256 JWT with the spec claims, posted without a bearer token', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    await login(site, sessionId);
    const entry = platform.requests.list().find((e) => e.path === SSO_PATH);
    expect(entry?.status).toBe(200);
    expect(entry?.headers.authorization).toBeUndefined();
    expect(Object.keys(JSON.parse(entry?.body ?? '{}'))).toEqual(['t']);
  });

  test('the attempt is recorded in the session timeline with the IP address and user agent', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    await login(site, sessionId);
    expect(platform.sso.session(sessionId)?.timeline).toEqual([
      expect.objectContaining({ ip_address: USER.ipAddress, user_agent: USER.userAgent }),
    ]);
  });

  test('the new ticket (at) is exchangeable once for the user token (endpoint 23)', async () => {
    const site = siteClient();
    const result = await login(site, platform.sso.createSession());
    if (result.status !== 'loggedin') throw new Error('not logged in');
    const tokens = await site.authorization.exchangeTicket({ ticket: result.ticket });
    expect((await site.me.get({ accessToken: tokens.access_token })).id).toBe(anna);
  });

  test('the ticket is spent: the same ticket on another session is invalid_ticket', async () => {
    const site = siteClient();
    const ticket = await ticketFor(site);
    await site.sso.authenticateWithTicket({ sessionId: platform.sso.createSession(), ticket, ...USER });
    const again = await site.sso.authenticateWithTicket({ sessionId: platform.sso.createSession(), ticket, ...USER });
    expect(again).toMatchObject({ status: 'error', error: 'invalid_ticket' });
  });

  test('LoggedIn with a ticket of the same account: verification only, still loggedin', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    await login(site, sessionId);
    await expect(login(site, sessionId)).resolves.toMatchObject({ status: 'loggedin', accountId: anna });
  });
});

describe('the SSO err codes of the spec come back as a typed error result, not a throw', () => {
  test('invalid_ticket: Anon with an invalid or expired ticket stays Anon', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    const result = await site.sso.authenticateWithTicket({ sessionId, ticket: 'no-such-ticket', ...USER });
    expect(result).toMatchObject({ status: 'error', error: 'invalid_ticket', sessionState: 'anon', sessionId });
    expect(platform.sso.session(sessionId)?.state).toBe('anon');
  });

  test('invalid_ticket: a ticket bound to another client (the shop)', async () => {
    const site = siteClient();
    const { ticket } = await site.authorization.generateTicket({ accountId: anna, clientId: 'shop-client' });
    const result = await site.sso.authenticateWithTicket({ sessionId: platform.sso.createSession(), ticket, ...USER });
    expect(result).toMatchObject({ status: 'error', error: 'invalid_ticket' });
  });

  test('invalid_ticket: an expired ticket (issued an hour ago on the platform clock)', async () => {
    const site = siteClient();
    platform.clock.set(new Date(Date.now() - 3600_000));
    const ticket = platform.issueTicket({ accountId: anna, clientId: demoSite.clientId });
    // Back to the real time, which the SDK checks the session token's dates against.
    platform.clock.set(new Date());
    const result = await site.sso.authenticateWithTicket({ sessionId: platform.sso.createSession(), ticket, ...USER });
    expect(result).toMatchObject({ status: 'error', error: 'invalid_ticket' });
  });

  test('session_terminated: a Terminated session stays Terminated', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    platform.sso.terminate(sessionId);
    const result = await login(site, sessionId);
    expect(result).toMatchObject({ status: 'error', error: 'session_terminated', sessionId });
    expect(platform.sso.session(sessionId)?.state).toBe('terminated');
  });

  test('session_already_logged_in_on_another_account: the session keeps its account', async () => {
    const site = siteClient();
    const sessionId = platform.sso.createSession();
    await login(site, sessionId, anna);
    const result: AuthenticateWithTicketResult = await login(site, sessionId, bo);
    expect(result).toMatchObject({
      status: 'error',
      error: 'session_already_logged_in_on_another_account',
      sessionState: 'loggedin',
    });
    expect(platform.sso.session(sessionId)).toMatchObject({ state: 'loggedin', account_id: anna });
  });

  test('an error result carries the message (ems) and no ticket', async () => {
    const site = siteClient();
    const result = await site.sso.authenticateWithTicket({
      sessionId: platform.sso.createSession(),
      ticket: 'no-such-ticket',
      ...USER,
    });
    if (result.status !== 'error') throw new Error('expected an error result');
    expect(result.message).toEqual(expect.any(String));
    expect(result.claims.at).toBe('');
  });
});

describe('the session token is verified before it is read (RFC 8725)', () => {
  const key = (secret: string) => new TextEncoder().encode(secret);
  /** A session token as the SSO service would sign it, with `overrides`. */
  async function sessionToken(
    sessionId: string,
    secret: string = demoSite.clientSecret,
    overrides: Record<string, unknown> = {},
  ) {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({
      sts: 'loggedin',
      sid: sessionId,
      aid: anna,
      at: 'forged-ticket',
      err: null,
      ems: '',
      frf: -1,
      raa: -1,
      slm: 0,
      otp: '',
      ses: null,
      ...overrides,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 10)
      .setIssuer(demoSite.ssoAudience)
      .setAudience(typeof overrides.aud === 'string' ? overrides.aud : demoSite.clientId)
      .sign(key(secret));
  }
  function answerWith(t: string): void {
    server.use(http.post(`${defaultHosts.sso}${SSO_PATH}`, () => HttpResponse.json({ t })));
  }
  async function refusal(sessionId: string): Promise<SsoTokenError> {
    const error = await siteClient()
      .sso.authenticateWithTicket({ sessionId, ticket: 'any-ticket', ...USER })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsoTokenError);
    return error as SsoTokenError;
  }

  test('a token that verifies is read (the check of this harness)', async () => {
    answerWith(await sessionToken('s-1'));
    await expect(
      siteClient().sso.authenticateWithTicket({ sessionId: 's-1', ticket: 'any-ticket', ...USER }),
    ).resolves.toMatchObject({ status: 'loggedin', ticket: 'forged-ticket' });
  });

  test('signed with another secret: SsoTokenError signature, not a result', async () => {
    answerWith(await sessionToken('s-1', 'another-secret-0123456789abcdef0123456789abcdef'));
    const error = await refusal('s-1');
    expect(error.reason).toBe('signature');
    expect(error.message).not.toContain('forged-ticket');
  });

  test('alg none: SsoTokenError algorithm', async () => {
    const signed = await sessionToken('s-1');
    const [, payload] = signed.split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    answerWith(`${header}.${payload}.`);
    expect((await refusal('s-1')).reason).toBe('algorithm');
  });

  test('a tampered payload (another account) under the original signature: SsoTokenError signature', async () => {
    const [header, payload, signature] = (await sessionToken('s-1')).split('.');
    const claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString());
    const tampered = Buffer.from(JSON.stringify({ ...claims, aid: bo })).toString('base64url');
    answerWith(`${header}.${tampered}.${signature}`);
    expect((await refusal('s-1')).reason).toBe('signature');
  });

  test('a genuine token for another session: SsoTokenError session', async () => {
    answerWith(await sessionToken('s-other'));
    expect((await refusal('s-1')).reason).toBe('session');
  });

  test('a token for another client (aud): SsoTokenError audience', async () => {
    answerWith(await sessionToken('s-1', demoSite.clientSecret, { aud: 'shop-client' }));
    expect((await refusal('s-1')).reason).toBe('audience');
  });

  test('an answer that is not a JWT: SsoTokenError malformed', async () => {
    answerWith('not-a-jwt');
    expect((await refusal('s-1')).reason).toBe('malformed');
  });

  test('withResponse() gives the raw answer and correlation id with the verified result', async () => {
    const site = siteClient();
    const { data, response, correlationId } = await site.sso
      .authenticateWithTicket({ sessionId: platform.sso.createSession(), ticket: await ticketFor(site), ...USER })
      .withResponse();
    expect(data.status).toBe('loggedin');
    expect(response.status).toBe(200);
    expect(correlationId).toEqual(expect.any(String));
  });
});
