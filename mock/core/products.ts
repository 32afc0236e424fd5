/** Products, packages and campaigns: when one is active (on sale), by the platform clock. */
import { timeMs } from './clock.js';
import type { ProductRecord } from './document.js';

/** A product is active while the platform clock is within [valid_from, valid_to]. */
export function isActive(p: ProductRecord, nowMs: number): boolean {
  return timeMs(p.valid_from) <= nowMs && nowMs <= timeMs(p.valid_to);
}
