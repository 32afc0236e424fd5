/**
 * The spec's endpoint table, read by both halves of the package: the SDK's resource methods
 * send what an entry says, and the reference platform routes, authorises and validates by it.
 * A path, a scope or a schema is written here once. Every endpoint of the spec (1 to 25) has its
 * entry, and so has each endpoint beyond it; declaring an entry puts it in {@link endpoints}.
 */
import * as z from 'zod';
import {
  AvailableCategoriesResponse,
  LogToAccountsRequest,
  LogToAccountsResponse,
} from './schemas/account-change-log.js';
import { AccountActiveProductsQuery } from './schemas/accounts.js';
import {
  AccessTokenRequest,
  AccessTokenResponse,
  GenerateTicketRequest,
  GenerateTicketResponse,
} from './schemas/authorization.js';
import {
  CancellationReasonResponse,
  CancellationReasonsResponse,
  GetCancellationReasonQuery,
  GetCancellationReasonResponse,
} from './schemas/cancellation-reasons.js';
import { IdResponse } from './schemas/common.js';
import {
  GetHelpdeskRecordQuery,
  GetHelpdeskRecordResponse,
  GetPendingMessagesQuery,
  GetPendingMessagesResponse,
} from './schemas/helpdesk.js';
import {
  ActiveProductsResponse,
  CancelProductRequest,
  DocumentedMeV3Response,
  MeActiveProductsQuery,
} from './schemas/me.js';
import { EligibleForCampaignResponse, RetentionRequest, SubscribeToCampaignResponse } from './schemas/me-retention.js';
import {
  OrderValidationQuery,
  OrderValidationResponse,
  ValidateGiftReceiverRequest,
  ValidateGiftReceiverResponse,
} from './schemas/orders.js';
import { UpdatePricesRequest } from './schemas/prices.js';
import {
  GetPaymentPeriodsQuery,
  GetPaymentPeriodsResponse,
  GetProductSharingQuery,
  GetProductSharingResponse,
  GetProductsQuery,
  GetProductsResponse,
} from './schemas/products.js';
import { MarketplaceQuery, SignedInUser, SsoEnvelope, SsoIdentifyQuery } from './schemas/sign-on.js';
import {
  DistributionInformationQuery,
  DistributionInformationResponse,
  ReactivateSubscriptionRequest,
  SyncCustomerRequest,
} from './schemas/subscription-system.js';
import { TransferSubscriptionRequest } from './schemas/subscriptions.js';
import { FindTitleQuery, FindTitleResponse, ListTitlesQuery, ListTitlesResponse } from './schemas/titles.js';
import { ProvisionUserProductRequest, UpdateUserProductRequest } from './schemas/user-products.js';

/**
 * An answer whose form depends on one key of the validated input: `present` when the key is given,
 * else `absent` (endpoint 14: `{ item }` with `id`, `{ items }` without). Declared as data, so that
 * the SDK types each call's result by its input as the platform answers it.
 */
export interface ResponseByKey<
  K extends string = string,
  P extends z.ZodType = z.ZodType,
  A extends z.ZodType = z.ZodType,
> {
  /** The input's key that decides the form. */
  readonly key: K;
  /** The answer's schema when the key is given. */
  readonly present: P;
  /** The answer's schema when it is not. */
  readonly absent: A;
}

/**
 * Which of the spec's four hosts an endpoint lives on, named as the client's `hosts` option names
 * them: `api` (`{base_url}`), `auth` (`{auth_api_url}`), `sso` (`{sso_url}`), `shop` (`{shop_url}`).
 * `PlatformClient.request` takes one as `host`.
 */
export type Host = 'api' | 'auth' | 'sso' | 'shop';
/** The environments of the spec: stage and production. */
export type Environment = 'stage' | 'production';
/** HTTP methods used by the spec. */
export type Method = 'GET' | 'POST' | 'PUT';

