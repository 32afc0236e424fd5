import * as z from 'zod';
import { type EitherForm, id, ticket, withRule } from './common.js';

/**
 * A space-separated list of scopes as a grant asks for them: 1 to 1,024 characters (the spec gives
 * no size; every scope of the spec together is 408), as a refused one is quoted back, naming at
 * least one scope (white space alone asks for none: refused as malformed, on both sides).
 */
const scopeList = z.string().min(1).max(1024).regex(/\S/, { error: 'Parameter must name at least one scope' });
/**
 * Server-to-server token request of the platform's authorization API: `grant_type=none` with the
 * client's credentials and a space-separated `scope` (not shown in the spec; see the docs'
 * assumptions). The platform accepts it as JSON or form-urlencoded.
 */
export const ClientCredentialsRequest = z.strictObject({
  grant_type: z.literal('none'),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  /**
   * The scopes asked for, space-separated: at most 1,024 characters (the spec gives no size; every
   * scope of the spec together is 408), as a refused one is quoted back.
   */
  scope: scopeList.optional(),
});
/** Server-to-server token request. */
export type ClientCredentialsRequest = z.input<typeof ClientCredentialsRequest>;

// ---------------------------------------------------------------- 22. generate ticket

/** Form (a) of endpoint 22: a server-to-server token names the account and the destination client. */
export const GenerateTicketForAccountRequest = z.strictObject({
  accountId: id,
  clientId: z.string().min(1).max(100),
});
/** Form (a) of endpoint 22. */
export type GenerateTicketForAccountRequest = z.input<typeof GenerateTicketForAccountRequest>;
/** Form (b) of endpoint 22: a user-bound token names only the shop's client; the user comes from the token. */
export const GenerateTicketForUserRequest = z.strictObject({
  client_id: z.string().min(1).max(100),
});
/** Form (b) of endpoint 22. */
export type GenerateTicketForUserRequest = z.input<typeof GenerateTicketForUserRequest>;
/** Request body of endpoint 22, `POST {auth_api_url}/api/authorization/ticket`: either form. */
export const GenerateTicketRequest = withRule(
  z.union([GenerateTicketForAccountRequest, GenerateTicketForUserRequest]),
  {
    description:
      'Form (a) { accountId, clientId } with a server-to-server token (grant_type=none); form (b) { client_id } with a user token (grant_type=ticket), the user coming from the token; a form sent with the other kind of token is 400 invalid_parameter naming its first field',
  },
);
/**
 * Request body of endpoint 22: form (a) `{ accountId, clientId }` or form (b) `{ client_id }`, each
 * without the other's keys, so a body that mixes them does not compile (the SDK and the platform
 * refuse it too: `unknown_parameter`).
 */
export type GenerateTicketRequest = EitherForm<GenerateTicketForAccountRequest, GenerateTicketForUserRequest>;

/** Response of endpoint 22. */
export const GenerateTicketResponse = z.object({ ticket: z.string().min(1) });
/** Response of endpoint 22. */
export type GenerateTicketResponse = z.infer<typeof GenerateTicketResponse>;

/** Endpoint 23 with the ticket grant: a site exchanges a ticket for a user's access token. */
export const TicketGrantRequest = z.strictObject({
  grant_type: z.literal('ticket'),
  ticket,
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  /** The scopes asked for, as the client-credentials grant's `scope`: at most 1,024 characters. */
  scope: scopeList.optional(),
});
/** Endpoint 23 with the ticket grant. */
export type TicketGrantRequest = z.input<typeof TicketGrantRequest>;

/** The refresh-token grant of the authorization API (the platform's documentation names `grant_type=refresh_token`). */
export const RefreshTokenGrantRequest = z.strictObject({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string().min(1),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
});
/** The refresh-token grant. */
export type RefreshTokenGrantRequest = z.input<typeof RefreshTokenGrantRequest>;

/**
 * Request body of endpoint 23, `POST {auth_api_url}/api/authorization/access_token`: one of the
 * three grants, told apart by `grant_type`. The platform takes it as JSON or form-urlencoded.
 */
export const AccessTokenRequest = z.discriminatedUnion('grant_type', [
  ClientCredentialsRequest,
  TicketGrantRequest,
  RefreshTokenGrantRequest,
]);
/** Request body of endpoint 23. */
export type AccessTokenRequest = z.input<typeof AccessTokenRequest>;

/** Access token response (spec: "Access token response"). */
export const AccessTokenResponse = z.object({
  access_token: z.string().min(1),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
});
/** Access token response. */
export type AccessTokenResponse = z.infer<typeof AccessTokenResponse>;
