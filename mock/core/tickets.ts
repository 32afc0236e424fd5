/**
 * Authorization tickets (spec: "Authorization ticket", Authentication 7; the platform's public documentation): 256 random bits,
 * single use, short-lived on the platform clock, bound to the destination client. Endpoint 22,
 * the ticket grant of endpoint 23, SSO (endpoint 21) and the shop all judge tickets here.
 */
import { expiryAfter, type OffsetClock } from './clock.js';
import type { AccountRecord, TicketRecord } from './document.js';
import { makeRoomForTicket } from './eviction.js';
import { newSecret } from './ids.js';
import type { State } from './state.js';
import { revokeFamily } from './tokens.js';

/** What a new ticket is for. */
export interface TicketFor {
  accountId: string;
  /** The destination client: only it may use the ticket. */
  clientId: string;
  /** Lifetime in seconds. */
  lifetimeSeconds: number;
}

/** Issues a ticket and stores it; a few expired tickets, and the oldest over the cap, make room for it first. */
export function issueTicket(state: State, clock: OffsetClock, what: TicketFor): TicketRecord {
  const now = clock.nowMs();
  makeRoomForTicket(state, now);
  const record: TicketRecord = {
    ticket: newSecret(32),
    account_id: what.accountId,
    client_id: what.clientId,
    issued_at: new Date(now).toISOString(),
    expires_at: expiryAfter(now, what.lifetimeSeconds),
    used_at: null,
    access_token: null,
  };
  state.tickets.add(record);
  return record;
}

/** Why a ticket was refused. */
export type TicketRefusal = 'unknown' | 'other_client' | 'used' | 'expired' | 'account_not_active';

/** A ticket judged: usable (with its account), or refused with the reason. */
export type TicketJudgement =
  | { readonly ok: true; readonly ticket: TicketRecord; readonly account: AccountRecord }
  | { readonly ok: false; readonly reason: TicketRefusal };

/** Whether an account may hold tokens and tickets (the platform's documentation: not when login is disabled). */
export function isActiveAccount(account: AccountRecord): boolean {
  return account.status === 'active';
}

/**
 * Judges a ticket presented by `clientId`, in this order: unknown; bound to another client (which
 * changes nothing: the ticket stays usable by its rightful client); already used (which revokes what
 * its first use issued, RFC 6749 section 10.5: see {@link revokeWhatItIssued}); expired on the
 * platform clock; account no longer active. Changes nothing else: the caller marks a usable ticket
 * with {@link useTicket} in the same synchronous step, so two racing presentations cannot both win.
 */
export function judgeTicket(state: State, clock: OffsetClock, value: string, clientId: string): TicketJudgement {
  const ticket = state.tickets.get(value);
  if (!ticket) return { ok: false, reason: 'unknown' };
  if (ticket.client_id !== clientId) return { ok: false, reason: 'other_client' };
  if (ticket.used_at !== null) {
    revokeWhatItIssued(state, clock, ticket);
    return { ok: false, reason: 'used' };
  }
  if (Date.parse(ticket.expires_at) <= clock.nowMs()) return { ok: false, reason: 'expired' };
  const account = state.accounts.get(ticket.account_id);
  if (!account || !isActiveAccount(account)) return { ok: false, reason: 'account_not_active' };
  return { ok: true, ticket, account };
}

/** What the use of a ticket issued, revoked should the ticket be presented again. */
export interface IssuedByUse {
  /** The access token its exchange issued (endpoint 23). */
  readonly accessToken?: string;
  /** The SSO session its use logged in (endpoint 21; not one it only verified). */
  readonly ssoSession?: string;
}

/** Marks a ticket used, remembering what its use issued. */
export function useTicket(ticket: TicketRecord, clock: OffsetClock, issued: IssuedByUse = {}): void {
  ticket.used_at = clock.now().toISOString();
  ticket.access_token = issued.accessToken ?? null;
  if (issued.ssoSession !== undefined) ticket.sso_session = issued.ssoSession;
}

/**
 * Revokes what the first use of `ticket` issued, now that it is presented again (RFC 6749 section
 * 10.5, as the platform's documentation has it: "on reuse, refuse and revoke what the first use
 * issued"): the tokens of its exchange (endpoint 23); the log-in of the SSO session its use logged
 * in (endpoint 21), ended as a logout ends it, and the ticket that use answered with, used up, with
 * what its own use issued in turn; and the shop session its use opened (endpoint 25). What was
 * revoked stays revoked: presented again later, nothing changes.
 */
function revokeWhatItIssued(state: State, clock: OffsetClock, ticket: TicketRecord): void {
  const seen = new Set<TicketRecord>();
  for (let t: TicketRecord | undefined = ticket; t && !seen.has(t); ) {
    seen.add(t);
    const token = t.access_token === null ? undefined : state.accessTokens.get(t.access_token);
    if (token) revokeFamily(state, clock, token);
    const session = t.sso_session === undefined ? undefined : state.ssoSessions.get(t.sso_session);
    if (session?.state === 'loggedin' && session.account_id === t.account_id) session.state = 'terminated';
    for (const [id, shop] of state.shopSessions) if (shop.ticket === t.ticket) state.shopSessions.delete(id);
    const next: TicketRecord | undefined =
      t.issued_ticket === undefined ? undefined : state.tickets.get(t.issued_ticket);
    if (next && next.used_at === null) next.used_at = clock.now().toISOString();
    t = next;
  }
}

/** Readable words for a refusal, for messages (never the ticket itself). */
export const TICKET_REFUSALS: Readonly<Record<TicketRefusal, string>> = {
  unknown: 'Unknown ticket',
  other_client: 'The ticket was issued for another client',
  used: 'The ticket was already used',
  expired: 'The ticket has expired',
  account_not_active: 'The account of the ticket is not active',
};
