/** The SSO service's sessions (spec: States and transitions, SSO session): creation and termination. */
import type { OffsetClock } from './clock.js';
import type { SsoSessionRecord } from './document.js';
import { HttpError } from './errors.js';
import { newSecret } from './ids.js';
import type { Store } from './store.js';
import type { CreateSsoSessionOptions, SsoSessions } from './types.js';

/** Creates an `Anon` session (the spec's create-session operation is not shown: a test tool stands in). */
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
