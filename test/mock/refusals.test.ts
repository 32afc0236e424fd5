/**
 * Why a request was refused: the wire answer stays the platform's (one `invalid_request_token`
 * for every bad SSO request token, one `invalid_client` for an unknown client and a wrong secret),
 * but the journal entry's `refusal` and the standalone server's request log say which check failed,
 * never with a secret.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createPlatform, type JournalEntry, type Platform, type StateDocument } from '../../mock/index.js';
import { type RequestLogLine, type RunningServer, startServer } from '../../mock/node/index.js';
import { until } from '../until.js';
import {
  DEMO_SSO_AUDIENCE,
  demoCredentials,
  demoIds,
  demoShop,
  demoSite,
  demoUsers,
  expectUnchanged,
  type Harness,
  paths,
  useAdapter,
} from './harness.js';

const encoder = new TextEncoder();

/** The journal entry of an answer, by its correlation id. */
function entryOf(platform: Platform, answer: { headers: Headers }): JournalEntry {
  const id = answer.headers.get('x-correlation-id');
  const entry = platform.requests.list().find((e) => e.correlation_id === id);
  if (!entry) throw new Error(`no journal entry for ${id}`);
  return entry;
}

/** A createsession request token of the demo site, with a fault a test asks for. */
async function createSessionToken(
  h: Harness,
  o: { claims?: Record<string, unknown>; omit?: string[]; alg?: string; typ?: string; secret?: string } = {},
): Promise<string> {
  const now = Math.floor(h.platform.clock.now().getTime() / 1000);
  const claims: Record<string, unknown> = {
    cid: demoSite.clientId,
    ipa: '203.0.113.7',
    uas: 'refusal-test',
    apn: 'app',
    apv: '1.0',
    osn: 'os',
    osv: '1',
    nbf: now,
    iat: now,
    exp: now + 10,
    iss: demoSite.organisationId,
    aud: DEMO_SSO_AUDIENCE,
    ...o.claims,
  };
  for (const k of o.omit ?? []) delete claims[k];
  return new SignJWT(claims)
    .setProtectedHeader({ alg: o.alg ?? 'HS256', typ: o.typ ?? 'JWT' })
    .sign(encoder.encode(o.secret ?? demoSite.clientSecret));
}

