/**
 * The SSO service: endpoint 21 (`POST {sso_url}/authenticatewithticket`) and, beyond the spec as
 * the platform's public documentation and clients show them, identify (a browser redirect),
 * createsession, sessionstatus, authenticate and logout.
 *
 * Every request token is verified strictly (RFC 8725): HS256 only, the calling client's secret,
 * `aud` = the SSO audience constant, `iss` = the client's organisation, `cid` a client of it, every
 * claim present, a lifetime of at most 10 s (identify: 60 s), nothing dated in the future, all on
 * the platform clock. Once the client is known, every answer is a signed session token `{ t }`,
 * errors included (public clients decode every answer as one). Sessions move only through
 * `mock/core/sso.ts`.
 */
import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type * as z from 'zod';
import {
  authenticateWithTicket,
  ssoAuthenticate,
  ssoCreateSession,
  ssoIdentify,
  ssoLogout,
  ssoSessionStatus,
} from '../../src/endpoints.js';
import { fieldOf, primaryIssue } from '../../src/schemas/common.js';
import type { KnownSsoSessionErrorCode, SsoSessionClaims } from '../../src/schemas/sign-on.js';
import { SSO_IDENTIFY_LIFETIME_SECONDS, SSO_TOKEN_LIFETIME_SECONDS } from '../../src/sign-on/sso-token.js';
import { cookieOf } from '../core/cookies.js';
import type { ClientRecord, SsoSessionRecord } from '../core/document.js';
import { HttpError, refusedBecause } from '../core/errors.js';
import { html } from '../core/html.js';
import type { Refusal } from '../core/refusal.js';
import { apiRoute, type Route, type RouteContext, type RouteResult } from '../core/route.js';
import {
  checkCredentials,
  createSsoSession,
  findSsoSession,
  logInRefusal,
  logInSsoSession,
  logOutSsoSession,
  missingSsoSession,
  recordSsoEvent,
  SSO_CLOCK_TOLERANCE_SECONDS,
  sessionLimit,
  ssoAudienceOf,
  ssoRequestClaims,
} from '../core/sso.js';
import type { State } from '../core/state.js';
import { issueTicket, judgeTicket, TICKET_REFUSALS, useTicket } from '../core/tickets.js';

/** The browser's SSO session cookie, on the SSO host. */
const SSO_SESSION_COOKIE = 'sso_session';

const encoder = new TextEncoder();

/**
 * A client secret as HS256 key bytes, in this realm's `Uint8Array`: jose takes no other, and a test
 * environment's `TextEncoder` (jest's jsdom, whose globals are another realm's) gives another's.
 */
function secretKey(secret: string): Uint8Array {
  const bytes = encoder.encode(secret);
  return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
}

/** What a session token reports. */
interface Outcome {
  sts: SsoSessionRecord['state'];
  sid: string;
  aid?: string;
  at?: string;
  err?: KnownSsoSessionErrorCode | null;
  ems?: string;
  /** Seconds until a frozen account thaws; -1 when not frozen. */
  frf?: number;
  /** Password attempts remaining before the account freezes; -1 when not counted. */
  raa?: number;
  /** Why, when `err` is set, for the journal (by default: `err` and `ems`). */
  refusal?: Refusal;
}

/** 400 with the common error body: no session token can be signed without a known client. */
function invalidRequestToken(message: string, check: string, detail: string): HttpError {
  return refusedBecause(new HttpError(400, 'invalid_request_token', message, 't'), check, detail);
}

/** A claim's value as the journal shows it: JSON, cut short (never a secret: only `alg`, `typ`, `aud`, `iss`, `cid`). */
function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** An epoch claim as the journal shows it: the number and its date. */
function instant(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return shown(value);
  const ms = value * 1000;
  return Math.abs(ms) <= 8.64e15 ? `${value} (${new Date(ms).toISOString()})` : String(value);
}

/** The SSO audience constant in force. */
function audienceOf(ctx: RouteContext): string {
  return ssoAudienceOf(ctx.settings, ctx.state.document);
}

