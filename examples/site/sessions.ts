/**
 * The example site's sessions: random ids in an HttpOnly, SameSite=Lax cookie, held in memory.
 *
 * A session starts with the visitor's first page, signed in or not: it remembers the browser's
 * SSO session (`sid`, from identify or the site's own `createSession`) and the status the site last
 * saw, and, once the user is signed in, who they are and their access token.
 */
import { randomBytes } from 'node:crypto';

/** The default session cookie's name (the shop's is `shop_session`: cookies are per host, not per port). */
export const SESSION_COOKIE = 'site_session';

/** How long a session lasts, in seconds. */
const SESSION_SECONDS = 8 * 60 * 60;

/** The user's access token (endpoint 23), for the calls made on their behalf. Never logged. */
export interface UserToken {
  accessToken: string;
  refreshToken?: string;
  /** When the access token expires (ms since the epoch). */
  expiresAt: number;
}

/** Who is signed in on a session. */
export interface SignedIn {
  /** The platform account id. */
  readonly accountId: string;
  readonly name: string;
  readonly email: string;
  /**
   * How the user signed in: with their password through the SSO service (`password`), by the
   * browser's SSO session logged in on another site (`sso`), or with a ticket from the shop (its mode).
   */
  readonly signedInBy: 'password' | 'sso' | 'ReturnUrl' | 'SeparateTicketAuth';
  /** SHA-256 (hex) of the shop's ticket that opened the session, to end it if the ticket is replayed. */
  readonly ticketHash?: string;
  /** The user's token; refreshed in place. */
  token: UserToken;
}

/** The browser's SSO session, as the site knows it. */
export interface SsoLink {
  /** The SSO session id (`sid`): as good as a password to whoever holds it, so never logged. */
  readonly sessionId: string;
  /** The status the site last saw (`lks` of the next status check). */
  lastKnown: 'anon' | 'loggedin';
}

/** A visitor's session. */
export interface Session {
  readonly id: string;
  /** The browser's SSO session; none for a session a shop ticket opened in a browser the site had not seen. */
  readonly sso: SsoLink | undefined;
  /** The signed-in user; none for an anonymous visitor. */
  readonly user: SignedIn | undefined;
  readonly expiresAt: number;
  /** Set when a ticket opened the session: the next ticketless `/return` goes on to `/`. */
  justReturned: boolean;
}

/** The sessions of one site process. */
export class SessionStore {
  readonly #sessions = new Map<string, Session>();
  readonly #cookieName: string;
  /** How many signed-in sessions were ever opened (for tests: a refused replay opens none). */
  signIns = 0;

  /** @param cookieName - the session cookie's name: two sites on one host name need two names */
  constructor(cookieName = SESSION_COOKIE) {
    this.#cookieName = cookieName;
  }

  /** Opens a new session with a new random id (a sign-in always gets a new id: no session fixation). */
  open(fields: { sso?: SsoLink | undefined; user?: SignedIn | undefined }, justReturned = false): Session {
    this.#sweep();
    const session: Session = {
      id: randomBytes(32).toString('base64url'),
      sso: fields.sso,
      user: fields.user,
      expiresAt: Date.now() + SESSION_SECONDS * 1000,
      justReturned,
    };
    this.#sessions.set(session.id, session);
    if (session.user) this.signIns++;
    return session;
  }

  /** The live session of a cookie header, if any. */
  fromCookie(cookieHeader: string | undefined): Session | undefined {
    const id = readCookie(cookieHeader, this.#cookieName);
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

  /** Ends every session opened with the ticket of this hash; answers them. */
  endByTicketHash(ticketHash: string): Session[] {
    const ended: Session[] = [];
    for (const [id, s] of this.#sessions) {
      if (s.user?.ticketHash === ticketHash) {
        this.#sessions.delete(id);
        ended.push(s);
      }
    }
    return ended;
  }

  /** How many sessions are live. */
  get size(): number {
    this.#sweep();
    return this.#sessions.size;
  }

  /** The Set-Cookie value for a session id (an empty id clears the cookie). */
  cookie(id: string, secure = false): string {
    const age = id === '' ? 0 : SESSION_SECONDS;
    return `${this.#cookieName}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${age}${secure ? '; Secure' : ''}`;
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, s] of this.#sessions) if (s.expiresAt <= now) this.#sessions.delete(id);
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
