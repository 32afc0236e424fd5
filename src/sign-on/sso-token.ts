/**
 * Endpoint 21, `POST {sso_url}/authenticatewithticket`: the signed request token a site sends and
 * the verification of the session token the SSO service answers with. Pure functions, no HTTP.
 *
 * The two tokens are distinct token types (RFC 8725 section 3.11): a request token has
 * `iss` = organisation id and `aud` = the SSO audience constant; a session token has `iss` = the
 * constant and `aud` = the client id. Verification checks both, so one can never pass as the other.
 */
import type { errors as JoseErrors } from 'jose';
import type * as z from 'zod';
import { type SsoErrorCode, SsoRequestClaims, SsoSessionClaims } from '../schemas/sign-on.js';
import { SignOnConfigurationError, SsoTokenError } from './errors.js';
import { hs256Key, requireOption } from './internal.js';
import { parseOrThrow } from './parse.js';

/**
 * jose, loaded on first use: a site that never signs or reads an SSO token (most use the SDK for the
 * API alone) does not download it; a bundler puts it in a chunk of its own.
 */
const loadJose = () => import('./jose.js');

/** Lifetime of both SSO tokens (spec: Authentication point 5, Limits): `exp` = creation time + 10 s. */
export const SSO_TOKEN_LIFETIME_SECONDS = 10;

/**
 * The longest life of an identify token (the SSO service's browser redirect, beyond the spec): a
 * browser may take longer than a server to arrive, so `exp` = creation time + 60 s.
 */
export const SSO_IDENTIFY_LIFETIME_SECONDS = 60;

/** Claims a session token of endpoint 21 must carry before its content is even looked at. */
const REQUIRED_SESSION_CLAIMS = ['sts', 'sid', 'aid', 'at', 'err', 'exp', 'iat', 'iss', 'aud'];

/** Claims a session token of the service's other operations must carry ({@link SERVICE_DEFAULTS}). */
const REQUIRED_SERVICE_CLAIMS = ['sts', 'sid', 'exp', 'iat', 'iss', 'aud'];

/**
 * The session-token claims of the SSO service's other operations (createsession, sessionstatus,
 * authenticate, logout, identify's landing) that may be absent, and what each then reads as. The
 * platform's public documentation names only `sid`, `sts` and `at` in their answers (and `raa`,
 * `frf` with the errors that carry them); the rest of endpoint 21's claims read as "not said". A
 * logged-in session that names no account (`aid`) is still refused when its result is made.
 */
const SERVICE_DEFAULTS = { aid: '', at: '', err: null, ems: '', frf: -1, raa: -1, slm: -1, otp: '', ses: null };

/** How a session token's claims are read: endpoint 21's, every claim required; or the other operations'. */
interface ClaimRules {
  readonly required: readonly string[];
  readonly defaults?: Readonly<Record<string, unknown>>;
}

const ENDPOINT_21: ClaimRules = { required: REQUIRED_SESSION_CLAIMS };
const SERVICE: ClaimRules = { required: REQUIRED_SERVICE_CLAIMS, defaults: SERVICE_DEFAULTS };

/** Input of {@link createSsoRequestToken}. */
export interface SsoRequestTokenInput {
  /** The API client id (`cid`). */
  clientId: string;
  /** The API client's secret, the HS256 key; at least 32 bytes (RFC 7518 section 3.2). */
  clientSecret: string | Uint8Array;
  /** The organisation id (`iss`). */
  organisationId: string;
  /** The SSO audience constant (`aud`), always the same literal for the SSO service. */
  audience: string;
  /** The SSO session id from an earlier identify or create-session operation (`sid`). */
  sessionId: string;
  /** A valid authorization ticket (`at`). */
  ticket: string;
  /** The user's IP address (`ipa`). */
  ipAddress: string;
  /** The user's user-agent string (`uas`). */
  userAgent: string;
  /** Creation time; defaults to the current time. Sub-second parts are dropped. */
  now?: Date;
}

/**
 * Signs the request token of endpoint 21: header `{ alg: 'HS256', typ: 'JWT' }`, claims `cid`,
 * `sid`, `at`, `ipa`, `uas`, `nbf` = `iat` = now, `exp` = now + 10 s, `iss` = organisation id,
 * `aud` = the SSO audience constant. The caller posts it as `{ t }`.
 *
 * @throws {@link SignOnConfigurationError} when the secret is shorter than 32 bytes or an id is empty
 * @throws {@link SignOnValidationError} when a claim breaks the spec's rules (e.g. an empty user agent)
 */
