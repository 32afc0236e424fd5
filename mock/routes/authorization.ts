/**
 * The authorization API: generate ticket (endpoint 22) and `POST /api/authorization/access_token`
 * (endpoint 23), where each grant type is one function in `grants`.
 */
import { accessToken, generateTicket } from '../../src/endpoints.js';
import type {
  AccessTokenResponse,
  ClientCredentialsRequest,
  RefreshTokenGrantRequest,
  TicketGrantRequest,
} from '../../src/schemas/authorization.js';
import type { ClientRecord } from '../core/document.js';
import { HttpError, invalidParameter, refusedBecause } from '../core/errors.js';
import { sameId, sameSecret } from '../core/ids.js';
import { unknownClient } from '../core/refusal.js';
import { apiRoute, type InputOf, type Route, type RouteContext, type RouteResult } from '../core/route.js';
import type { State } from '../core/state.js';
import { isActiveAccount, issueTicket, judgeTicket, TICKET_REFUSALS, useTicket } from '../core/tickets.js';
import { issueToken, revokeFamily } from '../core/tokens.js';

/**
 * The scopes of a user token from the ticket grant when no `scope` is asked for: read and write
 * the user's own data, and pass the user on with a new ticket (endpoint 22, form b).
 */
export const USER_SCOPES: readonly string[] = ['/external/me/r', '/external/me/w', '/api/authorization/ticket'];

type Context = Omit<RouteContext, 'input'>;
/** What a grant answers: an access token response, never cached. */
type Granted = RouteResult<AccessTokenResponse>;

const NO_STORE = { 'cache-control': 'no-store' } as const;

/** The client named by its credentials: 401 `invalid_client` when unknown or the secret is wrong. */
function authenticateClient(state: State, clientId: string, clientSecret: string): ClientRecord {
  const client = state.clients.get(clientId);
  if (!client || !sameSecret(client.client_secret, clientSecret)) {
    const error = new HttpError(401, 'invalid_client', 'Unknown client or wrong client secret');
    // The journal tells which; the caller is told neither (no client id oracle). An unknown id is
    // not quoted: it may be the secret, sent in its place.
    if (!client) throw refusedBecause(error, 'client', unknownClient('client_id', clientId));
    const name = JSON.stringify(clientId.length > 80 ? `${clientId.slice(0, 80)}…` : clientId);
    throw refusedBecause(error, 'client_secret', `the client_secret is not that of client ${name}`);
  }
  return client;
}

/** The scopes asked for: all within `allowed`, or 400 `invalid_scope`; none asked means `fallback`. */
function grantedScopes(allowed: readonly string[], fallback: readonly string[], scope: string | undefined): string[] {
  if (scope === undefined) return [...fallback];
  // The grant's schema refused a scope of white space alone: at least one is asked for.
  const asked = [...new Set(scope.split(/\s+/).filter((s) => s.length > 0))];
  const refused = asked.filter((s) => !allowed.includes(s));
  if (refused.length > 0)
    throw refusedBecause(
      new HttpError(400, 'invalid_scope', `Scope not granted to this client: ${refused.join(' ')}`, 'scope'),
      'scope',
      `not granted to this client: ${refused.join(' ')}`,
    );
  return asked;
}

/** 401 `invalid_grant`: the ticket or refresh token is not usable (never echoed). */
function invalidGrant(field: string, message: string): HttpError {
  return refusedBecause(new HttpError(401, 'invalid_grant', message, field), field, message);
}

/** `grant_type=none`: a server-to-server token for the client itself, tied to no user. */
function clientCredentials({ state, clock, settings }: Context, req: ClientCredentialsRequest): Granted {
  const client = authenticateClient(state, req.client_id, req.client_secret);
  const scopes = grantedScopes(client.scopes, client.scopes, req.scope);
  const body = issueToken(state, clock, {
    client,
    scopes,
    accountId: null,
    expiresIn: settings.accessTokenLifetimeSeconds,
    refreshExpiresIn: settings.refreshTokenLifetimeSeconds,
  });
  return { body, headers: NO_STORE };
}

/**
 * `grant_type=ticket` (endpoint 23): the client first (a wrong client id or secret leaves the ticket
 * unjudged, so it stays usable by its rightful holder), then the scope, then the ticket. Judging,
 * marking used and issuing the token happen in one synchronous step: of two racing exchanges of
 * one ticket, exactly one wins. A reused ticket revokes what its first exchange issued.
 */
function ticket({ state, clock, settings }: Context, req: TicketGrantRequest): Granted {
  const client = authenticateClient(state, req.client_id, req.client_secret);
  const scopes = grantedScopes([...USER_SCOPES, ...client.scopes], USER_SCOPES, req.scope);
  const presented = judgeTicket(state, clock, req.ticket, client.client_id);
  if (!presented.ok) throw invalidGrant('ticket', TICKET_REFUSALS[presented.reason]);
  const body = issueToken(state, clock, {
    client,
    scopes,
    accountId: presented.account.id,
    expiresIn: settings.accessTokenLifetimeSeconds,
    refreshExpiresIn: settings.refreshTokenLifetimeSeconds,
  });
  useTicket(presented.ticket, clock, { accessToken: body.access_token });
  return { body, headers: NO_STORE };
}

