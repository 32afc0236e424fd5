/**
 * Routes: what the core needs to know about each path it serves, and the context a route's
 * handler receives. A handler makes every check before its first change to the state, so that a
 * rejected request changes nothing.
 */
import type * as z from 'zod';
import type { Endpoint, Environment } from '../../src/endpoints.js';
import type { OffsetClock } from './clock.js';
import type { AccessTokenRecord, AccountRecord, ClientRecord } from './document.js';
import type { PlatformSettings } from './options.js';
import type { Refusal } from './refusal.js';
import type { State } from './state.js';
import type { Platform } from './types.js';

/** Who called: the token's client, the token, and the account when the token is a user's. */
export interface Auth {
  readonly client: ClientRecord;
  readonly token: AccessTokenRecord;
  readonly account: AccountRecord | undefined;
}

/** Settings fixed when the platform is created: its options, checked, with their defaults. */
export type Settings = Readonly<PlatformSettings>;

/** What a handler receives. */
export interface RouteContext<I = unknown> {
  /** The validated query (GET) or body. */
  readonly input: I;
  readonly state: State;
  readonly auth: Auth | undefined;
  readonly clock: OffsetClock;
  readonly environment: Environment;
  readonly settings: PlatformSettings;
  readonly platform: Platform;
  /** The request URL (the shop reads its scheme and query). */
  readonly url: URL;
  /** The request headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  readonly ip: string | undefined;
  /** Path parameters of a pattern route. */
  readonly params: Readonly<Record<string, string>>;
}

/** The context of an API route: the caller is always known. */
export interface ApiContext<I> extends RouteContext<I> {
  readonly auth: Auth;
}

/** What a handler answers: the status defaults to the route's, no body means no content. */
export interface RouteResult<B = unknown> {
  status?: number;
  /** Sent as JSON. */
  body?: B;
  /** Sent as is instead of a JSON `body` (the shop's HTML pages); `headers` give its content type. */
  text?: string;
  headers?: Record<string, string>;
  /** Why the request was refused though the status says success (an SSO answer with an `err`): the journal's. */
  refusal?: Refusal;
}

/**
 * Which part of the platform a route belongs to: `api` routes (the API's host) and `auth` routes (the
 * authorization API's and the SSO service's entries) refuse unknown query parameters, `admin`
 * routes read any body as JSON whatever its Content-Type, `shop` routes are the shop's HTML pages.
 */
export type RouteKind = 'api' | 'auth' | 'admin' | 'shop';

/** A route of the platform. */
export interface Route {
  readonly method: string;
  /** A path, or one per environment; `{name}` segments make a pattern route. */
  readonly path: string | Readonly<Record<Environment, string>>;
  readonly kind: RouteKind;
  /** Requires `Authorization: Bearer` with these scopes (and a user, when `identity`). */
  readonly bearer: boolean;
  readonly scopes: readonly string[];
  readonly identity: boolean;
  readonly query: z.ZodType | undefined;
  readonly body: z.ZodType | undefined;
  /** Also takes `application/x-www-form-urlencoded` bodies. */
  readonly form: boolean;
  readonly status: number;
  /**
   * A check of the caller that comes before the request's content (endpoints 12 and 13: a client
   * without a provision service is `400 configuration_error`, whatever the body).
   */
  readonly guard?: (auth: Auth) => void;
  /**
   * What a page answers instead of refusing its query (endpoint 25: a ticket leaves the address bar
   * before the refusal is shown); undefined to refuse it.
   */
  readonly refusedInput?: (request: RefusedRequest) => RouteResult | undefined;
  readonly handler: (ctx: RouteContext) => RouteResult | Promise<RouteResult>;
}

/** A request whose input its route refused, as {@link Route.refusedInput} sees it. */
export interface RefusedRequest {
  /** The URL, its path as the routes see it (under a base path, what follows it). */
  readonly url: URL;
  readonly settings: PlatformSettings;
}

/** Options of {@link apiRoute}. */
export interface ApiRouteOptions {
  /** A check of the caller made right after authentication, before the body is read. */
  guard?: (auth: Auth) => void;
  /** See {@link Route.refusedInput}. */
  refusedInput?: (request: RefusedRequest) => RouteResult | undefined;
}

/** The validated input of an endpoint: its body, else its query (as a page reads it, when the entry says). */
export type InputOf<E extends Endpoint> = E['body'] extends z.ZodType
  ? z.output<E['body']>
  : E extends { readonly pageQuery: infer P extends z.ZodType }
    ? z.output<P>
    : E['query'] extends z.ZodType
      ? z.output<E['query']>
      : undefined;

/** What an endpoint answers, as its response schema reads it. */
export type OutputOf<E extends Endpoint> = z.input<E['response']>;

/** What the handler of an endpoint receives: the caller is known when the endpoint takes a bearer token. */
export type ContextOf<E extends Endpoint> = E['bearer'] extends true
  ? ApiContext<InputOf<E>>
  : RouteContext<InputOf<E>>;

/** A route for an entry of `src/endpoints.ts`: path, method, scopes, identity and schemas come from the entry. */
export function apiRoute<E extends Endpoint>(
  endpoint: E,
  handler: (ctx: ContextOf<E>) => RouteResult<OutputOf<E>> | Promise<RouteResult<OutputOf<E>>>,
  options: ApiRouteOptions = {},
): Route {
  return {
    ...(options.guard ? { guard: options.guard } : {}),
    ...(options.refusedInput ? { refusedInput: options.refusedInput } : {}),
    method: endpoint.method,
    path: endpoint.path,
    kind: endpoint.page ? 'shop' : endpoint.host === 'api' ? 'api' : 'auth',
    bearer: endpoint.bearer,
    scopes: endpoint.scopes,
    identity: endpoint.identity,
    query: endpoint.pageQuery ?? endpoint.query,
    body: endpoint.body,
    form: endpoint.form ?? false,
    status: endpoint.status,
    // The core authenticates every bearer route before calling its handler.
    handler: handler as (ctx: RouteContext) => RouteResult | Promise<RouteResult>,
  };
}

/** The fields of a route that `route()` fills in when left out. */
type Defaulted = 'bearer' | 'scopes' | 'identity' | 'form' | 'query' | 'body' | 'status';

/** The validated input of a route with these schemas: its body, else its query. */
type InputOfSchemas<B, Q> = B extends z.ZodType ? z.output<B> : Q extends z.ZodType ? z.output<Q> : undefined;

/** A route that is not an entry of the endpoint table (authorization API, admin). */
export function route<B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  def: Omit<Route, 'handler' | Defaulted> &
    Partial<Pick<Route, Exclude<Defaulted, 'body' | 'query'>>> & { body?: B; query?: Q },
  handler: (ctx: RouteContext<InputOfSchemas<B, Q>>) => RouteResult | Promise<RouteResult>,
): Route {
  return {
    bearer: false,
    scopes: [],
    identity: false,
    form: false,
    status: 200,
    ...def,
    query: def.query,
    body: def.body,
    handler: handler as (ctx: RouteContext) => RouteResult | Promise<RouteResult>,
  };
}
