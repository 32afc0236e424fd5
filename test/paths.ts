/**
 * The paths the tests call, one per entry of the endpoint table, named as the entry is exported
 * (`paths.getProducts`), in its stage spelling: derived from the table, never written by hand.
 */
import { PathTemplate } from '../mock/core/router.js';
import * as table from '../src/endpoints.js';
import { type Endpoint, endpoints, pathOf } from '../src/endpoints.js';

/** The export names of `src/endpoints.ts` that are entries of the table. */
type EntryName = { [K in keyof typeof table]: (typeof table)[K] extends Endpoint ? K : never }[keyof typeof table];

export const paths = Object.fromEntries(
  Object.entries(table)
    .filter(([, value]) => endpoints.includes(value as Endpoint))
    .map(([name, value]) => [name, pathOf(value as Endpoint, 'stage')]),
) as Readonly<Record<EntryName, string>>;

/**
 * The entry of the table a request to `path` (no query) reaches, as the platform's router finds
 * it: an entry whose path has no parameters first, with a trailing slash or without, then one whose
 * `{name}` segments match (`/products/payment_periods` is endpoint 3's, not a `/products/{id}`'s).
 * Only entries of `host` when it is given. A path as an entry writes it (`{account_id}`) is that entry's.
 */
export function entryFor(method: string, path: string, host?: Endpoint['host']): Endpoint | undefined {
  const candidates = endpoints.filter((e) => e.method === method && (host === undefined || e.host === host));
  const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const literal = candidates.find((e) => {
    const own = pathOf(e, 'stage');
    return own === path || own === trimmed;
  });
  if (literal) return literal;
  return candidates.find((e) => new PathTemplate(pathOf(e, 'stage')).match(path) !== undefined);
}
