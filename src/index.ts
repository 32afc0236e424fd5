/**
 * A typed client for the subscription platform's external API.
 *
 * @packageDocumentation
 */

export { APIPromise, type APIResponse } from './api-promise.js';
export type { AccessTokenAuth, AuthOptions, ClientCredentialsAuth } from './auth.js';
export {
  type Hosts,
  PlatformClient,
  type PlatformClientOptions,
  type RequestOptions,
  type RetryDelay,
} from './client.js';
export type { Environment } from './endpoints.js';
export {
  APIConnectionError,
  APIError,
  type APIErrorInit,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PlatformError,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
  type ResponseValidationErrorInit,
  UnprocessableEntityError,
  type ValidationIssue,
} from './errors.js';
export type { Logger, LogMethod } from './logger.js';
export type { Prices } from './resources/prices.js';
export type { PaymentPeriodsQuery, Products } from './resources/products.js';
export type { APIResource } from './resources/resource.js';
export type { AccessTokenResponse } from './schemas/authorization.js';
export type { ErrorBody, IdResponse } from './schemas/common.js';
/** The zod schemas of every resource, request and response, and the shared error map. */
export * as schemas from './schemas/index.js';
export type {
  GetPaymentPeriodsQuery,
  GetPaymentPeriodsResponse,
  GetProductSharingQuery,
  GetProductSharingResponse,
  GetProductsQuery,
  GetProductsResponse,
  PaymentPeriod,
  PriceDetail,
  PricePeriod,
  PricePeriodInput,
  Product,
  ProductSharingOption,
  UpdatePricesRequest,
} from './schemas/products.js';