/** Signs a session token for `client` (HS256, its secret): `iss` = the audience constant, `aud` = the client. */
async function sessionToken(ctx: RouteContext, client: ClientRecord, o: Outcome) {
  const audience = audienceOf(ctx);
  const nowSeconds = Math.floor(ctx.clock.nowMs() / 1000);
  const claims = {
    sts: o.sts,
    sid: o.sid,
    aid: o.aid ?? '',
    at: o.at ?? '',
    err: o.err ?? null,
    ems: o.ems ?? '',
    frf: o.frf ?? -1,
    raa: o.raa ?? -1,
    slm: sessionLimit(ctx.settings.login, ctx.state.organisation(client.organisation_id)),
    otp: '',
    ses: null,
  } satisfies Omit<SsoSessionClaims, 'nbf' | 'iat' | 'exp' | 'iss' | 'aud'>;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(nowSeconds)
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + SSO_TOKEN_LIFETIME_SECONDS)
    .setIssuer(audience)
    .setAudience(client.client_id)
    .sign(secretKey(client.client_secret));
}

/** The client a request token names (read unverified, only to find whose secret verifies it). */
function clientOf(state: State, token: string): { client: ClientRecord; unverified: JWTPayload } {
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw invalidRequestToken('The request token is not a JWT', 'token', 'the request token is not a JWT');
  }
  const { cid } = unverified;
  const client = typeof cid === 'string' ? state.clients.get(cid) : undefined;
  if (!client)
    throw invalidRequestToken(
      'The request token names no known client (cid)',
      cid === undefined ? 'claim' : 'client',
      cid === undefined ? 'claim cid is missing' : `cid ${shown(cid)} is no client of the platform`,
    );
  return { client, unverified };
}

/** What every request token carries: the client and its lifetime. */
type RequestClaims = { cid: string; iat: number; nbf: number; exp: number };

/** A request token verified: its claims, or which check failed. */
type Verified<C> = { readonly ok: true; readonly claims: C } | { readonly ok: false; readonly refusal: Refusal };

/** What a request token is held to. */
interface Expected {
  readonly client: ClientRecord;
  readonly audience: string;
  readonly now: Date;
  readonly maxAgeSeconds: number;
}

/** Which check a jose verification failure is, in the journal's words, with the values it saw. */
function joseRefusal(error: unknown, token: string, x: Expected): Refusal {
  let header: Record<string, unknown> = {};
  let payload: JWTPayload = {};
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    // Whatever decodes is shown; the check is told by the error.
  }
  const clock = `the platform clock ${x.now.toISOString()} (leeway ${SSO_CLOCK_TOLERANCE_SECONDS} s)`;
  if (error instanceof errors.JOSEAlgNotAllowed)
    return { check: 'alg', detail: `alg is ${shown(header.alg)}, expected "HS256"` };
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return {
      check: 'signature',
      detail: `the signature does not verify with the secret of client ${shown(x.client.client_id)}`,
    };
  if (error instanceof errors.JWTExpired)
    return { check: 'exp', detail: `exp ${instant(payload.exp)} is not after ${clock}` };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const { claim, reason } = error;
    if (reason === 'missing') return { check: 'claim', detail: `claim ${claim} is missing` };
    if (claim === 'typ') return { check: 'typ', detail: `typ is ${shown(header.typ)}, expected "JWT"` };
    if (reason === 'invalid')
      return { check: 'claim', detail: `claim ${claim} is malformed: ${shown(payload[claim])}` };
    switch (claim) {
      case 'aud':
        return { check: 'aud', detail: `aud is ${shown(payload.aud)}, expected ${shown(x.audience)}` };
      case 'iss':
        return {
          check: 'iss',
          detail: `iss is ${shown(payload.iss)}, expected the organisation of client ${shown(x.client.client_id)}, ${shown(x.client.organisation_id)}`,
        };
      case 'nbf':
        return { check: 'nbf', detail: `nbf ${instant(payload.nbf)} is after ${clock}` };
      case 'iat':
        return {
          check: 'iat',
          detail:
            typeof payload.iat === 'number' && payload.iat * 1000 > x.now.getTime()
              ? `iat ${instant(payload.iat)} is in the future of ${clock}`
              : `iat ${instant(payload.iat)} is more than ${x.maxAgeSeconds} s before ${clock}`,
        };
    }
    return { check: claim, detail: error.message };
  }
  return { check: 'token', detail: 'the request token is not a valid JWS' };
}

