/** Log to accounts (endpoint 4) and its available categories: read, and refused in every malformed way. */
import { getAvailableCategories, logToAccounts } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, type Scenario } from '../scenario.js';
import { readRefusals, writeRefusals } from './common.js';

const CHECK = "Read the change log of the stage's accounts: an entry may have been written.";

/** An entry whose account id is malformed: no platform logs it. */
const MALFORMED = { account_id: 'not-an-id', category_type: 'parity', message: 'parity', requested_by: 'parity' };

export const accountChangeLog: Scenario = {
  name: 'account-change-log',
  scopes: ['/external/account_change_log/w'],
  steps: [
    {
      name: 'get the available categories',
      row: ROWS.categories,
      effect: 'read',
      request: call(getAvailableCategories),
    },
    ...readRefusals(getAvailableCategories, { valid: [], otherScope: '/external/product/r' }),
    ...writeRefusals(logToAccounts, {
      malformed: { change_logs: [MALFORMED] },
      otherScope: '/external/product/r',
      check: CHECK,
    }),
    {
      name: 'log to accounts with no entry',
      row: ROWS.field,
      effect: 'refused',
      request: call(logToAccounts, { json: { change_logs: [] } }),
      check: CHECK,
    },
    {
      name: 'log to accounts with an entry without a message',
      row: ROWS.field,
      effect: 'refused',
      request: call(logToAccounts, {
        json: { change_logs: [{ account_id: 'not-an-id', category_type: 'parity', requested_by: 'parity' }] },
      }),
      check: CHECK,
    },
    {
      name: 'log to accounts with a category that is not available, and a malformed account',
      row: ROWS.category,
      effect: 'refused',
      request: call(logToAccounts, {
        json: { change_logs: [{ ...MALFORMED, category_type: 'parity-no-such-category' }] },
      }),
      check: CHECK,
    },
  ],
};
