/** Transfer subscription (endpoint 5): refused in every malformed way (a transfer cannot be undone, so no write is sent). */
import { transferSubscription } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, type Scenario } from '../scenario.js';
import { writeRefusals } from './common.js';

const CHECK = 'Read the subscriptions of the accounts named: one may have moved (a transfer cannot be undone).';

export const subscriptions: Scenario = {
  name: 'subscriptions',
  scopes: ['/external/subscription/w'],
  steps: [
    ...writeRefusals(transferSubscription, {
      malformed: {
        source_account_id: 'not-an-id',
        subscription_id: 'not-an-id',
        target_account_email: 'parity@example.invalid',
      },
      otherScope: '/external/product/r',
      check: CHECK,
    }),
    {
      name: 'transfer subscription to an e-mail address of the wrong shape',
      row: ROWS.transferOrder,
      effect: 'refused',
      request: call(transferSubscription, {
        json: {
          source_account_id: 'fa17ed00fa17ed00fa17ed00',
          subscription_id: 'fa17ed00fa17ed00fa17ed00',
          target_account_email: 'not-an-e-mail',
        },
      }),
      check: CHECK,
    },
  ],
};
