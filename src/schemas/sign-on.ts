import * as z from 'zod';
import { id } from './common.js';

// ---------------------------------------------------------------- 22. generate ticket

/** Form (a) of endpoint 22: a server-to-server token names the account and the destination client. */
export const GenerateTicketForAccountRequest = z.strictObject({
  accountId: id,
  clientId: z.string().min(1).max(100),
});
/** Form (b) of endpoint 22: a user-bound token names only the shop's client; the user comes from the token. */
export const GenerateTicketForUserRequest = z.strictObject({
  client_id: z.string().min(1).max(100),
});
/** Request body of endpoint 22, `POST {auth_api_url}/api/authorization/ticket`: either form. */
export const GenerateTicketRequest = z.union([GenerateTicketForAccountRequest, GenerateTicketForUserRequest]);
/** Request body of endpoint 22. */
export type GenerateTicketRequest = z.input<typeof GenerateTicketRequest>;

/** Response of endpoint 22. */
export const GenerateTicketResponse = z.looseObject({ ticket: z.string().min(1) });
/** Response of endpoint 22. */
export type GenerateTicketResponse = z.infer<typeof GenerateTicketResponse>;

// ---------------------------------------------------------------- 23. exchange ticket

/** Endpoint 23 with the ticket grant: a site exchanges a ticket for a user's access token. */
export const TicketGrantRequest = z.strictObject({
  grant_type: z.literal('ticket'),
  ticket: z.string().min(1).max(512),
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  scope: z.string().min(1).optional(),
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

// ---------------------------------------------------------------- 24. signed-in user

/** The signed-in user's account, read with a user token (endpoint 24). */
export const SignedInUser = z.looseObject({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  customerNumber: z.string(),
  address: z.looseObject({
    street: z.string(),
    zipCode: z.string(),
    city: z.string(),
    countryCode: z.string(),
  }),
});
/** The signed-in user's account. */
export type SignedInUser = z.infer<typeof SignedInUser>;

// ---------------------------------------------------------------- 21. SSO authenticatewithticket

/** Requests and replies of the SSO service are `{ t: <jwt> }`, error replies included. */
export const SsoEnvelope = z.strictObject({ t: z.string().min(1) });
/** Requests and replies of the SSO service. */
export type SsoEnvelope = z.infer<typeof SsoEnvelope>;

const epoch = z.number().int().nonnegative();

/** Claims of the request token of endpoint 21, all required. */
export const SsoRequestClaims = z.looseObject({
  cid: z.string().min(1),
  sid: z.string().min(1),
  at: z.string().min(1),
  ipa: z.string().min(1),
  uas: z.string().min(1),
  nbf: epoch,
  exp: epoch,
  iat: epoch,
  iss: z.string().min(1),
  aud: z.string().min(1),
});
/** Claims of the request token of endpoint 21. */
export type SsoRequestClaims = z.infer<typeof SsoRequestClaims>;

/** The SSO `err` codes the spec names for `authenticatewithticket`. */
export const SsoErrorCode = z.enum([
  'invalid_ticket',
  'session_terminated',
  'session_already_logged_in_on_another_account',
]);
/** An SSO `err` code of `authenticatewithticket`. */
export type SsoErrorCode = z.infer<typeof SsoErrorCode>;

/** Claims of the session token the SSO service answers with (endpoint 21). */
export const SsoSessionClaims = z.looseObject({
  sts: z.string(),
  sid: z.string(),
  aid: z.string(),
  at: z.string(),
  err: z.string().nullable(),
  ems: z.string(),
  frf: z.number().int(),
  raa: z.number().int(),
  slm: z.number().int(),
  otp: z.string(),
  ses: z.unknown(),
  nbf: epoch,
  iat: epoch,
  exp: epoch,
  iss: z.string(),
  aud: z.string(),
});
/** Claims of the SSO session token. */
export type SsoSessionClaims = z.infer<typeof SsoSessionClaims>;

// ---------------------------------------------------------------- 25. the shop

/** Parameters of a marketplace URL (endpoint 25). */
export const MarketplaceUrlParams = z.strictObject({
  groupId: z.string().min(1),
  marketplaceId: z.string().min(1),
  ticket: z.string().min(1),
  returnUrl: z.url({ protocol: /^https?$/ }).optional(),
  campaign: z.string().min(1).optional(),
  period: z.string().min(1).optional(),
});
/** Parameters of a marketplace URL. */
export type MarketplaceUrlParams = z.input<typeof MarketplaceUrlParams>;

/** How a site takes users back from the shop (spec: "Return flow"). */
export const IntegrationMode = z.enum(['ReturnUrl', 'SeparateTicketAuth']);
/** How a site takes users back from the shop. */
export type IntegrationMode = z.infer<typeof IntegrationMode>;
