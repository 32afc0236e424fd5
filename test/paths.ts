/**
 * The paths the tests call, one per entry of the endpoint table, named as the entry is exported
 * (`paths.getProducts`), in its stage spelling: derived from the table, never written by hand.
 */
import * as table from '../src/endpoints.js';
import { type Endpoint, endpoints, pathOf } from '../src/endpoints.js';

/** The export names of `src/endpoints.ts` that are entries of the table. */
type EntryName = { [K in keyof typeof table]: (typeof table)[K] extends Endpoint ? K : never }[keyof typeof table];

export const paths = Object.fromEntries(
  Object.entries(table)
    .filter(([, value]) => endpoints.includes(value as Endpoint))
    .map(([name, value]) => [name, pathOf(value as Endpoint, 'stage')]),
) as Readonly<Record<EntryName, string>>;
