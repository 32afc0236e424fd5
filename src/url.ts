/**
 * The URL of a request: its host from the client's options, its path from the endpoint table (or a
 * raw request's, checked: {@link isRawPath}), its query.
 */
import { type Endpoint, type Environment, type Host, pathOf } from './endpoints.js';
import { ClientConfigurationError, RequestValidationError } from './errors.js';
import type { Hosts } from './options.js';

/**
 * The client's URL of one of its hosts, without trailing slashes; a `ClientConfigurationError`
 * naming the option when the client was not given that host.
 */
export function hostUrl(hosts: Hosts, host: Host): string {
  const url = hosts[host];
  if (!url)
    throw new ClientConfigurationError(`hosts.${host}`, `the client has no "${host}" host: give it this option`);
  return withoutTrailingSlashes(url);
}

/** A URL without its trailing slashes. */
export function withoutTrailingSlashes(url: string): string {
  // A loop: `/\/+$/` takes quadratic time on a long run of slashes.
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  return url.slice(0, end);
}

/** The full URL of an endpoint: its host joined with its path in the environment. */
export function urlOf(hosts: Hosts, endpoint: Endpoint, environment: Environment): string {
  return hostUrl(hosts, endpoint.host) + pathOf(endpoint, environment);
}

/**
 * A path's `{name}` segments filled from the members of the checked `input` of the same name, each
 * encoded (`/` as `%2F`), and the input without them: they travel in the path, not in the query
 * or the body. A path without `{` is left as it is.
 * @throws {@link RequestValidationError} naming a member the path needs that is absent, empty, `.` or `..`
 */
export function fillPath(path: string, input: unknown): { path: string; rest: unknown } {
  if (!path.includes('{') || input === null || typeof input !== 'object') return { path, rest: input };
  const rest: Record<string, unknown> = { ...input };
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest[name];
    // A schema that leaves a path member optional must not send `/undefined/`: refused, as required.
    if (value === undefined || value === null || value === '')
      throw new RequestValidationError([
        { code: 'custom', path: [name], message: 'Parameter is required', input: value },
      ]);
    const text = String(value);
    // `.` and `..` stay as they are when encoded, and a URL resolves them: the request would go elsewhere.
    if (text === '.' || text === '..')
      throw new RequestValidationError([
        { code: 'custom', path: [name], message: 'Parameter must not be . or .. (a path segment)', input: value },
      ]);
    delete rest[name];
    return encodeURIComponent(text);
  });
  return { path: filled, rest };
}

/** Whether `path[start, end)` is `.` or `..` as a URL reads a segment: each dot plain or `%2e` (in any case). */
function isDotSegment(path: string, start: number, end: number): boolean {
  let dots = 0;
  for (let i = start; i < end; i++) {
    const c = path.charCodeAt(i);
    if (c === 46 /* . */) dots++;
    else if (
      c === 37 /* % */ &&
      path.charCodeAt(i + 1) === 50 /* 2 */ &&
      (path.charCodeAt(i + 2) | 32) === 101 /* e */
    ) {
      dots++;
      i += 2;
    } else return false;
  }
  return dots === 1 || dots === 2;
}

/**
 * Whether a path holds a `.` or `..` segment, between `/` or `\` (which a URL of http(s) reads as
 * `/`), after the tabs and line breaks a URL drops are taken out (so that `%2<tab>e` is `%2e`).
 */
function hasDotSegment(path: string): boolean {
  let text = path;
  for (const dropped of ['\t', '\n', '\r']) if (text.includes(dropped)) text = text.split(dropped).join('');
  let start = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = text.charCodeAt(i);
    if (i < text.length && c !== 47 /* / */ && c !== 92 /* \ */) continue;
    if (isDotSegment(text, start, i)) return true;
    start = i + 1;
  }
  return false;
}

/**
 * Whether a path opens with two slashes, as a URL of http(s) reads it: `\` as `/`, the tabs and line
 * breaks it drops taken out (`/\host`, `/<tab>/host`). Such a path names another host.
 */
function opensWithTwoSlashes(path: string): boolean {
  let slashes = 0;
  for (let i = 0; i < path.length && slashes < 2; i++) {
    const c = path.charCodeAt(i);
    if (c === 47 /* / */ || c === 92 /* \ */) slashes++;
    else if (c !== 9 && c !== 10 && c !== 13) return false;
  }
  return slashes === 2;
}

/**
 * Whether `path` may be a raw request's path: from the host's root (`/`, not `//` nor `/\`, which
 * would name another host), without a query or a fragment, and without a `.` or `..` segment, plain or
 * percent-encoded: a URL resolves them, and the request, bearer token and all, would leave the
 * host's base path (`/../admin` under `https://gw.example.test/platform`). Plain string tests: the
 * lookahead pattern this was made the ReDoS checker's fuzzing report a polynomial case on some runs.
 */
export function isRawPath(path: string): boolean {
  return (
    path.startsWith('/') &&
    !opensWithTwoSlashes(path) &&
    !path.includes('?') &&
    !path.includes('#') &&
    !hasDotSegment(path)
  );
}

/** A query's validated values as text: booleans as `true`/`false`, undefined values left out. */
export function toSearchParams(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (query === null || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    out[key] = value instanceof Date ? value.toISOString() : String(value);
  }
  return out;
}

/** `url` with the query's values appended (none: `url` as it is). */
export function withQuery(url: string, query: unknown): string {
  const text = new URLSearchParams(toSearchParams(query)).toString();
  return text ? `${url}?${text}` : url;
}
