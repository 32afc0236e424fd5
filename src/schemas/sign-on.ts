import * as z from 'zod';

// ---------------------------------------------------------------- 24. signed-in user

/** The signed-in user's account, read with a user token (endpoint 24). */
export const SignedInUser = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  customerNumber: z.string(),
  address: z.object({
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
export const SsoRequestClaims = z.object({
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
export const SsoSessionClaims = z.object({
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

/**
 * The query of a marketplace URL on the wire (endpoint 25): the ticket `at`, the `returnUrl` and
 * pre-selections. The shop reads it leniently: an unknown parameter is ignored.
 */
export const MarketplaceQuery = z.object({
  at: z.string().min(1),
  returnUrl: z.string().optional(),
  campaign: z.string().optional(),
  period: z.string().optional(),
});
