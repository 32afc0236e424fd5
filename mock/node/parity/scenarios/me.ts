/**
 * The me API beyond the spec, with a user token of the test account: the documented user (v3), its
 * active products, and cancel product refused in every malformed way.
 */
import { cancelProduct, getMeDocumented, getMyActiveProducts } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario } from '../scenario.js';
import { readRefusals, writeRefusals } from './common.js';

export const me: Scenario = {
  name: 'me',
  scopes: ['/external/me/w'],
  needs: ['account'],
  steps: [
    {
      name: 'the documented user (v3)',
      row: ROWS.meFields,
      effect: 'read',
      request: call(getMeDocumented, { auth: 'user' }),
      accountRecords: ['/item/user_products/*'],
    },
    {
      name: 'the documented user with a server token',
      row: ROWS.identity,
      effect: 'read',
      request: call(getMeDocumented),
    },
    ...readRefusals(getMeDocumented, { valid: [], otherScope: '/external/product/r', auth: 'user' }),
    {
      name: 'my active products',
      row: ROWS.activeProducts,
      effect: 'read',
      request: call(getMyActiveProducts, { auth: 'user' }),
    },
    {
      name: 'my active products with include_articles=false',
      row: ROWS.articles,
      effect: 'read',
      request: call(getMyActiveProducts, { query: query({ include_articles: 'false' }), auth: 'user' }),
    },
    {
      name: 'my active products with include_articles=true',
      row: ROWS.articles,
      effect: 'read',
      request: call(getMyActiveProducts, { query: query({ include_articles: 'true' }), auth: 'user' }),
    },
    {
      name: 'my active products with a server token',
      row: ROWS.identity,
      effect: 'read',
      request: call(getMyActiveProducts),
    },
    ...readRefusals(getMyActiveProducts, {
      valid: query({ include_articles: 'false' }),
      repeat: 'include_articles',
      otherScope: '/external/product/r',
      auth: 'user',
    }),
    ...writeRefusals(cancelProduct, {
      malformed: { id: 'not-an-id' },
      otherScope: '/external/product/r',
      check: "List the test account's user-products on the stage: one may have been cancelled.",
      row: ROWS.cancelProduct,
      auth: 'user',
    }),
  ],
};
