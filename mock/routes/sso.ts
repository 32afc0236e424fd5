/**
 * Endpoint 21, `POST {sso_url}/authenticatewithticket`: a site's server turns an SSO session
 * logged in with a ticket. The request token is verified strictly (RFC 8725): HS256 only, the
 * client's secret, `aud` = the SSO audience constant, `iss` = the client's organisation, every
 * claim present, a lifetime of at most 10 s, nothing dated in the future, all on the platform
 * clock. The answer is always a signed session token `{ t }`, errors included (the platform's public documentation).
 */
import { decodeJwt, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import { authenticateWithTicket } from '../../src/endpoints.js';
import { SsoRequestClaims } from '../../src/schemas/sign-on.js';
import { SSO_TOKEN_LIFETIME_SECONDS } from '../../src/sign-on/sso-token.js';
import type { ClientRecord, SsoSessionRecord } from '../core/document.js';
import { HttpError } from '../core/errors.js';
import { apiRoute, type Route } from '../core/route.js';
import { issueTicket, judgeTicket, useTicket } from '../core/tickets.js';

/** Clock skew allowed on a request token's `exp`, `nbf` and `iat`, in seconds. */
export const SSO_CLOCK_TOLERANCE_SECONDS = 5;

const REQUIRED_CLAIMS = ['cid', 'sid', 'at', 'ipa', 'uas', 'nbf', 'exp', 'iat', 'iss', 'aud'];
const encoder = new TextEncoder();

/** What a session token reports. */
interface Outcome {
  sts: SsoSessionRecord['state'];
  sid: string;
  aid: string;
  at: string;
  err: string | null;
  ems: string;
}

/** 400 with the common error body: no session token can be signed without a known client. */
function invalidRequestToken(message: string): HttpError {
  return new HttpError(400, 'invalid_request_token', message, 't');
}

/** Signs a session token for `client` (HS256, its secret): `iss` = the audience constant, `aud` = the client. */
async function sessionToken(client: ClientRecord, audience: string, nowSeconds: number, o: Outcome) {
  return new SignJWT({ ...o, frf: -1, raa: -1, slm: 0, otp: '', ses: null })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(nowSeconds)
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + SSO_TOKEN_LIFETIME_SECONDS)
    .setIssuer(audience)
    .setAudience(client.client_id)
    .sign(encoder.encode(client.client_secret));
}

/** Verifies a request token; answers its claims, or undefined for any failure. */
async function verifyRequest(token: string, client: ClientRecord, audience: string, now: Date) {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, encoder.encode(client.client_secret), {
      algorithms: ['HS256'],
      typ: 'JWT',
      audience,
      issuer: client.organisation_id,
      requiredClaims: REQUIRED_CLAIMS,
      maxTokenAge: SSO_TOKEN_LIFETIME_SECONDS,
      clockTolerance: SSO_CLOCK_TOLERANCE_SECONDS,
      currentDate: now,
    }));
  } catch {
    return undefined;
  }
  const parsed = SsoRequestClaims.safeParse(payload);
  if (!parsed.success) return undefined;
  const c = parsed.data;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (c.cid !== client.client_id) return undefined;
  if (c.exp - c.iat > SSO_TOKEN_LIFETIME_SECONDS || c.exp <= c.iat) return undefined;
  if (c.iat > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS || c.nbf > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS)
    return undefined;
  return c;
}

const authenticate = apiRoute(authenticateWithTicket, async ({ input, state, clock, settings }) => {
  const audience = settings.ssoAudience ?? state.doc.sso_audience;
  let unverified: JWTPayload;
  try {
    // Read unverified only to find the client whose secret verifies the token.
    unverified = decodeJwt(input.t);
  } catch {
    throw invalidRequestToken('The request token is not a JWT');
  }
  const client = typeof unverified.cid === 'string' ? state.clients.get(unverified.cid) : undefined;
  if (!client) throw invalidRequestToken('The request token names no known client (cid)');

  const claims = await verifyRequest(input.t, client, audience, clock.now());
  // Everything from here to the signing runs in one synchronous step: two racing requests with one
  // ticket cannot both consume it.
  const nowSeconds = Math.floor(clock.nowMs() / 1000);
  const reply = async (o: Outcome) => ({ body: { t: await sessionToken(client, audience, nowSeconds, o) } });
  if (!claims) {
    // Not judged: the ticket stays usable; nothing is recorded on the strength of an unverified token.
    // Nor is the session looked up: the answer reveals nothing of it (the sid is echoed as sent).
    const sid = typeof unverified.sid === 'string' ? unverified.sid : '';
    return reply({
      sts: 'anon',
      sid,
      aid: '',
      at: '',
      err: 'invalid_request_token',
      ems: 'The request token does not verify',
    });
  }
  const session = state.ssoSessions.get(claims.sid);
  const owner = session?.client_id == null ? undefined : state.clients.get(session.client_id);
  if (!session || (owner && owner.organisation_id.toLowerCase() !== client.organisation_id.toLowerCase()))
    return reply({ sts: 'anon', sid: claims.sid, aid: '', at: '', err: 'session_not_found', ems: 'No such session' });

  const record = (outcome: string) =>
    session.timeline.push({
      at: clock.now().toISOString(),
      operation: 'authenticatewithticket',
      outcome,
      ip_address: claims.ipa,
      user_agent: claims.uas,
    });
  const refuse = (err: string, ems: string) => {
    record(err);
    return reply({ sts: session.state, sid: session.sid, aid: '', at: '', err, ems });
  };

  if (session.state === 'terminated') return refuse('session_terminated', 'The session is terminated');
  const judged = judgeTicket(state, clock, claims.at, client.client_id);
  if (!judged.ok) return refuse('invalid_ticket', 'The ticket is invalid or expired');
  const accountId = judged.account.id;
  if (session.state === 'loggedin' && session.account_id?.toLowerCase() !== accountId.toLowerCase())
    return refuse(
      'session_already_logged_in_on_another_account',
      'The session is logged in on another account than the ticket',
    );
  const verification = session.state === 'loggedin';
  useTicket(judged.ticket, clock);
  session.state = 'loggedin';
  session.account_id = accountId;
  if (session.client_id === null) session.client_id = client.client_id;
  record(verification ? 'verified' : 'loggedin');
  const next = issueTicket(state, clock, {
    accountId,
    clientId: client.client_id,
    lifetimeSeconds: settings.ticketLifetimeSeconds,
  });
  return reply({ sts: 'loggedin', sid: session.sid, aid: accountId, at: next.ticket, err: null, ems: '' });
});

/** The routes of this file. */
export const ssoRoutes: readonly Route[] = [authenticate];