describe('SSO request tokens: the answer is one invalid_request_token, the journal says which check failed', () => {
  const h = useAdapter('msw');
  const now = () => Math.floor(h.platform.clock.now().getTime() / 1000);

  /**
   * A request to the SSO service at `path` with these claims beside the usual ones, signed as the
   * demo site unless `as` names another client; answers the answer.
   */
  async function sso(
    path: string,
    claims: Record<string, unknown>,
    as = {
      client_id: demoSite.clientId,
      client_secret: demoSite.clientSecret,
      organisation_id: demoSite.organisationId,
    },
  ) {
    const iat = now();
    const t = await new SignJWT({
      cid: as.client_id,
      ipa: '203.0.113.7',
      uas: 'refusal-test',
      ...claims,
      nbf: iat,
      iat,
      exp: iat + 10,
      iss: as.organisation_id,
      aud: DEMO_SSO_AUDIENCE,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .sign(encoder.encode(as.client_secret));
    return h.call(path, { json: { t }, host: 'sso' });
  }

  const cases: [string, string, () => Promise<string>, RegExp][] = [
    [
      'a wrong signature',
      'signature',
      () => createSessionToken(h, { secret: 'another-secret-0123456789abcdef0123456789' }),
      /does not verify with the secret of client "demo-site"/,
    ],
    ['alg HS512', 'alg', () => createSessionToken(h, { alg: 'HS512' }), /alg is "HS512", expected "HS256"/],
    ['typ missing', 'typ', () => createSessionToken(h, { typ: 'jwt+x' }), /typ is "jwt\+x", expected "JWT"/],
    [
      'another aud',
      'aud',
      () => createSessionToken(h, { claims: { aud: 'pw-sso' } }),
      new RegExp(`aud is "pw-sso", expected "${DEMO_SSO_AUDIENCE.replaceAll('.', '\\.')}"`),
    ],
    [
      'another organisation as iss',
      'iss',
      () => createSessionToken(h, { claims: { iss: demoIds.organisations.complex } }),
      new RegExp(`iss is "${demoIds.organisations.complex}", expected .*"${demoSite.organisationId}"`),
    ],
    [
      'exp an hour out',
      'exp',
      () => createSessionToken(h, { claims: { iat: now() - 3600, nbf: now() - 3600, exp: now() - 3590 } }),
      /exp \d+ \(.*\) is not after the platform clock .* \(leeway 5 s\)/,
    ],
    [
      'nbf in the future',
      'nbf',
      () => createSessionToken(h, { claims: { nbf: now() + 60, iat: now(), exp: now() + 10 } }),
      /nbf \d+ .* is after the platform clock/,
    ],
    [
      'iat in the future',
      'iat',
      () => createSessionToken(h, { claims: { iat: now() + 60, nbf: now(), exp: now() + 65 } }),
      /iat \d+ .* is in the future of the platform clock/,
    ],
    ['a lifetime of 11 s', 'exp', () => createSessionToken(h, { claims: { exp: now() + 11 } }), /at most 10 s/],
    ['a missing claim (apn)', 'claim', () => createSessionToken(h, { omit: ['apn'] }), /^claim apn is missing$/],
    ['a missing JWT claim (iat)', 'claim', () => createSessionToken(h, { omit: ['iat'] }), /^claim iat is missing$/],
    [
      'a malformed claim (apv a number)',
      'claim',
      () => createSessionToken(h, { claims: { apv: 7 } }),
      /^claim apv is malformed/,
    ],
  ];

  test.each(cases)('%s: check %s', async (_, check, token, detail) => {
    const answer = await expectUnchanged(h.platform, async () =>
      h.call(paths.ssoCreateSession, { json: { t: await token() }, host: 'sso' }),
    );
    expect(answer.status).toBe(200);
    const entry = entryOf(h.platform, answer);
    expect(entry.refusal?.check).toBe(check);
    expect(entry.refusal?.detail).toMatch(detail);
  });

  test('an unknown client (cid): 400 invalid_request_token, the journal gives its length, not the cid (a secret sent in its place)', async () => {
    const t = await createSessionToken(h, { claims: { cid: 'no-such-client' } });
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.ssoCreateSession, { json: { t }, host: 'sso' }),
    );
    expect(answer.status).toBe(400);
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'client',
      detail: 'cid is no client of the platform (14 characters, not shown)',
    });
    // The site's secret as cid (its variables swapped): nowhere in the journal's refusals.
    const swapped = await createSessionToken(h, { claims: { cid: demoSite.clientSecret } });
    const refused = await h.call(paths.ssoCreateSession, { json: { t: swapped }, host: 'sso' });
    expect(entryOf(h.platform, refused).refusal).toEqual({
      check: 'client',
      detail: `cid is no client of the platform (${demoSite.clientSecret.length} characters, not shown)`,
    });
    expect(JSON.stringify(h.platform.requests.list().map((e) => e.refusal))).not.toContain(demoSite.clientSecret);
    const numbered = await createSessionToken(h, { claims: { cid: 42 } });
    const answered = await h.call(paths.ssoCreateSession, { json: { t: numbered }, host: 'sso' });
    expect(entryOf(h.platform, answered).refusal).toEqual({
      check: 'client',
      detail: 'cid is no client of the platform (a number, not shown)',
    });
  });

  test("another organisation's session: session_not_found on the wire, 'organisation' in the journal", async () => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const complex = h.platform.snapshot().clients.find((c) => c.organisation_id === demoIds.organisations.complex)!;
    const answer = await expectUnchanged(h.platform, () => sso(paths.ssoLogout, { sid }, complex));
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'organisation',
      detail: 'the session sid belongs to another organisation',
    });
    expect(JSON.stringify(entryOf(h.platform, answer).refusal)).not.toContain(sid);
  });

  test('a wrong password: invalid_credentials on the wire, which it was in the journal, never the password', async () => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    const answer = await sso(paths.ssoAuthenticate, { sid, usr: demoUsers.anna.email, pwd: 'not-the-password' });
    const entry = entryOf(h.platform, answer);
    expect(entry.refusal).toEqual({ check: 'credentials', detail: 'wrong password' });
    expect(JSON.stringify(entry)).not.toContain('not-the-password');
  });

  /**
   * Authenticates on session `sid` and answers the journal entry's refusal; the state is as it was
   * but for the attempt recorded in the session's timeline.
   */
  async function credentialsRefusal(sid: string, usr: string, pwd: string) {
    const trimmed = (doc: StateDocument) => ({
      ...doc,
      sso_sessions: doc.sso_sessions.map((s) => (s.sid === sid ? { ...s, timeline: [] } : s)),
    });
    const before = h.platform.snapshot();
    const answer = await sso(paths.ssoAuthenticate, { sid, usr, pwd });
    const after = h.platform.snapshot();
    expect(trimmed(after)).toEqual(trimmed(before));
    expect(after.sso_sessions.find((s) => s.sid === sid)?.timeline).toHaveLength(
      (before.sso_sessions.find((s) => s.sid === sid)?.timeline.length ?? 0) + 1,
    );
    return entryOf(h.platform, answer).refusal;
  }

  test("no session by that sid: session_not_found on the wire, 'session' in the journal", async () => {
    const answer = await expectUnchanged(h.platform, () => sso(paths.ssoLogout, { sid: 'no-such-session' }));
    expect(entryOf(h.platform, answer).refusal).toEqual({ check: 'session', detail: 'no session by that sid' });
  });

  test("a session whose idle time is over: session_not_found on the wire, 'session' in the journal says it has ended", async () => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    h.platform.clock.advance(86_400);
    const answer = await expectUnchanged(h.platform, () => sso(paths.ssoLogout, { sid }));
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'session',
      detail: 'the session has ended (its lifetime or idle time is over)',
    });
    // Ended, the session is absent to the test tools too; the state keeps it until it is swept.
    expect(h.platform.sso.session(sid)).toBeUndefined();
    expect(h.platform.snapshot().sso_sessions.find((s) => s.sid === sid)?.state).toBe('anon');
  });

  test('the journal says which credentials check refused: an unknown address, an account with no password, an account that is not active, a frozen address', async () => {
    const sid = h.platform.sso.createSession({ clientId: demoSite.clientId });
    expect(await credentialsRefusal(sid, 'nobody@example.com', 'whatever')).toEqual({
      check: 'credentials',
      detail: 'no account of the organisation with that e-mail address',
    });
    expect(await credentialsRefusal(sid, demoUsers.carl.email, demoUsers.carl.password)).toEqual({
      check: 'credentials',
      detail: 'the account is inactive',
    });
    const doc = h.platform.snapshot();
    h.platform.restore({
      ...doc,
      accounts: doc.accounts.map((account) => {
        if (account.id !== demoUsers.bo.id) return account;
        const { password_hash: _, ...withoutPassword } = account;
        return withoutPassword;
      }),
    });
    expect(await credentialsRefusal(sid, demoUsers.bo.email, demoUsers.bo.password)).toEqual({
      check: 'credentials',
      detail: 'the account has no password',
    });
    h.platform.clock.freeze();
    for (let i = 0; i < 5; i++) await credentialsRefusal(sid, demoUsers.anna.email, `wrong-${i}`);
    h.platform.clock.advance(100);
    expect(await credentialsRefusal(sid, demoUsers.anna.email, demoUsers.anna.password)).toEqual({
      check: 'credentials',
      detail: 'the address is frozen for 200 s more',
    });
  });

  test('an accepted request token leaves no refusal', async () => {
    const answer = await h.call(paths.ssoCreateSession, { json: { t: await createSessionToken(h) }, host: 'sso' });
    expect(entryOf(h.platform, answer).refusal).toBeNull();
  });
});

