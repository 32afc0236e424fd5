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
import type { ClientCredentials, Hosts, SsoOptions } from '../options.js';
import type { Requester } from '../request.js';
import {
  SsoAuthenticateClaims,
  SsoCreateSessionClaims,
  type SsoEnvelope,
  SsoIdentifyClaims,
  SsoLogoutClaims,
  SsoRequestClaims,
  SsoServiceErrorCode,
  type SsoSessionClaims,
  type SsoSessionStatus,
  SsoSessionStatusClaims,
} from '../schemas/sign-on.js';
import { SignOnConfigurationError, SignOnValidationError, SsoTokenError } from '../sign-on/errors.js';
import { missingOption } from '../sign-on/internal.js';
import { parseOrThrow } from '../sign-on/parse.js';
import { allowedReturnUrl, requestUrl } from '../sign-on/return.js';
import {
  type AuthenticateWithTicketResult,
  claimsFor,
  parametersOf,
  SSO_IDENTIFY_LIFETIME_SECONDS,
  signSsoRequest,
  toAuthenticateResult,
  verifySsoServiceToken,
  verifySsoSessionToken,
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

/** What every refusal of the SSO service carries, read from a verified session token. */
export interface SsoRefusalBase {
  status: 'error';
  /** The `ems` message; may be empty. */
  message: string;
  /** The session id (`sid`). */
  sessionId: string;
}

/** `invalid_credentials`: a wrong e-mail address or password (the answer does not tell which). */
export interface SsoInvalidCredentials extends SsoRefusalBase {
  /** The `err` code. */
  error: 'invalid_credentials';
  /** Password attempts left before the account freezes (`raa`); -1 when the service does not say. */
  remainingAttempts: number;
}

/** `account_frozen`: too many wrong passwords; the account thaws after a while. */
export interface SsoAccountFrozen extends SsoRefusalBase {
  /** The `err` code. */
  error: 'account_frozen';
  /** Seconds until the account thaws, on the service's clock (`frf`); -1 when the service does not say. */
  frozenForSeconds: number;
}

/** A known refusal without details: the session or account cannot log in, or the request was refused. */
export interface SsoPlainRefusal extends SsoRefusalBase {
  /** The `err` code. */
  error: Exclude<SsoServiceErrorCode, 'invalid_credentials' | 'account_frozen'>;
}

/**
 * An `err` code this SDK does not know (one the SSO service added later). It is kept apart under
 * one `error` value so that a `switch (result.error)` still narrows every known code; `code` is the
 * code as the service sent it.
 */
export interface SsoUnrecognisedRefusal extends SsoRefusalBase {
  /** Marks an `err` code this SDK does not know. */
  error: 'unrecognised_error';
  /** The `err` code as the service sent it. */
  code: string;
}

/**
 * A refusal of the SSO service, read from a verified session token: a union discriminated on
 * `error`, so `switch (result.error)` narrows (`invalid_credentials` has `remainingAttempts`,
 * `account_frozen` has `frozenForSeconds`). A code this SDK does not know arrives as
 * `error: 'unrecognised_error'` with the code in `code`.
 */
export type SsoRefusal = SsoInvalidCredentials | SsoAccountFrozen | SsoPlainRefusal | SsoUnrecognisedRefusal;

/** A session's status, read from a verified session token. */
export type SsoSessionState =
  | { status: 'anon'; sessionId: string }
  | {
      status: 'loggedin';
      sessionId: string;
      /** The logged-in account (`aid`). */
      accountId: string;
      /** A fresh authorization ticket for this client (`at`), exchangeable once; absent when the site already knew. */
      ticket?: string;
    }
  | { status: 'terminated'; sessionId: string };

/** The outcome of an SSO operation: the session's state, or a refusal. Switch on `status`. */
export type SsoResult = SsoSessionState | SsoRefusal;

/** Options of {@link Sso.readLanding}. */
export interface ReadLandingOptions {
  /** The site's own origins: the return URL `r` is followed only to one of them (no open redirector). */
  allowedOrigins: readonly string[];
}

/** What the landing page learns from identify: the browser's SSO session, and where to send the user. */
export type SsoLanding = SsoSessionState & {
  /** Where to send the user now: `r` when its origin is allowed, else the first allowed origin. */
  redirectTo: string;
  /** Whether `r` was refused (missing, malformed, or of another origin). */
  returnUrlRefused: boolean;
};

/** An operation of the SSO service: a signed request token `{ t }` in, a session token `{ t }` out. */
type SsoOperation = Endpoint<undefined, typeof SsoEnvelope, typeof SsoEnvelope>;

/** What the SSO resource needs from the client's options. */
interface SsoConfig {
  credentials: ClientCredentials | undefined;
  sso: SsoOptions | undefined;
  hosts: Hosts;
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
    return this.#operation('authenticateWithTicket', params, options, toAuthenticateResult);
  }

  /**
   * The identify URL (a browser redirect, beyond the spec): sends the visitor's browser to the SSO
   * service, which finds or creates its SSO session and sends it to this client's registered
   * landing page with `t` (a session token) and `r` (`returnUrl`, unchanged). The identify token
   * lives 60 s. Read the landing with {@link Sso.readLanding}.
   */
  async identifyUrl(params: { returnUrl: string }): Promise<string> {
    const { t } = await this.#sign('identifyUrl', SsoIdentifyClaims, params, SSO_IDENTIFY_LIFETIME_SECONDS, [
      'returnUrl',
    ]);
    const query = parseOrThrow(ssoIdentify.query, { t, r: params.returnUrl }, { r: 'returnUrl' });
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
    const origins = options?.allowedOrigins;
    if (!Array.isArray(origins) || origins.length === 0)
      throw new SignOnConfigurationError(
        'allowedOrigins',
        'readLanding: allowedOrigins must list at least one origin of this site (e.g. https://www.example.com)',
      );
    // The first allowed origin is where a refused `r` goes; checking it checks every entry is an origin.
    const fallback = allowedReturnUrl(`${origins[0]}/`, origins);
    if (fallback === undefined)
      throw new SignOnConfigurationError('allowedOrigins', 'readLanding: allowedOrigins[0] must be an http(s) origin');
    const url = requestUrl(request);
    const tokens = url.searchParams.getAll('t');
    const [token] = tokens;
    if (tokens.length !== 1 || !token)
      throw new SignOnValidationError('t', 't: the landing URL must carry exactly one session token');
    const session = toSessionState(await this.#verify('readLanding', token, undefined));
    if (session.status === 'error') throw new SsoTokenError('claims', 'The landing token reports an error', 'err');
    const returns = url.searchParams.getAll('r');
    const [returnUrl] = returns;
    const allowed = returns.length === 1 && returnUrl !== undefined ? allowedReturnUrl(returnUrl, origins) : undefined;
    return { ...session, redirectTo: allowed ?? fallback, returnUrlRefused: allowed === undefined };
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
    return mapData(this._client.request(endpoint, this.#sign(method, claims, params), options), async ({ t }) =>
      read(await this.#verify(method, t, sessionId)),
    );
  }

  /**
   * A signed request token of `method`, as `{ t }`: its claims read from `params` and checked against
   * `claims`. `params` must be an object of the parameters the claims are read from (and `more`): a
   * key besides them is refused, as the service refuses an unknown parameter.
   */
  async #sign(
    method: string,
    claims: z.ZodObject,
    params: object,
    lifetimeSeconds?: number,
    more: readonly string[] = [],
  ): Promise<SsoEnvelope> {
    if (params === null || typeof params !== 'object')
      throw new SignOnValidationError('params', 'params: Parameter must be of type object');
    const known = [...parametersOf(claims), ...more];
    const unknown = Object.keys(params).find((key) => !known.includes(key));
    if (unknown !== undefined) throw new SignOnValidationError(unknown, `${unknown}: Unknown parameter: ${unknown}`);
    const { credentials, sso } = this.#settings(method);
    const signer = { ...credentials, organisationId: sso.organisationId, audience: sso.audience };
    return { t: await signSsoRequest(signer, claimsFor(claims, params), { schema: claims, lifetimeSeconds }) };
  }

  /**
   * The claims of a session token of the SSO service, verified (for `sessionId` when given) before
   * they are read: endpoint 21's with every claim of the spec, the other operations' with those
   * their documentation names, the rest read as "not said".
   */
  async #verify(method: string, token: string, sessionId: string | undefined): Promise<SsoSessionClaims> {
    const { credentials, sso } = this.#settings(method);
    const verify = method === 'authenticateWithTicket' ? verifySsoSessionToken : verifySsoServiceToken;
    return verify(token, {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      audience: sso.audience,
      ...(sessionId === undefined ? {} : { sessionId }),
      ...(sso.clockToleranceSeconds === undefined ? {} : { clockToleranceSeconds: sso.clockToleranceSeconds }),
    });
  }

  /** The client options SSO needs; a configuration error naming the first one missing. */
  #settings(method: string): { credentials: ClientCredentials; sso: SsoOptions } {
    const { credentials, sso, hosts } = this.#config;
    if (!credentials) throw missingOption(method, 'credentials');
    if (!sso) throw missingOption(method, 'sso');
    if (!hosts.sso) throw missingOption(method, 'hosts.sso');
    return { credentials, sso };
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

