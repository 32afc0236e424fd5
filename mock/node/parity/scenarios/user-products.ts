/**
 * Provision and update user-product (endpoints 13 and 12): refused in every malformed way, and with
 * `--allow-writes`, a user-product provisioned on the test account far in the future, changed, and
 * deactivated at the end.
 */
import { getProducts, provisionUserProduct, updateUserProduct } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario, type Step } from '../scenario.js';
import { writeRefusals } from './common.js';

const CHECK = "List the test account's user-products on the stage: one may have been written.";

/** An update of the user-product the run provisioned. */
function update(name: string, row: string, change: Readonly<Record<string, string>>): Step {
  return {
    name,
    row,
    effect: 'write',
    needs: ['account'],
    request: call(updateUserProduct, {
      json: { account_id: '{account_id}', product_id: '{user_product_id}', ...change },
    }),
  };
}

export const userProducts: Scenario = {
  name: 'user-products',
  scopes: ['/external/userproduct/w', '/external/product/r'],
  steps: [
    {
      name: 'get the packages on sale',
      row: ROWS.provisionPackage,
      effect: 'read',
      request: call(getProducts, { query: query({ product_type: 'packages' }) }),
      values: 'catalogue',
      bind: { package_code: '/items/0/product_code' },
    },
    ...writeRefusals(updateUserProduct, {
      malformed: { account_id: 'not-an-id', product_id: 'not-an-id', state: 'deactivated' },
      otherScope: '/external/product/r',
      check: CHECK,
      row: ROWS.updateOrder,
    }),
    {
      name: 'update user-product with nothing to change',
      row: ROWS.updateWhat,
      effect: 'refused',
      request: call(updateUserProduct, {
        json: { account_id: 'fa17ed00fa17ed00fa17ed00', product_id: 'fa17ed00fa17ed00fa17ed00' },
      }),
      check: CHECK,
    },
    {
      name: 'update user-product to a state that cannot be set',
      row: ROWS.updateWhat,
      effect: 'refused',
      request: call(updateUserProduct, {
        json: { account_id: 'fa17ed00fa17ed00fa17ed00', product_id: 'fa17ed00fa17ed00fa17ed00', state: 'cancelled' },
      }),
      check: CHECK,
    },
    ...writeRefusals(provisionUserProduct, {
      malformed: {
        account_id: 'not-an-id',
        package_code: '{package_code}',
        subscription_type: 'recurring',
        valid_from: '2098-01-01T00:00:00.000Z',
        valid_to: '2098-02-01T00:00:00.000Z',
      },
      otherScope: '/external/product/r',
      check: CHECK,
    }),
    {
      name: 'provision user-product with a time that is not a date-time',
      row: ROWS.field,
      effect: 'refused',
      request: call(provisionUserProduct, {
        json: {
          account_id: 'fa17ed00fa17ed00fa17ed00',
          package_code: '{package_code}',
          subscription_type: 'recurring',
          valid_from: 'next monday',
          valid_to: '2098-02-01T00:00:00.000Z',
        },
      }),
      check: CHECK,
    },
    {
      name: 'provision user-product on the test account, far in the future',
      row: ROWS.provisioned,
      effect: 'write',
      needs: ['account'],
      request: call(provisionUserProduct, {
        json: {
          account_id: '{account_id}',
          package_code: '{package_code}',
          subscription_type: 'recurring',
          valid_from: '2098-01-01T00:00:00.000Z',
          valid_to: '2098-02-01T00:00:00.000Z',
        },
      }),
      bind: { user_product_id: '/id' },
      undo: update('the provisioned user-product deactivated', ROWS.updateWhat, { state: 'deactivated' }),
    },
    {
      ...update('the provisioned user-product made limited', ROWS.updateWhat, { subscription_type: 'limited' }),
      undo: update('the provisioned user-product made recurring again', ROWS.updateWhat, {
        subscription_type: 'recurring',
      }),
    },
    {
      name: 'provision user-product with an empty window',
      row: ROWS.provisionWindow,
      effect: 'refused',
      request: call(provisionUserProduct, {
        json: {
          account_id: 'fa17ed00fa17ed00fa17ed00',
          package_code: '{package_code}',
          subscription_type: 'recurring',
          valid_from: '2098-01-01T00:00:00.000Z',
          valid_to: '2098-01-01T00:00:00.000Z',
        },
      }),
      check: CHECK,
    },
  ],
};
