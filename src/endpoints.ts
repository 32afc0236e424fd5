/**
 * The spec's endpoint table, read by both halves of the package: the SDK's resource methods
 * send what an entry says, and the reference platform routes, authorises and validates by it.
 * A path, a scope or a schema is written here once.
 */
import type * as z from 'zod';
import { AccessTokenResponse, ClientCredentialsRequest } from './schemas/authorization.js';
import { IdResponse } from './schemas/common.js';
import { OrderValidationQuery, OrderValidationResponse } from './schemas/orders.js';
import {
  GetPaymentPeriodsQuery,
  GetPaymentPeriodsResponse,
  GetProductSharingQuery,
  GetProductSharingResponse,
  GetProductsQuery,
  GetProductsResponse,
  UpdatePricesRequest,
} from './schemas/products.js';
import {
  GenerateTicketRequest,
  GenerateTicketResponse,
  RefreshTokenGrantRequest,
  SignedInUser,
  SsoEnvelope,
  TicketGrantRequest,
} from './schemas/sign-on.js';

/** Which of the spec's four hosts an endpoint lives on. */
export type Host = 'api' | 'auth' | 'sso' | 'shop';
/** The environments of the spec: stage and production. */
export type Environment = 'stage' | 'production';
/** HTTP methods used by the spec. */
export type Method = 'GET' | 'POST' | 'PUT';

export interface Endpoint<
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType = z.ZodType,
> {
  /** The spec's endpoint number. */
  readonly number: number;
  /** The spec's name for it. */
  readonly title: string;
  readonly method: Method;
  readonly host: Host;
  /** The path on stage, and on production where it differs (endpoint 10). */
  readonly path: string | Readonly<Record<Environment, string>>;
  /** Every scope the token must carry. */
  readonly scopes: readonly string[];
  /** Whether the token must be tied to a user (endpoints 6, 7, 24). */
  readonly identity: boolean;
  /**
   * Whether the request carries `Authorization: Bearer`: every API endpoint and ticket generation;
   * not the token endpoint (client credentials in the body) nor SSO (a signed request token).
   */
  readonly bearer: boolean;
  readonly query: Q;
  readonly body: B;
  readonly response: R;
  /** The status of a successful answer. */
  readonly status: number;
}

function endpoint<Q extends z.ZodType | undefined, B extends z.ZodType | undefined, R extends z.ZodType>(
  e: Endpoint<Q, B, R>,
): Endpoint<Q, B, R> {
  return e;
}

/** The path of an endpoint in an environment. */
export function pathOf(e: Endpoint, environment: Environment): string {
  return typeof e.path === 'string' ? e.path : e.path[environment];
}

export const updatePrices = endpoint({
  number: 1,
  title: 'Update prices',
  method: 'POST',
  host: 'api',
  path: '/external/api/v1/prices',
  scopes: ['/external/price/w'],
  identity: false,
  bearer: true,
  query: undefined,
  body: UpdatePricesRequest,
  response: IdResponse,
  status: 200,
});

export const getProducts = endpoint({
  number: 2,
  title: 'Get products',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/products',
  scopes: ['/external/product/r'],
  identity: false,
  bearer: true,
  query: GetProductsQuery,
  body: undefined,
  response: GetProductsResponse,
  status: 200,
});

export const getPaymentPeriods = endpoint({
  number: 3,
  title: 'Get payment periods',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/products/payment_periods',
  scopes: ['/external/product/r'],
  identity: false,
  bearer: true,
  query: GetPaymentPeriodsQuery,
  body: undefined,
  response: GetPaymentPeriodsResponse,
  status: 200,
});

export const getProductSharing = endpoint({
  number: 15,
  title: 'Get product sharing',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/products/get_product_sharing',
  scopes: ['/external/product/r'],
  identity: false,
  bearer: true,
  query: GetProductSharingQuery,
  body: undefined,
  response: GetProductSharingResponse,
  status: 200,
});

export const validateOrder = endpoint({
  number: 9,
  title: 'Order validation',
  method: 'GET',
  host: 'api',
  path: '/external/api/v2/order_validation',
  scopes: ['/external/order_validation/r'],
  identity: false,
  bearer: true,
  query: OrderValidationQuery,
  body: undefined,
  response: OrderValidationResponse,
  status: 200,
});

export const authenticateWithTicket = endpoint({
  number: 21,
  title: 'SSO authenticatewithticket',
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
});

export const generateTicket = endpoint({
  number: 22,
  title: 'Generate ticket',
  method: 'POST',
  host: 'auth',
  path: '/api/authorization/ticket',
  scopes: ['/api/authorization/ticket'],
  // Form (b) needs a user token; form (a) a server-to-server one: the route decides by the body.
  identity: false,
  bearer: true,
  query: undefined,
  body: GenerateTicketRequest,
  response: GenerateTicketResponse,
  status: 200,
});

const ACCESS_TOKEN_PATH = '/api/authorization/access_token';

/** Endpoint 23 with the platform's server-to-server grant, `grant_type: 'none'` (the platform's public documentation). */
export const clientCredentialsGrant = endpoint({
  number: 23,
  title: 'Get access token (client credentials)',
  method: 'POST',
  host: 'auth',
  path: ACCESS_TOKEN_PATH,
  scopes: [],
  identity: false,
  bearer: false,
  query: undefined,
  body: ClientCredentialsRequest,
  response: AccessTokenResponse,
  status: 200,
});

/** Endpoint 23 with the ticket grant: a ticket for a user's access token. */
export const ticketGrant = endpoint({
  number: 23,
  title: 'Exchange ticket for access token',
  method: 'POST',
  host: 'auth',
  path: ACCESS_TOKEN_PATH,
  scopes: [],
  identity: false,
  bearer: false,
  query: undefined,
  body: TicketGrantRequest,
  response: AccessTokenResponse,
  status: 200,
});

/** Endpoint 23 with the refresh-token grant. */
export const refreshTokenGrant = endpoint({
  number: 23,
  title: 'Refresh access token',
  method: 'POST',
  host: 'auth',
  path: ACCESS_TOKEN_PATH,
  scopes: [],
  identity: false,
  bearer: false,
  query: undefined,
  body: RefreshTokenGrantRequest,
  response: AccessTokenResponse,
  status: 200,
});

export const getSignedInUser = endpoint({
  number: 24,
  title: 'Get signed-in user',
  method: 'GET',
  host: 'api',
  path: '/external/api/v1/me/',
  scopes: [],
  identity: true,
  bearer: true,
  query: undefined,
  body: undefined,
  response: SignedInUser,
  status: 200,
});
