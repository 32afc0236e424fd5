/** An account's active products (beyond the spec): the test account's, an absent one's, and the refusals. */
import { getAccountActiveProducts } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { ABSENT_ID, call, query, type Scenario } from '../scenario.js';
import { readRefusals } from './common.js';

export const accounts: Scenario = {
  name: 'accounts',
  scopes: ['/external/account/r'],
  steps: [
    {
      name: "the test account's active products",
      row: ROWS.accountActive,
      effect: 'read',
      needs: ['account'],
      request: call(getAccountActiveProducts, { query: query({ account_id: '{account_id}' }) }),
    },
    {
      name: 'active products of an account that does not exist',
      row: ROWS.accountActive,
      effect: 'read',
      request: call(getAccountActiveProducts, { query: query({ account_id: ABSENT_ID }) }),
    },
    {
      name: 'active products of an account id of the wrong shape',
      row: ROWS.field,
      effect: 'read',
      request: call(getAccountActiveProducts, { query: query({ account_id: 'not-an-id' }) }),
    },
    {
      name: 'active products with include_articles=true',
      row: ROWS.articles,
      effect: 'read',
      request: call(getAccountActiveProducts, { query: query({ account_id: ABSENT_ID, include_articles: 'true' }) }),
    },
    ...readRefusals(getAccountActiveProducts, {
      valid: query({ account_id: ABSENT_ID }),
      repeat: 'account_id',
      otherScope: '/external/product/r',
    }),
  ],
};
