/**
 * What the platform drops on its own, so that a server that runs for weeks stays small: access
 * tokens, tickets and sessions of no more use, on the platform clock, and beyond each kind's cap
 * (the `retention` option) the oldest. The work is amortised: each time a record of a kind is added,
 * a few of its kind are looked at (a sweep goes round the list), never the whole state at once.
 * Only an addition drops anything: a request that is refused adds nothing, and so changes nothing.
 *
 * What the spec and its tests need is kept: a ticket, used or not, until its expiry (a used one is
 * refused as used, and revokes what it issued, while it could be replayed); an access token until
 * both it and its refresh token have expired (a spent refresh token is refused as spent, and revokes
 * its family, until then). Change-log entries and user-products are never of no more use: only their
 * caps drop them, and only of those requests added (a document's own are kept). A package's price periods are the catalogue's: over their cap, endpoint 1 is
 * refused rather than a period dropped (`mock/routes/prices.ts`).
 */
import type { AccessTokenRecord, SsoSessionRecord, TicketRecord } from './document.js';
import type { RetentionSettings } from './options.js';
import type { LoginFailures, ShopSession, State } from './state.js';

/** How many records of its kind each addition looks at. */
const SWEEP = 8;

/** The most entries an SSO session's timeline keeps: the latest. */
export const SSO_TIMELINE_ENTRIES = 20;
/** The most characters of an IP address and of a user agent an SSO session's timeline keeps. */
export const SSO_TIMELINE_TEXT = { ip: 64, userAgent: 256 } as const;

/** Whether an access token is of no more use at `nowMs`: it and its refresh token have expired. */
export function tokenDone(t: AccessTokenRecord, nowMs: number): boolean {
  if (t.refresh_expires_at === null) return false;
  return Date.parse(t.expires_at) <= nowMs && Date.parse(t.refresh_expires_at) <= nowMs;
}

/** Whether a ticket is of no more use at `nowMs`: it has expired, used or not. */
function ticketDone(t: TicketRecord, nowMs: number): boolean {
  return Date.parse(t.expires_at) <= nowMs;
}

/**
 * Whether an SSO session has ended at `nowMs`: `sessionLifetimeSeconds` after it was created, or
 * `ssoSessionIdleSeconds` after its last use: the last operation its timeline records, or the last
 * sessionstatus that found it (its creation, when neither). An ended session is not found, and is
 * dropped.
 */
export function ssoSessionOver(retention: RetentionSettings, s: SsoSessionRecord, nowMs: number): boolean {
  const created = Date.parse(s.created_at);
  const last = s.timeline.at(-1);
  let active = last === undefined ? created : Math.max(created, Date.parse(last.at));
  if (s.last_status_at !== undefined) active = Math.max(active, Date.parse(s.last_status_at));
  return (
    nowMs >= created + retention.sessionLifetimeSeconds * 1000 ||
    nowMs >= active + retention.ssoSessionIdleSeconds * 1000
  );
}

/** Whether a shop session has ended at `nowMs`: `sessionLifetimeSeconds` after it was opened. */
export function shopSessionOver(retention: RetentionSettings, s: ShopSession, nowMs: number): boolean {
  return nowMs >= Date.parse(s.created_at) + retention.sessionLifetimeSeconds * 1000;
}

/** Makes room for one more access token: drops a few of no more use, and the oldest over the cap. */
export function makeRoomForToken(state: State, nowMs: number): void {
  state.accessTokens.sweep(SWEEP, (t) => tokenDone(t, nowMs));
  state.accessTokens.trim(state.retention.maxAccessTokens - 1);
}

/** Makes room for one more ticket: drops a few expired ones, and the oldest over the cap. */
export function makeRoomForTicket(state: State, nowMs: number): void {
  state.tickets.sweep(SWEEP, (t) => ticketDone(t, nowMs));
  state.tickets.trim(state.retention.maxTickets - 1);
}

/** Makes room for one more SSO session: drops a few that have ended, and the oldest over the cap. */
export function makeRoomForSsoSession(state: State, nowMs: number): void {
  state.ssoSessions.sweep(SWEEP, (s) => ssoSessionOver(state.retention, s, nowMs));
  state.ssoSessions.trim(state.retention.maxSsoSessions - 1);
}

/**
 * Keeps the change-log entries (endpoint 4) that requests added within their cap, once a batch has
 * been added: the oldest logged go first, those of the batch last (a batch larger than the cap keeps
 * its last ones). The document's own entries (the seed's, a restored state's) are kept: tests read
 * them. No entry is ever of no more use: only the cap drops them.
 */
export function trimChangeLogs(state: State): void {
  state.accountChangeLogs.trimAdded(state.retention.maxAccountChangeLogs);
}

/**
 * Makes room for one more user-product: over the cap of those requests added, the oldest created
 * goes first, with the orders and payment profiles that name it (a request adds them only with
 * their user-product, and an order dropped alone would leave its user-product naming one the
 * document has not). The document's own user-products (the seed's, a restored state's) are kept:
 * the subscriptions a suite's tests start from.
 */
export function makeRoomForUserProduct(state: State): void {
  const { userProducts } = state;
  while (userProducts.added > 0 && userProducts.added >= state.retention.maxUserProducts) {
    const oldest = userProducts.oldestAdded()!;
    for (const order of [...state.orders.list('userProduct', oldest.id)]) state.orders.remove(order);
    for (const profile of [...state.paymentProfiles.list('userProduct', oldest.id)])
      state.paymentProfiles.remove(profile);
    userProducts.remove(oldest);
  }
}

/**
 * Drops the first few entries of `map` that `done` says are of no more use, then the first ones
 * until at most `max` remain: a Map keeps the order its keys were set in, so the first are the oldest.
 */
function sweepMap<K, V>(map: Map<K, V>, done: (value: V) => boolean, max: number): void {
  let looked = 0;
  for (const [key, value] of map) {
    if (looked++ >= SWEEP) break;
    if (done(value)) map.delete(key);
  }
  for (const key of map.keys()) {
    if (map.size <= max) break;
    map.delete(key);
  }
}

/** Makes room for one more shop session: drops a few of the first opened that have ended, and the oldest over the cap. */
export function makeRoomForShopSession(state: State, nowMs: number): void {
  const retention = state.retention;
  sweepMap(state.shopSessions, (s) => shopSessionOver(retention, s, nowMs), retention.maxShopSessions - 1);
}

/**
 * Keeps `entry` as the count of wrong passwords of `key`, the latest changed: a few of the counts
 * changed longest ago are dropped when their freeze is over (such a count means what no count
 * means), and over the cap the one changed longest ago that is not frozen now. A freeze is never
 * lifted to make room: when every count kept is a live freeze, a new address's count is not kept
 * (its wrong passwords count again once a freeze ends), so that flooding made-up addresses cannot
 * thaw a frozen one.
 */
export function keepWrongPasswordCount(state: State, key: string, entry: LoginFailures, nowMs: number): void {
  const counts = state.loginFailures;
  const max = state.retention.maxWrongPasswordCounts;
  counts.delete(key);
  const thawed = (e: LoginFailures) => e.frozenUntilMs > 0 && e.frozenUntilMs <= nowMs;
  sweepMap(counts, thawed, Number.POSITIVE_INFINITY);
  for (const [k, e] of counts) {
    if (counts.size < max) break;
    if (e.frozenUntilMs <= nowMs) counts.delete(k);
  }
  if (counts.size < max) counts.set(key, entry);
}
