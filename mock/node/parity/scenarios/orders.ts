/** Order validation (endpoint 9) read every way, and validate gift receiver (17) refused in every malformed way. */
import { validateGiftReceiver, validateOrder } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario } from '../scenario.js';
import { packagesOnSale, readRefusals, writeRefusals } from './common.js';

/** A delivery address every member of which is well formed. */
const ADDRESS = {
  first_name: 'Parity',
  last_name: 'Run',
  street: 'Parity Street',
  street_number: '1',
  zip_code: '00000',
  city: 'Parity',
  country_code: 'SE',
};

export const orders: Scenario = {
  name: 'orders',
  scopes: ['/external/order_validation/r', '/external/order/r', '/external/product/r'],
  steps: [
    packagesOnSale(ROWS.organisations, { package_code: '/items/0/product_code' }),
    {
      name: 'order validation for the test account',
      row: ROWS.field,
      effect: 'read',
      needs: ['account'],
      request: call(validateOrder, { query: query({ product_code: '{package_code}', account_id: '{account_id}' }) }),
      accountRecords: ['/item'],
    },
    {
      name: 'order validation for a date of birth',
      row: ROWS.field,
      effect: 'read',
      request: call(validateOrder, {
        query: query({ product_code: '{package_code}', date_of_birth: '1980-01-01T00:00:00.000Z' }),
      }),
    },
    {
      name: 'order validation for an ssn',
      row: ROWS.field,
      effect: 'read',
      request: call(validateOrder, { query: query({ product_code: '{package_code}', ssn: 'parity-ssn-1' }) }),
    },
    {
      name: 'order validation without a customer',
      row: ROWS.field,
      effect: 'read',
      request: call(validateOrder, { query: query({ product_code: '{package_code}' }) }),
    },
    {
      name: 'order validation for two customers at once',
      row: ROWS.field,
      effect: 'read',
      request: call(validateOrder, {
        query: query({
          product_code: '{package_code}',
          ssn: 'parity-ssn-1',
          date_of_birth: '1980-01-01T00:00:00.000Z',
        }),
      }),
    },
    {
      name: 'order validation of a package that does not exist',
      row: ROWS.productAbsent,
      effect: 'read',
      request: call(validateOrder, { query: query({ product_code: 'parity-absent-code', ssn: 'parity-ssn-1' }) }),
    },
    {
      name: 'order validation for an account that does not exist',
      row: ROWS.field,
      effect: 'read',
      request: call(validateOrder, {
        query: query({ product_code: '{package_code}', account_id: 'fa17ed00fa17ed00fa17ed00' }),
      }),
    },
    ...readRefusals(validateOrder, {
      valid: query({ product_code: '{package_code}', ssn: 'parity-ssn-1' }),
      repeat: 'ssn',
      otherScope: '/external/product/r',
    }),
    ...writeRefusals(validateGiftReceiver, {
      malformed: { giver_account_id: 'not-an-id', campaign_code: 'parity-campaign', delivery_address: ADDRESS },
      otherScope: '/external/product/r',
      check: 'Nothing should have changed: validate gift receiver only reads.',
    }),
    {
      name: 'validate gift receiver with a country code of three letters',
      row: ROWS.giftGiver,
      effect: 'refused',
      request: call(validateGiftReceiver, {
        json: {
          giver_account_id: 'not-an-id',
          campaign_code: 'parity-campaign',
          delivery_address: { ...ADDRESS, country_code: 'SWE' },
        },
      }),
      check: 'Nothing should have changed: validate gift receiver only reads.',
    },
  ],
};
