/**
 * The SSO service's sessions (spec: States and transitions, SSO session), in one place: every
 * operation (identify, createsession, sessionstatus, authenticate, authenticatewithticket, logout,
 * the admin tools) creates, finds and moves sessions only through these functions, and no other
 * module writes a session's `state` or `account_id`.
 *
 *   anon --(authenticate, authenticatewithticket: logInSsoSession)--> loggedin
 *   loggedin --(the same, same account: a verification)--> loggedin
 *   anon, loggedin --(logout: logOutSsoSession, every session of the account)--> terminated
 *   anon, loggedin --(the admin tools: terminateSsoSession, this session)--> terminated
 *
 * A terminated session stays terminated. Sessions belong to an organisation (the one of the client
 * they were created for): a client of another organisation never finds them.
 *
 * Password log-ins (the SSO service's authenticate and the shop's login form alike) are counted here
 * too: wrong passwords in a row per organisation and e-mail address, and the freeze they lead to
 * ({@link checkCredentials}).
 */
import {
  SsoAuthenticateClaims,
  SsoCreateSessionClaims,
  SsoIdentifyClaims,
  SsoLogoutClaims,
  SsoRequestClaims,
  SsoSessionStatusClaims,
} from '../../src/schemas/sign-on.js';
import type { OffsetClock } from './clock.js';
import type { AccountRecord, ClientRecord, OrganisationRecord, SsoSessionRecord } from './document.js';
import { HttpError } from './errors.js';
import {
  keepWrongPasswordCount,
  makeRoomForSsoSession,
  SSO_TIMELINE_ENTRIES,
  SSO_TIMELINE_TEXT,
  ssoSessionOver,
} from './eviction.js';
import { idKey, newSecret, sameId } from './ids.js';
import type { PlatformSettings } from './options.js';
import { NO_PASSWORD, verifyPassword } from './passwords.js';
import type { State } from './state.js';
import { isActiveAccount } from './tickets.js';
import type { CreateSsoSessionOptions, SsoSessions } from './types.js';

/**
 * The claims each operation's request token must carry, by the operation's path: what the routes
 * verify, the OpenAPI document's `x-sso-claims` and docs/sso-protocol.md show.
 */
export const ssoRequestClaims = {
  '/authenticatewithticket': SsoRequestClaims,
  '/identify': SsoIdentifyClaims,
  '/createsession': SsoCreateSessionClaims,
  '/sessionstatus': SsoSessionStatusClaims,
  '/authenticate': SsoAuthenticateClaims,
  '/logout': SsoLogoutClaims,
} as const;

/** Clock skew allowed on a request token's `exp`, `nbf` and `iat`, in seconds. */
export const SSO_CLOCK_TOLERANCE_SECONDS = 5;

/**
 * The SSO audience constant in force: the platform's `ssoAudience` option (`--sso-audience`), when
 * it was given one, overrides the document's `sso_audience` (the state document's, or the demo
 * guide's). The SSO service checks and signs with it, and the admin API and state file report it.
 */
export function ssoAudienceOf(
  settings: Pick<PlatformSettings, 'ssoAudience'>,
  document: { readonly sso_audience: string },
): string {
  return settings.ssoAudience ?? document.sso_audience;
}

/**
 * Creates an `anon` session for `clientId` (or for no client: the admin tools' sessions); a few
 * sessions that have ended, and the oldest over the cap, make room for it first.
 */
export function createSsoSession(state: State, clock: OffsetClock, clientId?: string): SsoSessionRecord {
  if (clientId !== undefined && !state.clients.has(clientId))
    throw new HttpError(404, 'not_found', 'No such client', 'client_id');
  makeRoomForSsoSession(state, clock.nowMs());
  const session: SsoSessionRecord = {
    // 192 random bits: a session id is as good as a password to whoever holds it.
    sid: newSecret(24),
    state: 'anon',
    account_id: null,
    client_id: clientId ?? null,
    created_at: clock.now().toISOString(),
    timeline: [],
  };
  state.ssoSessions.add(session);
  return session;
}

/** The organisation a session belongs to: its client's; undefined for a session made without one. */
function organisationOf(state: State, session: SsoSessionRecord): string | undefined {
  return session.client_id === null ? undefined : state.clients.get(session.client_id)?.organisation_id;
}

/**
 * The session `sid` as `client` may see it: undefined when there is none, when it has ended (its
 * lifetime, or its idle time, is over: `mock/core/eviction.ts`), or when it belongs to another
 * organisation. A session made without a client (by the admin tools) is adopted by the first
 * client that uses it. A logged-in session whose account is no longer active is terminated here.
 */