export async function createSsoRequestToken(input: SsoRequestTokenInput): Promise<string> {
  return signSsoRequest(input, claimsFor(SsoRequestClaims, input), { schema: SsoRequestClaims });
}

/** Options of {@link verifySsoSessionToken}. */
export interface VerifySsoSessionTokenOptions {
  /** This API client's id: the session token's `aud` must equal it. */
  clientId: string;
  /** The API client's secret, the HS256 key; at least 32 bytes. */
  clientSecret: string | Uint8Array;
  /** The SSO audience constant: the session token's `iss` must equal it. */
  audience: string;
  /** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds. Default 5. */
  clockToleranceSeconds?: number;
  /** When given, the token's `sid` must be this session (the one the request token named). */
  sessionId?: string;
  /** The verification time; defaults to the current time. */
  now?: Date;
}

/**
 * Verifies a session token of endpoint 21 (RFC 8725): HS256 only (so `alg: none`, HS384, HS512 and
 * every asymmetric algorithm are refused), `aud` = the client id, `iss` = the SSO audience constant,
 * `exp` and `nbf` with the clock tolerance, `iat` no older than 10 s plus the tolerance and not in
 * the future, every claim of the spec present and well typed ({@link SsoSessionClaims}).
 *
 * A token that verifies may still report an SSO error in `err`; {@link toAuthenticateResult} turns
 * the claims into a typed result.
 *
 * @throws {@link SsoTokenError} for every verification failure, with a {@link SsoTokenErrorReason}
 * @throws {@link SignOnConfigurationError} when the secret is shorter than 32 bytes or an option is empty
 */
export function verifySsoSessionToken(token: string, options: VerifySsoSessionTokenOptions): Promise<SsoSessionClaims> {
  return verifySessionToken(token, options, ENDPOINT_21);
}

/**
 * Verifies a session token of the SSO service's other operations as {@link verifySsoSessionToken}
 * does, but the claims their documentation does not name may be absent ({@link SERVICE_DEFAULTS}).
 */
export function verifySsoServiceToken(token: string, options: VerifySsoSessionTokenOptions): Promise<SsoSessionClaims> {
  return verifySessionToken(token, options, SERVICE);
}

async function verifySessionToken(
  token: string,
  options: VerifySsoSessionTokenOptions,
  rules: ClaimRules,
): Promise<SsoSessionClaims> {
  const key = hs256Key(options.clientSecret);
  const clientId = requireOption('clientId', options.clientId);
  const audience = requireOption('audience', options.audience);
  const clockTolerance = options.clockToleranceSeconds ?? 5;
  if (!Number.isFinite(clockTolerance) || clockTolerance < 0) {
    throw new SignOnConfigurationError('clockToleranceSeconds', 'clockToleranceSeconds must be a finite number >= 0');
  }
  if (typeof token !== 'string' || token.length === 0) {
    throw new SsoTokenError('malformed', 'The SSO session token is not a compact JWT');
  }
  const jose = await loadJose();
  let payload: unknown;
  try {
    ({ payload } = await jose.jwtVerify(token, key, {
      algorithms: ['HS256'],
      audience: clientId,
      issuer: audience,
      clockTolerance,
      // jose adds the tolerance to this itself: a token is accepted up to 10 s + tolerance after `iat`.
      maxTokenAge: SSO_TOKEN_LIFETIME_SECONDS,
      requiredClaims: [...rules.required],
      currentDate: options.now ?? new Date(),
    }));
  } catch (error) {
    throw toSsoTokenError(error, jose.errors);
  }
  const parsed = SsoSessionClaims.safeParse(rules.defaults ? { ...rules.defaults, ...(payload as object) } : payload);
  if (!parsed.success) {
    const claim = parsed.error.issues[0]?.path.map(String).join('.') || undefined;
    throw new SsoTokenError('claims', `The SSO session token has an invalid claim${claim ? ` "${claim}"` : ''}`, claim);
  }
  if (options.sessionId !== undefined && parsed.data.sid !== options.sessionId) {
    throw new SsoTokenError('session', 'The SSO session token was issued for another session', 'sid');
  }
  return parsed.data;
}

