/**
 * The reference platform: an in-memory, stateful subscription platform that behaves as the spec
 * says, for tests. Platform-neutral: runs in Node and in a browser. Needs the optional peer
 * dependency `msw` (`npm i -D msw`), and says so when it is missing; without it,
 * `subscription-platform-sdk/mock/node` serves the same platform over HTTP (`startServer`).
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/mock
 */
export type { Environment, Host } from '../src/endpoints.js';
export type { AccessTokenResponse } from '../src/schemas/authorization.js';
export type { Clock } from './core/clock.js';
export {
  type ExternalCustomerInput,
  type SsoSessionRecord,
  type StateDocument,
  type StateDocumentInput,
  StateDocumentSchema,
  type SubscriptionSystemRecord,
  type TicketRecord,
  type UserProductRecord,
} from './core/document.js';
export { HttpError } from './core/errors.js';
export type { Fault, FaultList } from './core/faults.js';
export type { JournalEntry, Refusal, RequestJournal } from './core/journal.js';
export type { PlatformOptions } from './core/options.js';
export type {
  CreateSsoSessionOptions,
  HandleInfo,
  IssueTicketOptions,
  MintTokenOptions,
  Platform,
  SsoSessions,
  SubscriptionSystems,
} from './core/types.js';
export { createHandlers, defaultHosts, type Origins } from './msw.js';
export { type DescribedServer, type MeShape, type OpenApiOptions, openApiDocument } from './openapi.js';
export { createPlatform } from './platform.js';
export {
  DEMO_SITE_LANDING_URL,
  DEMO_SSO_AUDIENCE,
  type DemoUser,
  demoCredentials,
  demoIds,
  demoShop,
  demoSite,
  demoSiteB,
  demoUsers,
  seeds,
} from './seeds/index.js';
