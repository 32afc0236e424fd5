/** The titles (beyond the spec): the organisation's titles, one by code, and the refusals. */
import { findTitle, listTitles } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario } from '../scenario.js';
import { readRefusals } from './common.js';

export const titles: Scenario = {
  name: 'titles',
  scopes: ['/external/title/r'],
  steps: [
    {
      name: 'list titles',
      row: ROWS.titles,
      effect: 'read',
      request: call(listTitles),
      values: 'catalogue',
      bind: { title_code: '/items/0/code' },
    },
    ...readRefusals(listTitles, { valid: [], otherScope: '/external/product/r' }),
    {
      name: 'find one title by title_code',
      row: ROWS.titles,
      effect: 'read',
      request: call(findTitle, { query: query({ title_code: '{title_code}' }) }),
      values: 'catalogue',
    },
    {
      name: 'find one title that does not exist',
      row: ROWS.titles,
      effect: 'read',
      request: call(findTitle, { query: query({ title_code: 'parity-no-such-title' }) }),
    },
    {
      name: 'find one title without a title_code',
      row: ROWS.field,
      effect: 'read',
      request: call(findTitle),
    },
    ...readRefusals(findTitle, {
      valid: query({ title_code: '{title_code}' }),
      repeat: 'title_code',
      otherScope: '/external/product/r',
    }),
  ],
};
