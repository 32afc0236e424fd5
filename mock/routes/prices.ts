/** Endpoint 1: update prices of a package or campaign, found by its integration code. */
import { updatePrices } from '../../src/endpoints.js';
import type { PricePeriodRecord } from '../core/document.js';
import { invalidParameter, notFound } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { pricePeriodRefusal } from '../core/prices.js';
import { priceModelOf } from '../core/products.js';
import { apiRoute, type Route } from '../core/route.js';

const update = apiRoute(updatePrices, ({ input, state, auth, clock, settings }) => {
  const org = auth.client.organisation_id;
  const product = state.productByIntegrationCode(org, input.package_integration_code);
  if (!product || !(product.is_package || product.is_campaign))
    throw notFound('package_integration_code', 'Package not found');
  const model = priceModelOf(state, org);

  // Every check before the first change: a refused request changes nothing.
  const refused = pricePeriodRefusal(product, model, input.price_periods);
  if (refused) throw refused;

  // A product record is immutable: the write makes the next one and replaces it.
  const periods = [...product.price_periods];
  for (const p of input.price_periods) {
    const at = periods.findIndex(
      (pp) =>
        pp.payment_option === p.payment_option &&
        pp.purchase_type === p.subscription_type &&
        pp.type === p.type &&
        pp.length === p.length,
    );
    const period: PricePeriodRecord =
      at >= 0
        ? { ...periods[at]! }
        : {
            id: newId(),
            purchase_type: p.subscription_type,
            payment_option: p.payment_option,
            type: p.type,
            length: p.length,
            enabled: true,
          };
    // The complex model prices a period by its details (their sum, as endpoint 3 answers it and a
    // purchase charges it): a `price` sent beside them is not kept, and a stale one goes.
    if (model === 'complex') delete period.price;
    else if (p.price !== undefined) period.price = p.price;
    if (p.details !== undefined) period.details = p.details;
    if (p.payment_option_details !== undefined) period.payment_option_details = p.payment_option_details;
    if (p.monthly_payments !== undefined) period.monthly_payments = p.monthly_payments;
    if (at >= 0) periods[at] = period;
    else periods.push(period);
  }
  // A period is the catalogue's, not a record of use: over the cap, the update is refused, none dropped.
  const max = settings.retention.maxPricePeriods;
  if (periods.length > max && periods.length > product.price_periods.length)
    throw invalidParameter(
      'price_periods',
      `A package or campaign holds at most ${max} price periods: this update would give it ${periods.length}`,
    );
  state.products.replace(product, { ...product, price_periods: periods, updated: clock.now().toISOString() });
  return { body: { id: product.id } };
});

/** The routes of this file. */
export const priceRoutes: readonly Route[] = [update];
