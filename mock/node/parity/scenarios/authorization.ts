/**
 * The authorization API (endpoints 22 and 23): the token grants and their refusals, and tickets
 * issued, exchanged and replayed for the test account.
 */
import { accessToken, generateTicket, getSignedInUser } from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { ABSENT_ID, call, type Scenario } from '../scenario.js';

const TICKET_SCOPE = '/api/authorization/ticket';

/** A client-credentials grant's body, `scope` and the rest as given. */
function credentials(more: Readonly<Record<string, string>> = {}): Record<string, string> {
  return { grant_type: 'none', client_id: '{client_id}', client_secret: '{client_secret}', ...more };
}

/** The refresh-token grant of the token the first step was given. */
const REFRESH = {
  grant_type: 'refresh_token',
  refresh_token: '{refresh_token}',
  client_id: '{client_id}',
  client_secret: '{client_secret}',
};

/** The ticket grant of the ticket the first step was given. */
const EXCHANGE = {
  grant_type: 'ticket',
  ticket: '{ticket}',
  client_id: '{client_id}',
  client_secret: '{client_secret}',
};

export const tokens: Scenario = {
  name: 'tokens',
  scopes: ['/external/product/r'],
  steps: [
    {
      name: 'a client-credentials token (grant_type none) with a scope',
      row: ROWS.serverToken,
      effect: 'grant',
      request: call(accessToken, { json: credentials({ scope: '/external/product/r' }) }),
      values: ['/token_type'],
      bind: { refresh_token: '/refresh_token' },
    },
    {
      name: 'a client-credentials token, form-urlencoded',
      row: ROWS.serverToken,
      effect: 'grant',
      request: call(accessToken, { form: credentials({ scope: '/external/product/r' }) }),
      values: ['/token_type'],
    },
    {
      name: 'a client-credentials token without a scope: all the client has',
      row: ROWS.serverToken,
      effect: 'grant',
      request: call(accessToken, { json: credentials() }),
      values: ['/token_type'],
    },
    {
      name: 'a token with a wrong client secret',
      row: ROWS.serverToken,
      effect: 'grant',
      request: call(accessToken, { json: credentials({ client_secret: 'parity-wrong-secret' }) }),
    },
    {
      name: 'a token for a client that does not exist',
      row: ROWS.serverToken,
      effect: 'grant',
      request: call(accessToken, { json: credentials({ client_id: 'parity-no-such-client' }) }),
    },
    {
      name: 'a token with a scope the client was not granted',
      row: ROWS.serverToken,
      effect: 'grant',
      request: call(accessToken, { json: credentials({ scope: '/external/parity/none' }) }),
    },
    {
      name: 'a token with grant_type client_credentials',
      row: ROWS.forms,
      effect: 'grant',
      request: call(accessToken, { json: credentials({ grant_type: 'client_credentials' }) }),
    },
    {
      name: 'a token without grant_type',
      row: ROWS.forms,
      effect: 'grant',
      request: call(accessToken, { json: { client_id: '{client_id}', client_secret: '{client_secret}' } }),
    },
    {
      name: 'a token with a body that is not JSON',
      row: ROWS.json,
      effect: 'grant',
      request: call(accessToken, { raw: { contentType: 'application/json', text: '{"grant_type": "none",' } }),
    },
    {
      name: 'a token with a body of another content type',
      row: ROWS.contentType,
      effect: 'grant',
      request: call(accessToken, { raw: { contentType: 'text/plain', text: 'grant_type=none' } }),
    },
    {
      name: 'a refresh-token grant',
      row: ROWS.refresh,
      effect: 'grant',
      request: call(accessToken, {
        json: REFRESH,
      }),
      values: ['/token_type'],
    },
    {
      name: 'a refresh token used a second time',
      row: ROWS.refresh,
      effect: 'grant',
      request: call(accessToken, {
        json: REFRESH,
      }),
    },
  ],
};

