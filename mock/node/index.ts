/**
 * The reference platform as a standalone HTTP server, and its parity run against a real platform
 * (`runParity`): Node only.
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/mock/node
 */

export type { AllowedHosts } from '../core/hosts.js';
export type { Platform, PlatformOptions, StateDocument, StateDocumentInput } from '../index.js';
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
