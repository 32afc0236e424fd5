/**
 * Dispatch: a request to its route, and the route's answer. The route is found in one step; a
 * bearer route authenticates first; then the request's content type, JSON and schema; then the
 * handler, whose result becomes the answer.
 */
import { nameOf } from '../../src/endpoints.js';
import { unknownParameterMessage } from '../../src/schemas/common.js';
import { respond } from './answers.js';
import { authenticate } from './authentication.js';
import type { OffsetClock } from './clock.js';
import { HttpError } from './errors.js';
import type { CoreRequest, CoreResponse } from './messages.js';
import type { Route, RouteResult, Settings } from './route.js';
import { NO_PARAMS, type Router } from './router.js';
import type { State } from './state.js';
import type { Platform } from './types.js';
import { invalidContentType, mediaTypeOf, pairsToRecord, parseJson, requireObject, validate } from './validate.js';

/** Routes a request and answers it: at once when its handler is synchronous (most are), else a promise. */
export type Dispatch = (request: CoreRequest, correlationId: string) => CoreResponse | Promise<CoreResponse>;

/** What dispatch reads: the routes, and what a handler's context holds. */
export interface DispatchParts {
  readonly router: Router;
  readonly state: State;
  readonly clock: OffsetClock;
  readonly settings: Settings;
  readonly platform: Platform;
}

/**
 * The answer to a request no route takes: a CORS preflight on a served path (204 with the methods
 * served), another method on it (405 with `Allow`), or an unknown path (404).
 */
function unrouted(router: Router, request: CoreRequest, correlationId: string): CoreResponse {
  const { method, headers } = request;
  const path = request.url.pathname;
  const served = router.allowed(path);
  if (!served) throw new HttpError(404, 'not_found', `No route for ${method} ${path}`);
  const allowed = headable(router.find('GET', path)) ? [...served, 'HEAD'] : served;
  if (method === 'OPTIONS') {
    return respond(204, undefined, correlationId, {
      'access-control-allow-methods': allowed.join(', '),
      'access-control-allow-headers': headers['access-control-request-headers'] ?? '*',
      'access-control-max-age': '600',
    });
  }
  throw new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}`, undefined, {
    allow: allowed.join(', '),
  });
}

/** A body of the route: parsed as the request's content type says, when the route takes that type. */
function bodyOf(route: Route, media: string | undefined, text: string | null): unknown {
  if (route.kind === 'admin') return text ? requireObject(parseJson(text)) : {};
  if (media === 'application/json') return requireObject(parseJson(text ?? ''));
  if (route.form && media === 'application/x-www-form-urlencoded') return pairsToRecord(text ?? '');
  throw invalidContentType(route.form ? 'application/json or application/x-www-form-urlencoded' : 'application/json');
}

/**
 * The validated input of a request to `route`: its body, else its query (an entry's route, of the
 * API, the authorization API or the SSO service, refuses a query it does not take,
 * `unknown_parameter`). The content type comes first, then the query, then the body.
 */
function inputOf(route: Route, request: CoreRequest, params: Readonly<Record<string, string>>): unknown {
  const { url, headers } = request;
  const contentType = headers['content-type'];
  const media = mediaTypeOf(contentType);
  if (route.body && route.method === 'GET' && !request.body) {
    // Endpoint 6: its parameters travel in a JSON body on the GET; the query is not read.
    throw new HttpError(
      400,
      'invalid_parameter',
      'This GET takes its parameters in a JSON body, not in the query (Fetch cannot send one: use node:http(s), or the SDK in Node)',
      'body',
    );
  }
  let body: unknown;
  if (route.body) body = bodyOf(route, media, request.body);
  else if (contentType !== undefined && media !== 'application/json' && route.kind !== 'admin')
    throw invalidContentType('application/json');
  let input: unknown;
  if (route.query) input = validate(route.query, withPathParams(pairsToRecord(url.search.slice(1)), params));
  else if ((route.kind === 'api' || route.kind === 'auth') && url.search.length > 1) {
    // Read as a query route reads it: `?&` names no parameter, and is accepted as on those.
    const [first] = Object.keys(pairsToRecord(url.search.slice(1)));
    if (first !== undefined) throw new HttpError(400, 'unknown_parameter', unknownParameterMessage([first]), first);
  }
  if (route.body) input = validate(route.body, withPathParams(body, params), 'body');
  return input;
}

/**
 * An entry's input with its path parameters (`{account_id}` of the path) among its members, checked
 * by the same schema as the rest; the same name in the query or the body too is refused.
 */
function withPathParams(input: unknown, params: Readonly<Record<string, string>>): unknown {
  const names = Object.keys(params);
  if (names.length === 0 || input === null || typeof input !== 'object' || Array.isArray(input)) return input;
  for (const name of names)
    if (Object.hasOwn(input, name))
      throw new HttpError(400, 'unknown_parameter', `Parameter ${name} travels in the path, not here`, name);
  return { ...input, ...params };
}

/**
 * Whether a GET route also answers HEAD (RFC 9110, 9.3.2): an API read, answered as its GET is,
 * without the body. Not a page, an SSO redirect or an admin tool: some of those change state (the
 * shop's log-in by ticket, identify's new session), which a HEAD must not.
 */
function headable(match: ReturnType<Router['find']>): boolean {
  return match?.route?.kind === 'api';
}

/** The dispatch of one platform. */
export function createDispatch({ router, state, clock, settings, platform }: DispatchParts): Dispatch {
  const { environment } = settings;
  return (request, correlationId) => {
    const { method, url, headers } = request;
    const head = method === 'HEAD';
    const found = router.find(head ? 'GET' : method, url.pathname);
    const match = head && !headable(found) ? undefined : found;
    if (!match) return unrouted(router, request, correlationId);
    // A platform made with fewer routes than the table (its own tests) tells "not built" from a refusal.
    if (match.unserved) throw new HttpError(501, 'not_implemented', `${nameOf(match.unserved)} is not implemented yet`);
    const { route, params } = match;
    const auth = route.bearer ? authenticate(state, clock, route, headers) : undefined;
    if (route.guard && auth) route.guard(auth);
    // An entry's path parameters are its input's; a page's and a tool's are the handler's alone.
    const answer = (result: RouteResult) => {
      const response = respond(result.status ?? route.status, result.body, correlationId, result.headers, result.text);
      return result.refusal ? { ...response, refusal: result.refusal } : response;
    };
    let input: unknown;
    try {
      input = inputOf(route, request, route.kind === 'api' || route.kind === 'auth' ? params : NO_PARAMS);
    } catch (error) {
      const instead = route.refusedInput?.({ url, settings });
      if (instead) return answer(instead);
      throw error;
    }
    const result = route.handler({
      input,
      state,
      auth,
      clock,
      environment,
      settings,
      platform,
      url,
      headers,
      ip: request.ip,
      params,
    });
    return result instanceof Promise ? result.then(answer) : answer(result);
  };
}