/** One row of the endpoint table. */
export interface Endpoint<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  /** The spec's endpoint number; none for an endpoint beyond the spec (see `documented`). */
  readonly number?: number;
  /** For an endpoint beyond the spec: where the platform's public documentation shows it. */
  readonly documented?: string;
  /** The spec's name for it. */
  readonly title: string;
  /**
   * The SDK's call that sends it, `resource.method` on a `PlatformClient` (`products.list`): the
   * OpenAPI document tags the operation with the resource, and a test holds the method to the entry.
   */
  readonly sdk: `${string}.${string}`;
  readonly method: Method;
  readonly host: Host;
  /** The path on stage, and on production where it differs (endpoint 10). */
  readonly path: string | Readonly<Record<Environment, string>>;
  /** Every scope the token must carry. */
  readonly scopes: readonly string[];
  /**
   * Whether the token must be tied to a user: endpoints 6, 7 and 24, and the me API beyond the spec
   * (cancel product, v3 me, my active products).
   */
  readonly identity: boolean;
  /**
   * Whether the request carries `Authorization: Bearer`: every API endpoint and ticket generation;
   * not the token endpoint (client credentials in the body), SSO (a signed request token) nor the shop.
   */
  readonly bearer: boolean;
  /** The query parameters' schema. */
  readonly query: Q;
  /**
   * For a page: how the platform reads its query where a browser brings less or more than `query`
   * asks of a sender (25: the shop's own redirect drops the ticket). Made from `query`, so that
   * each parameter's rule is still written once there.
   */
  readonly pageQuery?: z.ZodType;
  /**
   * The JSON body's schema. On a `GET` (endpoint 6) the parameters travel in a JSON body, which
   * Fetch cannot send: the SDK sends it over node:http(s), and refuses at once where it cannot.
   */
  readonly body: B;
  /** Also takes the body form-urlencoded, as public clients post it (endpoint 23). */
  readonly form?: boolean;
  /** The answer's schema; a union where the answer has several forms (6, 14). */
  readonly response: R;
  /** Where the answer's form depends on a key of the input: the schema of each form (14: `item` with `id`). */
  readonly responseBy?: ResponseByKey;
  /** The answer is an HTML page for a browser, not JSON (the shop, endpoint 25). */
  readonly page?: boolean;
  /** The status of a successful answer. */
  readonly status: number;
  /**
   * The error statuses its own rules answer (a record absent, a state that does not allow it), besides
   * those any request may get: 400 (a refused parameter), 413 (a body over the limit), 500, and with a
   * bearer token 401 and 403. For a page (`page`), the statuses of its error pages. The OpenAPI
   * document lists them; a test checks them against what the platform's routes can answer.
   */
  readonly errors?: readonly number[];
}

/** Every entry, in the order this module declares them; see {@link endpoints}. */
const declared: Endpoint[] = [];

/**
 * An entry, its literal types kept (`bearer: false`, `method: 'GET'`), checked against {@link Endpoint}
 * and added to {@link endpoints}: no list of the table is kept by hand.
 */
function endpoint<const E extends Endpoint>(e: E): E {
  declared.push(e);
  return e;
}

/** How messages and documents name an endpoint: `Endpoint 14 (Get cancellation reason)`, or its title and source. */
export function nameOf(e: Endpoint): string {
  return e.number === undefined
    ? `${e.title} (beyond the spec: ${e.documented ?? 'documented'})`
    : `Endpoint ${e.number} (${e.title})`;
}

/** The path of an endpoint in an environment. */
export function pathOf(e: Endpoint, environment: Environment): string {
  return typeof e.path === 'string' ? e.path : e.path[environment];
}

/** The response schema for a validated input: the form `responseBy` names for it, else the entry's `response`. */
export function responseSchemaOf(e: Endpoint, input: unknown): z.ZodType {
  if (!e.responseBy) return e.response;
  const { key, present, absent } = e.responseBy;
  const given = input !== null && typeof input === 'object' && Reflect.get(input, key) !== undefined;
  return given ? present : absent;
}

const V1 = '/external/api/v1';

/** The fields every API endpoint shares: on `{base_url}`, with a bearer token, without a user. */
const api = { host: 'api', identity: false, bearer: true } as const;

