import type { Environment } from '../../src/endpoints.js';
import type { AccessTokenResponse } from '../../src/schemas/authorization.js';
import type { Clock } from './clock.js';
import type {
  ExternalCustomerInput,
  SsoSessionRecord,
  StateDocument,
  StateDocumentInput,
  SubscriptionSystemRecord,
} from './document.js';
import type { FaultList } from './faults.js';
import type { RequestJournal } from './journal.js';

/** What an adapter knows about a request beyond the Fetch `Request`. */
export interface HandleInfo {
  /** The client's IP address. */
  ip?: string;
  /**
   * The raw body text, when the adapter has read it. It takes the place of the request's own body,
   * which lets a GET carry a body (Fetch's `Request` refuses one).
   */
  body?: string;
  /**
   * The adapter stopped reading the body because it went over the platform's `maxBodyBytes`: the
   * request is refused with `413 payload_too_large`, as if the platform had read it.
   */
  bodyTooLarge?: boolean;
  /**
   * Why the adapter could not reach a body the request's headers announce (a GET's, under an msw
   * that keeps no raw body): the request is answered `500 internal_server_error` naming `body`,
   * with this as its message, and journaled as every answer is.
   */
  bodyUnreachable?: string;
}

/** Options of `Platform.mintToken`. */
export interface MintTokenOptions {
  /** The scopes the token carries (not limited to the client's own). */
  scopes: string[];
  /** Ties the token to this account (a user token); none by default. */
  accountId?: string;
  /** The client the token is issued to; the state's first client by default. */
  clientId?: string;
  /** Lifetime in seconds; the platform's access token lifetime by default. */
  expiresIn?: number;
}

/** Options of `Platform.issueTicket`. */
export interface IssueTicketOptions {
  /** The ticket's account (any status: a test tool, like `mintToken`). */
  accountId: string;
  /** The destination client the ticket is bound to. */
  clientId: string;
  /** Lifetime in seconds; the platform's ticket lifetime by default. */
  expiresIn?: number;
}

/** Options of `SsoSessions.createSession`. */
export interface CreateSsoSessionOptions {
  /** The client the session is created for; its organisation's clients may use it. None by default. */
  clientId?: string;
}

/** The SSO service's sessions, for tests (in process; `/__admin/sso/sessions` over HTTP). */
export interface SsoSessions {
  /** Creates an `Anon` session; answers its `sid`. Throws a `HttpError` (404) for an unknown client. */
  createSession(options?: CreateSsoSessionOptions): string;
  /** Moves a session to `Terminated`. Throws a `HttpError` (404) for an unknown `sid`, or one that has ended. */
  terminate(sid: string): void;
  /**
   * A copy of a session with its timeline; undefined for an unknown `sid`, and for a session that
   * has ended (no operation on it for a day, or 30 days old), which the SSO service no longer finds.
   */
  session(sid: string): SsoSessionRecord | undefined;
}

/**
 * The organisations' simulated external subscription systems (endpoints 17 to 20), for tests that
 * change them between calls without rewriting the whole state (`/__admin/subscription-systems`
 * over HTTP).
 */
export interface SubscriptionSystems {
  /** A copy of the organisation's system; undefined when it has no integration. */
  get(organisationId: string): SubscriptionSystemRecord | undefined;
  /**
   * Adds or replaces a customer of the organisation's system (a customer moves, a subscription
   * ends). Throws an `HttpError` (404) when the organisation has no integration, (400) when the
   * customer is malformed or over a size, or when it is new and the platform's systems hold 1000
   * customers already (a customer replaced never counts again).
   */
  setCustomer(organisationId: string, customer: ExternalCustomerInput): void;
  /** Removes a customer. Throws an `HttpError` (404) when there is no such customer. */
  removeCustomer(organisationId: string, customerNumber: string): void;
  /**
   * Changes whether the organisation's integration supports distribution information (endpoint 20)
   * and its distribution data (replaced whole); a key left out stays. Throws an `HttpError` (404)
   * when the organisation has no integration, (400) when the settings are malformed.
   */
  setDistribution(
    organisationId: string,
    settings: {
      supports_distribution_information?: boolean;
      distribution?: SubscriptionSystemRecord['distribution'];
    },
  ): void;
  /** Whether a sync of customer subscriptions (endpoint 19) of the organisation is under way now. */
  syncInFlight(organisationId: string): boolean;
}

/** The reference platform: a pure core from a Fetch `Request` to a `Response`, with test-suite tools. */
export interface Platform {
  /** The environment whose paths are served. */
  readonly environment: Environment;
  /** Answers one request. Never rejects: an unexpected failure is a `500 internal_server_error`. */
  handle(request: Request, info?: HandleInfo): Promise<Response>;
  /** Back to the seed: the state, and also an empty journal, no faults and the clock as created. */
  reset(): void;
  /** A deep copy of the whole state. */
  snapshot(): StateDocument;
  /**
   * Replaces the whole state with `document` (validated; throws a `HttpError` naming the field when
   * it is invalid). The seed that `reset()` returns to stays.
   */
  restore(document: StateDocumentInput): void;
  /** Issues an access token directly, as if a client had asked for it. */
  mintToken(options: MintTokenOptions): AccessTokenResponse;
  /**
   * Issues an authorization ticket directly, as endpoint 22 would, bound to `clientId`; answers the
   * ticket. Throws a `HttpError` (404) for an unknown account or client.
   */
  issueTicket(options: IssueTicketOptions): string;
  /** The SSO service's sessions. */
  readonly sso: SsoSessions;
  /** The simulated external subscription systems. */
  readonly subscriptionSystems: SubscriptionSystems;
  /** The platform clock. */
  readonly clock: Clock;
  /** The request journal (the `/__admin` routes are not in it). */
  readonly requests: RequestJournal;
  /** Faults to inject into the next matching requests. */
  readonly faults: FaultList;
}
