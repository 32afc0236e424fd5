/**
 * What the adapters (and the platform's own tests) read of a platform made by `createPlatform`,
 * beyond its public interface: one symbol-keyed member, declared here, instead of side tables.
 */
import type { RequestHandler } from './messages.js';
import type { PlatformOptions, PlatformSettings } from './options.js';
import type { Route } from './route.js';
import type { State } from './state.js';
import type { Platform } from './types.js';

/** The key of a platform's internals. */
export const INTERNALS: unique symbol = Symbol('platform internals');

/** A platform's internals. */
export interface PlatformInternals {
  /** The core: one request, start to end, without Fetch objects (the node:http adapter calls it). */
  readonly handle: RequestHandler;
  /** Its options, checked, with their defaults (the adapters read the body limit and the admin settings). */
  readonly settings: PlatformSettings;
  /** Its live state (the platform's own tests read the indexes and the shop's sessions). */
  readonly state: State;
  /** The routes it serves (the request log redacts their secret path parameters). */
  readonly routes: readonly Route[];
  /** The options it was made with (the standalone server makes each namespace's platform with them). */
  readonly options: PlatformOptions;
}

/** A platform made by `createPlatform`, with its internals. */
export interface InternalPlatform extends Platform {
  readonly [INTERNALS]: PlatformInternals;
}

function isInternal(platform: Platform): platform is InternalPlatform {
  return INTERNALS in platform;
}

/** The internals of a platform made by `createPlatform`; undefined for any other `Platform`. */
export function internalsOf(platform: Platform): PlatformInternals | undefined {
  return isInternal(platform) ? platform[INTERNALS] : undefined;
}
