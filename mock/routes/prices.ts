/** Endpoint 1: update prices of a package or campaign, found by its integration code. */
import { updatePrices } from '../../src/endpoints.js';
import type { PricePeriodRecord } from '../core/document.js';
import { invalidParameter, notFound } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { priceModelOf } from '../core/products.js';
import { apiRoute, type Route } from '../core/route.js';

const update = apiRoute(updatePrices, ({ input, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const product = state.productByIntegrationCode(org, input.package_integration_code);
  if (!product || !(product.is_package || product.is_campaign))
    throw notFound('package_integration_code', 'Package not found');
  const model = priceModelOf(state, org);

  // Every check before the first change: a refused request changes nothing.
  input.price_periods.forEach((p, i) => {
    if (product.is_campaign && p.monthly_payments === undefined)
      throw invalidParameter(`price_periods[${i}].monthly_payments`, 'Parameter is required for a campaign');
    if (model === 'simple') {
      if (p.details !== undefined)
        throw invalidParameter(`price_periods[${i}].details`, 'Parameter is allowed only in the complex price model');
      if (p.price === undefined) throw invalidParameter(`price_periods[${i}].price`, 'Parameter is required');
    } else if (p.details === undefined) {
      throw invalidParameter(`price_periods[${i}].details`, 'Parameter is required in the complex price model');
    }
  });

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
    if (p.price !== undefined) period.price = p.price;
    if (p.details !== undefined) period.details = p.details;
    if (p.payment_option_details !== undefined) period.payment_option_details = p.payment_option_details;
    if (p.monthly_payments !== undefined) period.monthly_payments = p.monthly_payments;
    if (at >= 0) periods[at] = period;
    else periods.push(period);
  }
  state.products.replace(product, { ...product, price_periods: periods, updated: clock.now().toISOString() });
  return { body: { id: product.id } };
});

/** The routes of this file. */
export const priceRoutes: readonly Route[] = [update];
