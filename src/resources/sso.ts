import type * as z from 'zod';
import { type APIPromise, mapData } from '../api-promise.js';
import {
  authenticateWithTicket,
  type Endpoint,
  type Environment,
  ssoAuthenticate,
  ssoCreateSession,
  ssoIdentify,
  ssoLogout,
  ssoSessionStatus,
} from '../endpoints.js';
import type { Requester } from '../request.js';
import {
  SsoAuthenticateClaims,
  SsoCreateSessionClaims,
  type SsoEnvelope,
  SsoIdentifyClaims,
  SsoLogoutClaims,
  SsoRequestClaims,
  type SsoSessionClaims,
  type SsoSessionStatus,
  SsoSessionStatusClaims,
} from '../schemas/sign-on.js';
import { SignOnValidationError } from '../sign-on/errors.js';
import { parseOrThrow } from '../sign-on/parse.js';
import { parseReturnUrl, RETURN_URL_RULE } from '../sign-on/return-url.js';
import {
  type ReadLandingOptions,
  type SsoClientOptions,
  type SsoLanding,
  SsoOperations,
  type SsoResult,
  toSessionState,
} from '../sign-on/sso-operations.js';
import {
  type AuthenticateWithTicketResult,
  SSO_IDENTIFY_LIFETIME_SECONDS,
  toAuthenticateResult,
} from '../sign-on/sso-token.js';
import { urlOf, withQuery } from '../url.js';
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

/** The visitor a site's server acts for: recorded in the session's timeline (`ipa`, `uas`). */
export interface SsoVisitor {
  /** The user's IP address (`ipa`). */
  ipAddress: string;
  /** The user's user-agent string (`uas`). */
  userAgent: string;
}

/** Parameters of {@link Sso.createSession} (native apps, instead of identify). */
export interface CreateSsoSessionParams extends SsoVisitor {
  /** The app's name (`apn`). */
  appName: string;
  /** The app's version (`apv`). */
  appVersion: string;
  /** The operating system's name (`osn`). */
  osName: string;
  /** The operating system's version (`osv`). */
  osVersion: string;
}

/** Parameters of {@link Sso.sessionStatus}. */
export interface SsoSessionStatusParams extends SsoVisitor {
  /** The SSO session id (`sid`). */
  sessionId: string;
  /** The status the site last saw (`lks`): a fresh ticket comes only when the session is logged in and this is not `loggedin`. */
  lastKnownStatus: SsoSessionStatus;
}

/** Parameters of {@link Sso.authenticate}. */
export interface SsoAuthenticateParams extends SsoVisitor {
  /** The SSO session id (`sid`). */
  sessionId: string;
  /** The user's e-mail address (`usr`). */
  email: string;
  /** The user's password (`pwd`): signed into the request token, never logged. */
  password: string;
}

/** Parameters of {@link Sso.logout}. */
export interface SsoLogoutParams extends SsoVisitor {
  /** The SSO session id (`sid`). */
  sessionId: string;
}

/** An operation of the SSO service: a signed request token `{ t }` in, a session token `{ t }` out. */
type SsoOperation = Endpoint<undefined, typeof SsoEnvelope, typeof SsoEnvelope>;

/** What the SSO resource needs from the client's options: the operations', and identify's environment. */
interface SsoConfig extends SsoClientOptions {
  environment: Environment;
}

/**
 * The SSO session service: endpoint 21 (authenticatewithticket), and identify, createsession,
 * sessionstatus, authenticate and logout, which the service's public documentation adds. Every
 * operation signs its claims (checked against the schemas the service checks them with) and
 * verifies the session token it is answered with before reading it. Parameters that are no object,
 * or carry a key the operation does not read, are refused before anything is signed
 * (`SignOnValidationError` naming the key), as the service refuses an unknown parameter.
 */
export class Sso extends APIResource {
  readonly #config: SsoConfig;
  readonly #sso: SsoOperations;

  /** @internal Made by the client. */
  constructor(client: Requester, config: SsoConfig) {
    super(client);
    this.#config = config;
    this.#sso = new SsoOperations(config);
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
    return this.#operation('authenticateWithTicket', params, options, toAuthenticateResult);
  }

