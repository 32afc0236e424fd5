/**
 * The SSO service's sessions (spec: States and transitions, SSO session), in one place: every
 * operation (identify, createsession, sessionstatus, authenticate, authenticatewithticket, logout,
 * the admin tools) goes through these functions.
 *
 *   anon --(authenticate, authenticatewithticket)--> loggedin --(logout)--> terminated
 *   anon --(logout)--> terminated
 *
 * A terminated session stays terminated. Sessions belong to an organisation (the one of the client
 * they were created for): a client of another organisation never finds them.
 */
import type { OffsetClock } from './clock.js';
import type { ClientRecord, SsoSessionRecord } from './document.js';
import { HttpError } from './errors.js';
import { newSecret } from './ids.js';
import type { Store } from './store.js';
import type { CreateSsoSessionOptions, SsoSessions } from './types.js';

/** Creates an `anon` session for `clientId` (or for no client: the admin tools' sessions). */
export function createSsoSession(store: Store, clock: OffsetClock, clientId?: string): SsoSessionRecord {
  if (clientId !== undefined && !store.clients.has(clientId))
    throw new HttpError(404, 'not_found', 'No such client', 'client_id');
  const session: SsoSessionRecord = {
    // 192 random bits: a session id is as good as a password to whoever holds it.
    sid: newSecret(24),
    state: 'anon',
    account_id: null,
    client_id: clientId ?? null,
    created_at: clock.now().toISOString(),
    timeline: [],
  };
  store.ssoSessions.add(session);
  return session;
}

/** The organisation a session belongs to: its client's; undefined for a session made without one. */
function organisationOf(store: Store, session: SsoSessionRecord): string | undefined {
  return session.client_id === null ? undefined : store.clients.get(session.client_id)?.organisation_id.toLowerCase();
}

/**
 * The session `sid` as `client` may see it: undefined when there is none, or when it belongs to
 * another organisation. A session made without a client (by the admin tools) is adopted by the
 * first client that uses it.
 */
export function findSsoSession(store: Store, sid: string, client: ClientRecord): SsoSessionRecord | undefined {
  const session = store.ssoSessions.get(sid);
  if (!session) return undefined;
  const org = organisationOf(store, session);
  if (org !== undefined && org !== client.organisation_id.toLowerCase()) return undefined;
  if (session.client_id === null) session.client_id = client.client_id;
  return session;
}

/** Records an operation in the session's timeline. */
export function recordSsoEvent(
  session: SsoSessionRecord,
  clock: OffsetClock,
  operation: string,
  outcome: string,
  claims: { ipa?: string; uas?: string },
): void {
  session.timeline.push({
    at: clock.now().toISOString(),
    operation,
    outcome,
    ip_address: claims.ipa ?? '',
    user_agent: claims.uas ?? '',
  });
}

/** The logged-in sessions of an account, across its organisation's clients. */
export function loggedInSessions(store: Store, accountId: string): SsoSessionRecord[] {
  const id = accountId.toLowerCase();
  return store.ssoSessions.rows.filter((s) => s.state === 'loggedin' && s.account_id?.toLowerCase() === id);
}

/** `anon` or `loggedin` (the same account again) to `loggedin`. The caller has checked the transition is allowed. */
export function logInSsoSession(session: SsoSessionRecord, accountId: string): void {
  if (session.state === 'terminated') throw new Error('a terminated SSO session cannot log in');
  session.state = 'loggedin';
  session.account_id = accountId;
}

/** Terminates `session` and, when it is logged in, every other session of the same account. Answers how many ended. */
export function logOutSsoSession(store: Store, session: SsoSessionRecord): number {
  const others =
    session.account_id === null || session.state !== 'loggedin' ? [] : loggedInSessions(store, session.account_id);
  let ended = 0;
  for (const s of new Set([session, ...others])) {
    if (s.state === 'terminated') continue;
    s.state = 'terminated';
    ended++;
  }
  return ended;
}

/** The session `sid`, or 404 `not_found` naming `sid`. */
export function ssoSessionOrThrow(store: Store, sid: string): SsoSessionRecord {
  const session = store.ssoSessions.get(sid);
  if (!session) throw new HttpError(404, 'not_found', 'No such SSO session', 'sid');
  return session;
}

/** The in-process SSO tools of a platform. */
export function createSsoSessions(store: Store, clock: OffsetClock): SsoSessions {
  return {
    createSession(options: CreateSsoSessionOptions = {}): string {
      return createSsoSession(store, clock, options.clientId).sid;
    },
    terminate(sid: string): void {
      ssoSessionOrThrow(store, sid).state = 'terminated';
    },
    session(sid: string): SsoSessionRecord | undefined {
      const session = store.ssoSessions.get(sid);
      return session && structuredClone(session);
    },
  };
}
