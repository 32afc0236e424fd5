/**
 * A minimal browser for the shop's pages, for the return flow tests: a cookie jar, redirects
 * followed by hand within the platform's hosts, and a stop at the first URL outside them (the site).
 */
import { defaultHosts } from './helpers.js';

const PLATFORM_ORIGINS = new Set(Object.values(defaultHosts).map((h) => new URL(h).origin));

/** What a page load ended with: a page of the platform, or a redirect to the site. */
export interface Visit {
  /** The last URL requested on the platform. */
  url: string;
  /** Its status. */
  status: number;
  /** The page text when the platform answered with a page. */
  text: string;
  /** Where the browser was sent outside the platform (the site), if it was. */
  leftTo?: string;
}

/** A browser with its own cookie jar; its forms carry the CSRF token of the last page shown. */
export function browser() {
  const jar = new Map<string, string>();
  let csrf: string | undefined;

  async function load(url: string, init: RequestInit = {}): Promise<Visit> {
    let current = url;
    let request: RequestInit = init;
    for (let hops = 0; hops < 10; hops++) {
      const headers = new Headers(request.headers);
      if (jar.size > 0) headers.set('cookie', [...jar].map(([k, v]) => `${k}=${v}`).join('; '));
      const response = await fetch(current, { ...request, headers, redirect: 'manual' });
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const eq = pair.indexOf('=');
        if (eq > 0) jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
      }
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) {
        const text = await response.text();
        csrf = /name="csrf_token" value="([^"]*)"/.exec(text)?.[1] ?? csrf;
        return { url: current, status: response.status, text };
      }
      await response.body?.cancel();
      const next = new URL(location, current);
      if (!PLATFORM_ORIGINS.has(next.origin))
        return { url: current, status: response.status, text: '', leftTo: next.href };
      current = next.href;
      request = {};
    }
    throw new Error('too many redirects');
  }

  return {
    jar,
    get: (url: string) => load(url),
    /** Posts a form (application/x-www-form-urlencoded) as the shop's pages do: with the page's CSRF token. */
    post: (url: string, fields: Record<string, string>) =>
      load(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(csrf === undefined ? fields : { csrf_token: csrf, ...fields }).toString(),
      }),
  };
}

/** The `href` of the element with `id` in a page (HTML entities of the shop's escaping decoded). */
export function hrefOf(page: string, id: string): string | undefined {
  const match = new RegExp(`<a [^>]*id="${id}"[^>]*href="([^"]*)"`).exec(page);
  return match?.[1]?.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"');
}
