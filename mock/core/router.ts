/**
 * Routing: one Map lookup on `METHOD path`; pattern routes (`{name}` segments) are tried after it.
 * Every path shares one space whatever the host: API, authorization API, SSO and shop.
 */
import { type Endpoint, type Environment, endpoints, pathOf } from '../../src/endpoints.js';
import { escapeRegExp, otherSlash } from './path-text.js';
import type { Route } from './route.js';

/**
 * A path with `{name}` segments (`/marketplace/{groupId}/{marketplaceId}`), matched as the router
 * matches it: each parameter is one non-empty segment, %-decoded; a malformed escape, or a `{` or
 * `}` in a value (a template's own `{name}` sent as it is), is no match; a trailing slash matches the same.
 */
export class PathTemplate {
  /** The parameters' names, in the order of their segments. */
  readonly names: readonly string[];
  /** The segments of the template: `['', 'marketplace', '{groupId}', '{marketplaceId}']`. */
  readonly segments: readonly string[];
  readonly #regex: RegExp;

  constructor(readonly path: string) {
    const names: string[] = [];
    this.segments = path.split('/');
    const source = this.segments
      .map((segment) => {
        const m = /^\{(\w+)\}$/.exec(segment);
        if (!m) return escapeRegExp(segment);
        names.push(m[1]!);
        return '([^/]+)';
      })
      .join('/');
    this.names = names;
    this.#regex = new RegExp(`^${source}/?$`);
  }

  /** The decoded values of a path's parameters by name; undefined when the path does not match. */
  match(path: string): Record<string, string> | undefined {
    const m = this.#regex.exec(path);
    if (!m) return undefined;
    const params: Record<string, string> = {};
    for (const [i, name] of this.names.entries()) {
      let value: string;
      try {
        value = decodeURIComponent(m[i + 1]!);
      } catch {
        return undefined;
      }
      if (value.includes('{') || value.includes('}')) return undefined;
      params[name] = value;
    }
    return params;
  }
}

interface PatternRoute {
  readonly method: string;
  readonly template: PathTemplate;
  readonly route: Route | undefined;
  readonly unserved: Endpoint | undefined;
}

/** A route found for a request: the route and its path parameters, or an endpoint of the table without a route yet. */
export type Match =
  | { readonly route: Route; readonly params: Readonly<Record<string, string>>; readonly unserved?: undefined }
  | { readonly unserved: Endpoint; readonly route?: undefined; readonly params?: undefined };

/** The parameters of a path without any: one object, shared. */
export const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/** The routing table of one platform. */
export class Router {
  readonly #exact = new Map<string, Match>();
  readonly #methodsByPath = new Map<string, string[]>();
  readonly #patterns: PatternRoute[] = [];

  /**
   * Registers `routes`, then every entry of the endpoint table left without one as unserved: it
   * answers `501 not_implemented` naming its number (the platform serves every entry; a platform
   * built with fewer routes, as its own tests build one, does not).
   */
  constructor(routes: readonly Route[], environment: Environment) {
    for (const r of routes) this.#add(r.method, typeof r.path === 'string' ? r.path : r.path[environment], r);
    for (const e of endpoints) {
      const path = pathOf(e, environment);
      if (!this.#serves(e.method, path)) this.#add(e.method, path, undefined, e);
    }
  }

  #serves(method: string, path: string): boolean {
    return (
      this.#exact.has(`${method} ${path}`) ||
      this.#patterns.some((p) => p.method === method && p.template.path === path)
    );
  }

  #add(method: string, path: string, r: Route | undefined, unserved?: Endpoint): void {
    const key = `${method} ${path}`;
    if (path.includes('{')) {
      this.#patterns.push({ method, template: new PathTemplate(path), route: r, unserved });
      return;
    }
    if (this.#exact.has(key)) throw new Error(`Two routes for ${key}`);
    this.#exact.set(key, r ? { route: r, params: NO_PARAMS } : { unserved: unserved! });
    const methods = this.#methodsByPath.get(path);
    if (methods) methods.push(method);
    else this.#methodsByPath.set(path, [method]);
  }

  /**
   * The route for a request, or undefined. A path with or without a trailing slash finds the same
   * route, and a path without parameters comes before a pattern, with the slash or without it
   * (`/products/payment_periods/` is endpoint 3's, not `/products/{id}` with `id` `payment_periods`).
   */
  find(method: string, path: string): Match | undefined {
    const hit = this.#exact.get(`${method} ${path}`);
    if (hit) return hit;
    const other = otherSlash(path);
    const slashed = other === undefined ? undefined : this.#exact.get(`${method} ${other}`);
    if (slashed) return slashed;
    for (const p of this.#patterns) {
      if (p.method !== method) continue;
      const params = p.template.match(path);
      if (!params) continue;
      return p.route ? { route: p.route, params } : { unserved: p.unserved! };
    }
    return undefined;
  }

  /** The methods served on a path, for `405` and its `Allow` header; undefined for an unknown path. */
  allowed(path: string): readonly string[] | undefined {
    const methods = new Set(this.#methodsByPath.get(path));
    const other = otherSlash(path);
    if (other !== undefined) for (const m of this.#methodsByPath.get(other) ?? []) methods.add(m);
    for (const p of this.#patterns) if (p.template.match(path)) methods.add(p.method);
    return methods.size > 0 ? [...methods] : undefined;
  }
}
