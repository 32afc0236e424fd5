/**
 * The SDK's SSO session methods against the platform in process: identifyUrl and readLanding
 * (strict verification, allowed origins), createSession, sessionStatus, authenticate and logout as
 * discriminated unions, and no password, ticket or token in a log line.
 */
import { SignJWT } from 'jose';
import { describe, expect, test } from 'vitest';
import { DEMO_SITE_LANDING_URL, demoSiteB } from '../../mock/index.js';
import { SignOnValidationError, type SsoResult, SsoTokenError } from '../../src/index.js';
import { defaultHosts, demoSite, demoUsers, platform, recordingLogger, siteClient, usePlatform } from './helpers.js';

usePlatform();

const VISITOR = { ipAddress: '203.0.113.7', userAgent: 'Mozilla/5.0 (sdk test)' };
const APP = { ...VISITOR, appName: 'News', appVersion: '2.1', osName: 'iOS', osVersion: '18' };
const anna = demoUsers.anna;
const ORIGINS = { allowedOrigins: ['http://localhost:3000'] };

/** A site that switches on the result, as the union lets it. */
function describeResult(result: SsoResult): string {
  switch (result.status) {
    case 'anon':
      return 'anonymous';
    case 'loggedin':
      return `logged in as ${result.accountId}${result.ticket ? ' with a ticket' : ''}`;
    case 'terminated':
      return 'terminated';
    case 'error':
      return `refused: ${result.error}`;
  }
}

async function newSession(site = siteClient()) {
  const created = await site.sso.createSession(APP);
  if (created.status !== 'anon') throw new Error(`no session: ${describeResult(created)}`);
  return created.sessionId;
}

describe('createSession, authenticate, sessionStatus, logout', () => {
  test('the whole cycle, each a discriminated union', async () => {
    const site = siteClient();
    const sessionId = await newSession(site);
    const login = await site.sso.authenticate({ sessionId, email: anna.email, password: anna.password, ...VISITOR });
    expect(describeResult(login)).toBe(`logged in as ${anna.id} with a ticket`);
    if (login.status !== 'loggedin' || !login.ticket) throw new Error('not logged in');
    // The ticket is for this client: the site exchanges it for the user's token (endpoint 23).
    const tokens = await site.authorization.exchangeTicket({ ticket: login.ticket });
    expect(tokens.access_token).toEqual(expect.any(String));
    expect(await site.sso.sessionStatus({ sessionId, lastKnownStatus: 'loggedin', ...VISITOR })).toEqual({
      status: 'loggedin',
      sessionId,
      accountId: anna.id,
    });
    expect(await site.sso.logout({ sessionId, ...VISITOR })).toEqual({ status: 'terminated', sessionId });
    expect((await site.sso.sessionStatus({ sessionId, lastKnownStatus: 'loggedin', ...VISITOR })).status).toBe(
      'terminated',
    );
  });

  test('refusals carry their details: remainingAttempts, then frozenForSeconds', async () => {
    const site = siteClient();
    const sessionId = await newSession(site);
    const attempt = (password: string) =>
      site.sso.authenticate({ sessionId, email: demoUsers.bo.email, password, ...VISITOR });
    expect(await attempt('wrong')).toMatchObject({
      status: 'error',
      error: 'invalid_credentials',
      remainingAttempts: 4,
    });
    for (let i = 0; i < 4; i++) await attempt('wrong');
    const frozen = await attempt(demoUsers.bo.password);
    expect(frozen).toMatchObject({ status: 'error', error: 'account_frozen' });
    expect(frozen.status === 'error' && frozen.frozenForSeconds).toBeGreaterThan(290);
    // (The thaw on the platform clock is tested on the platform's side: both ends here use the real clock.)
  });

  test('an unknown session: session_not_found', async () => {
    const result = await siteClient().sso.sessionStatus({ sessionId: 'gone', lastKnownStatus: 'anon', ...VISITOR });
    expect(result).toMatchObject({ status: 'error', error: 'session_not_found' });
  });

  test('bad input is refused before anything is sent', async () => {
    const site = siteClient();
    const before = platform.requests.list().length;
    await expect(
      site.sso.authenticate({ sessionId: 's', email: '', password: 'p', ...VISITOR }),
    ).rejects.toBeInstanceOf(SignOnValidationError);
    await expect(site.sso.logout({ sessionId: 's', ipAddress: '', userAgent: 'ua' })).rejects.toBeInstanceOf(
      SignOnValidationError,
    );
    expect(platform.requests.list()).toHaveLength(before);
  });

  test('no password, ticket or signed token reaches the logger', async () => {
    const logger = recordingLogger();
    const site = siteClient({ logger });
    const sessionId = await newSession(site);
    const login = await site.sso.authenticate({ sessionId, email: anna.email, password: anna.password, ...VISITOR });
    const logged = JSON.stringify(logger.lines);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logged).not.toContain(anna.password);
    if (login.status === 'loggedin' && login.ticket) expect(logged).not.toContain(login.ticket);
    expect(logged).not.toMatch(/eyJ[\w-]+\.[\w-]+\.[\w-]+/);
  });
});

