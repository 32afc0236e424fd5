import { type APIPromise, mapData } from '../api-promise.js';
import type { ClientCredentials, Requester, SsoOptions } from '../client.js';
import { authenticateWithTicket } from '../endpoints.js';
import type { SsoEnvelope } from '../schemas/sign-on.js';
import { missingOption } from '../sign-on/internal.js';
import {
  type AuthenticateWithTicketResult,
  createSsoRequestToken,
  toAuthenticateResult,
  verifySsoSessionToken,
} from '../sign-on/sso-token.js';
import type { TokenRequestOptions } from './authorization.js';
import { APIResource } from './resource.js';

/** Parameters of {@link Sso.authenticateWithTicket}. */
export interface AuthenticateWithTicketParams {
  /** The SSO session id (`sid`) from an earlier identify or create-session operation. */
  sessionId: string;
  /** A valid authorization ticket (`at`), e.g. from `authorization.generateTicket`. */
  ticket: string;
  /** The user's IP address (`ipa`), recorded in the session timeline. */
  ipAddress: string;
  /** The user's user-agent string (`uas`), recorded in the session timeline. */
  userAgent: string;
}

/** What the SSO resource needs from the client's options. */
interface SsoConfig {
  credentials: ClientCredentials | undefined;
  sso: SsoOptions | undefined;
  host: string | undefined;
}

/** The SSO session service (spec endpoint 21). */
export class Sso extends APIResource {
  readonly #config: SsoConfig;

  /** @internal Made by the client. */
  constructor(client: Requester, config: SsoConfig) {
    super(client);
    this.#config = config;
  }

  /**
   * SSO authenticatewithticket (endpoint 21): turns an anonymous SSO session into a logged-in one
   * with a ticket. Signs the request token (HS256 with the client secret, 10 s lifetime), posts it
   * as `{ t }`, and verifies the session token of the answer (HS256 only, `aud` = client id, `iss` =
   * the SSO audience, lifetime, `sid` = this session) before reading it.
   *
   * Resolves with `{ status: 'loggedin', accountId, sessionId, ticket }` (a new ticket, exchangeable
   * once), or `{ status: 'error', error }` with the SSO `err` code: `invalid_ticket`,
   * `session_terminated` or `session_already_logged_in_on_another_account`.
   *
   * Rejects with `SsoTokenError` when the answer does not verify (never a result from an unverified
   * token), and with `SignOnConfigurationError` before sending when `credentials`, `sso` or
   * `hosts.sso` is missing. Not retried by default: the ticket is single-use.
   */
  authenticateWithTicket(
    params: AuthenticateWithTicketParams,
    options?: TokenRequestOptions,
  ): APIPromise<AuthenticateWithTicketResult> {
    return mapData(this._client.request(authenticateWithTicket, this.#requestToken(params), options), ({ t }) =>
      this.#verify(t, params.sessionId),
    );
  }

  /** The client options SSO needs; a configuration error naming the first one missing. */
  #settings(): { credentials: ClientCredentials; sso: SsoOptions } {
    const { credentials, sso, host } = this.#config;
    if (!credentials) throw missingOption('authenticateWithTicket', 'credentials');
    if (!sso) throw missingOption('authenticateWithTicket', 'sso');
    if (!host) throw missingOption('authenticateWithTicket', 'hosts.sso');
    return { credentials, sso };
  }

  async #requestToken(params: AuthenticateWithTicketParams): Promise<SsoEnvelope> {
    const { credentials, sso } = this.#settings();
    const t = await createSsoRequestToken({
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      organisationId: sso.organisationId,
      audience: sso.audience,
      sessionId: params.sessionId,
      ticket: params.ticket,
      ipAddress: params.ipAddress,
      userAgent: params.userAgent,
    });
    return { t };
  }

  async #verify(token: string, sessionId: string): Promise<AuthenticateWithTicketResult> {
    const { credentials, sso } = this.#settings();
    const claims = await verifySsoSessionToken(token, {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      audience: sso.audience,
      sessionId,
      ...(sso.clockToleranceSeconds === undefined ? {} : { clockToleranceSeconds: sso.clockToleranceSeconds }),
    });
    return toAuthenticateResult(claims);
  }
}
