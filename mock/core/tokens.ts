/** Issuing access tokens: one place for the token endpoint and the test tools alike. */
import type { AccessTokenResponse } from '../../src/schemas/authorization.js';
import type { OffsetClock } from './clock.js';
import type { ClientRecord } from './document.js';
import { newSecret } from './ids.js';
import type { Store } from './store.js';

/** What a new token is for. */
export interface TokenGrant {
  client: ClientRecord;
  scopes: readonly string[];
  accountId: string | null;
  expiresIn: number;
}

/** Issues an access token (256 random bits) with its refresh token, and stores both. */
export function issueToken(store: Store, clock: OffsetClock, grant: TokenGrant): AccessTokenResponse {
  const accessToken = newSecret();
  const refreshToken = newSecret();
  const scopes = [...grant.scopes];
  store.addAccessToken({
    access_token: accessToken,
    refresh_token: refreshToken,
    client_id: grant.client.client_id,
    scopes,
    account_id: grant.accountId,
    expires_at: new Date(clock.nowMs() + grant.expiresIn * 1000).toISOString(),
  });
  return {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: grant.expiresIn,
    refresh_token: refreshToken,
    scope: scopes.join(' '),
  };
}
