/**
 * The authorization API: `POST /api/authorization/access_token` (endpoint 23). Each grant type is
 * one function in `grants`; the ticket and refresh-token grants join it later.
 */
import * as z from 'zod';
import { ClientCredentialsRequest } from '../../src/schemas/authorization.js';
import type { ClientRecord } from '../core/document.js';
import { PlatformError } from '../core/errors.js';
import { type Route, type RouteContext, type RouteResult, route } from '../core/route.js';
import type { Store } from '../core/store.js';
import { issueToken } from '../core/tokens.js';
import { validate } from '../core/validate.js';

/** The token endpoint's path on the authorization API host. */
export const ACCESS_TOKEN_PATH = '/api/authorization/access_token';

type Params = Record<string, unknown>;
type Grant = (ctx: RouteContext<Params>, params: Params) => RouteResult;

/** The client named by its credentials: 401 `invalid_client` when unknown or the secret is wrong. */
function authenticateClient(state: Store, clientId: string, clientSecret: string): ClientRecord {
  const client = state.clients.get(clientId);
  if (!client || !timingSafeEqual(client.client_secret, clientSecret))
    throw new PlatformError(401, 'invalid_client', 'Unknown client or wrong client secret');
  return client;
}

/** Compares two secrets in time independent of where they differ. */
function timingSafeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % Math.max(b.length, 1));
  return diff === 0;
}

/** The scopes asked for: all within the client's, or 400 `invalid_scope`; none asked means all the client's. */
function grantedScopes(client: ClientRecord, scope: string | undefined): string[] {
  if (scope === undefined) return [...client.scopes];
  const asked = [...new Set(scope.split(/\s+/).filter((s) => s.length > 0))];
  if (asked.length === 0) throw new PlatformError(400, 'invalid_scope', 'No scope asked for', 'scope');
  const refused = asked.filter((s) => !client.scopes.includes(s));
  if (refused.length > 0)
    throw new PlatformError(400, 'invalid_scope', `Scope not granted to this client: ${refused.join(' ')}`, 'scope');
  return asked;
}

/** `grant_type=none`: a server-to-server token for the client itself, tied to no user. */
const clientCredentials: Grant = ({ state, clock, settings }, params) => {
  const req = validate(ClientCredentialsRequest, params, 'body');
  const client = authenticateClient(state, req.client_id, req.client_secret);
  const scopes = grantedScopes(client, req.scope);
  const body = issueToken(state, clock, {
    client,
    scopes,
    accountId: null,
    expiresIn: settings.accessTokenLifetimeSeconds,
  });
  return { body, headers: { 'cache-control': 'no-store' } };
};

/** The grant types served, by `grant_type`. */
const grants: Readonly<Record<string, Grant>> = { none: clientCredentials };

const GrantType = z.looseObject({ grant_type: z.string().min(1) });

const accessToken = route(
  { method: 'POST', path: ACCESS_TOKEN_PATH, kind: 'auth', form: true, body: z.record(z.string(), z.unknown()) },
  (ctx) => {
    const { grant_type } = validate(GrantType, ctx.input, 'body');
    const grant = Object.hasOwn(grants, grant_type) ? grants[grant_type] : undefined;
    if (!grant)
      throw new PlatformError(400, 'unsupported_grant_type', `Unsupported grant_type: ${grant_type}`, 'grant_type');
    return grant(ctx, ctx.input);
  },
);

/** The routes of this file. */
export const authorizationRoutes: readonly Route[] = [accessToken];
