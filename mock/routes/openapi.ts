/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of this platform (`mock/openapi.ts`), generated
 * from the same endpoint table it serves, describing the server that answers: its own URL (with
 * its base path, such as a namespace's), its environment's spelling of endpoint 10, `/me` in the
 * shape it answers. No token needed.
 */
import * as z from 'zod';
import { type Route, type RouteContext, route } from '../core/route.js';
import { type DescribedServer, openApiDocument } from '../openapi.js';

/** The document of each kind of platform (environment and `/me` shape), made on first use; the URL is added per request. */
const documents = new Map<string, Record<string, unknown>>();

/** The server a request reached: the origin it was sent to, and what the platform serves there. */
function serverOf(ctx: RouteContext): DescribedServer {
  const url = `${ctx.url.origin}${ctx.settings.basePath}`;
  return { url, environment: ctx.environment, meShape: ctx.settings.meShape };
}

/** The routes of this file. */
export const openApiRoutes: readonly Route[] = [
  route({ method: 'GET', path: '/openapi.json', kind: 'api', query: z.strictObject({}) }, (ctx) => {
    const server = serverOf(ctx);
    const key = `${server.environment} ${server.meShape}`;
    let document = documents.get(key);
    if (!document) {
      document = openApiDocument({ server: { ...server, url: '{server}' } });
      documents.set(key, document);
    }
    // Only the URL differs between two servers of one kind: the document's text says it twice.
    const url = JSON.stringify(server.url).slice(1, -1);
    return { body: JSON.parse(JSON.stringify(document).replaceAll('{server}', url)) };
  }),
];