export const updatePrices = endpoint({
  ...api,
  number: 1,
  title: 'Update prices',
  sdk: 'prices.update',
  method: 'POST',
  path: `${V1}/prices`,
  scopes: ['/external/price/w'],
  query: undefined,
  body: UpdatePricesRequest,
  response: IdResponse,
  status: 200,
  errors: [404],
});

export const getProducts = endpoint({
  ...api,
  number: 2,
  title: 'Get products',
  sdk: 'products.list',
  method: 'GET',
  path: `${V1}/products`,
  scopes: ['/external/product/r'],
  query: GetProductsQuery,
  body: undefined,
  response: GetProductsResponse,
  status: 200,
  errors: [404],
});

export const getPaymentPeriods = endpoint({
  ...api,
  number: 3,
  title: 'Get payment periods',
  sdk: 'products.paymentPeriods',
  method: 'GET',
  path: `${V1}/products/payment_periods`,
  scopes: ['/external/product/r'],
  query: GetPaymentPeriodsQuery,
  body: undefined,
  response: GetPaymentPeriodsResponse,
  status: 200,
  errors: [404],
});

export const logToAccounts = endpoint({
  ...api,
  number: 4,
  title: 'Log to accounts',
  sdk: 'accountChangeLog.logToAccounts',
  method: 'PUT',
  path: `${V1}/account_change_log/log_to_accounts`,
  scopes: ['/external/account_change_log/w'],
  query: undefined,
  body: LogToAccountsRequest,
  response: LogToAccountsResponse,
  status: 207,
});

/** Endpoint 4's list of available categories: the spec names the path; its shape is this package's choice. */
export const getAvailableCategories = endpoint({
  ...api,
  number: 4,
  title: 'Available change-log categories',
  sdk: 'accountChangeLog.availableCategories',
  method: 'GET',
  path: `${V1}/account_change_log/available_categories`,
  scopes: ['/external/account_change_log/w'],
  query: undefined,
  body: undefined,
  response: AvailableCategoriesResponse,
  status: 200,
});

export const transferSubscription = endpoint({
  ...api,
  number: 5,
  title: 'Transfer subscription',
  sdk: 'subscriptions.transfer',
  method: 'PUT',
  path: `${V1}/subscription/transfer_subscription`,
  scopes: ['/external/subscription/w'],
  query: undefined,
  body: TransferSubscriptionRequest,
  response: IdResponse,
  status: 200,
  errors: [404, 409],
});

export const eligibleForCampaign = endpoint({
  ...api,
  number: 6,
  title: 'Eligible for campaign',
  sdk: 'meRetention.eligibleForCampaign',
  method: 'GET',
  path: `${V1}/me_retention/eligible_for_campaign`,
  scopes: ['/external/me/w', '/external/me/r'],
  identity: true,
  query: undefined,
  body: RetentionRequest,
  response: EligibleForCampaignResponse,
  status: 200,
  errors: [404],
});

export const subscribeToCampaign = endpoint({
  ...api,
  number: 7,
  title: 'Subscribe to campaign',
  sdk: 'meRetention.subscribeToCampaign',
  method: 'PUT',
  path: `${V1}/me_retention/subscribe_to_campaign`,
  scopes: ['/external/me/w', '/external/me/r'],
  identity: true,
  query: undefined,
  body: RetentionRequest,
  response: SubscribeToCampaignResponse,
  status: 200,
  errors: [404, 409],
});

export const getPendingMessages = endpoint({
  ...api,
  number: 8,
  title: 'Get pending helpdesk messages',
  sdk: 'helpdesk.pendingMessages',
  method: 'GET',
  path: `${V1}/helpdesk_messages/get_pending_messages`,
  scopes: ['/external/helpdesk/r'],
  query: GetPendingMessagesQuery,
  body: undefined,
  response: GetPendingMessagesResponse,
  status: 200,
  errors: [404],
});

export const validateOrder = endpoint({
  ...api,
  number: 9,
  title: 'Order validation',
  sdk: 'orders.validate',
  method: 'GET',
  path: '/external/api/v2/order_validation',
  scopes: ['/external/order_validation/r'],
  query: OrderValidationQuery,
  body: undefined,
  response: OrderValidationResponse,
  status: 200,
  errors: [404],
});