/** Verifies a request token against `schema`: its claims, or which check failed. */
async function verifyRequest<S extends z.ZodType<RequestClaims>>(
  token: string,
  x: Expected,
  schema: S,
): Promise<Verified<z.output<S>>> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, secretKey(x.client.client_secret), {
      algorithms: ['HS256'],
      typ: 'JWT',
      audience: x.audience,
      issuer: x.client.organisation_id,
      requiredClaims: ['cid', 'nbf', 'exp', 'iat', 'iss', 'aud'],
      maxTokenAge: x.maxAgeSeconds,
      clockTolerance: SSO_CLOCK_TOLERANCE_SECONDS,
      currentDate: x.now,
    }));
  } catch (error) {
    return { ok: false, refusal: joseRefusal(error, token, x) };
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = primaryIssue(parsed.error.issues);
    const claim = issue ? fieldOf(issue.path) : '';
    const missing = issue !== undefined && payload[String(issue.path[0])] === undefined;
    return {
      ok: false,
      refusal: {
        check: 'claim',
        detail: missing ? `claim ${claim} is missing` : `claim ${claim} is malformed: ${issue?.message}`,
      },
    };
  }
  const c = parsed.data;
  const nowSeconds = Math.floor(x.now.getTime() / 1000);
  const refuse = (check: string, detail: string): Verified<z.output<S>> => ({ ok: false, refusal: { check, detail } });
  if (c.cid !== x.client.client_id) return refuse('cid', `cid ${shown(c.cid)} is not the client that signed`);
  if (c.exp <= c.iat) return refuse('exp', `exp ${instant(c.exp)} is not after iat ${instant(c.iat)}`);
  if (c.exp - c.iat > x.maxAgeSeconds)
    return refuse('exp', `exp is ${c.exp - c.iat} s after iat: a request token lives at most ${x.maxAgeSeconds} s`);
  const future = `in the future of the platform clock ${x.now.toISOString()} (leeway ${SSO_CLOCK_TOLERANCE_SECONDS} s)`;
  if (c.iat > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS) return refuse('iat', `iat ${instant(c.iat)} is ${future}`);
  if (c.nbf > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS) return refuse('nbf', `nbf ${instant(c.nbf)} is ${future}`);
  return { ok: true, claims: c };
}

/** The pieces every `{ t }` operation shares: the client, its verified claims (or why not), and the answer. */
async function operation<S extends z.ZodType<RequestClaims>>(ctx: RouteContext<{ t: string }>, schema: S) {
  const { client, unverified } = clientOf(ctx.state, ctx.input.t);
  const expected = {
    client,
    audience: audienceOf(ctx),
    now: ctx.clock.now(),
    maxAgeSeconds: SSO_TOKEN_LIFETIME_SECONDS,
  };
  const verified = await verifyRequest(ctx.input.t, expected, schema);
  const reply = async (o: Outcome): Promise<RouteResult<{ t: string }>> => {
    const body = { t: await sessionToken(ctx, client, o) };
    if (!o.err) return { body };
    return { body, refusal: o.refusal ?? { check: o.err, detail: o.ems ?? '' } };
  };
  /** A request token that does not verify: nothing is looked up, the `sid` is echoed as sent. */
  const unverifiable = (refusal: Refusal) =>
    reply({
      sts: 'anon',
      sid: typeof unverified.sid === 'string' ? unverified.sid : '',
      err: 'invalid_request_token',
      ems: 'The request token does not verify',
      refusal,
    });
  return { client, verified, reply, unverifiable };
}

/** What an operation on the session a request token names (`sid`) has at hand. */
interface SessionOperation<C> {
  readonly client: ClientRecord;
  readonly claims: C;
  readonly session: SsoSessionRecord;
  readonly reply: (o: Outcome) => Promise<RouteResult<{ t: string }>>;
}

/**
 * An operation on the session the request token names: a token that does not verify, and a `sid`
 * this client's organisation has no session by (`session_not_found`), are answered here; `operate`
 * runs with the session found, in the same synchronous step as the lookup.
 */
async function sessionOperation<S extends z.ZodType<RequestClaims & { sid: string }>>(
  ctx: RouteContext<{ t: string }>,
  schema: S,
  operate: (op: SessionOperation<z.output<S>>) => Promise<RouteResult<{ t: string }>>,
): Promise<RouteResult<{ t: string }>> {
  const { client, verified, reply, unverifiable } = await operation(ctx, schema);
  if (!verified.ok) return unverifiable(verified.refusal);
  const { claims } = verified;
  const session = findSsoSession(ctx.state, ctx.clock, claims.sid, client);
  if (!session)
    return reply({
      sts: 'anon',
      sid: claims.sid,
      err: 'session_not_found',
      ems: 'No such session',
      refusal: missingSsoSession(ctx.state, ctx.clock, claims.sid),
    });
  return operate({ client, claims, session, reply });
}

