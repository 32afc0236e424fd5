import { runInNewContext } from 'node:vm';
import { base64url, decodeJwt, decodeProtectedHeader, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import {
  createSsoRequestToken,
  SignOnConfigurationError,
  SignOnValidationError,
  SsoTokenError,
  type SsoTokenErrorReason,
  toAuthenticateResult,
  verifySsoSessionToken,
} from '../../src/sign-on/index.js';
import { foreignTextEncoder } from '../realms.js';

const CLIENT_ID = 'site-client';
const SECRET = 'a-client-secret-of-at-least-32-bytes!!';
const KEY = new TextEncoder().encode(SECRET);
const AUDIENCE = 'sso-audience-constant';
const ORG = 'org-1234';
const NOW = new Date('2025-06-01T12:00:00Z');
const T = Math.floor(NOW.getTime() / 1000);
const FRESH_TICKET = 'fresh-ticket-from-sso-0001';

const verifyOptions = { clientId: CLIENT_ID, clientSecret: SECRET, audience: AUDIENCE, now: NOW };

function sessionClaims(overrides: Record<string, unknown> = {}): JWTPayload {
  return {
    sts: 'loggedin',
    sid: 'session-1',
    aid: '5f1e2d3c4b5a69788796a5b4',
    at: FRESH_TICKET,
    err: null,
    ems: '',
    frf: -1,
    raa: -1,
    slm: 0,
    otp: '',
    ses: null,
    nbf: T,
    iat: T,
    exp: T + 10,
    iss: AUDIENCE,
    aud: CLIENT_ID,
    ...overrides,
  };
}

async function sign(claims: JWTPayload, alg = 'HS256', key: Uint8Array = KEY): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);
}

function without(claims: JWTPayload, name: string): JWTPayload {
  const copy = { ...claims };
  delete copy[name];
  return copy;
}

/** Verifies and expects a refusal with `reason`; also proves the error leaks neither token nor secret. */
async function expectRefused(token: string, reason: SsoTokenErrorReason, options = {}): Promise<SsoTokenError> {
  const error = await verifySsoSessionToken(token, { ...verifyOptions, ...options }).then(
    () => expect.unreachable('token was accepted'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SsoTokenError);
  const tokenError = error as SsoTokenError;
  expect(tokenError.reason).toBe(reason);
  // What a log line or a caller sees. Not the stack: its frames hold file paths, which vary by machine.
  const everything = `${tokenError.message} ${String(tokenError)} ${JSON.stringify(tokenError)}`;
  for (const secret of [token, SECRET, FRESH_TICKET, token.split('.')[1] ?? token]) {
    // A part of a few characters (the malformed `a.b`) is no secret, and would match by chance.
    if (secret.length >= 8) expect(everything).not.toContain(secret);
  }
  expect(tokenError.cause).toBeUndefined();
  return tokenError;
}

const requestInput = {
  clientId: CLIENT_ID,
  clientSecret: SECRET,
  organisationId: ORG,
  audience: AUDIENCE,
  sessionId: 'session-1',
  ticket: 'ticket-for-request-0001',
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64)',
  now: NOW,
};