/** Reads a verified `err` as a refusal of the union, by its code. */
function toRefusal(claims: SsoSessionClaims, err: string): SsoRefusal {
  const base = { status: 'error', message: claims.ems, sessionId: claims.sid } as const;
  const known = SsoServiceErrorCode.safeParse(err);
  if (!known.success) return { ...base, error: 'unrecognised_error', code: err };
  switch (known.data) {
    case 'invalid_credentials':
      return { ...base, error: known.data, remainingAttempts: claims.raa };
    case 'account_frozen':
      return { ...base, error: known.data, frozenForSeconds: claims.frf };
    default:
      return { ...base, error: known.data };
  }
}

/** Reads verified claims as a session state or a refusal. */
function toSessionState(claims: SsoSessionClaims): SsoResult {
  if (claims.err !== null) return toRefusal(claims, claims.err);
  switch (claims.sts) {
    case 'loggedin':
      if (claims.aid === '') throw new SsoTokenError('claims', 'A logged-in session token names no account', 'aid');
      return {
        status: 'loggedin',
        sessionId: claims.sid,
        accountId: claims.aid,
        ...(claims.at === '' ? {} : { ticket: claims.at }),
      };
    case 'anon':
      return { status: 'anon', sessionId: claims.sid };
    case 'terminated':
      return { status: 'terminated', sessionId: claims.sid };
    default:
      throw new SsoTokenError('claims', `Unknown session status "${claims.sts}"`, 'sts');
  }
}
