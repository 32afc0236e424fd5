/** Get cancellation reason (endpoint 14): the organisation's reasons by every flag, one by id, and the refusals. */
import { getCancellationReason } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { ABSENT_ID, call, query, type Scenario } from '../scenario.js';
import { readRefusals } from './common.js';

export const cancellationReasons: Scenario = {
  name: 'cancellation-reasons',
  scopes: ['/external/cancellation_reason/r'],
  steps: [
    {
      name: 'get cancellation reasons',
      row: ROWS.reasonFlags,
      effect: 'read',
      request: call(getCancellationReason),
      values: 'catalogue',
    },
    {
      name: 'get cancellation reasons, internal ones included',
      row: ROWS.reasonFlags,
      effect: 'read',
      request: call(getCancellationReason, { query: query({ include_internal: 'true' }) }),
      values: 'catalogue',
      bind: { reason_id: '/items/0/id' },
    },
    {
      name: 'get cancellation reasons visible to the end customer',
      row: ROWS.reasonFlags,
      effect: 'read',
      request: call(getCancellationReason, { query: query({ visible_to_end_customer: 'true' }) }),
      values: 'catalogue',
    },
    {
      name: 'get cancellation reasons not visible to the end customer',
      row: ROWS.reasonFlags,
      effect: 'read',
      request: call(getCancellationReason, {
        query: query({ visible_to_end_customer: 'false', include_internal: 'true' }),
      }),
      values: 'catalogue',
    },
    {
      name: 'get a cancellation reason by id',
      row: ROWS.reasonFlags,
      effect: 'read',
      request: call(getCancellationReason, { query: query({ id: '{reason_id}', include_internal: 'true' }) }),
      values: 'catalogue',
    },
    {
      name: 'get a cancellation reason that does not exist',
      row: ROWS.reasonFlags,
      effect: 'read',
      request: call(getCancellationReason, { query: query({ id: ABSENT_ID }) }),
    },
    {
      name: 'get a cancellation reason by an id of the wrong shape',
      row: ROWS.field,
      effect: 'read',
      request: call(getCancellationReason, { query: query({ id: 'not-an-id' }) }),
    },
    {
      name: 'get cancellation reasons with a flag that is not a boolean',
      row: ROWS.query,
      effect: 'read',
      request: call(getCancellationReason, { query: query({ include_internal: '1' }) }),
    },
    ...readRefusals(getCancellationReason, {
      valid: query({ include_internal: 'true' }),
      repeat: 'include_internal',
      otherScope: '/external/product/r',
    }),
  ],
};