/** A fresh ticket for `client`, for the account of a logged-in session. */
function ticketFor(ctx: RouteContext, accountId: string, client: ClientRecord): string {
  return issueTicket(ctx.state, ctx.clock, {
    accountId,
    clientId: client.client_id,
    lifetimeSeconds: ctx.settings.ticketLifetimeSeconds,
  }).ticket;
}

// ------------------------------------------------------------------ 21. authenticatewithticket

// Everything from the session's lookup to the signing runs in one synchronous step: two racing
// requests with one ticket cannot both consume it. A token that does not verify leaves the ticket
// unjudged and usable, and nothing is recorded.
const authenticateWithTicketRoute = apiRoute(authenticateWithTicket, (ctx) =>
  sessionOperation(ctx, ssoRequestClaims['/authenticatewithticket'], ({ client, claims, session, reply }) => {
    const { state, clock } = ctx;
    const refuse = (err: KnownSsoSessionErrorCode, ems: string, refusal?: Refusal) => {
      recordSsoEvent(session, clock, 'authenticatewithticket', err, claims);
      return reply({ sts: session.state, sid: session.sid, err, ems, ...(refusal ? { refusal } : {}) });
    };
    const refusedBeforeTicket = logInRefusal(state, clock, session, undefined, ctx.settings.login);
    if (refusedBeforeTicket) return refuse(refusedBeforeTicket.err, refusedBeforeTicket.ems);
    const presented = judgeTicket(state, clock, claims.at, client.client_id);
    if (!presented.ok)
      return refuse('invalid_ticket', 'The ticket is invalid or expired', {
        check: 'ticket',
        detail: TICKET_REFUSALS[presented.reason],
      });
    const accountId = presented.account.id;
    // A refused log-in (another account, the session limit) leaves the ticket unused.
    const outcome = logInSsoSession(state, clock, session, accountId, ctx.settings.login);
    if (!outcome.ok) return refuse(outcome.err, outcome.ems);
    useTicket(presented.ticket, clock);
    recordSsoEvent(session, clock, 'authenticatewithticket', outcome.verification ? 'verified' : 'loggedin', claims);
    return reply({ sts: 'loggedin', sid: session.sid, aid: accountId, at: ticketFor(ctx, accountId, client) });
  }),
);

// ------------------------------------------------------------------ identify

