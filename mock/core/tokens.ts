/** Issuing and revoking access tokens: one place for the token endpoint and the test tools alike. */
import type { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { expiryAfter, type OffsetClock, timeMs } from './clock.js';
import type { AccessTokenRecord, ClientRecord } from './document.js';
import { makeRoomForToken } from './eviction.js';
import { newId, newSecret } from './ids.js';
import type { State } from './state.js';

/** What a new token is for. */
export interface TokenGrant {
  client: ClientRecord;
  scopes: readonly string[];
  accountId: string | null;
  expiresIn: number;
  /** Lifetime of the refresh token in seconds. */
  refreshExpiresIn: number;
  /** The refresh family to join (a refreshed token); a new family when absent. */
  family?: string;
}

/**
 * Issues an access token (256 random bits) with its refresh token, and stores both; a few tokens
 * of no more use, and the oldest over the cap, make room for it first.
 */
export function issueToken(state: State, clock: OffsetClock, grant: TokenGrant): AccessTokenResponse {
  const accessToken = newSecret();
  const refreshToken = newSecret();
  const scopes = [...grant.scopes];
  const now = clock.nowMs();
  makeRoomForToken(state, now);
  state.accessTokens.add({
    access_token: accessToken,
    refresh_token: refreshToken,
    client_id: grant.client.client_id,
    scopes,
    account_id: grant.accountId,
    expires_at: expiryAfter(now, grant.expiresIn),
    revoked_at: null,
    refreshed_at: null,
    refresh_expires_at: expiryAfter(now, grant.refreshExpiresIn),
    family: grant.family ?? newId(),
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: grant.expiresIn,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  };
}

/**
 * Revokes a token and every token of its refresh family, refresh tokens included: what a reused
 * ticket or refresh token calls for (RFC 6749 section 10.5).
 */
export function revokeFamily(state: State, clock: OffsetClock, token: AccessTokenRecord): void {
  const now = clock.now().toISOString();
  for (const t of state.familyOf(token)) if (t.revoked_at === null) t.revoked_at = now;
}

/** Whether a token has expired by `nowMs` (its `expires_at` is not after it). */
export function isExpired(token: AccessTokenRecord, nowMs: number): boolean {
  return timeMs(token.expires_at) <= nowMs;
}
