/** The shop (endpoint 25): the marketplace page without a ticket, with one it never issued, and with a bad return URL. */
import { marketplace } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, query, type Scenario } from '../scenario.js';

/** A browser's request for the page. */
const PAGE = { accept: 'text/html' } as const;
const PATH = '/marketplace/{marketplace}';

export const shop: Scenario = {
  name: 'shop',
  scopes: ['/external/product/r'],
  needs: ['shop'],
  steps: [
    {
      name: 'the marketplace without a ticket',
      row: ROWS.shopHeaders,
      effect: 'read',
      request: { ...call(marketplace, { headers: PAGE }), path: PATH },
    },
    {
      name: 'the marketplace with a ticket it never issued: the ticket dropped from the address',
      row: ROWS.shopTicket,
      effect: 'read',
      request: {
        ...call(marketplace, {
          headers: PAGE,
          query: query({ at: 'ParityTicketNeverIssued0123456789abcdefABCDE', returnUrl: 'https://localhost/back' }),
        }),
        path: PATH,
      },
    },
    {
      name: 'the marketplace with a return URL that is not absolute',
      row: ROWS.shopReturn,
      effect: 'read',
      request: { ...call(marketplace, { headers: PAGE, query: query({ returnUrl: '/back' }) }), path: PATH },
    },
  ],
};