export const getHelpdeskMessageTemplate = endpoint({
  ...api,
  number: 10,
  title: 'Get helpdesk message template',
  sdk: 'helpdesk.template',
  method: 'GET',
  // Spelled differently on production (spec endpoint 10).
  path: { stage: `${V1}/helpdesk_message_templates`, production: `${V1}/helpdesk_messages_templates` },
  scopes: ['/external/helpdesk/r'],
  query: GetHelpdeskRecordQuery,
  body: undefined,
  response: GetHelpdeskRecordResponse,
  status: 200,
  errors: [404],
});

export const getHelpdeskMessage = endpoint({
  ...api,
  number: 11,
  title: 'Get helpdesk message',
  sdk: 'helpdesk.message',
  method: 'GET',
  path: `${V1}/helpdesk_messages`,
  scopes: ['/external/helpdesk/r'],
  query: GetHelpdeskRecordQuery,
  body: undefined,
  response: GetHelpdeskRecordResponse,
  status: 200,
  errors: [404],
});

export const updateUserProduct = endpoint({
  ...api,
  number: 12,
  title: 'Update user-product',
  sdk: 'userProducts.update',
  method: 'PUT',
  path: `${V1}/userproducts`,
  scopes: ['/external/userproduct/w'],
  query: undefined,
  body: UpdateUserProductRequest,
  response: IdResponse,
  status: 200,
  errors: [404, 409],
});

export const provisionUserProduct = endpoint({
  ...api,
  number: 13,
  title: 'Provision user-product',
  sdk: 'userProducts.provision',
  method: 'POST',
  path: `${V1}/userproducts`,
  scopes: ['/external/userproduct/w'],
  query: undefined,
  body: ProvisionUserProductRequest,
  response: IdResponse,
  status: 201,
  errors: [404, 409],
});

export const getCancellationReason = endpoint({
  ...api,
  number: 14,
  title: 'Get cancellation reason',
  sdk: 'cancellationReasons.list',
  method: 'GET',
  path: `${V1}/cancellation_reason`,
  scopes: ['/external/cancellation_reason/r'],
  query: GetCancellationReasonQuery,
  body: undefined,
  response: GetCancellationReasonResponse,
  responseBy: { key: 'id', present: CancellationReasonResponse, absent: CancellationReasonsResponse },
  status: 200,
  errors: [404],
});

export const getProductSharing = endpoint({
  ...api,
  number: 15,
  title: 'Get product sharing',
  sdk: 'products.sharing',
  method: 'GET',
  path: `${V1}/products/get_product_sharing`,
  scopes: ['/external/product/r'],
  query: GetProductSharingQuery,
  body: undefined,
  response: GetProductSharingResponse,
  status: 200,
  errors: [404],
});

export const reactivateSubscription = endpoint({
  ...api,
  number: 16,
  title: 'Reactivate platform-provisioned subscription',
  sdk: 'subscriptionSystem.reactivate',
  method: 'PUT',
  path: `${V1}/subscription_system/reactivate_platform_provisioned_subscription`,
  scopes: ['/external/subscription_system/w'],
  query: undefined,
  body: ReactivateSubscriptionRequest,
  response: IdResponse,
  status: 200,
  errors: [404, 409],
});

export const validateGiftReceiver = endpoint({
  ...api,
  number: 17,
  title: 'Validate gift receiver',
  sdk: 'orders.validateGiftReceiver',
  method: 'POST',
  path: `${V1}/order/validate_gift_receiver`,
  scopes: ['/external/order/r'],
  query: undefined,
  body: ValidateGiftReceiverRequest,
  response: ValidateGiftReceiverResponse,
  status: 200,
  errors: [404],
});

export const syncAddress = endpoint({
  ...api,
  number: 18,
  title: 'Sync address from external subscription system',
  sdk: 'subscriptionSystem.syncAddress',
  method: 'PUT',
  path: `${V1}/subscription_system/sync_address_from_external_subscription_system`,
  scopes: ['/external/subscription_system/w'],
  query: undefined,
  body: SyncCustomerRequest,
  response: IdResponse,
  status: 200,
  errors: [404],
});

