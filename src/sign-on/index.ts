/**
 * The sign-on helpers on their own, without `PlatformClient`: the shop's URL (endpoint 25), the
 * return flow with single use of tickets, return-URL allow-lists, and the SSO service's tokens
 * (create, verify, read). Pure modules without HTTP of their own: they run in Node and in browsers
 * (WebCrypto). A site that has the client uses `client.shop.marketplaceUrl`, `client.signOn` and
 * `client.sso`, which call these; import this entry for a page that needs no client (a small
 * bundle), or to make or check an SSO token yourself.
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/sign-on
 */
export {
  SignOnConfigurationError,
  SignOnError,
  SignOnValidationError,
  SsoTokenError,
  type SsoTokenErrorReason,
  TicketReplayError,
} from './errors.js';
export {
  DEFAULT_TICKET_REUSE_SECONDS,
  MemoryTicketStore,
  type MemoryTicketStoreOptions,
  ReplayGuard,
  type ReplayGuardOptions,
  type TicketStore,
} from './replay-guard.js';
export {
  allowedReturnUrl,
  createReturnHandler,
  type ReturnHandler,
  type ReturnHandlerOptions,
  type ReturnResult,
  type ReturnUrlRefusal,
  type SeparateTicketAuthOptions,
  type SeparateTicketAuthResult,
  type TicketExchanger,
} from './return.js';
export { type MarketplaceUrlParams, marketplaceUrl } from './shop.js';
export {
  type AuthenticateWithTicketResult,
  createSsoOperationToken,
  createSsoRequestToken,
  SSO_TOKEN_LIFETIME_SECONDS,
  type SsoOperationTokenInput,
  type SsoRequestTokenInput,
  toAuthenticateResult,
  type VerifySsoSessionTokenOptions,
  verifySsoSessionToken,
} from './sso-token.js';
