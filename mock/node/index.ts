/**
 * The reference platform as a standalone HTTP server, and its parity run against a real platform
 * (`runParity`): Node only.
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/mock/node
 */

export type { AllowedHosts } from '../core/hosts.js';
export type { Platform, PlatformOptions, StateDocument, StateDocumentInput } from '../index.js';
// A platform of other options (another environment, a clock, lifetimes) for `startServer({ platform })`,
// without msw, which `/mock` needs.
export { createPlatform } from '../platform.js';
// The demo seed's ids, clients and users, here too: a project without msw (which `/mock` needs)
// reaches them from this entry.
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
} from '../seeds/index.js';
export type { Difference, DifferenceKind, Extra } from './parity/compare.js';
export {
  type ParityOptions,
  type ParityProgress,
  type ParityReport,
  type ParityTarget,
  runParity,
  type StepDifference,
  type StepExtra,
  type StepResult,
  UnreachableError,
  type WriteRecord,
} from './parity/run.js';
export { type RequestLogLine, type RunningServer, type StartServerOptions, startServer } from './server.js';
