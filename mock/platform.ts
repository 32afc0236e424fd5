/**
 * The composition root: a reference platform wired with every route of `mock/routes` and the named
 * seeds of `mock/seeds`. The core (`mock/core`) knows neither; it is built from them here.
 */
import type { PlatformOptions } from './core/options.js';
import { buildPlatform } from './core/platform.js';
import type { Route } from './core/route.js';
import type { Platform } from './core/types.js';
import { allRoutes } from './routes/index.js';
import { seeds } from './seeds/index.js';

/** Creates a reference platform. Throws a `HttpError` naming the field when an option or the seed is invalid. */
export function createPlatform(options: PlatformOptions = {}): Platform {
  return createPlatformWith(allRoutes, options);
}

/**
 * Creates a platform serving `routes` (the test suite adds a failing route this way).
 * @internal
 */
export function createPlatformWith(routes: readonly Route[], options: PlatformOptions = {}): Platform {
  return buildPlatform({ routes, seeds }, options);
}