/** Outcome of `authenticatewithticket`, read from a verified session token. */
export type AuthenticateWithTicketResult =
  | {
      /** The session is logged in (`err` is null). */
      status: 'loggedin';
      /** The authenticated account (`aid`). */
      accountId: string;
      /** The SSO session id (`sid`). */
      sessionId: string;
      /** A new authorization ticket (`at`), exchangeable for an access token (endpoint 23). */
      ticket: string;
      /** All verified claims. */
      claims: SsoSessionClaims;
    }
  | {
      /** The SSO service refused (`err` is set). */
      status: 'error';
      /** The `err` code: one of the spec's three, or another code of the SSO service. */
      error: SsoErrorCode | (string & {});
      /** The `ems` message; may be empty. */
      message: string;
      /** The session state after the attempt (`sts`), e.g. `anon` or `terminated`. */
      sessionState: SsoSessionClaims['sts'];
      /** The SSO session id (`sid`). */
      sessionId: string;
      /** All verified claims (`frf`, `raa`, ... for the codes that use them). */
      claims: SsoSessionClaims;
    };

/**
 * Turns verified session-token claims into a typed result: `err` null means logged in. A token that
 * reports no error but is not `loggedin` with an account id contradicts itself and is refused.
 *
 * @throws {@link SsoTokenError} (`claims`) for a contradictory success token
 */
export function toAuthenticateResult(claims: SsoSessionClaims): AuthenticateWithTicketResult {
  if (claims.err === null) {
    if (claims.sts !== 'loggedin' || claims.aid === '' || claims.at === '') {
      throw new SsoTokenError(
        'claims',
        'The SSO session token reports no error but is not a logged-in session with an account and a ticket',
        'sts',
      );
    }
    return { status: 'loggedin', accountId: claims.aid, sessionId: claims.sid, ticket: claims.at, claims };
  }
  return {
    status: 'error',
    error: claims.err,
    message: claims.ems,
    sessionState: claims.sts,
    sessionId: claims.sid,
    claims,
  };
}

function epochSeconds(now: Date | undefined): number {
  const ms = (now ?? new Date()).getTime();
  if (!Number.isFinite(ms)) throw new SignOnConfigurationError('now', 'now must be a valid date');
  return Math.floor(ms / 1000);
}

/** Maps every jose failure to one {@link SsoTokenError}; jose's error (which holds the claims) is dropped. */
function toSsoTokenError(error: unknown, joseErrors: typeof JoseErrors): SsoTokenError {
  if (error instanceof joseErrors.JOSEAlgNotAllowed || error instanceof joseErrors.JOSENotSupported) {
    return new SsoTokenError('algorithm', 'The SSO session token is not signed with HS256');
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return new SsoTokenError('signature', 'The SSO session token signature does not verify');
  }
  if (error instanceof joseErrors.JWTExpired) {
    return new SsoTokenError('expired', 'The SSO session token has expired', error.claim);
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    const { claim, reason } = error;
    if (reason === 'check_failed') {
      if (claim === 'aud') return new SsoTokenError('audience', 'The SSO session token is for another client', claim);
      if (claim === 'iss') return new SsoTokenError('issuer', 'The SSO session token has an unexpected issuer', claim);
      if (claim === 'nbf' || claim === 'iat') {
        return new SsoTokenError('not_yet_valid', 'The SSO session token is dated in the future', claim);
      }
    }
    return new SsoTokenError('claims', `The SSO session token has a missing or invalid "${claim}" claim`, claim);
  }
  return new SsoTokenError('malformed', 'The SSO session token is not a well-formed JWT');
}

// ---------------------------------------------------------------- the rest of the SSO service

/** Input of {@link createSsoOperationToken}. */
export interface SsoOperationTokenInput {
  /** The API client id (`cid`). */
  clientId: string;
  /** The API client's secret, the HS256 key; at least 32 bytes. */
  clientSecret: string | Uint8Array;
  /** The organisation id (`iss`). */
  organisationId: string;
  /** The SSO audience constant (`aud`). */
  audience: string;
  /** The operation's own claims (`sid`, `ipa`, `uas`, `usr`, `pwd`, `lks`, ...). */
  claims: Readonly<Record<string, string>>;
  /** Lifetime in seconds: 10 (the default) for every operation, 60 for identify. */
  lifetimeSeconds?: number;
  /** Creation time; defaults to the current time. */
  now?: Date;
}

