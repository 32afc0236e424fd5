/**
 * The MSW adapter: one catch-all handler per origin, each passing the request to the platform's
 * core (which routes in one Map lookup). Works with `setupServer` (Node) and `setupWorker` (browser).
 */
import type { HttpHandler } from 'msw';
import type { Host } from '../src/endpoints.js';
import { internalsOf } from './core/internals.js';
import { bodyLimitFor, DEFAULT_MAX_BODY_BYTES } from './core/limits.js';
import { escapeRegExp } from './core/path-text.js';
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

/** The lowest msw whose `@mswjs/interceptors` (0.38.5) keeps the raw body of a node:http request. */
export const MSW_BODY_MINIMUM = '2.8.5';

/**
 * Why a GET's announced body could not be read: the platform's 500 says it (in the API's error
 * shape, so the SDK's error and a test's failure say why; a handler's exception would be msw's bare 500).
 */
const MSW_TOO_OLD =
  'subscription-platform-sdk/mock cannot read the body of this GET (endpoint 6 sends its parameters in one): ' +
  `the installed msw is older than ${MSW_BODY_MINIMUM}, whose @mswjs/interceptors keeps the body of a request ` +
  `made with node:http, or the request was not made with node:http(s). Upgrade msw: npm i -D msw@^${MSW_BODY_MINIMUM}`;

/**
 * The raw body @mswjs/interceptors keeps on a request made with node:http(s), under the key that
 * its `getClientRequestBodyStream` (`@mswjs/interceptors/utils/node`) reads. The key is found by
 * its description, not through that module: a CommonJS suite on Node 20.19 or later gets msw's ES
 * module (its `module-sync` condition) and would `require` the module's CommonJS copy, whose key
 * is another symbol; and jest's CommonJS runtime refuses the `import()` that would load the ES one.
 */
function rawBodyOf(request: Request): BodyStream | undefined {
  for (const key of Object.getOwnPropertySymbols(request)) {
    if (key.description !== 'kRawRequestBodyStream') continue;
    const stream: unknown = Reflect.get(request, key);
    if (typeof (stream as Partial<BodyStream> | undefined)?.on === 'function') return stream as BodyStream;
  }
  return undefined;
}

/**
 * A GET that carries a body (endpoint 6 sends its parameters so): Fetch's `Request` cannot hold
 * it, so MSW hands the handler an empty one. When the request was made with node:http(s), the raw
 * body is still reachable ({@link rawBodyOf}), and read no further than the platform's body limit,
 * whatever the request's headers say: a test environment's `Request` (happy-dom's, jsdom's) drops
 * `Content-Length`, a header a page may not set. A GET whose headers announce a body that cannot
 * be reached is answered the platform's 500 saying to upgrade msw, not read as empty. Nothing
 * changes for any other request, nor in a browser, where no GET can carry a body.
 */
async function getBodyOf(request: Request, limit: number): Promise<HandleInfo> {
  if (request.method !== 'GET') return {};
  const stream = rawBodyOf(request);
  if (!stream) {
    const declared = request.headers.get('content-length');
    const announced = (declared !== null && declared !== '0') || request.headers.has('transfer-encoding');
    return announced ? { bodyUnreachable: MSW_TOO_OLD } : {};
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

function isList(value: Origins): value is readonly string[] {
  return Array.isArray(value);
}
