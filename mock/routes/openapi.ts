/**
 * `GET /openapi.json`: the OpenAPI 3.1 document of the platform (`mock/openapi.ts`), generated from
 * the same endpoint table the platform serves. No token needed. Made once per platform, on first use.
 */
import * as z from 'zod';
import { type Route, route } from '../core/route.js';
import { openApiDocument } from '../openapi.js';

const documents = new WeakMap<object, Record<string, unknown>>();

/** The routes of this file. */
export const openApiRoutes: readonly Route[] = [
  route({ method: 'GET', path: '/openapi.json', kind: 'api', query: z.strictObject({}) }, ({ platform }) => {
    let doc = documents.get(platform);
    if (!doc) {
      doc = openApiDocument();
      documents.set(platform, doc);
    }
    return { body: doc };
  }),
];