export const tickets: Scenario = {
  name: 'tickets',
  scopes: [TICKET_SCOPE],
  needs: ['account'],
  steps: [
    {
      name: 'a ticket for the test account (form a)',
      row: ROWS.ticketForm,
      effect: 'grant',
      request: call(generateTicket, { json: { accountId: '{account_id}', clientId: '{client_id}' } }),
      bind: { ticket: '/ticket' },
    },
    {
      name: 'a ticket for an account that does not exist',
      row: ROWS.ticketWhichForm,
      effect: 'grant',
      request: call(generateTicket, { json: { accountId: ABSENT_ID, clientId: '{client_id}' } }),
    },
    {
      name: 'a ticket for an account id of the wrong shape',
      row: ROWS.field,
      effect: 'grant',
      request: call(generateTicket, { json: { accountId: 'not-an-id', clientId: '{client_id}' } }),
    },
    {
      name: 'a ticket for a client that does not exist',
      row: ROWS.ticketWhichForm,
      effect: 'grant',
      request: call(generateTicket, { json: { accountId: '{account_id}', clientId: 'parity-no-such-client' } }),
    },
    {
      name: 'a ticket of form b with a server token',
      row: ROWS.ticketWhichForm,
      effect: 'grant',
      request: call(generateTicket, { json: { client_id: '{client_id}' } }),
    },
    {
      name: 'a ticket without a token',
      row: ROWS.badToken,
      effect: 'grant',
      request: call(generateTicket, { json: { accountId: '{account_id}', clientId: '{client_id}' }, auth: 'none' }),
    },
    {
      name: 'a ticket with a token without the ticket scope',
      row: ROWS.scope,
      effect: 'grant',
      request: call(generateTicket, {
        json: { accountId: '{account_id}', clientId: '{client_id}' },
        auth: { scopes: ['/external/product/r'] },
      }),
    },
    {
      name: 'the ticket exchanged for a user token',
      row: ROWS.userScopes,
      effect: 'grant',
      request: call(accessToken, {
        json: EXCHANGE,
      }),
      values: ['/token_type'],
    },
    {
      name: 'the ticket exchanged a second time',
      row: ROWS.ticketGrant,
      effect: 'grant',
      request: call(accessToken, {
        json: EXCHANGE,
      }),
    },
    {
      name: 'a ticket the platform never issued',
      row: ROWS.ticketGrant,
      effect: 'grant',
      request: call(accessToken, {
        json: {
          grant_type: 'ticket',
          ticket: 'ParityTicketNeverIssued0123456789abcdefABCDE',
          client_id: '{client_id}',
          client_secret: '{client_secret}',
        },
      }),
    },
    {
      name: 'a ticket exchanged with a wrong client secret',
      row: ROWS.ticketGrant,
      effect: 'grant',
      request: call(accessToken, {
        json: { grant_type: 'ticket', ticket: '{ticket}', client_id: '{client_id}', client_secret: 'parity-wrong' },
      }),
    },
    {
      name: 'a ticket of form b with a user token',
      row: ROWS.ticketWhichForm,
      effect: 'grant',
      request: call(generateTicket, { json: { client_id: '{client_id}' }, auth: 'user' }),
    },
    {
      name: 'the signed-in user (endpoint 24) with a user token',
      row: ROWS.meShapes,
      effect: 'read',
      request: call(getSignedInUser, { auth: 'user' }),
    },
    {
      name: 'the signed-in user with a server token',
      row: ROWS.identity,
      effect: 'read',
      request: call(getSignedInUser),
    },
    {
      name: 'the signed-in user without a token',
      row: ROWS.badToken,
      effect: 'read',
      request: call(getSignedInUser, { auth: 'none' }),
    },
    {
      name: 'the signed-in user with a token the platform never issued',
      row: ROWS.badToken,
      effect: 'read',
      request: call(getSignedInUser, { auth: 'unknown' }),
    },
    // The rest of the refusals every read meets (it needs no scope: a server token is refused for its identity, above).
    {
      name: 'the signed-in user with a token that is not a bearer token',
      row: ROWS.badToken,
      effect: 'read',
      request: call(getSignedInUser, { auth: 'malformed' }),
    },
    {
      name: 'the signed-in user with an unknown parameter',
      row: ROWS.field,
      effect: 'read',
      request: call(getSignedInUser, { query: [['parity_unknown', '1']], auth: 'user' }),
    },
    {
      name: 'the signed-in user with a content type that is not JSON',
      row: ROWS.contentType,
      effect: 'read',
      request: call(getSignedInUser, { headers: { 'content-type': 'text/plain' }, auth: 'user' }),
    },
  ],
};