/**
 * Signs a request token of one of the SSO service's operations (identify, createsession,
 * sessionstatus, authenticate, logout): HS256 with the client secret, `cid`, the operation's claims,
 * `nbf` = `iat` = now, `exp` = now + the lifetime, `iss` = organisation id, `aud` = the audience.
 *
 * @throws {@link SignOnConfigurationError} when the secret is shorter than 32 bytes or an id is empty
 */
export async function createSsoOperationToken(input: SsoOperationTokenInput): Promise<string> {
  return signSsoRequest(input, input.claims, { lifetimeSeconds: input.lifetimeSeconds });
}

/** Who signs a request token of the SSO service: the API client, for its organisation, to the SSO audience. */
export interface SsoSigner {
  /** The API client id (`cid`). */
  clientId: string;
  /** The API client's secret, the HS256 key; at least 32 bytes. */
  clientSecret: string | Uint8Array;
  /** The organisation id (`iss`). */
  organisationId: string;
  /** The SSO audience constant (`aud`). */
  audience: string;
  /** Creation time; defaults to the current time. Sub-second parts are dropped. */
  now?: Date;
}

/** How {@link signSsoRequest} signs: the claims' schema and the token's lifetime. */
export interface SignSsoRequestOptions {
  /**
   * The schema of the whole claim set (`src/schemas/sign-on.ts`, the one the SSO service checks):
   * a claim that breaks it is refused before anything is signed, named by its parameter.
   */
  schema?: z.ZodType;
  /** Lifetime in seconds: 10 (the default) for every operation, 60 for identify. */
  lifetimeSeconds?: number | undefined;
}

/**
 * The SDK's parameter for each claim an SSO request token carries from its caller: the claims of
 * an operation are read from these parameters, and a refused claim is named by its parameter.
 */
const PARAMETER_OF_CLAIM: Readonly<Record<string, string>> = {
  sid: 'sessionId',
  at: 'ticket',
  ipa: 'ipAddress',
  uas: 'userAgent',
  usr: 'email',
  pwd: 'password',
  lks: 'lastKnownStatus',
  apn: 'appName',
  apv: 'appVersion',
  osn: 'osName',
  osv: 'osVersion',
};

/**
 * The caller's claims of a request token whose claims `schema` declares, read from the SDK's
 * parameters (`sessionId` is `sid`); the claims the signer adds (`cid`, `iss`, ...) are not read.
 */
export function claimsFor(schema: z.ZodObject, params: object): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const claim of Object.keys(schema.shape)) {
    const parameter = PARAMETER_OF_CLAIM[claim];
    if (parameter !== undefined) claims[claim] = Reflect.get(params, parameter);
  }
  return claims;
}

/** The SDK's parameters the caller's claims of a request token whose claims `schema` declares are read from. */
export function parametersOf(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).flatMap((claim) => PARAMETER_OF_CLAIM[claim] ?? []);
}

/**
 * Signs a request token of the SSO service (endpoint 21 and the operations beyond it): HS256 with
 * the client secret, `cid` and `claims`, `nbf` = `iat` = now, `exp` = now + the lifetime, `iss` =
 * organisation id, `aud` = the audience. With a `schema`, the whole claim set is checked first.
 *
 * @throws {@link SignOnConfigurationError} when the secret is shorter than 32 bytes or an id is empty
 * @throws {@link SignOnValidationError} when a claim breaks the schema, naming its parameter
 */
export async function signSsoRequest(
  signer: SsoSigner,
  claims: Readonly<Record<string, unknown>>,
  options: SignSsoRequestOptions = {},
): Promise<string> {
  const key = hs256Key(signer.clientSecret);
  const clientId = requireOption('clientId', signer.clientId);
  const organisationId = requireOption('organisationId', signer.organisationId);
  const audience = requireOption('audience', signer.audience);
  const iat = epochSeconds(signer.now);
  const exp = iat + (options.lifetimeSeconds ?? SSO_TOKEN_LIFETIME_SECONDS);
  const payload = { cid: clientId, ...claims };
  if (options.schema)
    parseOrThrow(
      options.schema,
      { ...payload, nbf: iat, iat, exp, iss: organisationId, aud: audience },
      PARAMETER_OF_CLAIM,
    );
  const { SignJWT } = await loadJose();
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(iat)
    .setNotBefore(iat)
    .setExpirationTime(exp)
    .setIssuer(organisationId)
    .setAudience(audience)
    .sign(key);
}