describe('token grants, scopes and organisations', () => {
  const h = useAdapter('msw');
  const grant = (form: Record<string, string>) =>
    expectUnchanged(h.platform, () => h.call(paths.accessToken, { form, host: 'auth' }));

  test('an unknown client and a wrong secret are one 401 invalid_client; the journal tells them apart, never the secret', async () => {
    const unknown = await grant({ grant_type: 'none', client_id: 'nobody', client_secret: 'secret-one' });
    const wrong = await grant({ grant_type: 'none', client_id: demoCredentials.clientId, client_secret: 'secret-two' });
    expect([unknown.status, wrong.status]).toEqual([401, 401]);
    expect(unknown.body).toMatchObject({ code: 'invalid_client' });
    expect(wrong.body).toMatchObject({
      code: 'invalid_client',
      message: (unknown.body as { message: string }).message,
    });
    expect(entryOf(h.platform, unknown).refusal).toEqual({
      check: 'client',
      detail: 'client_id is no client of the platform (6 characters, not shown)',
    });
    expect(entryOf(h.platform, wrong).refusal).toEqual({
      check: 'client_secret',
      detail: 'the client_secret is not that of client "demo-client"',
    });
    expect(JSON.stringify(h.platform.requests.list().map((e) => e.refusal))).not.toMatch(/secret-(one|two)/);
  });

  test('a client secret sent as client_id (the two swapped): the journal gives its length, never the secret', async () => {
    const secret = demoCredentials.clientSecret;
    const swapped = await grant({ grant_type: 'none', client_id: secret, client_secret: demoCredentials.clientId });
    expect(swapped.status).toBe(401);
    expect(entryOf(h.platform, swapped).refusal).toEqual({
      check: 'client',
      detail: `client_id is no client of the platform (${secret.length} characters, not shown)`,
    });
    expect(JSON.stringify(h.platform.requests.list().map((e) => e.refusal))).not.toContain(secret);
  });

  test('a missing scope: 403 insufficient_scope, the journal names the scope and what the token has', async () => {
    const token = h.token(['/external/price/w']);
    const answer = await h.call(paths.getProducts, { token });
    expect(answer.status).toBe(403);
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'scope',
      detail: 'the token lacks /external/product/r (it has: /external/price/w)',
    });
  });

  test("a ticket for another organisation's client: 400 invalid_parameter, 'organisation' in the journal", async () => {
    const token = h.token(['/api/authorization/ticket']);
    const complex = h.platform.snapshot().clients.find((c) => c.organisation_id === demoIds.organisations.complex)!;
    const answer = await expectUnchanged(h.platform, () =>
      h.call(paths.generateTicket, {
        json: { accountId: demoUsers.anna.id, clientId: complex.client_id },
        token,
        host: 'auth',
      }),
    );
    expect(answer.status).toBe(400);
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'organisation',
      detail: 'clientId: the client belongs to another organisation',
    });
    const other = await h.call(paths.generateTicket, {
      json: { accountId: demoUsers.dora.id, clientId: demoShop.clientId },
      token,
      host: 'auth',
    });
    expect(entryOf(h.platform, other).refusal?.check).toBe('organisation');
  });

  test('any other error answer: its code and message, field first', async () => {
    const answer = await h.call(paths.getProducts, { token: h.token(), query: { id: 'x' } });
    expect(entryOf(h.platform, answer).refusal).toEqual({
      check: 'invalid_parameter',
      detail: expect.stringMatching(/^id: Parameter/),
    });
  });
});

