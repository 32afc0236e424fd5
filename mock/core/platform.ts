/**
 * The reference platform's core: a pure function of (state, Fetch `Request`) to `Response`, which
 * knows nothing of its transport. One request goes: journal and faults; route lookup; bearer
 * token, scopes and identity; content type, JSON and schema validation; the route's handler.
 */
import { nameOf } from '../../src/endpoints.js';
import type { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { allRoutes } from '../routes/index.js';
import { seeds } from '../seeds/index.js';
import { lifetime, OffsetClock, sleep } from './clock.js';
import { type StateDocument, type StateDocumentInput, StateDocumentSchema } from './document.js';
import { HttpError } from './errors.js';
import { type CoreRequest, type CoreResponse, registerCore, setOwn } from './exchange.js';
import { Faults } from './faults.js';
import { Journal, type OpenEntry } from './journal.js';
import {
  bodyTooLarge,
  jsonDepthExceeds,
  MAX_JSON_DEPTH,
  type Refusal,
  readBodyText,
  refusalOf,
  tooDeep,
} from './limits.js';
import { type PlatformOptions, type PlatformSettings, platformSettings } from './options.js';
import type { Auth, Route, RouteContext, RouteResult } from './route.js';
import { Router } from './router.js';
import { guardAdmin, registerSecurity, type SecuritySettings, withoutCors } from './security.js';
import { createSsoSessions } from './sso.js';
import { createState, type State } from './state.js';
import { createSubscriptionSystems } from './subscription-system.js';
import { issueTicket } from './tickets.js';
import { isExpired, issueToken } from './tokens.js';
import type { HandleInfo, IssueTicketOptions, MintTokenOptions, Platform } from './types.js';
import {
  invalidContentType,
  isJsonMediaType,
  mediaTypeOf,
  pairsToRecord,
  parseJson,
  requireObject,
  validate,
} from './validate.js';

const REALM = 'Bearer realm="platform"';
/** The response headers a browser page may read when it calls the platform from another origin. */
const EXPOSED_HEADERS = 'x-correlation-id, www-authenticate, retry-after, allow';
const NULL_BODY_STATUS = new Set([204, 205, 304]);

function isAdminPath(path: string): boolean {
  return path === '/__admin' || path.startsWith('/__admin/');
}

function respond(
  status: number,
  body: unknown,
  correlationId: string,
  extra?: Readonly<Record<string, string>>,
  text?: string,
): CoreResponse {
  // CORS: a browser page may call the standalone platform from another origin.
  const headers: Record<string, string> = {
    'x-correlation-id': correlationId,
    'access-control-allow-origin': '*',
    'access-control-expose-headers': EXPOSED_HEADERS,
  };
  if (extra) Object.assign(headers, extra);
  if (NULL_BODY_STATUS.has(status)) return { status, headers, body: null, drop: false };
  if (text !== undefined) return { status, headers, body: text, drop: false };
  if (body === undefined) return { status, headers, body: null, drop: false };
  headers['content-type'] = 'application/json';
  return { status, headers, body: JSON.stringify(body), drop: false };
}

const DROPPED: CoreResponse = { status: 0, headers: {}, body: null, drop: true };

function errorResponse(e: HttpError, correlationId: string): CoreResponse {
  const body: Record<string, string> = { code: e.code };
  if (e.field !== undefined) body.field = e.field;
  body.message = e.message;
  body.api_correlation_id = correlationId;
  return respond(e.status, body, correlationId, e.headers);
}

/**
 * The answer to a request an adapter refuses before any platform sees it (a `Host` not served, a
 * body over the limit): the platform's JSON error, without CORS headers on `/__admin`.
 * @internal
 */
export function refusalResponse(error: HttpError, path: string): CoreResponse {
  const response = errorResponse(error, crypto.randomUUID());
  return isAdminPath(path) ? withoutCors(response) : response;
}

function unauthorized(message: string, missing = false): HttpError {
  const challenge = missing ? REALM : `${REALM}, error="invalid_token", error_description="${message}"`;
  return new HttpError(401, 'invalid_token', message, 'authorization', { 'www-authenticate': challenge });
}

function seedOf(seed: PlatformSettings['seed']): StateDocumentInput {
  if (seed === 'demo') return seeds.demo;
  if (seed === 'empty') return seeds.empty;
  return seed;
}

const stores = new WeakMap<Platform, State>();

/**
 * The live state behind a platform made by `createPlatform`, for the platform's own tests (indexes).
 * @internal
 */
export function storeOf(platform: Platform): State | undefined {
  return stores.get(platform);
}

/** Creates a reference platform. Throws a `HttpError` naming the field when the seed is invalid. */
export function createPlatform(options: PlatformOptions = {}): Platform {
  return createPlatformWith(allRoutes, options);
}

/** The defaults of `createPlatform`'s options (the CLI shows them in its help). */
export const PLATFORM_DEFAULTS = platformSettings({});

/**
 * Creates a platform serving `routes` (the test suite adds a failing route this way).
 * @internal
 */
export function createPlatformWith(routes: readonly Route[], options: PlatformOptions = {}): Platform {
  const settings = platformSettings(options);
  const { environment } = settings;
  const security: SecuritySettings = settings;
  const { onError } = settings;
  const clock = new OffsetClock(settings.now);
  const router = new Router(routes, environment);
  const journal = new Journal(settings.journalLimit);
  const faults = new Faults();
  const initial = validate(StateDocumentSchema, seedOf(settings.seed));
  // The seed is kept as text: it costs far less memory than a second copy of the records.
  const seedText = JSON.stringify(initial);
  const state = createState(initial);

  function authenticate(route: Route, headers: Readonly<Record<string, string>>): Auth {
    const header = headers.authorization;
    if (header === undefined) throw unauthorized('Missing bearer token: send Authorization: Bearer <token>', true);
    const m = /^Bearer +([^\s]+) *$/i.exec(header);
    if (!m) throw unauthorized('Malformed Authorization header: expected Bearer <token>');
    const token = state.accessTokens.get(m[1]!);
    const client = token && state.clients.get(token.client_id);
    if (!token || !client) throw unauthorized('Unknown access token');
    if (token.revoked_at !== null) throw unauthorized('Revoked access token');
    if (isExpired(token, clock.nowMs())) throw unauthorized('Expired access token');
    for (const scope of route.scopes) {
      if (!token.scopes.includes(scope)) {
        const needed = route.scopes.join(' ');
        throw new HttpError(403, 'insufficient_scope', `The access token lacks the scope ${scope}`, undefined, {
          'www-authenticate': `${REALM}, error="insufficient_scope", scope="${needed}"`,
        });
      }
    }
    const account = token.account_id === null ? undefined : state.accounts.get(token.account_id);
    if (route.identity && !account)
      throw new HttpError(403, 'identity_required', 'The access token is not tied to a user');
    return { client, token, account };
  }

  /** Routes a request and answers it: at once when its handler is synchronous (most are), else a promise. */
  function dispatch(request: CoreRequest, correlationId: string): CoreResponse | Promise<CoreResponse> {
    const { method, url, headers } = request;
    const bodyText = request.body;
    const path = url.pathname;
    const match = router.find(method, path);
    if (!match) {
      const allowed = router.allowed(path);
      if (!allowed) throw new HttpError(404, 'not_found', `No route for ${method} ${path}`);
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
    if (match.planned) {
      throw new HttpError(501, 'not_implemented', `${nameOf(match.planned)} is not implemented yet`);
    }
    const { route, params } = match;
    const context = (input: unknown, auth: Auth | undefined): RouteContext => ({
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
    const auth = route.bearer ? authenticate(route, headers) : undefined;
    if (route.guard && auth) route.guard(auth);

    const contentType = headers['content-type'];
    const media = mediaTypeOf(contentType);
    let input: unknown;
    let body: unknown;
    if (route.body && route.method === 'GET' && !bodyText) {
      // Endpoint 6: its parameters travel in a JSON body on the GET; the query is not read.
      throw new HttpError(
        400,
        'invalid_parameter',
        'This GET takes its parameters in a JSON body, not in the query (Fetch cannot send one: use node:http(s), or the SDK in Node)',
        'body',
      );
    }
    if (route.body) {
      if (route.kind === 'admin') body = bodyText ? requireObject(parseJson(bodyText)) : {};
      else if (media === 'application/json') body = requireObject(parseJson(bodyText ?? ''));
      else if (route.form && media === 'application/x-www-form-urlencoded') body = pairsToRecord(bodyText ?? '');
      else
        throw invalidContentType(
          route.form ? 'application/json or application/x-www-form-urlencoded' : 'application/json',
        );
    } else if (contentType !== undefined && media !== 'application/json' && route.kind !== 'admin') {
      throw invalidContentType('application/json');
    }
    if (route.query) {
      input = validate(route.query, pairsToRecord(url.search.slice(1)));
    } else if (route.kind === 'api' && url.search.length > 1) {
      const [first] = url.searchParams.keys();
      throw new HttpError(400, 'unknown_parameter', `Unknown parameter: ${first}`, first);
    }
    if (route.body) input = validate(route.body, body, 'body');

    const answer = (result: RouteResult) =>
      respond(result.status ?? route.status, result.body, correlationId, result.headers, result.text);
    const result = route.handler(context(input, auth));
    return result instanceof Promise ? result.then(answer) : answer(result);
  }

  /** One request, start to end. Never rejects. */
  async function core(request: CoreRequest): Promise<CoreResponse> {
    const correlationId = crypto.randomUUID();
    let entry: OpenEntry | undefined;
    try {
      const { method, url } = request;
      const path = url.pathname;
      const admin = isAdminPath(path);
      // Refused before anything else: by the adapter (a limit, a host), by the body's size, by the admin guard.
      let refusal = refusalOf(request);
      // A UTF-8 body is at least as many bytes as its text has UTF-16 units.
      if (!refusal && request.body !== null && request.body.length > security.maxBodyBytes)
        refusal = bodyTooLarge(security.maxBodyBytes);
      if (!refusal && admin) refusal = guardAdmin(security, request);
      // Deep JSON is refused on every path, token or none, before the journal or a parser walks it.
      if (
        !refusal &&
        request.body !== null &&
        isJsonMediaType(mediaTypeOf(request.headers['content-type'])) &&
        jsonDepthExceeds(request.body, MAX_JSON_DEPTH)
      )
        refusal = tooDeep();
      if (!admin && method !== 'OPTIONS') {
        // A refused body is not kept: it may be over the size limit.
        const body = refusal || request.body === '' ? null : request.body;
        entry = journal.open(method, url, request.headers, body, clock.nowMs(), correlationId, request.ip);
        if (refusal) throw refusal;
        const fault = faults.take(method, path);
        if (fault) {
          if (fault.latencyMs) await sleep(fault.latencyMs);
          if (fault.drop) return DROPPED;
          if (fault.status !== undefined) {
            const code = fault.code ?? (fault.status >= 500 ? 'internal_server_error' : 'injected_fault');
            const injected = new HttpError(fault.status, code, 'Injected fault', undefined, fault.headers);
            const response = errorResponse(injected, correlationId);
            entry.status = response.status;
            return response;
          }
        }
      }
      if (refusal) throw refusal;
      const dispatched = dispatch(request, correlationId);
      const response = dispatched instanceof Promise ? await dispatched : dispatched;
      if (entry) entry.status = response.status;
      return admin ? withoutCors(response) : response;
    } catch (error) {
      let response: CoreResponse;
      if (error instanceof HttpError) response = errorResponse(error, correlationId);
      else {
        try {
          onError?.(error);
        } catch {
          // A failing error hook must not crash the platform either.
        }
        response = errorResponse(new HttpError(500, 'internal_server_error', 'Internal server error'), correlationId);
      }
      if (entry) entry.status = response.status;
      return isAdminPath(request.url.pathname) ? withoutCors(response) : response;
    }
  }

  const platform: Platform = {
    environment,
    clock,
    requests: journal,
    faults,

    async handle(request: Request, info: HandleInfo = {}): Promise<Response> {
      let body: string | null = null;
      let url: URL;
      let refusal: HttpError | undefined;
      const headers: Record<string, string> = {};
      try {
        url = new URL(request.url);
        request.headers.forEach((value, name) => {
          setOwn(headers, name, value);
        });
        if (info.bodyTooLarge) throw bodyTooLarge(security.maxBodyBytes);
        // Read chunk by chunk, and no further than the size limit.
        body = info.body ?? (await readBodyText(request, security.maxBodyBytes));
      } catch (error) {
        // A body stream that fails (the client went away, a broken stream): the JSON error, journaled.
        refusal =
          error instanceof HttpError
            ? error
            : new HttpError(400, 'malformed_request', 'The request body could not be read', 'body');
        url = new URL(request.url);
      }
      const method = request.method.toUpperCase();
      const coreRequest: CoreRequest & Refusal = { method, url, headers, body, ip: info.ip, refusal };
      const answer = await core(coreRequest);
      if (answer.drop) return Response.error();
      return new Response(answer.body, { status: answer.status, headers: answer.headers });
    },

    reset(): void {
      state.load(JSON.parse(seedText) as StateDocument);
      journal.clear();
      faults.clear();
      clock.reset();
    },

    snapshot(): StateDocument {
      return structuredClone(state.document);
    },

    restore(document: StateDocumentInput): void {
      state.load(validate(StateDocumentSchema, document));
    },

    mintToken(opts: MintTokenOptions): AccessTokenResponse {
      const client = opts.clientId === undefined ? state.clients.rows[0] : state.clients.get(opts.clientId);
      if (!client) throw new HttpError(404, 'not_found', 'No such client', 'client_id');
      if (!Array.isArray(opts.scopes) || !opts.scopes.every((s) => typeof s === 'string' && s.length > 0))
        throw new HttpError(400, 'invalid_parameter', 'Parameter must be a list of scopes', 'scopes');
      let accountId: string | null = null;
      if (opts.accountId !== undefined) {
        const account = state.accounts.get(opts.accountId);
        if (!account) throw new HttpError(404, 'not_found', 'No such account', 'account_id');
        accountId = account.id;
      }
      const expiresIn = lifetime(opts.expiresIn ?? settings.accessTokenLifetimeSeconds, 'expires_in');
      return issueToken(state, clock, { client, scopes: opts.scopes, accountId, expiresIn });
    },

    issueTicket(opts: IssueTicketOptions): string {
      const account = typeof opts.accountId === 'string' ? state.accounts.get(opts.accountId) : undefined;
      if (!account) throw new HttpError(404, 'not_found', 'No such account', 'account_id');
      const client = typeof opts.clientId === 'string' ? state.clients.get(opts.clientId) : undefined;
      if (!client) throw new HttpError(404, 'not_found', 'No such client', 'client_id');
      const lifetimeSeconds = lifetime(opts.expiresIn ?? settings.ticketLifetimeSeconds, 'expires_in');
      return issueTicket(state, clock, { accountId: account.id, clientId: client.client_id, lifetimeSeconds }).ticket;
    },

    sso: createSsoSessions(state, clock),
    subscriptionSystems: createSubscriptionSystems(state),
  };
  registerCore(platform, core);
  stores.set(platform, state);
  registerSecurity(platform, security);
  return platform;
}
