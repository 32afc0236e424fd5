/**
 * Products, packages and campaigns: when one is active (on sale), by the platform clock, and the
 * price model their organisation prices them by.
 */
import { timeMs } from './clock.js';
import type { OrganisationRecord, ProductRecord } from './document.js';
import type { State } from './state.js';

/** How an organisation prices its periods: `simple` (one `price`) or `complex` (price `details`). */
export type PriceModel = OrganisationRecord['price_model'];

/** The price model of an organisation: its own, else `simple` (an organisation the state does not hold). */
export function priceModelOf(state: State, organisationId: string): PriceModel {
  return state.organisation(organisationId)?.price_model ?? 'simple';
}

/** A product is active while the platform clock is within [valid_from, valid_to]. */
export function isActive(p: ProductRecord, nowMs: number): boolean {
  return timeMs(p.valid_from) <= nowMs && nowMs <= timeMs(p.valid_to);
}
