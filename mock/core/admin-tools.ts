/**
 * The test suite's tools on a platform in process (`/__admin` serves the same over HTTP): back to
 * the seed, a copy of the state document, a state document taken whole, and tokens and tickets
 * issued directly.
 */
import type { AccessTokenResponse } from '../../src/schemas/authorization.js';
import { lifetime, type OffsetClock } from './clock.js';
import { type StateDocument, type StateDocumentInput, StateDocumentSchema } from './document.js';
import { HttpError } from './errors.js';
import type { Faults } from './faults.js';
import type { Journal } from './journal.js';
import type { Settings } from './route.js';
import { ssoAudienceOf } from './sso.js';
import type { State } from './state.js';
import { issueTicket } from './tickets.js';
import { issueToken } from './tokens.js';
import type { IssueTicketOptions, MintTokenOptions, Platform } from './types.js';
import { validate } from './validate.js';

/** The tools, as the platform exposes them. */
export type AdminTools = Pick<Platform, 'reset' | 'snapshot' | 'restore' | 'mintToken' | 'issueTicket'>;

/** What the tools work on. */
export interface AdminToolParts {
  readonly state: State;
  readonly clock: OffsetClock;
  readonly settings: Settings;
  readonly journal: Journal;
  readonly faults: Faults;
  /** The seed that `reset` returns to, as JSON text. */
  readonly seedText: string;
}

/** The tools of one platform. */
export function createAdminTools({ state, clock, settings, journal, faults, seedText }: AdminToolParts): AdminTools {
  return {
    reset(): void {
      state.load(JSON.parse(seedText) as StateDocument);
      journal.clear();
      faults.clear();
      clock.reset();
    },

    snapshot(): StateDocument {
      const copy = structuredClone(state.document);
      // The audience in force (`--sso-audience`).
      copy.sso_audience = ssoAudienceOf(settings, copy);
      return copy;
    },

    restore(document: StateDocumentInput): void {
      state.load(validate(StateDocumentSchema, document));
    },

    mintToken(opts: MintTokenOptions): AccessTokenResponse {
      const client = opts.clientId === undefined ? state.clients.rows[0] : state.clients.get(opts.clientId);
      if (!client) throw new HttpError(404, 'not_found', 'No such client', 'client_id');
      if (!Array.isArray(opts.scopes) || !opts.scopes.every((s) => typeof s === 'string' && s.length > 0))
        throw new HttpError(400, 'invalid_parameter', 'Parameter must be a list of scopes', 'scopes');
      let accountId: string | null = null;
      if (opts.accountId !== undefined) {
        const account = state.accounts.get(opts.accountId);
        if (!account) throw new HttpError(404, 'not_found', 'No such account', 'account_id');
        accountId = account.id;
      }
      const expiresIn = lifetime(opts.expiresIn ?? settings.accessTokenLifetimeSeconds, 'expires_in');
      const refreshExpiresIn = settings.refreshTokenLifetimeSeconds;
      return issueToken(state, clock, { client, scopes: opts.scopes, accountId, expiresIn, refreshExpiresIn });
    },

    issueTicket(opts: IssueTicketOptions): string {
      const account = typeof opts.accountId === 'string' ? state.accounts.get(opts.accountId) : undefined;
      if (!account) throw new HttpError(404, 'not_found', 'No such account', 'account_id');
      const client = typeof opts.clientId === 'string' ? state.clients.get(opts.clientId) : undefined;
      if (!client) throw new HttpError(404, 'not_found', 'No such client', 'client_id');
      const lifetimeSeconds = lifetime(opts.expiresIn ?? settings.ticketLifetimeSeconds, 'expires_in');
      return issueTicket(state, clock, { accountId: account.id, clientId: client.client_id, lifetimeSeconds }).ticket;
    },
  };
}
