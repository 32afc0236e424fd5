/**
 * One request, start to end: refusals before anything reads the request (the adapter's, the body's
 * size, the admin guard, JSON nested too deep), the journal entry, an injected fault, dispatch, and
 * any exception turned into the spec's error body (`500 internal_server_error` for the unexpected).
 */
import { DROPPED, errorResponse, isAdminPath, withoutCors } from './answers.js';
import { type OffsetClock, sleep } from './clock.js';
import type { Dispatch } from './dispatch.js';
import { HttpError, stateReplaced } from './errors.js';
import type { Fault, Faults } from './faults.js';
import type { Journal, OpenEntry } from './journal.js';
import { bodyLimitFor, bodyTooLarge, jsonDepthExceeds, MAX_JSON_DEPTH, tooDeep } from './limits.js';
import type { CoreRequest, CoreResponse, RequestHandler } from './messages.js';
import type { Settings } from './route.js';
import { guardAdmin } from './security.js';
import { isJsonMediaType, mediaTypeOf } from './validate.js';

/** What the handler of one platform reads. */
export interface HandlerParts {
  readonly settings: Settings;
  /** How many times the state was loaded (`reset`, `restore`): a request a fault held across one is not served. */
  readonly state: { readonly generation: number };
  readonly clock: OffsetClock;
  readonly journal: Journal;
  readonly faults: Faults;
  readonly dispatch: Dispatch;
}

/**
 * Why a request is refused before anything reads it, if it is: by the adapter (a limit, a host),
 * by its body's size, by the admin guard, or because its JSON nests too deep (on every path, token
 * or none, before the journal or a parser walks it).
 */
function refusalOf(request: CoreRequest, settings: Settings, admin: boolean): HttpError | undefined {
  if (request.refusal) return request.refusal;
  const { body } = request;
  // A UTF-8 body is at least as many bytes as its text has UTF-16 units.
  const limit = bodyLimitFor(settings.maxBodyBytes, request.method, request.url.pathname);
  if (body !== null && body.length > limit) return bodyTooLarge(limit);
  const guarded = admin ? guardAdmin(settings, request) : undefined;
  if (guarded) return guarded;
  if (
    body !== null &&
    isJsonMediaType(mediaTypeOf(request.headers['content-type'])) &&
    jsonDepthExceeds(body, MAX_JSON_DEPTH)
  )
    return tooDeep();
  return undefined;
}

/** A fault's answer, after its latency: a dropped connection, or its status; undefined when the request goes on. */
async function injected(fault: Fault, correlationId: string): Promise<CoreResponse | undefined> {
  if (fault.latencyMs) await sleep(fault.latencyMs);
  if (fault.drop) return DROPPED;
  if (fault.status === undefined) return undefined;
  const code = fault.code ?? (fault.status >= 500 ? 'internal_server_error' : 'injected_fault');
  return errorResponse(new HttpError(fault.status, code, 'Injected fault', undefined, fault.headers), correlationId);
}

/** The answer to an exception: a HttpError as the spec's error body; anything else, once told to `onError`, a 500. */
function failure(error: unknown, correlationId: string, onError: Settings['onError']): CoreResponse {
  if (error instanceof HttpError) return errorResponse(error, correlationId);
  try {
    onError?.(error);
  } catch {
    // A failing error hook must not crash the platform either.
  }
  return errorResponse(new HttpError(500, 'internal_server_error', 'Internal server error'), correlationId);
}

/**
 * A request as the routes of a platform under `basePath` see it: the path after the base (`/` for
 * the base itself). A path outside the base is refused `404 not_found`, as any unknown path is.
 */
function underBase(request: CoreRequest, basePath: string): CoreRequest {
  const path = request.url.pathname;
  if (path === basePath || (path.startsWith(basePath) && path.charCodeAt(basePath.length) === 47)) {
    const url = new URL(request.url.href);
    url.pathname = path.slice(basePath.length) || '/';
    return { ...request, url };
  }
  if (request.refusal) return request;
  return { ...request, refusal: new HttpError(404, 'not_found', `No route for ${request.method} ${path}`) };
}

/** An answer to HEAD: the GET's, its body's length in `content-length`, without the body. */
function withoutBody(response: CoreResponse): CoreResponse {
  if (response.body === null) return response;
  const length = String(new TextEncoder().encode(response.body).length);
  return { ...response, headers: { ...response.headers, 'content-length': length }, body: null };
}

/** The core of one platform: never rejects. */
export function createRequestHandler({
  settings,
  state,
  clock,
  journal,
  faults,
  dispatch,
}: HandlerParts): RequestHandler {
  const { basePath } = settings;
  return async (received) => {
    const correlationId = crypto.randomUUID();
    const request = basePath === '' ? received : underBase(received, basePath);
    const { method, url } = request;
    const admin = isAdminPath(url.pathname);
    let entry: OpenEntry | undefined;
    let response: CoreResponse;
    try {
      const refusal = refusalOf(request, settings, admin);
      // The admin API and CORS preflights are not journaled, and faults do not reach them.
      if (!admin && method !== 'OPTIONS') {
        // A refused body is not kept: it may be over the size limit.
        const body = refusal || request.body === '' ? null : request.body;
        // The URL as received; the path as the routes and faults see it.
        const journaled = request === received ? url : { href: received.url.href, pathname: url.pathname };
        entry = journal.open(method, journaled, request.headers, body, clock.nowMs(), correlationId, request.ip);
        if (refusal) throw refusal;
        const fault = faults.take(method, url.pathname);
        const generation = state.generation;
        const faulted = fault && (await injected(fault, correlationId));
        if (faulted) {
          if (!faulted.drop) entry.status = faulted.status;
          entry.refusal = faulted.refusal ?? null;
          return method === 'HEAD' ? withoutBody(faulted) : faulted;
        }
        // Held by a latency fault across a reset or restore: it belongs to the old state.
        if (state.generation !== generation) throw stateReplaced('a latency fault held this request');
      }
      if (refusal) throw refusal;
      const dispatched = dispatch(request, correlationId);
      response = dispatched instanceof Promise ? await dispatched : dispatched;
    } catch (error) {
      response = failure(error, correlationId, settings.onError);
    }
    if (entry) {
      entry.status = response.status;
      entry.refusal = response.refusal ?? null;
    }
    if (method === 'HEAD') response = withoutBody(response);
    return admin ? withoutCors(response) : response;
  };
}
