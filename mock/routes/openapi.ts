/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of the platform (`mock/openapi.ts`), generated from
 * the same endpoint table the platform serves. No token needed. Made once, on first use: it is the
 * same for every platform, but for one under a base path (a namespace), whose servers keep it.
 */
import * as z from 'zod';
import { type Route, route } from '../core/route.js';
import { openApiDocument } from '../openapi.js';

let openApi: Record<string, unknown> | undefined;

/** The documents of platforms under a base path, by the URL they are served at; a few are kept. */
const underBase = new Map<string, Record<string, unknown>>();
const KEPT_UNDER_BASE = 16;

/** The document whose every host is `base` (an origin and a base path). */
function documentAt(base: string): Record<string, unknown> {
  let document = underBase.get(base);
  if (!document) {
    if (underBase.size >= KEPT_UNDER_BASE) underBase.clear();
    document = openApiDocument({ hosts: { api: base, auth: base, sso: base, shop: base } });
    underBase.set(base, document);
  }
  return document;
}

/** The routes of this file. */
export const openApiRoutes: readonly Route[] = [
  route({ method: 'GET', path: '/openapi.json', kind: 'api', query: z.strictObject({}) }, ({ url, settings }) => {
    if (settings.basePath !== '') return { body: documentAt(`${url.origin}${settings.basePath}`) };
    openApi ??= openApiDocument();
    return { body: openApi };
  }),
];