describe('endpoint 21 request token (createSsoRequestToken)', () => {
  it('has the header { alg: HS256, typ: JWT }', async () => {
    const token = await createSsoRequestToken(requestInput);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'JWT' });
  });

  it('carries every claim of the spec: cid, sid, at, ipa, uas, nbf = iat = now, exp = iat + 10, iss = organisation id, aud = the constant', async () => {
    const token = await createSsoRequestToken(requestInput);
    expect(decodeJwt(token)).toEqual({
      cid: CLIENT_ID,
      sid: 'session-1',
      at: 'ticket-for-request-0001',
      ipa: '203.0.113.7',
      uas: 'Mozilla/5.0 (X11; Linux x86_64)',
      nbf: T,
      iat: T,
      exp: T + 10,
      iss: ORG,
      aud: AUDIENCE,
    });
  });

  it('exp = iat + 10 and nbf = iat with the current time when no clock is given', async () => {
    const { now: _ignored, ...input } = requestInput;
    const before = Math.floor(Date.now() / 1000);
    const claims = decodeJwt(await createSsoRequestToken(input));
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.nbf).toBe(claims.iat);
    expect(claims.exp).toBe((claims.iat ?? 0) + 10);
  });

  it('is signed with the client secret (HS256 verifies with it)', async () => {
    const token = await createSsoRequestToken(requestInput);
    const { payload } = await jwtVerify(token, KEY, {
      algorithms: ['HS256'],
      issuer: ORG,
      audience: AUDIENCE,
      currentDate: NOW,
    });
    expect(payload.cid).toBe(CLIENT_ID);
  });

  it('refuses a client secret shorter than 32 bytes (RFC 7518 3.2) without naming the secret', async () => {
    const short = 'x'.repeat(31);
    const error = await createSsoRequestToken({ ...requestInput, clientSecret: short }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignOnConfigurationError);
    expect((error as Error).message).toMatch(/32 bytes.*RFC 7518/);
    expect((error as Error).message).not.toContain(short);
  });

  it('counts the secret in bytes: 16 two-byte characters (32 bytes) are enough, 31 ASCII bytes are not', async () => {
    await expect(createSsoRequestToken({ ...requestInput, clientSecret: '\u00e9'.repeat(16) })).resolves.toBeTypeOf(
      'string',
    );
    await expect(createSsoRequestToken({ ...requestInput, clientSecret: new Uint8Array(31) })).rejects.toBeInstanceOf(
      SignOnConfigurationError,
    );
    await expect(createSsoRequestToken({ ...requestInput, clientSecret: new Uint8Array(32) })).resolves.toBeTypeOf(
      'string',
    );
  });

  it("takes bytes of another realm (jsdom's TextEncoder), and signs with them as with this realm's", async () => {
    const foreign = runInNewContext('new Uint8Array(key)', { key: KEY }) as Uint8Array;
    expect(foreign).not.toBeInstanceOf(Uint8Array);
    const token = await createSsoRequestToken({ ...requestInput, clientSecret: foreign });
    await expect(jwtVerify(token, KEY, { currentDate: NOW })).resolves.toBeDefined();
    const short = runInNewContext('new Uint8Array(31)') as Uint8Array;
    await expect(createSsoRequestToken({ ...requestInput, clientSecret: short })).rejects.toBeInstanceOf(
      SignOnConfigurationError,
    );
  });

  it("signs with a string secret when the global TextEncoder is another realm's (a jsdom environment)", async () => {
    // A TextEncoder whose arrays are another realm's Uint8Array, as jsdom's window gives.
    vi.stubGlobal('TextEncoder', foreignTextEncoder());
    vi.resetModules();
    try {
      const fresh = await import('../../src/sign-on/index.js');
      const token = await fresh.createSsoRequestToken({ ...requestInput, clientSecret: SECRET });
      await expect(jwtVerify(token, KEY, { currentDate: NOW })).resolves.toBeDefined();
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });

  it.each([
    ['userAgent', { userAgent: '' }],
    ['ipAddress', { ipAddress: '' }],
    ['sessionId', { sessionId: '' }],
    ['ticket', { ticket: '' }],
  ])('refuses an empty %s claim, naming the field', async (field, patch) => {
    const error = await createSsoRequestToken({ ...requestInput, ...patch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignOnValidationError);
    expect((error as SignOnValidationError).field).toBe(field);
    expect((error as Error).message).not.toContain(requestInput.ticket);
  });

  it.each(['clientId', 'organisationId', 'audience'] as const)('refuses an empty %s as configuration', async (key) => {
    await expect(createSsoRequestToken({ ...requestInput, [key]: '' })).rejects.toBeInstanceOf(
      SignOnConfigurationError,
    );
  });
});

