/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of the platform (`mock/openapi.ts`), generated from
 * the same endpoint table the platform serves. No token needed. Made once, on first use: it is the
 * same for every platform.
 */
import * as z from 'zod';
import { type Route, route } from '../core/route.js';
import { openApiDocument } from '../openapi.js';

let openApi: Record<string, unknown> | undefined;

/** The routes of this file. */
export const openApiRoutes: readonly Route[] = [
  route({ method: 'GET', path: '/openapi.json', kind: 'api', query: z.strictObject({}) }, () => {
    openApi ??= openApiDocument();
    return { body: openApi };
  }),
];
