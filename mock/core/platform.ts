/**
 * The reference platform's core: a pure function of (state, Fetch `Request`) to `Response`, which
 * knows nothing of its transport. It is built here from named parts: the options (`options.ts`),
 * the state, the clock, the journal and faults, dispatch (`dispatch.ts`, with `authentication.ts`),
 * the request handler (`handler.ts`) and the admin tools (`admin-tools.ts`). The routes and the
 * named seeds come from above (`mock/platform.ts`): the core imports neither.
 */

import { createAdminTools } from './admin-tools.js';
import { OffsetClock } from './clock.js';
import { createDispatch } from './dispatch.js';
import { type StateDocumentInput, StateDocumentSchema } from './document.js';
import { HttpError } from './errors.js';
import { Faults } from './faults.js';
import { createRequestHandler } from './handler.js';
import { INTERNALS, type InternalPlatform } from './internals.js';
import { Journal } from './journal.js';
import { bodyLimitFor, bodyTooLarge, readBodyText } from './limits.js';
import { type CoreRequest, type RequestHandler, setOwn } from './messages.js';
import { type PlatformOptions, type PlatformSettings, platformSettings } from './options.js';
import type { Route } from './route.js';
import { Router } from './router.js';
import { createSsoSessions } from './sso.js';
import { createState } from './state.js';
import { createSubscriptionSystems } from './subscription-system.js';
import type { HandleInfo, Platform } from './types.js';
import { validate } from './validate.js';

/** The seeds a platform may name (`seed: 'demo'`). */
export type NamedSeeds = Readonly<Record<'demo' | 'empty', StateDocumentInput>>;

/** What a platform is built from besides its options: the routes it serves and the seeds it may name. */
export interface PlatformParts {
  readonly routes: readonly Route[];
  readonly seeds: NamedSeeds;
}

/** The state document a platform starts from: a named seed, or the document given. */
function seedDocument(seed: PlatformSettings['seed'], seeds: NamedSeeds): StateDocumentInput {
  return seed === 'demo' || seed === 'empty' ? seeds[seed] : seed;
}

/**
 * A Fetch `Request` as the core reads it. Its body is read chunk by chunk and no further than the
 * size limit; a body stream that fails (the client went away) is refused, and journaled, as such.
 */
async function coreRequestOf(request: Request, info: HandleInfo, maxBodyBytes: number): Promise<CoreRequest> {
  const url = new URL(request.url);
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    setOwn(headers, name, value);
  });
  const method = request.method.toUpperCase();
  const limit = bodyLimitFor(maxBodyBytes, method, url.pathname);
  try {
    if (info.bodyTooLarge) throw bodyTooLarge(limit);
    if (info.bodyUnreachable !== undefined)
      throw new HttpError(500, 'internal_server_error', info.bodyUnreachable, 'body');
    const body = info.body ?? (await readBodyText(request, limit));
    return { method, url, headers, body, ip: info.ip, refusal: undefined };
  } catch (error) {
    const refusal =
      error instanceof HttpError
        ? error
        : new HttpError(400, 'malformed_request', 'The request body could not be read', 'body');
    return { method, url, headers, body: null, ip: info.ip, refusal };
  }
}

/** Answers a Fetch `Request` through the core. */
async function handleFetch(handle: RequestHandler, request: Request, info: HandleInfo, maxBodyBytes: number) {
  const answer = await handle(await coreRequestOf(request, info, maxBodyBytes));
  if (answer.drop) return Response.error();
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/**
 * Builds a platform serving `parts.routes`. Throws a `HttpError` naming the field when an option
 * or the seed is invalid.
 */
export function buildPlatform(parts: PlatformParts, options: PlatformOptions = {}): InternalPlatform {
  const settings = platformSettings(options);
  const seed = validate(StateDocumentSchema, seedDocument(settings.seed, parts.seeds));
  // The seed is kept as text: it costs far less memory than a second copy of the records.
  const seedText = JSON.stringify(seed);
  const state = createState(seed, settings.retention);
  const clock = new OffsetClock(settings.now);
  const journal = new Journal(settings.journalLimit, settings.journalTextLimit);
  const faults = new Faults();
  const platform: Platform = {
    environment: settings.environment,
    clock,
    requests: journal,
    faults,
    handle: (request, info = {}) => handleFetch(handle, request, info, settings.maxBodyBytes),
    ...createAdminTools({ state, clock, settings, journal, faults, seedText }),
    sso: createSsoSessions(state, clock),
    subscriptionSystems: createSubscriptionSystems(state),
  };
  const router = new Router(parts.routes, settings.environment);
  const dispatch = createDispatch({ router, state, clock, settings, platform });
  const handle = createRequestHandler({ settings, state, clock, journal, faults, dispatch });
  const built = Object.assign(platform, { [INTERNALS]: { handle, settings, state, routes: parts.routes, options } });
  // Not enumerable: a copy (`{ ...platform, handle }`) is another platform, served through its own handle.
  Object.defineProperty(built, INTERNALS, { enumerable: false });
  return built;
}
