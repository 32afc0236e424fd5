/** The helpdesk reads (endpoints 8, 10, 11): pending messages, a message, a template, and their refusals. */
import { getHelpdeskMessage, getHelpdeskMessageTemplate, getPendingMessages } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { ABSENT_ID, call, query, type Scenario } from '../scenario.js';
import { readRefusals } from './common.js';

export const helpdesk: Scenario = {
  name: 'helpdesk',
  scopes: ['/external/helpdesk/r'],
  steps: [
    {
      name: 'get pending messages of the test account',
      row: ROWS.helpdeskOrder,
      effect: 'read',
      needs: ['account'],
      request: call(getPendingMessages, { query: query({ account_id: '{account_id}' }) }),
      accountRecords: ['/items/*'],
    },
    {
      name: 'get pending messages of an account that does not exist',
      row: ROWS.helpdeskOther,
      effect: 'read',
      request: call(getPendingMessages, { query: query({ account_id: ABSENT_ID }) }),
    },
    {
      name: 'get pending messages of an account id of the wrong shape',
      row: ROWS.field,
      effect: 'read',
      request: call(getPendingMessages, { query: query({ account_id: 'not-an-id' }) }),
    },
    {
      name: 'get pending messages without an account',
      row: ROWS.field,
      effect: 'read',
      request: call(getPendingMessages),
    },
    ...readRefusals(getPendingMessages, {
      valid: query({ account_id: ABSENT_ID }),
      repeat: 'account_id',
      otherScope: '/external/product/r',
    }),
    {
      name: 'get a helpdesk message that does not exist',
      row: ROWS.helpdeskOther,
      effect: 'read',
      request: call(getHelpdeskMessage, { query: query({ id: ABSENT_ID }) }),
    },
    {
      name: 'get a helpdesk message by an id of the wrong shape',
      row: ROWS.field,
      effect: 'read',
      request: call(getHelpdeskMessage, { query: query({ id: 'not-an-id' }) }),
    },
    {
      name: 'get a helpdesk message without an id',
      row: ROWS.field,
      effect: 'read',
      request: call(getHelpdeskMessage),
    },
    ...readRefusals(getHelpdeskMessage, {
      valid: query({ id: ABSENT_ID }),
      repeat: 'id',
      otherScope: '/external/product/r',
    }),
    {
      name: 'get a helpdesk message template that does not exist',
      row: ROWS.templates,
      effect: 'read',
      request: call(getHelpdeskMessageTemplate, { query: query({ id: ABSENT_ID }) }),
    },
    {
      name: 'get a helpdesk message template by an id of the wrong shape',
      row: ROWS.field,
      effect: 'read',
      request: call(getHelpdeskMessageTemplate, { query: query({ id: 'not-an-id' }) }),
    },
    ...readRefusals(getHelpdeskMessageTemplate, {
      valid: query({ id: ABSENT_ID }),
      repeat: 'id',
      otherScope: '/external/product/r',
    }),
  ],
};
