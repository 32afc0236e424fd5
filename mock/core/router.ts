/**
 * Routing: one Map lookup on `METHOD path`; pattern routes (`{name}` segments) are tried after it.
 * Every path shares one space whatever the host: API, authorization API, SSO and shop.
 */
import * as endpoints from '../../src/endpoints.js';
import { type Endpoint, type Environment, pathOf } from '../../src/endpoints.js';
import { PlatformError } from './errors.js';
import type { Route } from './route.js';

interface PatternRoute {
  readonly method: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly route: Route;
}

/** A route found for a request. */
export interface Match {
  readonly route: Route;
  readonly params: Readonly<Record<string, string>>;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function isEndpoint(value: unknown): value is Endpoint {
  return typeof value === 'object' && value !== null && 'number' in value && 'method' in value && 'path' in value;
}

/** An endpoint of the table without a handler yet: 501. */
function planned(e: Endpoint): Route {
  return {
    method: e.method,
    path: e.path,
    kind: 'planned',
    bearer: false,
    scopes: e.scopes,
    identity: e.identity,
    query: undefined,
    body: undefined,
    form: false,
    status: 501,
    handler: () => {
      throw new PlatformError(501, 'not_implemented', `Endpoint ${e.number} (${e.title}) is not implemented yet`);
    },
  };
}

/** The routing table of one platform. */
export class Router {
  private readonly exact = new Map<string, Match>();
  private readonly methodsByPath = new Map<string, string[]>();
  private readonly patterns: PatternRoute[] = [];

  /** Registers `routes`, then a 501 route for every entry of the endpoint table left without one. */
  constructor(routes: readonly Route[], environment: Environment) {
    for (const r of routes) this.add(r, environment);
    for (const e of Object.values(endpoints)) {
      if (isEndpoint(e) && !this.exact.has(`${e.method} ${pathOf(e, environment)}`)) this.add(planned(e), environment);
    }
  }

  private add(r: Route, environment: Environment): void {
    const path = typeof r.path === 'string' ? r.path : r.path[environment];
    const key = `${r.method} ${path}`;
    if (path.includes('{')) {
      const names: string[] = [];
      const source = path
        .split('/')
        .map((segment) => {
          const m = /^\{(\w+)\}$/.exec(segment);
          if (!m) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(m[1]!);
          return '([^/]+)';
        })
        .join('/');
      this.patterns.push({ method: r.method, regex: new RegExp(`^${source}$`), names, route: r });
      return;
    }
    if (this.exact.has(key)) throw new Error(`Two routes for ${key}`);
    this.exact.set(key, { route: r, params: NO_PARAMS });
    const methods = this.methodsByPath.get(path);
    if (methods) methods.push(r.method);
    else this.methodsByPath.set(path, [r.method]);
  }

  /** The route for a request, or undefined. A path with or without a trailing slash finds the same route. */
  find(method: string, path: string): Match | undefined {
    const hit = this.exact.get(`${method} ${path}`);
    if (hit) return hit;
    for (const p of this.patterns) {
      if (p.method !== method) continue;
      const m = p.regex.exec(path);
      if (!m) continue;
      const params: Record<string, string> = {};
      try {
        p.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1]!);
        });
      } catch {
        continue; // a malformed %-escape matches nothing
      }
      return { route: p.route, params };
    }
    const other = otherSlash(path);
    return other === undefined ? undefined : this.exact.get(`${method} ${other}`);
  }

  /** The methods served on a path, for `405` and its `Allow` header; undefined for an unknown path. */
  allowed(path: string): readonly string[] | undefined {
    const methods = new Set(this.methodsByPath.get(path));
    const other = otherSlash(path);
    if (other !== undefined) for (const m of this.methodsByPath.get(other) ?? []) methods.add(m);
    for (const p of this.patterns) if (p.regex.test(path)) methods.add(p.method);
    return methods.size > 0 ? [...methods] : undefined;
  }
}

function otherSlash(path: string): string | undefined {
  if (path.length <= 1) return undefined;
  return path.endsWith('/') ? path.slice(0, -1) : `${path}/`;
}
