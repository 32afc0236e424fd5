/** Products, packages and campaigns: when one is active (on sale), by the platform clock. */
import type { ProductRecord } from './document.js';

/** Each product's validity window in milliseconds, parsed once per value of its dates. */
const windows = new WeakMap<ProductRecord, { from: string; to: string; fromMs: number; toMs: number }>();

/** A product is active while the platform clock is within [valid_from, valid_to]. */
export function isActive(p: ProductRecord, nowMs: number): boolean {
  let w = windows.get(p);
  if (!w || w.from !== p.valid_from || w.to !== p.valid_to) {
    w = { from: p.valid_from, to: p.valid_to, fromMs: Date.parse(p.valid_from), toMs: Date.parse(p.valid_to) };
    windows.set(p, w);
  }
  return w.fromMs <= nowMs && nowMs <= w.toMs;
}
