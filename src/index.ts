/**
 * A typed client for the subscription platform's external API: `PlatformClient`, its options, what
 * its calls answer (`APIPromise`, `APIResponse`), the errors they throw, and what a site's sign-on
 * needs beside the client (a shared `ReplayGuard` for its tickets). The types of each method's
 * parameters and results are in `subscription-platform-sdk/types`; the sign-on helpers that work
 * without a client, down to the SSO tokens, in `subscription-platform-sdk/sign-on`; the zod
 * schemas in `subscription-platform-sdk/schemas`.
 *
 * @packageDocumentation
 * @module subscription-platform-sdk
 */

export { APIPromise, type APIResponse } from './api-promise.js';
export { PlatformClient } from './client.js';
export type { Environment, Host } from './endpoints.js';
export {
  APIConnectionError,
  APIError,
  APITimeoutError,
  AuthenticationError,
  BadRequestError,
  ClientConfigurationError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PlatformError,
  RateLimitError,
  RedirectNotFollowedError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
  UnsupportedRequestError,
  type ValidationIssue,
} from './errors.js';
export type { Logger, LogMethod } from './logger.js';
export type {
  AccessTokenAuth,
  AuthOptions,
  ClientCredentials,
  ClientCredentialsAuth,
  Hosts,
  PlatformClientOptions,
  RetryDelay,
  SsoOptions,
} from './options.js';
export type { RawRequestParams, RequestHeaders, RequestOptions } from './request.js';
export type { ErrorCode, KnownErrorCode } from './schemas/common.js';
export {
  MemoryTicketStore,
  type MemoryTicketStoreOptions,
  ReplayGuard,
  type ReplayGuardOptions,
  SignOnConfigurationError,
  SignOnError,
  SignOnValidationError,
  SsoTokenError,
  type SsoTokenErrorReason,
  TicketReplayError,
  type TicketStore,
} from './sign-on/index.js';