export function findSsoSession(
  state: State,
  clock: OffsetClock,
  sid: string,
  client: ClientRecord,
): SsoSessionRecord | undefined {
  const session = state.ssoSessions.get(sid);
  if (!session || ssoSessionOver(state.retention, session, clock.nowMs())) return undefined;
  const org = organisationOf(state, session);
  if (org !== undefined && !sameId(org, client.organisation_id)) return undefined;
  if (session.client_id === null) session.client_id = client.client_id;
  // An account whose log-in was disabled (or removed) since gets no tickets: its sessions end, as
  // its log-out would end them, and are answered `terminated` from then on.
  if (session.state === 'loggedin' && session.account_id !== null) {
    const account = state.accounts.get(session.account_id);
    if (!account || !isActiveAccount(account)) logOutSsoSession(state, clock, session);
  }
  return session;
}

/**
 * Why {@link findSsoSession} found no session `sid` for `client`, for the journal: none by that
 * `sid` (or one that has ended), or another organisation's (the caller is told neither:
 * `session_not_found` either way).
 */
export function missingSsoSession(state: State, clock: OffsetClock, sid: string): { check: string; detail: string } {
  const session = state.ssoSessions.get(sid);
  if (!session) return { check: 'session', detail: 'no session by that sid' };
  if (ssoSessionOver(state.retention, session, clock.nowMs()))
    return { check: 'session', detail: 'the session has ended (its lifetime or idle time is over)' };
  return { check: 'organisation', detail: 'the session sid belongs to another organisation' };
}

/**
 * Records an operation in the session's timeline: its latest {@link SSO_TIMELINE_ENTRIES} entries
 * are kept, each with at most the first characters of the IP address and user agent
 * ({@link SSO_TIMELINE_TEXT}), so that no client can make one session large.
 */
export function recordSsoEvent(
  session: SsoSessionRecord,
  clock: OffsetClock,
  operation: string,
  outcome: string,
  claims: { ipa?: string; uas: string },
): void {
  const timeline = session.timeline;
  timeline.push({
    at: clock.now().toISOString(),
    operation,
    outcome,
    ip_address: (claims.ipa ?? '').slice(0, SSO_TIMELINE_TEXT.ip),
    user_agent: claims.uas.slice(0, SSO_TIMELINE_TEXT.userAgent),
  });
  // A count of 0 or less (a timeline within the cap) deletes nothing.
  timeline.splice(0, timeline.length - SSO_TIMELINE_ENTRIES);
}

/** The logged-in sessions of an account, across its organisation's clients (ended ones aside). */
function loggedInSessions(state: State, clock: OffsetClock, accountId: string): SsoSessionRecord[] {
  const now = clock.nowMs();
  return state.ssoSessions.rows.filter(
    (s) =>
      s.state === 'loggedin' &&
      s.account_id !== null &&
      sameId(s.account_id, accountId) &&
      !ssoSessionOver(state.retention, s, now),
  );
}

/** Why a session may not log in, as the SSO service's `err` says it. */
export type SsoLogInRefusalCode =
  | 'session_terminated'
  | 'session_already_logged_in_on_another_account'
  | 'session_limit_reached';

/** A refused log-in: the `err` code and the `ems` message to answer. */
export interface SsoLogInRefusal {
  readonly err: SsoLogInRefusalCode;
  readonly ems: string;
}

/** The limits a log-in is held to (the platform's `login` option). */
export interface SsoSessionLimits {
  /** Logged-in sessions one account may hold at once, across its organisation's sites and apps. */
  readonly maxSessionsPerAccount: number;
}

/**
 * The most logged-in sessions one account of `organisation` may hold (`slm` of every session
 * token): the organisation's `max_sessions_per_account`, else the platform's
 * `login.maxSessionsPerAccount` (docs/assumptions.md).
 */
export function sessionLimit(limits: SsoSessionLimits, organisation: OrganisationRecord | undefined): number {
  return organisation?.max_sessions_per_account ?? limits.maxSessionsPerAccount;
}

/**
 * The guards of `anon`/`loggedin` --> `loggedin`, in the order the SSO service answers them: a
 * terminated session never logs in again; a session logged in on another account must log out
 * first; an account at its limit of logged-in sessions gets no new one (logging the same session
 * in again does not count). Without `accountId` (before the credentials are checked) only the first
 * guard applies. Undefined when the log-in may go ahead.
 */