export const syncCustomerSubscriptions = endpoint({
  ...api,
  number: 19,
  title: 'Sync customer subscriptions',
  sdk: 'subscriptionSystem.syncCustomerSubscriptions',
  method: 'PUT',
  path: `${V1}/subscription_system/sync_customer_subscriptions`,
  scopes: ['/external/subscription_system/w'],
  query: undefined,
  body: SyncCustomerRequest,
  response: IdResponse,
  status: 200,
  errors: [404, 409],
});

export const getDistributionInformation = endpoint({
  ...api,
  number: 20,
  title: 'Distribution information',
  sdk: 'subscriptionSystem.distributionInformation',
  method: 'GET',
  path: `${V1}/subscription_system/distribution_information`,
  scopes: ['/external/subscription_system/r'],
  query: DistributionInformationQuery,
  body: undefined,
  response: DistributionInformationResponse,
  status: 200,
  errors: [404],
});

export const authenticateWithTicket = endpoint({
  number: 21,
  title: 'SSO authenticatewithticket',
  sdk: 'sso.authenticateWithTicket',
  method: 'POST',
  host: 'sso',
  path: '/authenticatewithticket',
  scopes: [],
  identity: false,
  bearer: false,
  query: undefined,
  body: SsoEnvelope,
  response: SsoEnvelope,
  status: 200,
  // The reference platform's: an operation under way when its state is reset or restored.
  errors: [409],
});

export const generateTicket = endpoint({
  number: 22,
  title: 'Generate ticket',
  sdk: 'authorization.generateTicket',
  method: 'POST',
  host: 'auth',
  path: '/api/authorization/ticket',
  scopes: ['/api/authorization/ticket'],
  // Form (b) needs a user token, form (a) a server-to-server one: the route matches the form to the token.
  identity: false,
  bearer: true,
  query: undefined,
  body: GenerateTicketRequest,
  response: GenerateTicketResponse,
  status: 200,
});

/**
 * Endpoint 23 with each of its grants: `ticket` (the spec), `refresh_token` and the
 * server-to-server `none` (the platform's public documentation).
 */
export const accessToken = endpoint({
  number: 23,
  title: 'Exchange ticket for access token',
  sdk: 'authorization.exchangeTicket',
  method: 'POST',
  host: 'auth',
  path: '/api/authorization/access_token',
  scopes: [],
  identity: false,
  bearer: false,
  query: undefined,
  body: AccessTokenRequest,
  form: true,
  response: AccessTokenResponse,
  status: 200,
  errors: [401],
});

export const getSignedInUser = endpoint({
  ...api,
  number: 24,
  title: 'Get signed-in user',
  sdk: 'me.get',
  method: 'GET',
  path: `${V1}/me/`,
  scopes: [],
  identity: true,
  query: undefined,
  body: undefined,
  response: SignedInUser,
  status: 200,
});

/** Endpoint 25: a browser is sent to the shop with a ticket; the SDK builds the URL (`shop.marketplaceUrl`). */
export const marketplace = endpoint({
  number: 25,
  title: 'Send a user to the shop',
  sdk: 'shop.marketplaceUrl',
  method: 'GET',
  host: 'shop',
  path: '/marketplace/{groupId}/{marketplaceId}',
  scopes: [],
  identity: false,
  bearer: false,
  query: MarketplaceQuery,
  // Also reached without the ticket (the shop's own redirect drops it); a parameter it does not know passes through.
  pageQuery: MarketplaceQuery.partial().catchall(z.string()),
  body: undefined,
  response: z.string(),
  page: true,
  status: 200,
  errors: [404],
});

// ------------------------------------------------------------------ beyond the spec

/**
 * Cancel product: the signed-in user cancels one of their user-products (it runs to the end of its
 * term). Not in the spec; the platform's public documentation shows it under the me API.
 */
export const cancelProduct = endpoint({
  ...api,
  documented: 'the me API (cancel product)',
  title: 'Cancel product',
  sdk: 'me.cancelProduct',
  method: 'PUT',
  path: `${V1}/me/cancel_product`,
  scopes: ['/external/me/w'],
  identity: true,
  query: undefined,
  body: CancelProductRequest,
  response: IdResponse,
  status: 200,
  errors: [404, 409],
});

