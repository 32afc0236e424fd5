/** What any request meets before its endpoint: an unknown route, another method, a trailing slash. */
import { getProducts } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, type Scenario } from '../scenario.js';

export const requests: Scenario = {
  name: 'requests',
  scopes: ['/external/product/r'],
  steps: [
    {
      name: 'a path the API does not have',
      row: ROWS.route,
      effect: 'read',
      request: { ...call(getProducts), path: '/external/api/v1/parity_no_such_path' },
    },
    {
      name: 'get products with a method the path does not take',
      row: ROWS.route,
      effect: 'refused',
      request: { ...call(getProducts, { json: { parity: 'not a write' } }), method: 'DELETE' },
      check: 'Nothing should have changed: DELETE is no operation of the API.',
    },
    {
      name: 'get products with a trailing slash',
      row: ROWS.route,
      effect: 'read',
      request: { ...call(getProducts), path: '/external/api/v1/products/' },
      values: 'catalogue',
    },
    {
      name: 'an error answer carries the correlation id',
      row: ROWS.correlation,
      effect: 'read',
      request: call(getProducts, { auth: 'unknown' }),
    },
  ],
};