export function logInRefusal(
  state: State,
  clock: OffsetClock,
  session: SsoSessionRecord,
  accountId: string | undefined,
  limits: SsoSessionLimits,
): SsoLogInRefusal | undefined {
  if (session.state === 'terminated') return { err: 'session_terminated', ems: 'The session is terminated' };
  if (accountId === undefined) return undefined;
  if (session.state === 'loggedin') {
    if (session.account_id !== null && sameId(session.account_id, accountId)) return undefined;
    return {
      err: 'session_already_logged_in_on_another_account',
      ems: 'The session is logged in on another account: log out first',
    };
  }
  const account = state.accounts.get(accountId);
  const organisation = account ? state.organisation(account.organisation_id) : undefined;
  if (loggedInSessions(state, clock, accountId).length >= sessionLimit(limits, organisation))
    return { err: 'session_limit_reached', ems: 'The account has its maximum of logged-in sessions' };
  return undefined;
}

/** The outcome of {@link logInSsoSession}. */
export type SsoLogInOutcome =
  | {
      readonly ok: true /** The session was logged in on this account already (a verification). */;
      readonly verification: boolean;
    }
  | ({ readonly ok: false } & SsoLogInRefusal);

/**
 * `anon` --> `loggedin`, or `loggedin` --> `loggedin` on the same account (a verification): the
 * only way a session logs in. Checks every guard ({@link logInRefusal}) and changes nothing when
 * one refuses.
 */
export function logInSsoSession(
  state: State,
  clock: OffsetClock,
  session: SsoSessionRecord,
  accountId: string,
  limits: SsoSessionLimits,
): SsoLogInOutcome {
  const refusal = logInRefusal(state, clock, session, accountId, limits);
  if (refusal) return { ok: false, ...refusal };
  const verification = session.state === 'loggedin';
  session.state = 'loggedin';
  session.account_id = accountId;
  return { ok: true, verification };
}

/**
 * `anon` or `loggedin` --> `terminated` for this one session (the account, if any, is kept for the
 * record). Answers whether it changed: a terminated session stays as it is.
 */
function terminateSsoSession(session: SsoSessionRecord): boolean {
  if (session.state === 'terminated') return false;
  session.state = 'terminated';
  return true;
}

/** Terminates `session` and, when it is logged in, every other session of the same account. Answers how many ended. */
export function logOutSsoSession(state: State, clock: OffsetClock, session: SsoSessionRecord): number {
  const others =
    session.account_id === null || session.state !== 'loggedin'
      ? []
      : loggedInSessions(state, clock, session.account_id);
  let ended = 0;
  for (const s of new Set([session, ...others])) if (terminateSsoSession(s)) ended++;
  return ended;
}

/** The limits a password log-in is held to (the platform's `login` option). */
export interface PasswordLimits {
  /** Wrong passwords in a row before the address freezes. */
  readonly maxFailedAttempts: number;
  /** How long a frozen address stays frozen, in seconds of the platform clock. */
  readonly freezeSeconds: number;
}

/** What checking an e-mail address and a password comes to. */
export type CredentialCheck =
  | { readonly ok: true; readonly account: AccountRecord }
  | {
      readonly ok: false;
      readonly err: 'account_frozen' | 'invalid_credentials' | 'account_not_active';
      readonly ems: string;
      /** Seconds until a frozen address thaws (`account_frozen`). */
      readonly frozenForSeconds?: number;
      /** Wrong passwords left before the address freezes (`invalid_credentials`). */
      readonly attemptsLeft?: number;
      /** Which it was, for the journal only (the answer does not tell an unknown address from a wrong password). */
      readonly why: string;
    };

const WRONG_CREDENTIALS = 'Wrong e-mail address or password';

/** The key of an e-mail address's wrong-password count: per organisation, letter case aside. */
function failuresKey(organisationId: string, email: string): string {
  return `${idKey(organisationId)}\n${email.toLowerCase()}`;
}

/**
 * Seconds until a frozen address thaws, on the platform clock; 0 or less when it is not frozen (a
 * thaw time that has passed, or none, counts below 1).
 */
function frozenFor(state: State, clock: OffsetClock, key: string): number {
  const entry = state.loginFailures.get(key);
  return entry ? Math.ceil((entry.frozenUntilMs - clock.nowMs()) / 1000) : 0;
}

/** Counts a wrong password (the first after a freeze starts a new count); answers the attempts left. */
function countFailure(state: State, clock: OffsetClock, limits: PasswordLimits, key: string): number {
  const entry = state.loginFailures.get(key) ?? { failures: 0, frozenUntilMs: 0 };
  entry.failures = entry.frozenUntilMs > 0 ? 1 : entry.failures + 1;
  entry.frozenUntilMs = 0;
  const left = Math.max(0, limits.maxFailedAttempts - entry.failures);
  if (left === 0) entry.frozenUntilMs = clock.nowMs() + limits.freezeSeconds * 1000;
  keepWrongPasswordCount(state, key, entry, clock.nowMs());
  return left;
}

