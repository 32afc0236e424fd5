/**
 * Update prices (endpoint 1), the platform's rules beyond the request's shape: what a period must
 * carry by the package or campaign it prices and by its organisation's price model.
 */
import type * as z from 'zod';
import type { PricePeriodInput } from '../../src/schemas/prices.js';
import type { ProductRecord } from './document.js';
import { type HttpError, invalidParameter } from './errors.js';
import type { PriceModel } from './products.js';

/**
 * Why the periods of an update of `product`, priced by `model`, are refused: the first period (in
 * the request's order) that is a campaign's without `monthly_payments`; in the simple price model,
 * one with `details` or without `price`; in the complex model, one without `details`. Each a 400
 * `invalid_parameter` naming the period's field. Undefined when every period may be written.
 */
export function pricePeriodRefusal(
  product: ProductRecord,
  model: PriceModel,
  periods: readonly z.output<typeof PricePeriodInput>[],
): HttpError | undefined {
  for (const [i, p] of periods.entries()) {
    if (product.is_campaign && p.monthly_payments === undefined)
      return invalidParameter(`price_periods[${i}].monthly_payments`, 'Parameter is required for a campaign');
    if (model === 'simple') {
      if (p.details !== undefined)
        return invalidParameter(`price_periods[${i}].details`, 'Parameter is allowed only in the complex price model');
      if (p.price === undefined) return invalidParameter(`price_periods[${i}].price`, 'Parameter is required');
    } else if (p.details === undefined) {
      return invalidParameter(`price_periods[${i}].details`, 'Parameter is required in the complex price model');
    }
  }
  return undefined;
}