/**
 * `grant_type=refresh_token`: a refresh token is usable once (it rotates). The new pair joins the
 * old one's family; a spent refresh token presented again revokes the whole family.
 */
function refreshToken({ state, clock, settings }: Context, req: RefreshTokenGrantRequest): Granted {
  const client = authenticateClient(state, req.client_id, req.client_secret);
  const old = state.accessTokens.find('refreshToken', req.refresh_token);
  if (!old || old.client_id !== client.client_id) throw invalidGrant('refresh_token', 'Unknown refresh token');
  if (old.refreshed_at !== null) {
    revokeFamily(state, clock, old);
    throw invalidGrant('refresh_token', 'The refresh token was already used');
  }
  if (old.revoked_at !== null) throw invalidGrant('refresh_token', 'The refresh token was revoked');
  if (old.refresh_expires_at !== null && Date.parse(old.refresh_expires_at) <= clock.nowMs())
    throw invalidGrant('refresh_token', 'The refresh token has expired');
  if (old.account_id !== null) {
    const account = state.accounts.get(old.account_id);
    if (!account || !isActiveAccount(account))
      throw invalidGrant('refresh_token', 'The account of the refresh token is not active');
  }
  const body = issueToken(state, clock, {
    client,
    scopes: old.scopes,
    accountId: old.account_id,
    expiresIn: settings.accessTokenLifetimeSeconds,
    refreshExpiresIn: settings.refreshTokenLifetimeSeconds,
    family: old.family ?? old.access_token,
  });
  old.refreshed_at = clock.now().toISOString();
  return { body, headers: NO_STORE };
}

/** Endpoint 23: each grant type is one function; an unknown `grant_type` is refused before (`unsupported_grant_type`). */
const token = apiRoute(accessToken, (ctx) => {
  const req: InputOf<typeof accessToken> = ctx.input;
  switch (req.grant_type) {
    case 'none':
      return clientCredentials(ctx, req);
    case 'ticket':
      return ticket(ctx, req);
    case 'refresh_token':
      return refreshToken(ctx, req);
  }
});

/**
 * Endpoint 22. The form must match the token: form (a) `{ accountId, clientId }` with a
 * server-to-server token, form (b) `{ client_id }` with a user token (the user comes from the
 * token). A form sent with the other kind of token is a 400 `invalid_parameter` naming the form's
 * first field. The destination client must be of the caller's organisation; the account must be
 * active (400 `account_not_active`).
 */
const ticketRoute = apiRoute(generateTicket, ({ input, auth, state, clock, settings }) => {
  const org = auth.client.organisation_id;
  let accountId: string;
  let clientId: string;
  let clientField: string;
  if (auth.token.account_id !== null) {
    if ('accountId' in input)
      throw invalidParameter('accountId', 'A user token names only client_id: the account is the token user (form b)');
    const account = auth.account;
    if (!account) throw new HttpError(401, 'invalid_token', 'The token user no longer exists', 'authorization');
    if (!isActiveAccount(account))
      throw new HttpError(400, 'account_not_active', 'The account of the token is not active');
    accountId = account.id;
    clientId = input.client_id;
    clientField = 'client_id';
  } else {
    if (!('accountId' in input))
      throw invalidParameter('client_id', 'A server-to-server token names accountId and clientId (form a)');
    const account = state.account(org, input.accountId);
    if (!account)
      throw refusedBecause(
        invalidParameter('accountId', 'No such account in the organisation'),
        state.accounts.get(input.accountId) ? 'organisation' : 'account',
        state.accounts.get(input.accountId)
          ? 'accountId: the account belongs to another organisation'
          : 'accountId: no such account',
      );
    if (!isActiveAccount(account))
      throw new HttpError(400, 'account_not_active', 'The account is not active', 'accountId');
    accountId = account.id;
    clientId = input.clientId;
    clientField = 'clientId';
  }
  const destination = state.clients.get(clientId);
  if (!destination || !sameId(destination.organisation_id, org))
    throw refusedBecause(
      invalidParameter(clientField, 'No such client in the organisation'),
      destination ? 'organisation' : 'client',
      destination ? `${clientField}: the client belongs to another organisation` : `${clientField}: no such client`,
    );
  const issued = issueTicket(state, clock, {
    accountId,
    clientId: destination.client_id,
    lifetimeSeconds: settings.ticketLifetimeSeconds,
  });
  return { body: { ticket: issued.ticket }, headers: NO_STORE };
});

/** The routes of this file. */
export const authorizationRoutes: readonly Route[] = [token, ticketRoute];
