/**
 * The SDK's SSO session methods against the platform in process: identifyUrl and readLanding
 * (strict verification, allowed origins), createSession, sessionStatus, authenticate and logout as
 * discriminated unions, and no password, ticket or token in a log line.
 */
import { decodeJwt, SignJWT } from 'jose';
import { HttpResponse, http } from 'msw';
import { describe, expect, test } from 'vitest';
import { DEMO_SITE_LANDING_URL, demoSiteB } from '../../mock/index.js';
import { SignOnConfigurationError, SignOnValidationError, SsoTokenError } from '../../src/index.js';
import { SSO_IDENTIFY_LIFETIME_SECONDS } from '../../src/sign-on/sso-token.js';
import type { SsoRefusal, SsoResult } from '../../src/types.js';
import {
  defaultHosts,
  demoSite,
  demoUsers,
  platform,
  received,
  recordingLogger,
  server,
  siteClient,
  usePlatform,
} from './helpers.js';

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
      return `refused: ${describeRefusal(result)}`;
  }
}

/** A site that switches on the refusal's code: each known code narrows to its own fields. */
function describeRefusal(refusal: SsoRefusal): string {
  switch (refusal.error) {
    case 'invalid_credentials':
      return `invalid_credentials, ${refusal.remainingAttempts satisfies number} attempts left`;
    case 'account_frozen':
      return `account_frozen for ${refusal.frozenForSeconds satisfies number} s`;
    case 'unrecognised_error':
      return `unrecognised code ${refusal.code}`;
    default:
      return refusal.error;
  }
}