describe("the standalone server's request log says why a request was refused", () => {
  const lines: RequestLogLine[] = [];
  let server: RunningServer;
  const platform = createPlatform();
  beforeAll(async () => {
    server = await startServer({ platform, port: 0, onRequest: (line) => lines.push(line) });
  });
  afterAll(() => server.close());

  test('a refused grant: the line carries the refusal; an accepted request none', async () => {
    const refused = await fetch(`${server.url}${paths.accessToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'none', client_id: 'nobody', client_secret: 'hush-hush' }),
    });
    const ok = await fetch(`${server.url}/openapi.json`);
    await Promise.all([refused.text(), ok.text()]);
    // The log line is written when the answer is finished: wait for both, by correlation id.
    const idOf = (r: Response) => r.headers.get('x-correlation-id');
    await expect
      .poll(() => lines.filter((l) => [idOf(refused), idOf(ok)].includes(l.correlationId ?? '')).length)
      .toBe(2);
    const line = lines.find((l) => l.correlationId === idOf(refused))!;
    expect(line.refusal).toEqual({
      check: 'client',
      detail: 'client_id is no client of the platform (6 characters, not shown)',
    });
    expect(JSON.stringify(line)).not.toContain('hush-hush');
    expect(lines.find((l) => l.correlationId === idOf(ok))!.refusal).toBeUndefined();
  });

  test('a client secret sent as client_id (the two swapped): the line gives its length, never the secret', async () => {
    const secret = '0f3a9c1e5b7d2f4a6c8e0b1d3f5a7c9e';
    const refused = await fetch(`${server.url}${paths.accessToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'none', client_id: secret, client_secret: 'my-client' }),
    });
    await refused.text();
    const id = refused.headers.get('x-correlation-id');
    const line = await until(() => {
      const found = lines.find((l) => l.correlationId === id);
      expect(found).toBeDefined();
      return found!;
    });
    expect(line.refusal).toEqual({
      check: 'client',
      detail: 'client_id is no client of the platform (32 characters, not shown)',
    });
    expect(JSON.stringify(line)).not.toContain(secret);
    // The journal's entry says the same (the request's body, as sent, is the journal's to show).
    expect(entryOf(platform, refused).refusal).toEqual(line.refusal);
  });
});
