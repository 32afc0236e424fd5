/**
 * The MSW adapter: one catch-all handler per origin, each passing the request to the platform's
 * core (which routes in one Map lookup). Works with `setupServer` (Node) and `setupWorker` (browser).
 */
import type { HttpHandler } from 'msw';
import type { Host } from '../src/endpoints.js';
import { internalsOf } from './core/internals.js';
import { bodyLimitFor, DEFAULT_MAX_BODY_BYTES } from './core/limits.js';
import type { HandleInfo, Platform } from './core/types.js';
import { http } from './msw-import.js';

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
  const maxBodyBytes = internalsOf(platform)?.settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  // A RegExp without groups, not `${origin}/*`: MSW decodes a path pattern's parameters, and a path
  // that is not valid percent-encoding (`/%ED%A0%80`) would throw there, before the platform answers.
  return [...distinct].map((origin) =>
    http.all(new RegExp(`^${escapeRegExp(origin)}/`), async ({ request }) =>
      platform.handle(
        request,
        await getBodyOf(request, bodyLimitFor(maxBodyBytes, request.method, new URL(request.url).pathname)),
      ),
    ),
  );
}

/** The part of a node `Readable` read here. */
interface BodyStream {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(): void;
}

/**
 * A GET that carries a body (endpoint 6 sends its parameters so): Fetch's `Request` cannot hold
 * it, so MSW hands the handler an empty one. When the request was made with node:http(s), the raw
 * body is still reachable (`getClientRequestBodyStream`, Node only, loaded only then), and read no
 * further than the platform's body limit. Nothing changes for any other request, nor in a browser,
 * where no GET can carry a body.
 */
async function getBodyOf(request: Request, limit: number): Promise<HandleInfo> {
  if (request.method !== 'GET') return {};
  const declared = request.headers.get('content-length');
  if ((declared === null || declared === '0') && !request.headers.has('transfer-encoding')) return {};
  const specifier = '@mswjs/interceptors/utils/node';
  let stream: BodyStream;
  try {
    const { getClientRequestBodyStream } = (await import(/* @vite-ignore */ specifier)) as {
      getClientRequestBodyStream(request: Request): BodyStream;
    };
    stream = getClientRequestBodyStream(request);
  } catch {
    return {};
  }
  return new Promise<HandleInfo>((resolve) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    stream.on('data', (chunk) => {
      size += chunk.byteLength;
      if (size > limit) {
        stream.destroy();
        resolve({ bodyTooLarge: true });
      } else chunks.push(chunk);
    });
    stream.on('error', () => resolve({}));
    stream.on('end', () => {
      const all = new Uint8Array(size);
      let at = 0;
      for (const c of chunks) {
        all.set(c, at);
        at += c.byteLength;
      }
      resolve({ body: new TextDecoder().decode(all) });
    });
  });
}

/** `text`, matched literally in a regular expression. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function isList(value: Origins): value is readonly string[] {
  return Array.isArray(value);
}