/**
 * Runs `check` once every check of the same key started before it has ended: one password check
 * per e-mail address at a time, so that checks sent in parallel are counted, and frozen, as if sent
 * one after another. The first runs at once, in the caller's synchronous step.
 */
function oneAtATime<T>(checks: Map<string, Promise<void>>, key: string, check: () => Promise<T>): Promise<T> {
  const previous = checks.get(key);
  const result = previous ? previous.then(check) : check();
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  checks.set(key, settled);
  void settled.then(() => {
    if (checks.get(key) === settled) checks.delete(key);
  });
  return result;
}

/**
 * Checks an e-mail address and password of an organisation, for every password login (the SSO
 * service's authenticate and the shop's login form share the count and the freeze), in the SSO
 * service's order: a frozen address is refused before the password is looked at (so it is no
 * password oracle); an unknown address costs a hash check and counts as a wrong password too (the
 * answer does not tell which it was); the wrong password that leaves no attempt freezes the address
 * for `freezeSeconds`; a right one clears the count, and then the account must be active. The hash
 * is checked off the event loop, one check per address at a time.
 */
export function checkCredentials(
  state: State,
  clock: OffsetClock,
  limits: PasswordLimits,
  organisationId: string,
  email: string,
  password: string,
): Promise<CredentialCheck> {
  const key = failuresKey(organisationId, email);
  return oneAtATime(state.passwordChecks, key, async (): Promise<CredentialCheck> => {
    const frozen = frozenFor(state, clock, key);
    if (frozen > 0)
      return {
        ok: false,
        err: 'account_frozen',
        ems: 'Too many wrong passwords: try again later',
        frozenForSeconds: frozen,
        why: `the address is frozen for ${frozen} s more`,
      };
    const generation = state.generation;
    const account = state.accountByEmail(organisationId, email);
    const hash = account?.password_hash;
    const right = (await verifyPassword(password, hash ?? NO_PASSWORD)) && hash !== undefined;
    // A state loaded meanwhile (reset, restore) has its own accounts and counts: this check is not one of its.
    if (state.generation !== generation)
      return {
        ok: false,
        err: 'invalid_credentials',
        ems: WRONG_CREDENTIALS,
        why: 'the state was replaced while the password was checked',
      };
    if (!account || !right) {
      const attemptsLeft = countFailure(state, clock, limits, key);
      return {
        ok: false,
        err: 'invalid_credentials',
        ems: WRONG_CREDENTIALS,
        attemptsLeft,
        why: !account
          ? 'no account of the organisation with that e-mail address'
          : hash === undefined
            ? 'the account has no password'
            : 'wrong password',
      };
    }
    state.loginFailures.delete(key);
    if (!isActiveAccount(account))
      return {
        ok: false,
        err: 'account_not_active',
        ems: 'This account cannot log in',
        why: `the account is ${account.status}`,
      };
    return { ok: true, account };
  });
}

/** The session `sid` unless it has ended (as endpoint 21 finds none: `session_not_found`); undefined else. */
function liveSsoSession(state: State, clock: OffsetClock, sid: string): SsoSessionRecord | undefined {
  const session = state.ssoSessions.get(sid);
  return session && !ssoSessionOver(state.retention, session, clock.nowMs()) ? session : undefined;
}

/**
 * The session `sid` for the test tools, or 404 `not_found` naming `sid`: for an unknown one, and
 * for one that has ended (its idle time or lifetime is over), which the SSO service no longer finds.
 */
export function ssoSessionOrThrow(state: State, clock: OffsetClock, sid: string): SsoSessionRecord {
  const session = liveSsoSession(state, clock, sid);
  if (session) return session;
  if (state.ssoSessions.get(sid))
    throw new HttpError(
      404,
      'not_found',
      'The SSO session has ended (no operation on it for a day, or 30 days old)',
      'sid',
    );
  throw new HttpError(404, 'not_found', 'No such SSO session', 'sid');
}

/** The in-process SSO tools of a platform. */
export function createSsoSessions(state: State, clock: OffsetClock): SsoSessions {
  return {
    createSession(options: CreateSsoSessionOptions = {}): string {
      return createSsoSession(state, clock, options.clientId).sid;
    },
    terminate(sid: string): void {
      terminateSsoSession(ssoSessionOrThrow(state, clock, sid));
    },
    session(sid: string): SsoSessionRecord | undefined {
      const session = liveSsoSession(state, clock, sid);
      return session && structuredClone(session);
    },
  };
}
