/**
 * Update prices (endpoint 1): refused in every way a malformed request can be, and with
 * `--allow-writes`, a package's price changed by one and put back.
 */
import { getPaymentPeriods, updatePrices } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario, type Step } from '../scenario.js';
import { packagesOnSale, writeRefusals } from './common.js';

const CHECK = "Read the package's payment periods on the stage: a price may have changed.";

/** A package's first period with its price as given (`{period_price}`, or `{period_price+1}`). */
function priced(name: string, price: string): Step {
  return {
    name,
    row: ROWS.pricesPeriod,
    effect: 'write',
    needs: ['account'],
    request: call(updatePrices, {
      json: {
        package_integration_code: '{integration_code}',
        price_periods: [
          {
            subscription_type: '{period_purchase_type}',
            payment_option: '{period_payment_option}',
            type: '{period_type}',
            length: '{period_length}',
            price,
          },
        ],
      },
    }),
  };
}

/** A period of a malformed request: every member well formed but the one `more` breaks. */
function period(more: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return { subscription_type: 'recurring', payment_option: 'creditcard', type: 'month', length: 1, price: 1, ...more };
}

export const prices: Scenario = {
  name: 'prices',
  scopes: ['/external/price/w', '/external/product/r'],
  steps: [
    packagesOnSale(ROWS.organisations, {
      package_id: '/items/0/id',
      integration_code: '/items/0/integration_code',
      period_purchase_type: '/items/0/price_periods/0/purchase_type',
      period_payment_option: '/items/0/price_periods/0/payment_option',
      period_type: '/items/0/price_periods/0/type',
      period_length: '/items/0/price_periods/0/length',
      period_price: '/items/0/price_periods/0/price',
    }),
    ...writeRefusals(updatePrices, {
      malformed: { package_integration_code: 'x'.repeat(51), price_periods: [period({})] },
      otherScope: '/external/product/r',
      check: CHECK,
    }),
    {
      name: 'update prices with no period',
      row: ROWS.field,
      effect: 'refused',
      request: call(updatePrices, { json: { package_integration_code: '{integration_code}', price_periods: [] } }),
      check: CHECK,
    },
    {
      ...priced("a package's first price raised by one", '{period_price+1}'),
      undo: priced("the package's first price put back", '{period_price}'),
    },
    {
      name: "the package's payment periods after the change",
      row: ROWS.pricesPeriod,
      effect: 'read',
      needs: ['account'],
      request: call(getPaymentPeriods, { query: query({ product_id: '{package_id}' }) }),
      values: 'catalogue',
    },
  ],
};
