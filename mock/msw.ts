/**
 * The MSW adapter: one catch-all handler per origin, each passing the request to the platform's
 * core (which routes in one Map lookup). Works with `setupServer` (Node) and `setupWorker` (browser).
 */
import { type HttpHandler, http } from 'msw';
import type { Host } from '../src/endpoints.js';
import type { Platform } from './core/types.js';

/** Hosts for the four services of the spec, on a reserved top-level domain that never resolves. */
export const defaultHosts: Readonly<Record<Host, string>> = {
  api: 'https://api.platform.test',
  auth: 'https://auth.platform.test',
  sso: 'https://sso.platform.test',
  shop: 'https://shop.platform.test',
};

/** Where the platform answers: one origin, several, or one per host of the spec. */
export type Origins = string | readonly string[] | Partial<Record<Host, string>>;

/**
 * MSW handlers serving `platform` on `origins` (scheme, host and port; no path): one `http.all`
 * catch-all per distinct origin. Pass them to `setupServer` or `setupWorker`.
 */
export function createHandlers(platform: Platform, origins: Origins = defaultHosts): HttpHandler[] {
  const list: readonly (string | undefined)[] =
    typeof origins === 'string' ? [origins] : isList(origins) ? origins : Object.values(origins);
  const distinct = new Set<string>();
  for (const o of list) {
    if (!o) continue;
    // Trailing slashes dropped by a loop (`/\/+$/` is quadratic on a long run of slashes).
    let end = o.length;
    while (end > 0 && o.charCodeAt(end - 1) === 47) end--;
    distinct.add(o.slice(0, end));
  }
  return [...distinct].map((origin) => http.all(`${origin}/*`, ({ request }) => platform.handle(request)));
}

function isList(value: Origins): value is readonly string[] {
  return Array.isArray(value);
}
