/**
 * The example site's sessions: random ids in an HttpOnly, SameSite=Lax cookie, held in memory.
 */
import { randomBytes } from 'node:crypto';

/** The session cookie's name (the shop's is `shop_session`: cookies are per host, not per port). */
export const SESSION_COOKIE = 'site_session';

/** How long a session lasts, in seconds. */
const SESSION_SECONDS = 8 * 60 * 60;

/** A signed-in user's session. */
export interface Session {
  readonly id: string;
  /** The platform account id. */
  readonly accountId: string;
  readonly name: string;
  readonly email: string;
  /** How the user signed in: the site's password, or a ticket from the shop (and its mode). */
  readonly signedInBy: 'password' | 'ReturnUrl' | 'SeparateTicketAuth';
  /** SHA-256 (hex) of the ticket that opened the session, to end it if the ticket is replayed. */
  readonly ticketHash?: string;
  readonly expiresAt: number;
  /** Set when a ticket opened the session: the next ticketless `/return` goes on to `/`. */
  justReturned: boolean;
}

/** The sessions of one site process. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  /** How many sessions were ever opened (for tests: a refused replay opens none). */
  opened = 0;

  /** Opens a new session with a new random id. */
  open(fields: Omit<Session, 'id' | 'expiresAt' | 'justReturned'>, justReturned = false): Session {
    this.#sweep();
    const session: Session = {
      ...fields,
      id: randomBytes(32).toString('base64url'),
      expiresAt: Date.now() + SESSION_SECONDS * 1000,
      justReturned,
    };
    this.#sessions.set(session.id, session);
    this.opened++;
    return session;
  }

  /** The live session of a cookie header, if any. */
  fromCookie(cookieHeader: string | undefined): Session | undefined {
    const id = readCookie(cookieHeader, SESSION_COOKIE);
    const session = id === undefined ? undefined : this.#sessions.get(id);
    if (!session) return undefined;
    if (session.expiresAt <= Date.now()) {
      this.#sessions.delete(session.id);
      return undefined;
    }
    return session;
  }

  /** Ends a session. */
  end(id: string): void {
    this.#sessions.delete(id);
  }

  /** Ends every session opened with the ticket of this hash; answers how many. */
  endByTicketHash(ticketHash: string): number {
    let ended = 0;
    for (const [id, s] of this.#sessions) {
      if (s.ticketHash === ticketHash) {
        this.#sessions.delete(id);
        ended++;
      }
    }
    return ended;
  }

  /** How many sessions are live. */
  get size(): number {
    this.#sweep();
    return this.#sessions.size;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) if (s.expiresAt <= now) this.#sessions.delete(id);
  }
}

/** The Set-Cookie value for a session id (an empty id clears the cookie). */
export function sessionCookie(id: string, secure: boolean): string {
  const age = id === '' ? 0 : SESSION_SECONDS;
  return `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${age}${secure ? '; Secure' : ''}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