describe('endpoint 21 session token (verifySsoSessionToken)', () => {
  it('accepts a session token signed HS256 for this client by the SSO service and returns its claims', async () => {
    const claims = await verifySsoSessionToken(await sign(sessionClaims()), verifyOptions);
    expect(claims).toMatchObject({ sts: 'loggedin', aid: '5f1e2d3c4b5a69788796a5b4', at: FRESH_TICKET, err: null });
  });

  it('refuses alg "none" (an unsigned token crafted by hand), RFC 8725 3.1', async () => {
    const header = base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }));
    const payload = base64url.encode(JSON.stringify(sessionClaims()));
    await expectRefused(`${header}.${payload}.`, 'algorithm');
  });

  it.each(['HS384', 'HS512'])('refuses an %s token even though it is signed with the right secret', async (alg) => {
    const key = new TextEncoder().encode(SECRET.repeat(2)); // long enough for HS512 too
    await expectRefused(await sign(sessionClaims(), alg, key), 'algorithm', { clientSecret: key });
  });

  it('refuses a token signed with another secret', async () => {
    const other = new TextEncoder().encode('another-secret-that-is-32-bytes-long!!');
    await expectRefused(await sign(sessionClaims(), 'HS256', other), 'signature');
  });

  it('refuses a tampered signature', async () => {
    const token = await sign(sessionClaims());
    const [h, p, s = ''] = token.split('.');
    const flipped = s.slice(0, 10) + (s[10] === 'A' ? 'B' : 'A') + s.slice(11);
    await expectRefused(`${h}.${p}.${flipped}`, 'signature');
  });

  it('refuses a tampered payload (another account id under the original signature)', async () => {
    const token = await sign(sessionClaims());
    const [h, , s] = token.split('.');
    const forged = base64url.encode(JSON.stringify(sessionClaims({ aid: 'ffffffffffffffffffffffff' })));
    await expectRefused(`${h}.${forged}.${s}`, 'signature');
  });

  it('refuses a token issued for another client (wrong aud)', async () => {
    await expectRefused(await sign(sessionClaims({ aud: 'other-client' })), 'audience');
  });

  it('refuses an aud array, even one that names this client', async () => {
    await expectRefused(await sign(sessionClaims({ aud: [CLIENT_ID, 'other-client'] })), 'claims');
  });

  it('refuses a token from another issuer (wrong iss)', async () => {
    await expectRefused(await sign(sessionClaims({ iss: 'someone-else' })), 'issuer');
  });

  it('refuses an expired token (exp passed beyond the 5 s tolerance)', async () => {
    const token = await sign(sessionClaims());
    await expectRefused(token, 'expired', { now: new Date((T + 16) * 1000) });
  });

  it('accepts a token within the clock tolerance after exp, and refuses it with a tolerance of 0', async () => {
    const token = await sign(sessionClaims());
    const late = new Date((T + 14) * 1000);
    await expect(verifySsoSessionToken(token, { ...verifyOptions, now: late })).resolves.toBeDefined();
    await expectRefused(token, 'expired', { now: late, clockToleranceSeconds: 0 });
  });

  it('refuses a token whose iat is older than 10 s plus tolerance even if its exp is far away', async () => {
    const token = await sign(sessionClaims({ iat: T - 30, nbf: T - 30, exp: T + 3600 }));
    await expectRefused(token, 'expired');
  });

  it('refuses a future-dated token (nbf and iat beyond the tolerance)', async () => {
    const token = await sign(sessionClaims({ nbf: T + 20, iat: T + 20, exp: T + 30 }));
    const error = await expectRefused(token, 'not_yet_valid');
    expect(error.claim).toBe('nbf');
  });

  it('refuses a token with iat in the future beyond the tolerance', async () => {
    const token = await sign(sessionClaims({ iat: T + 20, exp: T + 30 }));
    const error = await expectRefused(token, 'not_yet_valid');
    expect(error.claim).toBe('iat');
  });

  it('accepts a token dated slightly in the future, within the tolerance', async () => {
    const token = await sign(sessionClaims({ nbf: T + 4, iat: T + 4, exp: T + 14 }));
    await expect(verifySsoSessionToken(token, verifyOptions)).resolves.toBeDefined();
  });

  it('refuses a request token replayed as a session token (distinct token types, RFC 8725 3.11)', async () => {
    const requestToken = await createSsoRequestToken(requestInput);
    const error = await verifySsoSessionToken(requestToken, verifyOptions).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SsoTokenError);
    expect(['claims', 'issuer', 'audience']).toContain((error as SsoTokenError).reason);
  });

  it('refuses a token with every session claim but the request direction of iss/aud (swapped)', async () => {
    await expectRefused(await sign(sessionClaims({ iss: ORG, aud: AUDIENCE })), 'issuer');
  });

  it.each([
    'sts',
    'sid',
    'aid',
    'at',
    'err',
    'exp',
    'iat',
    'iss',
    'aud',
    'ems',
    'frf',
    'raa',
    'slm',
    'otp',
    'ses',
    'nbf',
  ])('refuses a token without the %s claim', async (claim) => {
    const error = await expectRefused(await sign(without(sessionClaims(), claim)), 'claims');
    expect(error.claim).toBe(claim);
  });

  it.each([
    ['err', 42],
    ['frf', 'never'],
    ['sts', null],
    ['exp', 'later'],
  ])('refuses a token whose %s claim has the wrong type', async (claim, value) => {
    await expectRefused(await sign(sessionClaims({ [claim]: value })), 'claims');
  });

  it.each(['not-a-jwt', '', 'a.b', 'a.b.c.d', '!!!.???.***'])('refuses a malformed token %j', async (token) => {
    await expectRefused(token, 'malformed');
  });

  it('refuses a token for another session when the session id is given', async () => {
    await expectRefused(await sign(sessionClaims({ sid: 'session-2' })), 'session', { sessionId: 'session-1' });
  });

  it('refuses a short secret on verification too', async () => {
    const token = await sign(sessionClaims());
    await expect(verifySsoSessionToken(token, { ...verifyOptions, clientSecret: 'short' })).rejects.toBeInstanceOf(
      SignOnConfigurationError,
    );
  });
});

describe('toAuthenticateResult', () => {
  it('err null: loggedin with the account id, the session id and the new ticket', async () => {
    const claims = await verifySsoSessionToken(await sign(sessionClaims()), verifyOptions);
    expect(toAuthenticateResult(claims)).toEqual({
      status: 'loggedin',
      accountId: '5f1e2d3c4b5a69788796a5b4',
      sessionId: 'session-1',
      ticket: FRESH_TICKET,
      claims,
    });
  });

  it.each(['invalid_ticket', 'session_terminated', 'session_already_logged_in_on_another_account', 'account_frozen'])(
    'err %s: an error result with the code, the message and the session state',
    async (err) => {
      const token = await sign(sessionClaims({ sts: 'anon', aid: '', at: '', err, ems: 'refused' }));
      const result = toAuthenticateResult(await verifySsoSessionToken(token, verifyOptions));
      expect(result).toMatchObject({ status: 'error', error: err, message: 'refused', sessionState: 'anon' });
    },
  );

  it('refuses a contradictory token: no error but not a logged-in session with an account', async () => {
    const claims = await verifySsoSessionToken(await sign(sessionClaims({ sts: 'anon', aid: '' })), verifyOptions);
    expect(() => toAuthenticateResult(claims)).toThrow(SsoTokenError);
  });
});
