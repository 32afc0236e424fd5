/**
 * The types of every method's parameters and results, and of the client's resources: for code that
 * names them (a function that takes a `Product`, a wrapper around `products.list`). Type-only: it
 * adds nothing to a bundle.
 *
 * ```ts
 * import type { GetProductsQuery, Product } from 'subscription-platform-sdk/types';
 * ```
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/types
 */

export type { Environment, Host } from './endpoints.js';
export type {
  APIConnectionErrorOptions,
  APIErrorInit,
  RedirectNotFollowedErrorOptions,
  ResponseTooLargeErrorOptions,
  ResponseValidationErrorInit,
} from './errors.js';
export type {
  BatchProgress,
  ChangeLogFailure,
  LogInBatchesOptions,
  LogInBatchesResult,
} from './helpers/log-in-batches.js';
export type {
  CustomerSyncResult,
  SyncInSequenceOptions,
  SyncInSequenceResult,
  SyncProgress,
} from './helpers/sync-in-sequence.js';
export type { AccountChangeLog } from './resources/account-change-log.js';
export type { Accounts } from './resources/accounts.js';
export type {
  Authorization,
  ExchangeTicketParams,
  RefreshTokenParams,
  TokenRequestOptions,
} from './resources/authorization.js';
export type { CancellationReasonFilters, CancellationReasons } from './resources/cancellation-reasons.js';
export type { Helpdesk } from './resources/helpdesk.js';
export type { GetSignedInUserParams, Me } from './resources/me.js';
export type { CampaignEligibility, MeRetention, UserRequestOptions } from './resources/me-retention.js';
export type { Orders } from './resources/orders.js';
export type { Prices } from './resources/prices.js';
export type { PaymentPeriodsQuery, Products } from './resources/products.js';
export type { APIResource } from './resources/resource.js';
export type { Shop } from './resources/shop.js';
export type { ReturnHandlerConfig, SignOn } from './resources/sign-on.js';
export type {
  AuthenticateWithTicketParams,
  CreateSsoSessionParams,
  Sso,
  SsoAuthenticateParams,
  SsoLogoutParams,
  SsoSessionStatusParams,
  SsoVisitor,
} from './resources/sso.js';
export type { SubscriptionSystem } from './resources/subscription-system.js';
export type { Subscriptions } from './resources/subscriptions.js';
export type { Titles } from './resources/titles.js';
export type { UserProducts } from './resources/user-products.js';
export type * from './schemas/account-change-log.js';
export type * from './schemas/accounts.js';
export type * from './schemas/authorization.js';
export type * from './schemas/cancellation-reasons.js';
export type { ErrorBody, IdResponse } from './schemas/common.js';
export type * from './schemas/helpdesk.js';
export type * from './schemas/me.js';
export type * from './schemas/me-retention.js';
export type * from './schemas/orders.js';
export type * from './schemas/prices.js';
export type * from './schemas/products.js';
export type {
  KnownSsoSessionErrorCode,
  SignedInUser,
  SsoErrorCode,
  SsoServiceErrorCode,
  SsoSessionClaims,
  SsoSessionStatus,
} from './schemas/sign-on.js';
export type * from './schemas/subscription-system.js';
export type * from './schemas/subscriptions.js';
export type * from './schemas/titles.js';
export type * from './schemas/user-products.js';
export type {
  AuthenticateWithTicketResult,
  MarketplaceUrlParams,
  ReturnHandler,
  ReturnHandlerOptions,
  ReturnResult,
  ReturnUrlRefusal,
  SeparateTicketAuthOptions,
  SeparateTicketAuthResult,
  TicketExchanger,
} from './sign-on/index.js';
export type {
  ReadLandingOptions,
  SsoAccountFrozen,
  SsoInvalidCredentials,
  SsoLanding,
  SsoPlainRefusal,
  SsoRefusal,
  SsoRefusalBase,
  SsoResult,
  SsoSessionState,
  SsoUnrecognisedRefusal,
} from './sign-on/sso-operations.js';
