/**
 * Provision and update user-product (endpoints 13 and 12): refused in every malformed way, and with
 * `--allow-writes`, a user-product provisioned on the test account far in the future, changed, and
 * deactivated at the end.
 */
import { provisionUserProduct, updateUserProduct } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { ABSENT_ID, call, type Scenario, type Step } from '../scenario.js';
import { packagesOnSale, writeRefusals } from './common.js';

const CHECK = "List the test account's user-products on the stage: one may have been written.";

/** A provisioning body: the first package, recurring, for January 2098; `more` changes what a step tests. */
function provisioning(more: Readonly<Record<string, string>>): Record<string, string> {
  return {
    account_id: '{account_id}',
    package_code: '{package_code}',
    subscription_type: 'recurring',
    valid_from: '2098-01-01T00:00:00.000Z',
    valid_to: '2098-02-01T00:00:00.000Z',
    ...more,
  };
}

/** An update of the user-product the run provisioned. */
function update(name: string, change: Readonly<Record<string, string>>): Step {
  return {
    name,
    row: ROWS.updateWhat,
    effect: 'write',
    needs: ['account'],
    request: call(updateUserProduct, {
      json: { account_id: '{account_id}', product_id: '{user_product_id}', ...change },
    }),
  };
}

/** A refused update of a user-product no platform has. */
function refusedUpdate(name: string, change: Readonly<Record<string, string>>): Step {
  return {
    name,
    row: ROWS.updateWhat,
    effect: 'refused',
    request: call(updateUserProduct, { json: { account_id: ABSENT_ID, product_id: ABSENT_ID, ...change } }),
    check: CHECK,
  };
}

/** A refused provisioning for an account no platform has. */
function refusedProvisioning(name: string, row: string, more: Readonly<Record<string, string>>): Step {
  return {
    name,
    row,
    effect: 'refused',
    request: call(provisionUserProduct, { json: provisioning({ account_id: ABSENT_ID, ...more }) }),
    check: CHECK,
  };
}

export const userProducts: Scenario = {
  name: 'user-products',
  scopes: ['/external/userproduct/w', '/external/product/r'],
  steps: [
    packagesOnSale(ROWS.provisionPackage, { package_code: '/items/0/product_code' }),
    ...writeRefusals(updateUserProduct, {
      malformed: { account_id: 'not-an-id', product_id: 'not-an-id', state: 'deactivated' },
      otherScope: '/external/product/r',
      check: CHECK,
      row: ROWS.updateOrder,
    }),
    refusedUpdate('update user-product with nothing to change', {}),
    refusedUpdate('update user-product to a state that cannot be set', { state: 'cancelled' }),
    ...writeRefusals(provisionUserProduct, {
      malformed: provisioning({ account_id: 'not-an-id' }),
      otherScope: '/external/product/r',
      check: CHECK,
    }),
    refusedProvisioning('provision user-product with a time that is not a date-time', ROWS.field, {
      valid_from: 'next monday',
    }),
    refusedProvisioning('provision user-product with an empty window', ROWS.provisionWindow, {
      valid_to: '2098-01-01T00:00:00.000Z',
    }),
    {
      name: 'provision user-product on the test account, far in the future',
      row: ROWS.provisioned,
      effect: 'write',
      needs: ['account'],
      request: call(provisionUserProduct, { json: provisioning({}) }),
      bind: { user_product_id: '/id' },
      undo: update('the provisioned user-product deactivated', { state: 'deactivated' }),
    },
    {
      ...update('the provisioned user-product made limited', { subscription_type: 'limited' }),
      undo: update('the provisioned user-product made recurring again', { subscription_type: 'recurring' }),
    },
  ],
};
