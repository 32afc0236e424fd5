/**
 * The external subscription system (endpoints 16, 18, 19, 20): the writes refused in every
 * malformed way, and distribution information refused before the integration is asked.
 */
import {
  getDistributionInformation,
  reactivateSubscription,
  syncAddress,
  syncCustomerSubscriptions,
} from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario } from '../scenario.js';
import { readRefusals, writeRefusals } from './common.js';

const CHECK = "Read the stage's account with that customer number: its address or subscriptions may have changed.";

export const subscriptionSystem: Scenario = {
  name: 'subscription-system',
  scopes: ['/external/subscription_system/w', '/external/subscription_system/r'],
  steps: [
    ...writeRefusals(reactivateSubscription, {
      malformed: { account_id: 'not-an-id', user_product_id: 'not-an-id' },
      otherScope: '/external/product/r',
      check: "List the account's user-products: one may have been reactivated.",
      row: ROWS.reactivateOrder,
    }),
    ...writeRefusals(syncAddress, {
      malformed: { customer_number: 'not a customer number!' },
      otherScope: '/external/product/r',
      check: CHECK,
      row: ROWS.syncCustomer,
    }),
    ...writeRefusals(syncCustomerSubscriptions, {
      malformed: { customer_number: 'not a customer number!' },
      otherScope: '/external/product/r',
      check: CHECK,
    }),
    {
      name: 'distribution information for a period id of the wrong shape',
      row: ROWS.distributionProduct,
      effect: 'read',
      request: call(getDistributionInformation, {
        query: query({ product_code: 'parity-code', period_id: 'not-an-id', zip_code: '00000' }),
      }),
    },
    {
      name: 'distribution information without a zip code',
      row: ROWS.field,
      effect: 'read',
      request: call(getDistributionInformation, {
        query: query({ product_code: 'parity-code', period_id: 'fa17ed00fa17ed00fa17ed00' }),
      }),
    },
    {
      name: 'distribution information for a product code of the wrong shape',
      row: ROWS.field,
      effect: 'read',
      request: call(getDistributionInformation, {
        query: query({ product_code: 'not a code!', period_id: 'fa17ed00fa17ed00fa17ed00', zip_code: '00000' }),
      }),
    },
    ...readRefusals(getDistributionInformation, {
      valid: query({ product_code: 'parity-code', period_id: 'not-an-id', zip_code: '00000' }),
      repeat: 'zip_code',
      otherScope: '/external/product/r',
    }),
  ],
};
