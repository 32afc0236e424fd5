/**
 * Eligible for campaign and subscribe to campaign (endpoints 6 and 7), with a user token of the
 * test account: what is asked of a subscription that is not the user's, and every malformed request.
 */
import { eligibleForCampaign, subscribeToCampaign } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { ABSENT_ID, call, type Scenario } from '../scenario.js';
import { readRefusals, writeRefusals } from './common.js';

const CHECK = "List the test account's user-products on the stage: one may have moved to a campaign.";

export const meRetention: Scenario = {
  name: 'me-retention',
  scopes: ['/external/me/w', '/external/me/r'],
  needs: ['account'],
  steps: [
    {
      name: 'eligible for campaign, a user-product that is not the user’s',
      row: ROWS.retentionWhose,
      effect: 'read',
      request: call(eligibleForCampaign, { json: { user_product_id: ABSENT_ID }, auth: 'user' }),
    },
    {
      name: 'eligible for campaign, an order that is not the user’s',
      row: ROWS.retentionWhose,
      effect: 'read',
      request: call(eligibleForCampaign, { json: { order_id: 'parity-no-such-order' }, auth: 'user' }),
    },
    {
      name: 'eligible for campaign with both parameters',
      row: ROWS.retentionParameters,
      effect: 'read',
      request: call(eligibleForCampaign, {
        json: { user_product_id: ABSENT_ID, order_id: 'parity-no-such-order' },
        auth: 'user',
      }),
    },
    {
      name: 'eligible for campaign without a body',
      row: ROWS.retentionParameters,
      effect: 'read',
      request: call(eligibleForCampaign, { auth: 'user' }),
    },
    {
      name: 'eligible for campaign with the parameter in the query',
      row: ROWS.retentionParameters,
      effect: 'read',
      request: call(eligibleForCampaign, { query: [['user_product_id', ABSENT_ID]], auth: 'user' }),
    },
    {
      name: 'eligible for campaign with a server token',
      row: ROWS.identity,
      effect: 'read',
      request: call(eligibleForCampaign, { json: { user_product_id: ABSENT_ID } }),
    },
    ...readRefusals(eligibleForCampaign, {
      valid: [],
      json: { user_product_id: ABSENT_ID },
      otherScope: '/external/product/r',
      auth: 'user',
    }),
    ...writeRefusals(subscribeToCampaign, {
      malformed: { user_product_id: 'x'.repeat(1025) },
      otherScope: '/external/product/r',
      check: CHECK,
      auth: 'user',
    }),
    {
      name: 'subscribe to campaign with a server token',
      row: ROWS.identity,
      effect: 'refused',
      request: call(subscribeToCampaign, { json: { user_product_id: 'x'.repeat(1025) } }),
      check: CHECK,
    },
  ],
};
