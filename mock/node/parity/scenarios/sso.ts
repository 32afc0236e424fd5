/**
 * The SSO service (endpoint 21 and the operations beyond the spec), signed with the client's secret:
 * a session created, its status, refusals, and with the test account, logged in with a ticket,
 * verified again, logged out, and refused once terminated. Logging out ends every SSO session of
 * the test account on the stage.
 */
import {
  authenticateWithTicket,
  generateTicket,
  ssoAuthenticate,
  ssoCreateSession,
  ssoIdentify,
  ssoLogout,
  ssoSessionStatus,
} from '../../../../src/endpoints.js';
import { ROWS } from '../rows.js';
import { call, type Scenario, type Step } from '../scenario.js';

/** What every session token is compared on: its state and its error. */
const SESSION = ['/sts', '/err'] as const;

/** Who the browser is, as a site passes it on. */
const BROWSER = { ipa: '127.0.0.1', uas: 'parity-run' } as const;

/** A ticket for the test account, bound to the client (endpoint 22, form a). */
function ticket(name: string, bind: string): Step {
  return {
    name,
    row: ROWS.ticketForm,
    effect: 'grant',
    needs: ['account'],
    request: call(generateTicket, {
      json: { accountId: '{account_id}', clientId: '{client_id}' },
      auth: { scopes: ['/api/authorization/ticket'] },
    }),
    bind: { [bind]: '/ticket' },
  };
}

export const sso: Scenario = {
  name: 'sso',
  scopes: ['/api/authorization/ticket'],
  needs: ['sso'],
  steps: [
    {
      name: 'createsession',
      row: ROWS.ssoCreate,
      effect: 'sso',
      request: call(ssoCreateSession, {
        sso: { claims: { ...BROWSER, apn: 'parity', apv: '1', osn: 'parity', osv: '1' } },
      }),
      values: SESSION,
      bind: { sid: '/sid' },
    },
    {
      name: 'sessionstatus of the new session',
      row: ROWS.ssoStatus,
      effect: 'sso',
      request: call(ssoSessionStatus, { sso: { claims: { ...BROWSER, sid: '{sid}', lks: 'anon' } } }),
      values: SESSION,
    },
    {
      name: 'sessionstatus of a session that does not exist',
      row: ROWS.ssoUnknownSession,
      effect: 'sso',
      request: call(ssoSessionStatus, { sso: { claims: { ...BROWSER, sid: 'parity-no-such-session', lks: 'anon' } } }),
      values: SESSION,
    },
    {
      name: 'sessionstatus signed with a secret that is not the client’s',
      row: ROWS.ssoFailedToken,
      effect: 'sso',
      request: call(ssoSessionStatus, {
        sso: { claims: { ...BROWSER, sid: '{sid}', lks: 'anon' }, wrongSecret: true },
      }),
    },
    {
      name: 'authenticatewithticket with a ticket the platform never issued',
      row: ROWS.ssoConstants,
      effect: 'sso',
      request: call(authenticateWithTicket, {
        sso: { claims: { ...BROWSER, sid: '{sid}', at: 'ParityTicketNeverIssued0123456789abcdefABCDE' } },
      }),
      values: SESSION,
    },
    {
      name: 'authenticate with an e-mail address no account has',
      row: ROWS.ssoAuthenticate,
      effect: 'sso',
      request: call(ssoAuthenticate, {
        sso: { claims: { ...BROWSER, sid: '{sid}', usr: 'parity-nobody-{run}@example.invalid', pwd: 'parity-wrong' } },
      }),
      values: SESSION,
    },
    {
      name: 'identify with a token signed with a secret that is not the client’s: an error page, no redirect',
      row: ROWS.ssoIdentify,
      effect: 'read',
      request: call(ssoIdentify, {
        headers: { accept: 'text/html' },
        query: [['r', 'https://localhost/back']],
        sso: { claims: {}, wrongSecret: true, inQuery: true },
      }),
    },
    ticket('a ticket for the test account', 'ticket'),
    {
      name: 'authenticatewithticket with it: logged in',
      row: ROWS.ssoConstants,
      effect: 'sso',
      needs: ['account'],
      request: call(authenticateWithTicket, { sso: { claims: { ...BROWSER, sid: '{sid}', at: '{ticket}' } } }),
      values: SESSION,
    },
    {
      name: 'sessionstatus of the logged-in session, as a site that knew it anonymous',
      row: ROWS.ssoStatus,
      effect: 'sso',
      needs: ['account'],
      request: call(ssoSessionStatus, { sso: { claims: { ...BROWSER, sid: '{sid}', lks: 'anon' } } }),
      values: SESSION,
    },
    ticket('another ticket for the test account', 'second_ticket'),
    {
      name: 'authenticatewithticket with a ticket of the same account: verified',
      row: ROWS.ssoSameAccount,
      effect: 'sso',
      needs: ['account'],
      request: call(authenticateWithTicket, { sso: { claims: { ...BROWSER, sid: '{sid}', at: '{second_ticket}' } } }),
      values: SESSION,
    },
    {
      name: 'logout',
      row: ROWS.ssoLogout,
      effect: 'sso',
      needs: ['account'],
      request: call(ssoLogout, { sso: { claims: { ...BROWSER, sid: '{sid}' } } }),
      values: SESSION,
    },
    ticket('a third ticket for the test account', 'third_ticket'),
    {
      name: 'authenticatewithticket on the terminated session',
      row: ROWS.ssoTerminated,
      effect: 'sso',
      needs: ['account'],
      request: call(authenticateWithTicket, { sso: { claims: { ...BROWSER, sid: '{sid}', at: '{third_ticket}' } } }),
      values: SESSION,
    },
  ],
};