/** The identify error page: a request token that fails verification never redirects anywhere. */
function identifyRefused(message: string, refusal: Refusal | undefined): RouteResult<string> {
  const text = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sign-in link refused</title></head>
<body><main><h1>Sign-in link refused</h1><p data-testid="error">${message}</p></main></body></html>
`;
  return {
    status: 400,
    text: text.value,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      'content-security-policy': "default-src 'none'",
    },
    ...(refusal ? { refusal } : {}),
  };
}

const identify = apiRoute(ssoIdentify, async (ctx) => {
  const { state, clock, input } = ctx;
  let found: ReturnType<typeof clientOf>;
  try {
    found = clientOf(state, input.t);
  } catch (error) {
    return identifyRefused('This sign-in link is not valid.', error instanceof HttpError ? error.refusal : undefined);
  }
  const { client } = found;
  const expected = {
    client,
    audience: audienceOf(ctx),
    now: clock.now(),
    maxAgeSeconds: SSO_IDENTIFY_LIFETIME_SECONDS,
  };
  const verified = await verifyRequest(input.t, expected, ssoRequestClaims['/identify']);
  if (!verified.ok) return identifyRefused('This sign-in link is not valid, or it has expired.', verified.refusal);
  if (client.landing_url === undefined)
    return identifyRefused('This site has no landing page registered with the SSO service.', {
      check: 'landing_url',
      detail: `client ${shown(client.client_id)} has no landing_url`,
    });
  // The browser's session on the SSO host, when it is one this organisation may use; else a new one.
  const sid = cookieOf(ctx.headers, SSO_SESSION_COOKIE);
  let session = sid === undefined ? undefined : findSsoSession(state, clock, sid, client);
  if (!session || session.state === 'terminated') session = createSsoSession(state, clock, client.client_id);
  recordSsoEvent(session, clock, 'identify', session.state, { uas: ctx.headers['user-agent'] ?? '' });
  const token = await sessionToken(ctx, client, {
    sts: session.state,
    sid: session.sid,
    ...(session.state === 'loggedin' && session.account_id !== null
      ? { aid: session.account_id, at: ticketFor(ctx, session.account_id, client) }
      : {}),
  });
  const landing = new URL(client.landing_url);
  landing.searchParams.set('t', token);
  landing.searchParams.set('r', input.r);
  const secure = ctx.url.protocol === 'https:' ? '; Secure' : '';
  return {
    status: 302,
    headers: {
      location: landing.href,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
      // Under the platform's base path: another namespace of the same server has sessions of its own.
      'set-cookie': `${SSO_SESSION_COOKIE}=${session.sid}; Path=${ctx.settings.basePath || '/'}; HttpOnly; SameSite=Lax${secure}`,
    },
  };
});

// ------------------------------------------------------------------ createsession

const createSession = apiRoute(ssoCreateSession, async (ctx) => {
  const { client, verified, reply, unverifiable } = await operation(ctx, ssoRequestClaims['/createsession']);
  if (!verified.ok) return unverifiable(verified.refusal);
  const session = createSsoSession(ctx.state, ctx.clock, client.client_id);
  recordSsoEvent(session, ctx.clock, 'createsession', 'anon', verified.claims);
  return reply({ sts: 'anon', sid: session.sid });
});

// ------------------------------------------------------------------ sessionstatus

const sessionStatus = apiRoute(ssoSessionStatus, (ctx) =>
  sessionOperation(ctx, ssoRequestClaims['/sessionstatus'], ({ client, claims, session, reply }) => {
    // A fresh ticket only when the site does not know yet that the session is logged in: it needs
    // one to read the user; a site that already knows gets none (tickets are credentials).
    const loggedIn = session.state === 'loggedin' && session.account_id !== null;
    const fresh = loggedIn && claims.lks !== 'loggedin';
    // A use, which keeps the session from ending as idle; not in the timeline, which it would flood.
    session.last_status_at = ctx.clock.now().toISOString();
    return reply({
      sts: session.state,
      sid: session.sid,
      ...(loggedIn ? { aid: session.account_id ?? '' } : {}),
      ...(fresh && session.account_id !== null ? { at: ticketFor(ctx, session.account_id, client) } : {}),
    });
  }),
);

// ------------------------------------------------------------------ authenticate

// The password is checked off the event loop: after it, the session is looked up again (a load or
// an eviction may have taken it meanwhile), and the log-in's guards are checked again.
const authenticate = apiRoute(ssoAuthenticate, (ctx) =>
  sessionOperation(ctx, ssoRequestClaims['/authenticate'], async ({ client, claims, session, reply }) => {
    const { state, clock, settings } = ctx;
    const refuse = (err: KnownSsoSessionErrorCode, ems: string, extra: Partial<Outcome> = {}) => {
      recordSsoEvent(session, clock, 'authenticate', err, claims);
      return reply({ sts: session.state, sid: session.sid, err, ems, ...extra });
    };
    const refusedBeforeCredentials = logInRefusal(state, clock, session, undefined, settings.login);
    if (refusedBeforeCredentials) return refuse(refusedBeforeCredentials.err, refusedBeforeCredentials.ems);
    const credentials = await checkCredentials(
      state,
      clock,
      settings.login,
      client.organisation_id,
      claims.usr,
      claims.pwd,
    );
    if (state.ssoSessions.get(session.sid) !== session)
      return reply({
        sts: 'anon',
        sid: claims.sid,
        err: 'session_not_found',
        ems: 'No such session',
        refusal: { check: 'session', detail: 'the session ended while the password was checked' },
      });
    if (!credentials.ok)
      return refuse(credentials.err, credentials.ems, {
        frf: credentials.frozenForSeconds,
        raa: credentials.attemptsLeft,
        refusal: { check: 'credentials', detail: credentials.why },
      });
    const { account } = credentials;
    const outcome = logInSsoSession(state, clock, session, account.id, settings.login);
    if (!outcome.ok) return refuse(outcome.err, outcome.ems);
    recordSsoEvent(session, clock, 'authenticate', 'loggedin', claims);
    return reply({ sts: 'loggedin', sid: session.sid, aid: account.id, at: ticketFor(ctx, account.id, client) });
  }),
);

// ------------------------------------------------------------------ logout

const logout = apiRoute(ssoLogout, (ctx) =>
  sessionOperation(ctx, ssoRequestClaims['/logout'], ({ claims, session, reply }) => {
    const ended = logOutSsoSession(ctx.state, ctx.clock, session);
    recordSsoEvent(session, ctx.clock, 'logout', `terminated ${ended}`, claims);
    return reply({ sts: 'terminated', sid: session.sid });
  }),
);

/** The routes of this file. */
export const ssoRoutes: readonly Route[] = [
  authenticateWithTicketRoute,
  identify,
  createSession,
  sessionStatus,
  authenticate,
  logout,
];
