/**
 * The reference platform as a standalone HTTP server (Node only).
 *
 * @packageDocumentation
 * @module subscription-platform-sdk/mock/node
 */

export type { AllowedHosts } from '../core/hosts.js';
export type { Platform, PlatformOptions, StateDocument, StateDocumentInput } from '../index.js';
export { type RequestLogLine, type RunningServer, type StartServerOptions, startServer } from './server.js';
