/**
 * Each product's view as JSON, kept by its record: product records are immutable (a write
 * replaces the record, `state.products.replace`), so a product is serialized once, not on every read
 * of the catalogue, and a record written since is a record not seen yet. Each platform keeps its
 * own, dropped whole when its state is loaded again (reset, restore), and at most
 * {@link KEPT_JSON_UNITS} UTF-16 units of it, the oldest dropped first: a catalogue over the bound
 * is, in part, serialized on each read.
 */
import type { Product } from '../../src/schemas/products.js';
import type { ProductRecord } from './document.js';
import type { PriceModel } from './products.js';
import type { State } from './state.js';

/** What a state keeps: each record's JSON, in the price model it was made for. */
export interface KeptJson {
  /** The state's load it was kept in (`state.generation`). */
  readonly generation: number;
  readonly byRecord: Map<ProductRecord, { readonly model: PriceModel; readonly json: string }>;
  units: number;
}
const keptJsonOf = new WeakMap<State, KeptJson>();
/** 4 Mi units of text: a catalogue of a few thousand products (the demo's is 6 KB). */
const KEPT_JSON_UNITS = 4 * 1024 * 1024;

/** What `state` keeps, none of it from before its last load. */
export function keptJsonIn(state: State): KeptJson {
  let kept = keptJsonOf.get(state);
  if (kept === undefined || kept.generation !== state.generation) {
    kept = { generation: state.generation, byRecord: new Map(), units: 0 };
    keptJsonOf.set(state, kept);
  }
  return kept;
}

/**
 * How much product JSON `state` keeps now, for the platform's own tests: none from before its last
 * load, never more than {@link KEPT_JSON_UNITS} units.
 */
export function keptProductJson(state: State): { readonly products: number; readonly units: number } {
  const kept = keptJsonOf.get(state);
  if (kept === undefined || kept.generation !== state.generation) return { products: 0, units: 0 };
  return { products: kept.byRecord.size, units: kept.units };
}

/**
 * `view(p, model)` as JSON: made the first time it is asked for, then kept by the record. `view` is
 * the route's (endpoint 2's product view), the same one on every call.
 */
export function productJsonOf(
  kept: KeptJson,
  p: ProductRecord,
  model: PriceModel,
  view: (p: ProductRecord, model: PriceModel) => Product,
): string {
  const known = kept.byRecord.get(p);
  if (known !== undefined && known.model === model) return known.json;
  const json = JSON.stringify(view(p, model));
  if (known !== undefined) {
    kept.byRecord.delete(p);
    kept.units -= known.json.length;
  }
  kept.byRecord.set(p, { model, json });
  kept.units += json.length;
  // A Map iterates in insertion order: the oldest first.
  for (const [record, old] of kept.byRecord) {
    if (kept.units <= KEPT_JSON_UNITS) break;
    kept.byRecord.delete(record);
    kept.units -= old.json.length;
  }
  return json;
}