describe('identifyUrl and readLanding', () => {
  /** Follows the identify redirect as a browser would (cookie jar of one cookie); answers the landing URL. */
  async function identify(site: ReturnType<typeof siteClient>, returnUrl: string, cookie?: string) {
    const response = await fetch(await site.sso.identifyUrl({ returnUrl }), {
      redirect: 'manual',
      headers: cookie ? { cookie } : {},
    });
    expect(response.status).toBe(302);
    return { landing: response.headers.get('location')!, cookie: response.headers.get('set-cookie')!.split(';')[0]! };
  }

  test('identify then readLanding: anonymous, then logged in with a ticket once the session logs in', async () => {
    const site = siteClient();
    const first = await identify(site, 'http://localhost:3000/articles/7');
    expect(first.landing.startsWith(`${DEMO_SITE_LANDING_URL}?`)).toBe(true);
    const anon = await site.sso.readLanding(first.landing, ORIGINS);
    expect(anon).toMatchObject({
      status: 'anon',
      redirectTo: 'http://localhost:3000/articles/7',
      returnUrlRefused: false,
    });
    await site.sso.authenticate({ sessionId: anon.sessionId, email: anna.email, password: anna.password, ...VISITOR });
    // Site B, same organisation, same browser: logged in through identify alone.
    const siteB = siteClient({
      auth: {
        clientId: demoSiteB.clientId,
        clientSecret: demoSiteB.clientSecret,
        scopes: ['/api/authorization/ticket'],
      },
    });
    const second = await identify(siteB, 'http://localhost:3001/', first.cookie);
    const landed = await siteB.sso.readLanding(second.landing, { allowedOrigins: ['http://localhost:3001'] });
    expect(landed).toMatchObject({ status: 'loggedin', accountId: anna.id, sessionId: anon.sessionId });
    expect(landed.status === 'loggedin' && landed.ticket).toMatch(/^[\w-]{43}$/);
  });

  test('a return URL of another origin is not followed: the first allowed origin instead', async () => {
    const site = siteClient();
    const { landing } = await identify(site, 'https://attacker.example/phish');
    expect(await site.sso.readLanding(landing, ORIGINS)).toMatchObject({
      redirectTo: 'http://localhost:3000/',
      returnUrlRefused: true,
    });
  });

  test.each([
    ['signed with another secret', `${demoSite.clientSecret}-x`, 'signature'],
    ['of another algorithm', 'HS512', 'algorithm'],
  ])('a landing token %s is refused (SsoTokenError %s)', async (_, variant, reason) => {
    const now = Math.floor(Date.now() / 1000);
    const alg = variant === 'HS512' ? 'HS512' : 'HS256';
    const secret = variant === 'HS512' ? demoSite.clientSecret : variant;
    const forged = await new SignJWT({
      sts: 'loggedin',
      sid: 's',
      aid: 'a',
      at: 't',
      err: null,
      ems: '',
      frf: -1,
      raa: -1,
      slm: 0,
      otp: '',
      ses: null,
    })
      .setProtectedHeader({ alg, typ: 'JWT' })
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 10)
      .setIssuer(demoSite.ssoAudience)
      .setAudience(demoSite.clientId)
      .sign(new TextEncoder().encode(secret));
    const url = `${DEMO_SITE_LANDING_URL}?t=${forged}&r=${encodeURIComponent('http://localhost:3000/')}`;
    await expect(siteClient().sso.readLanding(url, ORIGINS)).rejects.toMatchObject({ name: 'SsoTokenError', reason });
    await expect(siteClient().sso.readLanding(url, ORIGINS)).rejects.toBeInstanceOf(SsoTokenError);
  });

  test('identifyUrl needs the sso host and options: a configuration error before anything is signed', async () => {
    const site = siteClient({ hosts: { ...defaultHosts, sso: undefined } });
    await expect(site.sso.identifyUrl({ returnUrl: 'http://localhost:3000/' })).rejects.toMatchObject({
      name: 'SignOnConfigurationError',
    });
  });
});
