/**
 * The SSO service: endpoint 21 (`POST {sso_url}/authenticatewithticket`) and, beyond the spec as
 * the platform's public documentation and clients show them, identify (a browser redirect),
 * createsession, sessionstatus, authenticate and logout.
 *
 * Every request token is verified strictly (RFC 8725): HS256 only, the calling client's secret,
 * `aud` = the SSO audience constant, `iss` = the client's organisation, `cid` a client of it, every
 * claim present, a lifetime of at most 10 s (identify: 60 s), nothing dated in the future, all on
 * the platform clock. Once the client is known, every answer is a signed session token `{ t }`,
 * errors included (public clients decode every answer as one). The tokens are signed and verified
 * in `mock/core/sso-tokens.ts`; sessions move only through `mock/core/sso.ts`.
 */
import type * as z from 'zod';
import {
  authenticateWithTicket,
  ssoAuthenticate,
  ssoCreateSession,
  ssoIdentify,
  ssoLogout,
  ssoSessionStatus,
} from '../../src/endpoints.js';
import type { KnownSsoSessionErrorCode } from '../../src/schemas/sign-on.js';
import { SSO_IDENTIFY_LIFETIME_SECONDS, SSO_TOKEN_LIFETIME_SECONDS } from '../../src/sign-on/sso-token.js';
import { cookieOf } from '../core/cookies.js';
import type { ClientRecord, SsoSessionRecord } from '../core/document.js';
import { HttpError, stateReplaced } from '../core/errors.js';
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
  ssoRequestClaims,
} from '../core/sso.js';
import {
  type RequestClaims,
  requestTokenClient,
  requestTokenExpectations,
  type SessionTokenReport,
  sessionToken,
  shown,
  verifyRequest,
} from '../core/sso-tokens.js';
import { issueTicket, judgeTicket, TICKET_REFUSALS, useTicket } from '../core/tickets.js';

/** The browser's SSO session cookie, on the SSO host. */
const SSO_SESSION_COOKIE = 'sso_session';

/** What a session token reports, and why when `err` is set. */
interface Outcome extends SessionTokenReport {
  /** Why, when `err` is set, for the journal (by default: `err` and `ems`). */
  refusal?: Refusal;
}

/** The pieces every `{ t }` operation shares: the client, its verified claims (or why not), and the answer. */
async function operation<S extends z.ZodType<RequestClaims>>(ctx: RouteContext<{ t: string }>, schema: S) {
  const { client, unverified } = requestTokenClient(ctx.state, ctx.input.t);
  const expected = requestTokenExpectations(ctx, client, SSO_TOKEN_LIFETIME_SECONDS);
  const generation = ctx.state.generation;
  const verified = await verifyRequest(ctx.input.t, expected, schema);
  // Verified while the state was loaded anew (reset, restore): its clients and sessions are another state's.
  if (ctx.state.generation !== generation) throw stateReplaced('the request token was being verified');
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
    // What this use issues (the log-in, not a verification; the ticket answered) is revoked should the ticket come again.
    useTicket(presented.ticket, clock, outcome.verification ? {} : { ssoSession: session.sid });
    recordSsoEvent(session, clock, 'authenticatewithticket', outcome.verification ? 'verified' : 'loggedin', claims);
    const answered = ticketFor(ctx, accountId, client);
    presented.ticket.issued_ticket = answered;
    return reply({ sts: 'loggedin', sid: session.sid, aid: accountId, at: answered });
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
  let found: ReturnType<typeof requestTokenClient>;
  try {
    found = requestTokenClient(state, input.t);
  } catch (error) {
    return identifyRefused('This sign-in link is not valid.', error instanceof HttpError ? error.refusal : undefined);
  }
  const { client } = found;
  const expected = requestTokenExpectations(ctx, client, SSO_IDENTIFY_LIFETIME_SECONDS);
  const generation = state.generation;
  const verified = await verifyRequest(input.t, expected, ssoRequestClaims['/identify']);
  // Checked while the state was loaded anew (reset, restore): the link is another state's.
  if (state.generation !== generation)
    return {
      ...identifyRefused('The SSO service was reset while this sign-in link was checked: follow the link again.', {
        check: 'state',
        detail: 'the state was reset or replaced while the request token was verified',
      }),
      status: 409,
    };
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
