import * as z from 'zod';
import { ticket } from './common.js';

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

/** A text claim of a request token: 1 to 1,024 characters, in every operation of the SSO service. */
const claim = z.string().min(1).max(1024);

/** Claims of the request token of endpoint 21, all required. */
export const SsoRequestClaims = z.object({
  cid: claim,
  sid: claim,
  at: ticket,
  ipa: claim,
  uas: claim,
  nbf: epoch,
  exp: epoch,
  iat: epoch,
  iss: claim,
  aud: claim,
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

// ---------------------------------------------------------------- the rest of the SSO service (beyond the spec)

/** Claims every request token of the SSO service carries (`cid`, and the JWT's own). */
const SsoBaseClaims = z.object({ cid: claim, nbf: epoch, exp: epoch, iat: epoch, iss: claim, aud: claim });

/** Claims of the identify token (a browser redirect): the base claims alone; it may live 60 s. */
export const SsoIdentifyClaims = SsoBaseClaims;
/** Claims of a create-session request (native apps): the device and app. */
export const SsoCreateSessionClaims = SsoBaseClaims.extend({
  ipa: claim,
  uas: claim,
  apn: claim,
  apv: claim,
  osn: claim,
  osv: claim,
});
/** The statuses of an SSO session (spec: States and transitions). */
export const SsoSessionStatus = z.enum(['anon', 'loggedin', 'terminated']);
/** The status of an SSO session. */
export type SsoSessionStatus = z.infer<typeof SsoSessionStatus>;
/** Claims of a session-status request: `lks` is the status the site last saw. */
export const SsoSessionStatusClaims = SsoBaseClaims.extend({
  sid: claim,
  ipa: claim,
  uas: claim,
  lks: SsoSessionStatus,
});
/** Claims of an authenticate request: the user's e-mail address and password. */
export const SsoAuthenticateClaims = SsoBaseClaims.extend({
  sid: claim,
  ipa: claim,
  uas: claim,
  usr: claim,
  pwd: claim,
});
/** Claims of a logout request. */
export const SsoLogoutClaims = SsoBaseClaims.extend({ sid: claim, ipa: claim, uas: claim });

/** The `err` codes of the SSO service's other operations. */
export const SsoServiceErrorCode = z.enum([
  'session_not_found',
  'session_terminated',
  'invalid_credentials',
  'account_frozen',
  'account_not_active',
  'session_limit_reached',
  'session_already_logged_in_on_another_account',
  'invalid_request_token',
]);
/** An `err` code of the SSO service's other operations. */
export type SsoServiceErrorCode = z.infer<typeof SsoServiceErrorCode>;

/** The query of identify: the identify token and the return URL, passed through to the landing page. */
export const SsoIdentifyQuery = z.strictObject({ t: z.string().min(1).max(8192), r: z.string().min(1).max(2048) });

/** Every `err` code this version knows: endpoint 21's ({@link SsoErrorCode}) and the other operations' ({@link SsoServiceErrorCode}). */
export type KnownSsoSessionErrorCode = SsoErrorCode | SsoServiceErrorCode;

/**
 * Claims of the session token the SSO service answers with (endpoint 21). `sts` and `err` are read as
 * any text (the spec leaves the SSO service's other codes open, and a newer service may add some);
 * their types name the known values, so a `switch` autocompletes them.
 */
export const SsoSessionClaims = z.object({
  /** The session state: an {@link SsoSessionStatus}, or one this version does not know. */
  sts: z.string() as z.ZodType<SsoSessionStatus | (string & {})>,
  sid: z.string(),
  aid: z.string(),
  at: z.string(),
  /** The error code, null on success: a {@link KnownSsoSessionErrorCode}, or one this version does not know. */
  err: (z.string() as z.ZodType<KnownSsoSessionErrorCode | (string & {})>).nullable(),
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
 * The query of a marketplace URL (endpoint 25), as a site sends it: the ticket `at`, the
 * `returnUrl` and the pre-selections, each a non-empty text. The SDK's `marketplaceUrl` writes it by
 * these rules (through a module generated from this schema, as it loads no zod); the shop's page
 * reads it as the entry's `pageQuery` says.
 */
export const MarketplaceQuery = z.object({
  at: ticket.meta({
    description:
      "The ticket (POST /api/authorization/ticket) a site sends its user with; the shop also serves the page without it. Any at (1 to 512 characters, as every ticket the SDK sends) is answered with a 303 to the same page without it, a valid one (bound to the marketplace's client) signing the user into the shop first. Without at (as after that redirect), the page is what the browser's shop session shows: the shop to a user signed in, else its login form",
  }),
  returnUrl: z.string().min(1).optional(),
  campaign: z.string().min(1).optional(),
  period: z.string().min(1).optional(),
});
