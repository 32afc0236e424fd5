/**
 * Bearer authentication of an API route: the access token (known, not revoked, not expired on the
 * platform clock), the route's scopes, and the user when the route needs one. Every refusal is the
 * spec's error with the `WWW-Authenticate` challenge RFC 6750 asks for.
 */
import type { OffsetClock } from './clock.js';
import type { AccountRecord } from './document.js';
import { HttpError, refusedBecause } from './errors.js';
import type { Auth, Route } from './route.js';
import type { State } from './state.js';
import { isExpired } from './tokens.js';

const REALM = 'Bearer realm="platform"';

/** 401 `invalid_token`, field `authorization`, with its challenge (none of the token's details when it is missing). */
function unauthorized(message: string, missing = false): HttpError {
  const challenge = missing ? REALM : `${REALM}, error="invalid_token", error_description="${message}"`;
  const error = new HttpError(401, 'invalid_token', message, 'authorization', { 'www-authenticate': challenge });
  return refusedBecause(error, 'token', message);
}

/**
 * Who calls `route`, from the request's `Authorization: Bearer` header, in this order: a token
 * (401 when missing, malformed, unknown, revoked or expired), every scope of the route (403
 * `insufficient_scope`), a user when the route needs one (403 `identity_required`).
 */
export function authenticate(
  state: State,
  clock: OffsetClock,
  route: Route,
  headers: Readonly<Record<string, string>>,
): Auth {
  const header = headers.authorization;
  if (header === undefined) throw unauthorized('Missing bearer token: send Authorization: Bearer <token>', true);
  const m = /^Bearer +([^\s]+) *$/i.exec(header);
  if (!m) throw unauthorized('Malformed Authorization header: expected Bearer <token>');
  const token = state.accessTokens.get(m[1]!);
  const client = token && state.clients.get(token.client_id);
  if (!token || !client) throw unauthorized('Unknown access token');
  if (token.revoked_at !== null) throw unauthorized('Revoked access token');
  if (isExpired(token, clock.nowMs())) throw unauthorized('Expired access token');
  for (const scope of route.scopes) {
    if (!token.scopes.includes(scope)) {
      const needed = route.scopes.join(' ');
      const error = new HttpError(403, 'insufficient_scope', `The access token lacks the scope ${scope}`, undefined, {
        'www-authenticate': `${REALM}, error="insufficient_scope", scope="${needed}"`,
      });
      const has = token.scopes.length ? token.scopes.join(' ') : 'none';
      throw refusedBecause(error, 'scope', `the token lacks ${scope} (it has: ${has})`);
    }
  }
  const account = token.account_id === null ? undefined : state.accounts.get(token.account_id);
  if (route.identity && !account)
    throw refusedBecause(
      new HttpError(
        403,
        'identity_required',
        token.account_id === null
          ? 'The access token is not tied to a user: this call needs a user token, from grant_type=ticket with a ticket of POST /api/authorization/ticket'
          : 'The access token is not tied to a user: its user no longer exists',
      ),
      'user',
      token.account_id === null ? 'a server-to-server token, tied to no user' : 'the token user no longer exists',
    );
  return { client, token, account };
}

/**
 * The account `accountId` of the caller's organisation: another organisation's account is as
 * unknown as one that does not exist (`404 not_found`, field `account_id`), never told apart.
 */
export function callerAccount(state: State, auth: Auth, accountId: string): AccountRecord {
  const account = state.account(auth.client.organisation_id, accountId);
  if (!account) throw new HttpError(404, 'not_found', 'Account not found', 'account_id');
  return account;
}
