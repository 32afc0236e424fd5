/**
 * What `client.sso` does besides posting: an operation's claims, read from its parameters, checked
 * and signed with the client's options; the session token of its answer verified before it is
 * read; the claims read as a session state or a refusal; identify's landing read (its token
 * verified, its return URL held to the site's origins). The tokens themselves are
 * `./sso-token.ts`'s; the resource (`src/resources/sso.ts`) names each operation's entry and sends it.
 */
import type * as z from 'zod';
import type { ClientCredentials, Hosts, SsoOptions } from '../options.js';
import { type SsoEnvelope, SsoServiceErrorCode, type SsoSessionClaims } from '../schemas/sign-on.js';
import { SignOnConfigurationError, SignOnValidationError, SsoTokenError } from './errors.js';
import { missingOption } from './internal.js';
import { allowedReturnUrl, requestUrl } from './return.js';
import { claimsFor, parametersOf, signSsoRequest, verifySsoServiceToken, verifySsoSessionToken } from './sso-token.js';

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

/** What the SSO operations need from the client's options; each is checked when an operation needs it. */
export interface SsoClientOptions {
  credentials: ClientCredentials | undefined;
  sso: SsoOptions | undefined;
  hosts: Hosts;
}

/** The SSO operations of one client: signing, verifying and reading, with the client's options. */
export class SsoOperations {
  readonly #options: SsoClientOptions;

  /** The operations of a client with these options. */
  constructor(options: SsoClientOptions) {
    this.#options = options;
  }

  /**
   * A signed request token of `method`, as `{ t }`: its claims read from `params` and checked against
   * `claims`. `params` must be an object of the parameters the claims are read from (and `more`): a
   * key besides them is refused, as the service refuses an unknown parameter.
   */
  async sign(
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
  async verify(method: string, token: string, sessionId: string | undefined): Promise<SsoSessionClaims> {
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

  /**
   * The landing page's request after identify: `allowedOrigins` checked first, whatever the request;
   * then `t` verified and read as the session's state, and `r` followed only to an allowed origin
   * (else to the first of them). See `Sso.readLanding`.
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
    const session = toSessionState(await this.verify('readLanding', token, undefined));
    if (session.status === 'error') throw new SsoTokenError('claims', 'The landing token reports an error', 'err');
    const returns = url.searchParams.getAll('r');
    const [returnUrl] = returns;
    const allowed = returns.length === 1 && returnUrl !== undefined ? allowedReturnUrl(returnUrl, origins) : undefined;
    return { ...session, redirectTo: allowed ?? fallback, returnUrlRefused: allowed === undefined };
  }

  /** The client options SSO needs; a configuration error naming the first one missing. */
  #settings(method: string): { credentials: ClientCredentials; sso: SsoOptions } {
    const { credentials, sso, hosts } = this.#options;
    if (!credentials) throw missingOption(method, 'credentials');
    if (!sso) throw missingOption(method, 'sso');
    if (!hosts.sso) throw missingOption(method, 'hosts.sso');
    return { credentials, sso };
  }
}

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
export function toSessionState(claims: SsoSessionClaims): SsoResult {
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