/** A session token for the demo site, signed with its secret, with these claims over the defaults. */
async function sessionToken(
  claims: Record<string, unknown>,
  o: { iat?: number; exp?: number; iss?: string; aud?: string } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({
    sts: 'anon',
    sid: 's',
    aid: '',
    at: '',
    err: null,
    ems: '',
    frf: -1,
    raa: -1,
    slm: 5,
    otp: '',
    ses: null,
    ...claims,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(o.iat ?? now)
    .setNotBefore(o.iat ?? now)
    .setExpirationTime(o.exp ?? (o.iat ?? now) + 10)
    .setIssuer(o.iss ?? demoSite.ssoAudience)
    .setAudience(o.aud ?? demoSite.clientId)
    .sign(new TextEncoder().encode(demoSite.clientSecret));
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
    const first = await attempt('wrong');
    expect(first).toEqual({
      status: 'error',
      error: 'invalid_credentials',
      remainingAttempts: 4,
      message: expect.any(String),
      sessionId,
    });
    expect(describeResult(first)).toBe('refused: invalid_credentials, 4 attempts left');
    for (let i = 0; i < 4; i++) await attempt('wrong');
    const frozen = await attempt(demoUsers.bo.password);
    expect(frozen).toMatchObject({ status: 'error', error: 'account_frozen' });
    expect(describeResult(frozen)).toMatch(/^refused: account_frozen for (29\d|300) s$/);
    // (The thaw on the platform clock is tested on the platform's side: both ends here use the real clock.)
  });

  test('with the platform clock moved past the 5 s leeway, the service refuses the request token (the journal names the time claim) and the SDK the answer: SsoTokenError', async () => {
    platform.clock.advance(60);
    const refused = await siteClient()
      .sso.createSession(APP)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SsoTokenError);
    expect(platform.requests.list().at(-1)?.refusal).toMatchObject({ check: 'exp' });
    expect(platform.snapshot().sso_sessions).toEqual([]);
  });

  test('an unknown session: session_not_found, a plain refusal', async () => {
    const result = await siteClient().sso.sessionStatus({ sessionId: 'gone', lastKnownStatus: 'anon', ...VISITOR });
    expect(result).toEqual({
      status: 'error',
      error: 'session_not_found',
      message: expect.any(String),
      sessionId: 'gone',
    });
  });

  test("the other operations' answers may carry only the claims their documentation names (sid, sts, at; raa or frf with their errors); endpoint 21's must carry all", async () => {
    const bare = (claims: Record<string, unknown>) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + 10)
        .setIssuer(demoSite.ssoAudience)
        .setAudience(demoSite.clientId)
        .sign(new TextEncoder().encode(demoSite.clientSecret));
    };
    const answer = (operation: string, t: string) =>
      server.use(http.post(`${defaultHosts.sso}/${operation}`, () => HttpResponse.json({ t })));
    answer('sessionstatus', await bare({ sid: 'abc', sts: 'loggedin', aid: anna.id, at: 'a-ticket' }));
    expect(await siteClient().sso.sessionStatus({ sessionId: 'abc', lastKnownStatus: 'anon', ...VISITOR })).toEqual({
      status: 'loggedin',
      sessionId: 'abc',
      accountId: anna.id,
      ticket: 'a-ticket',
    });
    answer('authenticate', await bare({ sid: 'abc', sts: 'anon', err: 'invalid_credentials', raa: 3 }));
    expect(
      await siteClient().sso.authenticate({ sessionId: 'abc', email: anna.email, password: 'wrong', ...VISITOR }),
    ).toEqual({ status: 'error', error: 'invalid_credentials', remainingAttempts: 3, message: '', sessionId: 'abc' });
    answer('logout', await bare({ sid: 'abc', sts: 'terminated' }));
    expect(await siteClient().sso.logout({ sessionId: 'abc', ...VISITOR })).toEqual({
      status: 'terminated',
      sessionId: 'abc',
    });
    // A logged-in answer that names no account is still refused: the result promises one.
    answer('sessionstatus', await bare({ sid: 'abc', sts: 'loggedin', at: 'a-ticket' }));
    await expect(
      siteClient().sso.sessionStatus({ sessionId: 'abc', lastKnownStatus: 'anon', ...VISITOR }),
    ).rejects.toMatchObject({ constructor: SsoTokenError, claim: 'aid' });
    answer('authenticatewithticket', await bare({ sid: 'abc', sts: 'loggedin', aid: anna.id, at: 'x', err: null }));
    await expect(
      siteClient().sso.authenticateWithTicket({ sessionId: 'abc', ticket: 'a-ticket', ...VISITOR }),
    ).rejects.toBeInstanceOf(SsoTokenError);
  });

  test('an err code this SDK does not know: error unrecognised_error, the code as sent in code', async () => {
    const t = await sessionToken({ sid: 'abc', err: 'brand_new_code', ems: 'Something new' });
    server.use(http.post(`${defaultHosts.sso}/sessionstatus`, () => HttpResponse.json({ t })));
    const result = await siteClient().sso.sessionStatus({ sessionId: 'abc', lastKnownStatus: 'anon', ...VISITOR });
    expect(result).toEqual({
      status: 'error',
      error: 'unrecognised_error',
      code: 'brand_new_code',
      message: 'Something new',
      sessionId: 'abc',
    });
    expect(describeResult(result)).toBe('refused: unrecognised code brand_new_code');
  });

  test('bad input is refused before anything is sent', async () => {
    const site = siteClient();
    await expect(
      site.sso.authenticate({ sessionId: 's', email: '', password: 'p', ...VISITOR }),
    ).rejects.toBeInstanceOf(SignOnValidationError);
    await expect(site.sso.logout({ sessionId: 's', ipAddress: '', userAgent: 'ua' })).rejects.toBeInstanceOf(
      SignOnValidationError,
    );
    expect(received('/authenticate', '/logout')).toEqual([]);
  });

  test("a claim the SSO service's schema refuses is refused before sending, named by its parameter", async () => {
    const site = siteClient();
    await expect(
      site.sso.sessionStatus({ sessionId: 's', lastKnownStatus: 'asleep' as never, ...VISITOR }),
    ).rejects.toMatchObject({ constructor: SignOnValidationError, field: 'lastKnownStatus' });
    await expect(
      site.sso.logout({ sessionId: 's', ipAddress: VISITOR.ipAddress, userAgent: 'u'.repeat(1025) }),
    ).rejects.toMatchObject({ constructor: SignOnValidationError, field: 'userAgent' });
    // Endpoint 21's claims too, as every other operation's: at most 1,024 characters.
    await expect(
      site.sso.authenticateWithTicket({
        sessionId: 's',
        ticket: 't',
        ipAddress: VISITOR.ipAddress,
        userAgent: 'u'.repeat(1025),
      }),
    ).rejects.toMatchObject({ constructor: SignOnValidationError, field: 'userAgent' });
    await expect(site.sso.identifyUrl({ returnUrl: '' })).rejects.toMatchObject({
      constructor: SignOnValidationError,
      field: 'returnUrl',
    });
    expect(received('/sessionstatus', '/logout', '/authenticatewithticket')).toEqual([]);
  });

  test.each<[string, (site: ReturnType<typeof siteClient>) => Promise<unknown>, string]>([
    ['authenticateWithTicket(undefined)', (site) => site.sso.authenticateWithTicket(undefined as never), 'params'],
    ['identifyUrl(undefined)', (site) => site.sso.identifyUrl(undefined as never), 'params'],
    [
      'authenticateWithTicket with a key it does not read',
      (site) => site.sso.authenticateWithTicket({ sessionId: 's', ticket: 't', ...VISITOR, ticketId: 't' } as never),
      'ticketId',
    ],
    [
      'createSession with a claim name for a parameter',
      (site) => site.sso.createSession({ ...APP, apn: 'News' } as never),
      'apn',
    ],
    [
      'identifyUrl with a key it does not read',
      (site) => site.sso.identifyUrl({ returnUrl: 'https://x/', r: 'y' } as never),
      'r',
    ],
  ])('%s: SignOnValidationError naming it, nothing signed nor sent', async (_, call, field) => {
    const error = await call(siteClient()).catch((e: unknown) => e);
    expect(error).toMatchObject({ constructor: SignOnValidationError, field });
    expect(received()).toEqual([]);
  });

  test.each([
    ['another scheme (javascript:)', 'javascript:alert(1)'],
    ['a relative URL', '/articles/7'],
    ['credentials', 'https://user:pass@site.example/'],
    ['a backslash', 'https:\\\\site.example\\back'],
    ['a leading space', ' https://site.example/'],
  ])(
    'identifyUrl refuses a returnUrl with %s (the return handler would never follow it): SignOnValidationError naming returnUrl, nothing sent',
    async (_, returnUrl) => {
      const error = await siteClient()
        .sso.identifyUrl({ returnUrl })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        constructor: SignOnValidationError,
        field: 'returnUrl',
        message:
          'returnUrl: Parameter must be an absolute http(s) URL without credentials, backslashes, whitespace or control characters',
      });
      expect(received()).toEqual([]);
    },
  );

  test('no password, ticket or signed token reaches the logger', async () => {
    const logger = recordingLogger();
    const site = siteClient({ logger });
    const sessionId = await newSession(site);
    const login = await site.sso.authenticate({ sessionId, email: anna.email, password: anna.password, ...VISITOR });
    expect(login).toMatchObject({ status: 'loggedin', ticket: expect.stringMatching(/^[\w-]{43}$/) });
    const ticket = login.status === 'loggedin' ? login.ticket : undefined;
    const logged = JSON.stringify(logger.lines);
    expect(logger.lines.length).toBeGreaterThan(0);
    expect(logged).not.toContain(anna.password);
    expect(logged).not.toContain(ticket);
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

  const landingUrl = (t: string) => `${DEMO_SITE_LANDING_URL}?t=${t}&r=${encodeURIComponent('http://localhost:3000/')}`;
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  test.each([
    ['for another client (aud)', () => sessionToken({}, { aud: demoSiteB.clientId }), 'audience'],
    ['of another issuer (iss)', () => sessionToken({}, { iss: 'sso.elsewhere.test' }), 'issuer'],
    ['expired beyond the leeway', () => sessionToken({}, { iat: nowSeconds() - 12, exp: nowSeconds() - 6 }), 'expired'],
    ['dated beyond the leeway in the future', () => sessionToken({}, { iat: nowSeconds() + 30 }), 'not_yet_valid'],
  ])('a landing token %s is refused (SsoTokenError %s)', async (_, make, reason) => {
    const url = landingUrl(await make());
    await expect(siteClient().sso.readLanding(url, ORIGINS)).rejects.toMatchObject({ name: 'SsoTokenError', reason });
  });

  test('a landing token expired inside the leeway (5 s) is accepted', async () => {
    const t = await sessionToken({ sid: 'late' }, { iat: nowSeconds() - 13, exp: nowSeconds() - 3 });
    expect(await siteClient().sso.readLanding(landingUrl(t), ORIGINS)).toEqual({
      status: 'anon',
      sessionId: 'late',
      redirectTo: 'http://localhost:3000/',
      returnUrlRefused: false,
    });
  });

  test.each([
    ['empty', []],
    ['holding a URL with a path', ['http://localhost:3000/landing']],
  ])(
    'readLanding with allowedOrigins %s: SignOnConfigurationError naming allowedOrigins, whatever the request',
    async (_, allowedOrigins) => {
      const t = await sessionToken({});
      for (const url of [landingUrl(t), `${DEMO_SITE_LANDING_URL}?t=${t}`]) {
        const refused = siteClient().sso.readLanding(url, { allowedOrigins });
        await expect(refused).rejects.toBeInstanceOf(SignOnConfigurationError);
        await expect(refused).rejects.toMatchObject({
          option: 'allowedOrigins',
          message: expect.stringMatching(/origin/),
        });
      }
    },
  );

  test('the identify token lives SSO_IDENTIFY_LIFETIME_SECONDS (60 s), the constant the platform holds it to', async () => {
    const url = new URL(await siteClient().sso.identifyUrl({ returnUrl: 'http://localhost:3000/' }));
    const claims = decodeJwt(url.searchParams.get('t')!);
    expect(SSO_IDENTIFY_LIFETIME_SECONDS).toBe(60);
    expect(claims.exp! - claims.iat!).toBe(SSO_IDENTIFY_LIFETIME_SECONDS);
    expect(url.searchParams.get('r')).toBe('http://localhost:3000/');
  });

  test('identifyUrl needs the sso host and options: a configuration error before anything is signed', async () => {
    const site = siteClient({ hosts: { ...defaultHosts, sso: undefined } });
    await expect(site.sso.identifyUrl({ returnUrl: 'http://localhost:3000/' })).rejects.toMatchObject({
      name: 'SignOnConfigurationError',
    });
  });
});