const ME_API = 'the me API (public documentation)';

export const getMeDocumented = endpoint({
  ...api,
  documented: ME_API,
  title: 'Get me (v3)',
  sdk: 'me.getDocumented',
  method: 'GET',
  path: '/external/api/v3/me',
  scopes: ['/external/me/w'],
  identity: true,
  query: undefined,
  body: undefined,
  response: DocumentedMeV3Response,
  status: 200,
});

export const getMyActiveProducts = endpoint({
  ...api,
  documented: ME_API,
  title: 'Get my active products',
  sdk: 'me.activeProducts',
  method: 'GET',
  path: `${V1}/me/active_products`,
  scopes: ['/external/me/w'],
  identity: true,
  query: MeActiveProductsQuery,
  body: undefined,
  response: ActiveProductsResponse,
  status: 200,
});

export const getAccountActiveProducts = endpoint({
  ...api,
  documented: 'the account API (public documentation)',
  title: "Get an account's active products",
  sdk: 'accounts.activeProducts',
  method: 'GET',
  path: `${V1}/accounts/active_products`,
  scopes: ['/external/account/r'],
  query: AccountActiveProductsQuery,
  body: undefined,
  response: ActiveProductsResponse,
  status: 200,
  errors: [404],
});

export const listTitles = endpoint({
  ...api,
  documented: 'the titles API (public documentation)',
  title: 'List titles',
  sdk: 'titles.list',
  method: 'GET',
  path: `${V1}/titles/`,
  scopes: ['/external/title/r'],
  query: ListTitlesQuery,
  body: undefined,
  response: ListTitlesResponse,
  status: 200,
});

export const findTitle = endpoint({
  ...api,
  documented: 'the titles API (public documentation)',
  title: 'Find one title',
  sdk: 'titles.find',
  method: 'GET',
  path: `${V1}/titles/find_one`,
  scopes: ['/external/title/r'],
  query: FindTitleQuery,
  body: undefined,
  response: FindTitleResponse,
  status: 200,
  errors: [404],
});

/** The SSO service's operations beyond endpoint 21: `{ t }` in and out, signed with the client's secret. */
const ssoOperation = {
  host: 'sso',
  method: 'POST',
  scopes: [],
  identity: false,
  bearer: false,
  query: undefined,
  body: SsoEnvelope,
  response: SsoEnvelope,
  status: 200,
  documented: 'the SSO service (public documentation and clients)',
  // The reference platform's: an operation under way when its state is reset or restored.
  errors: [409],
} as const;

export const ssoIdentify = endpoint({
  documented: 'the SSO service (public documentation and clients)',
  title: 'SSO identify',
  sdk: 'sso.identifyUrl',
  method: 'GET',
  host: 'sso',
  path: '/identify',
  scopes: [],
  identity: false,
  bearer: false,
  query: SsoIdentifyQuery,
  body: undefined,
  response: z.string(),
  page: true,
  status: 302,
  // 409: the reference platform's page for a link being checked when its state is reset or restored.
  errors: [400, 409],
});

export const ssoCreateSession = endpoint({
  ...ssoOperation,
  title: 'SSO createsession',
  sdk: 'sso.createSession',
  path: '/createsession',
});
export const ssoSessionStatus = endpoint({
  ...ssoOperation,
  title: 'SSO sessionstatus',
  sdk: 'sso.sessionStatus',
  path: '/sessionstatus',
});
export const ssoAuthenticate = endpoint({
  ...ssoOperation,
  title: 'SSO authenticate',
  sdk: 'sso.authenticate',
  path: '/authenticate',
});
export const ssoLogout = endpoint({
  ...ssoOperation,
  title: 'SSO logout',
  sdk: 'sso.logout',
  path: '/logout',
});

/** Every entry of the table as declared above: the spec's order, then the endpoints beyond it. */
export const endpoints: readonly Endpoint[] = Object.freeze(declared);
