/**
 * Ticket sign-on helpers (endpoints 21 and 25, the return flow, single use of tickets). Pure
 * modules without HTTP of their own: they run in Node and in browsers (WebCrypto).
 *
 * @module
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