  /**
   * The identify URL (a browser redirect, beyond the spec): sends the visitor's browser to the SSO
   * service, which finds or creates its SSO session and sends it to this client's registered
   * landing page with `t` (a session token) and `r` (`returnUrl`, unchanged). The identify token
   * lives 60 s. Read the landing with {@link Sso.readLanding}. `returnUrl` must be an absolute
   * http(s) URL without credentials, backslashes, whitespace or control characters (the rule
   * `readLanding` follows it by): another is refused with a `SignOnValidationError` naming it.
   */
  async identifyUrl(params: { returnUrl: string }): Promise<string> {
    const { t } = await this.#sso.sign('identifyUrl', SsoIdentifyClaims, params, SSO_IDENTIFY_LIFETIME_SECONDS, [
      'returnUrl',
    ]);
    const query = parseOrThrow(ssoIdentify.query, { t, r: params.returnUrl }, { r: 'returnUrl' });
    // The landing page's `readLanding` follows `r` only by the return handler's rule: held to it here.
    if (parseReturnUrl(query.r) === undefined)
      throw new SignOnValidationError('returnUrl', `returnUrl: ${RETURN_URL_RULE}`);
    return new URL(withQuery(urlOf(this.#config.hosts, ssoIdentify, this.#config.environment), query)).href;
  }

  /**
   * Reads the landing page's request after identify: verifies `t` strictly (HS256 only, `aud` =
   * this client, `iss` = the SSO audience, expiry with the clock tolerance) and checks `r` against
   * `allowedOrigins` exactly, so the landing page cannot be turned into an open redirector.
   *
   * @throws {@link subscription-platform-sdk!SignOnConfigurationError | SignOnConfigurationError} when
   * `allowedOrigins` is empty or holds something that is not an origin (checked first, whatever the request)
   * @throws {@link subscription-platform-sdk!SsoTokenError | SsoTokenError} when `t` does not verify (nothing
   * from it is trusted)
   * @throws {@link subscription-platform-sdk!SignOnValidationError | SignOnValidationError} when `t` is missing
   * or repeated
   */
  async readLanding(request: Request | URL | string, options: ReadLandingOptions): Promise<SsoLanding> {
    return this.#sso.readLanding(request, options);
  }

  /** SSO createsession (native apps, beyond the spec): a new anonymous session. */
  createSession(params: CreateSsoSessionParams, options?: TokenRequestOptions): APIPromise<SsoResult> {
    return this.#operation('createSession', params, options, toSessionState);
  }

  /**
   * SSO sessionstatus (beyond the spec): the session's status. Logged in: the account, and a fresh
   * ticket when `lastKnownStatus` is not `loggedin`. An unknown session: `{ status: 'error', error:
   * 'session_not_found' }`; a site that sees that or `terminated` logs out locally and identifies again.
   */
  sessionStatus(params: SsoSessionStatusParams, options?: TokenRequestOptions): APIPromise<SsoResult> {
    return this.#operation('sessionStatus', params, options, toSessionState);
  }

  /**
   * SSO authenticate (beyond the spec): logs the session in with the user's e-mail address and
   * password. Refusals: `invalid_credentials` (with `remainingAttempts`), `account_frozen` (with
   * `frozenForSeconds`), `account_not_active`, `session_limit_reached`, `session_not_found`,
   * `session_terminated`. Never retried: every wrong attempt counts.
   */
  authenticate(params: SsoAuthenticateParams, options?: TokenRequestOptions): APIPromise<SsoResult> {
    return this.#operation('authenticate', params, options, toSessionState);
  }

  /** SSO logout (beyond the spec): terminates the session and every other session of its account. */
  logout(params: SsoLogoutParams, options?: TokenRequestOptions): APIPromise<SsoResult> {
    return this.#operation('logout', params, options, toSessionState);
  }

  /**
   * One operation: its claims, read from `params` and checked against its schema, signed and posted
   * as `{ t }`; the session token of the answer verified (issued for `params.sessionId`, when the
   * operation names a session) and read by `read`.
   */
  #operation<R>(
    method: keyof typeof OPERATIONS,
    params: object,
    options: TokenRequestOptions | undefined,
    read: (claims: SsoSessionClaims) => R,
  ): APIPromise<R> {
    const { endpoint, claims } = OPERATIONS[method];
    const given: unknown = (params as { sessionId?: unknown } | undefined)?.sessionId;
    const sessionId = typeof given === 'string' ? given : undefined;
    return mapData(this._client.request(endpoint, this.#sso.sign(method, claims, params), options), async ({ t }) =>
      read(await this.#sso.verify(method, t, sessionId)),
    );
  }
}

/** Each operation of the SSO service that posts `{ t }`: its entry, and the schema of the claims it signs. */
const OPERATIONS = {
  authenticateWithTicket: { endpoint: authenticateWithTicket, claims: SsoRequestClaims },
  createSession: { endpoint: ssoCreateSession, claims: SsoCreateSessionClaims },
  sessionStatus: { endpoint: ssoSessionStatus, claims: SsoSessionStatusClaims },
  authenticate: { endpoint: ssoAuthenticate, claims: SsoAuthenticateClaims },
  logout: { endpoint: ssoLogout, claims: SsoLogoutClaims },
} as const satisfies Record<string, { endpoint: SsoOperation; claims: z.ZodObject }>;
