/**
 * The SSO service's tokens: the session tokens it signs, and the request tokens it verifies.
 *
 * Every request token is verified strictly (RFC 8725): HS256 only, the calling client's secret,
 * `aud` = the SSO audience constant, `iss` = the client's organisation, `cid` a client of it, every
 * claim present, a lifetime of at most the operation's, nothing dated in the future, all on the
 * platform clock. A check that fails is told to the journal in its own words ({@link Refusal}),
 * never to the caller. A session token is signed with the client's secret: `iss` = the audience
 * constant, `aud` = the client.
 */
import { decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type * as z from 'zod';
import { fieldOf, primaryIssue } from '../../src/schemas/common.js';
import type { KnownSsoSessionErrorCode, SsoSessionClaims } from '../../src/schemas/sign-on.js';
import { SSO_TOKEN_LIFETIME_SECONDS } from '../../src/sign-on/sso-token.js';
import type { ClientRecord, SsoSessionRecord } from './document.js';
import { HttpError, refusedBecause } from './errors.js';
import { type Refusal, unknownClient } from './refusal.js';
import type { RouteContext } from './route.js';
import { SSO_CLOCK_TOLERANCE_SECONDS, sessionLimit, ssoAudienceOf } from './sso.js';
import type { State } from './state.js';

/** What signing and verifying read of a request: the state, the clock and the settings. */
type TokenContext = Pick<RouteContext, 'state' | 'clock' | 'settings'>;

const encoder = new TextEncoder();

/**
 * A client secret as HS256 key bytes, in this realm's `Uint8Array`: jose takes no other, and a test
 * environment's `TextEncoder` (jest's jsdom, whose globals are another realm's) gives another's.
 */
function secretKey(secret: string): Uint8Array {
  const bytes = encoder.encode(secret);
  return bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
}

/** What a session token reports. */
export interface SessionTokenReport {
  sts: SsoSessionRecord['state'];
  sid: string;
  aid?: string;
  at?: string;
  err?: KnownSsoSessionErrorCode | null;
  ems?: string;
  /** Seconds until a frozen account thaws; -1 when not frozen. */
  frf?: number;
  /** Password attempts remaining before the account freezes; -1 when not counted. */
  raa?: number;
}

/** 400 with the common error body: no session token can be signed without a known client. */
function invalidRequestToken(message: string, check: string, detail: string): HttpError {
  return refusedBecause(new HttpError(400, 'invalid_request_token', message, 't'), check, detail);
}

/** A claim's value as the journal shows it: JSON, cut short (never a secret: only `alg`, `typ`, `aud`, `iss`, a known client's id). */
export function shown(value: unknown): string {
  if (value === undefined) return 'missing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** An epoch claim as the journal shows it: the number and its date. */
function instant(value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return shown(value);
  const ms = value * 1000;
  return Math.abs(ms) <= 8.64e15 ? `${value} (${new Date(ms).toISOString()})` : String(value);
}

/** The SSO audience constant in force. */
function audienceOf(ctx: TokenContext): string {
  return ssoAudienceOf(ctx.settings, ctx.state.document);
}

/** Signs a session token for `client` (HS256, its secret): `iss` = the audience constant, `aud` = the client. */
export async function sessionToken(ctx: TokenContext, client: ClientRecord, o: SessionTokenReport) {
  const audience = audienceOf(ctx);
  const nowSeconds = Math.floor(ctx.clock.nowMs() / 1000);
  const claims = {
    sts: o.sts,
    sid: o.sid,
    aid: o.aid ?? '',
    at: o.at ?? '',
    err: o.err ?? null,
    ems: o.ems ?? '',
    frf: o.frf ?? -1,
    raa: o.raa ?? -1,
    slm: sessionLimit(ctx.settings.login, ctx.state.organisation(client.organisation_id)),
    otp: '',
    ses: null,
  } satisfies Omit<SsoSessionClaims, 'nbf' | 'iat' | 'exp' | 'iss' | 'aud'>;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(nowSeconds)
    .setNotBefore(nowSeconds)
    .setExpirationTime(nowSeconds + SSO_TOKEN_LIFETIME_SECONDS)
    .setIssuer(audience)
    .setAudience(client.client_id)
    .sign(secretKey(client.client_secret));
}

/**
 * The client a request token names (read unverified, only to find whose secret verifies it), or
 * 400 `invalid_request_token`: a token that is no JWT, or names no client of the platform.
 */
export function requestTokenClient(state: State, token: string): { client: ClientRecord; unverified: JWTPayload } {
  let unverified: JWTPayload;
  try {
    unverified = decodeJwt(token);
  } catch {
    throw invalidRequestToken('The request token is not a JWT', 'token', 'the request token is not a JWT');
  }
  const { cid } = unverified;
  const client = typeof cid === 'string' ? state.clients.get(cid) : undefined;
  if (!client)
    throw invalidRequestToken(
      'The request token names no known client (cid)',
      cid === undefined ? 'claim' : 'client',
      cid === undefined ? 'claim cid is missing' : unknownClient('cid', cid),
    );
  return { client, unverified };
}

/** What every request token carries: the client and its lifetime. */
export type RequestClaims = { cid: string; iat: number; nbf: number; exp: number };

/** A request token verified: its claims, or which check failed. */
export type VerifiedRequest<C> =
  | { readonly ok: true; readonly claims: C }
  | { readonly ok: false; readonly refusal: Refusal };

/** What a request token is held to. */
export interface RequestTokenExpectations {
  readonly client: ClientRecord;
  readonly audience: string;
  readonly now: Date;
  readonly maxAgeSeconds: number;
}

/** What a request token of `client` is held to now, living at most `maxAgeSeconds`. */
export function requestTokenExpectations(
  ctx: TokenContext,
  client: ClientRecord,
  maxAgeSeconds: number,
): RequestTokenExpectations {
  return { client, audience: audienceOf(ctx), now: ctx.clock.now(), maxAgeSeconds };
}

/** Which check a jose verification failure is, in the journal's words, with the values it saw. */
function joseRefusal(error: unknown, token: string, x: RequestTokenExpectations): Refusal {
  let header: Record<string, unknown> = {};
  let payload: JWTPayload = {};
  try {
    header = decodeProtectedHeader(token);
    payload = decodeJwt(token);
  } catch {
    // Whatever decodes is shown; the check is told by the error.
  }
  const clock = `the platform clock ${x.now.toISOString()} (leeway ${SSO_CLOCK_TOLERANCE_SECONDS} s)`;
  if (error instanceof errors.JOSEAlgNotAllowed)
    return { check: 'alg', detail: `alg is ${shown(header.alg)}, expected "HS256"` };
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return {
      check: 'signature',
      detail: `the signature does not verify with the secret of client ${shown(x.client.client_id)}`,
    };
  if (error instanceof errors.JWTExpired)
    return { check: 'exp', detail: `exp ${instant(payload.exp)} is not after ${clock}` };
  if (error instanceof errors.JWTClaimValidationFailed) {
    const { claim, reason } = error;
    if (reason === 'missing') return { check: 'claim', detail: `claim ${claim} is missing` };
    if (claim === 'typ') return { check: 'typ', detail: `typ is ${shown(header.typ)}, expected "JWT"` };
    if (reason === 'invalid')
      return { check: 'claim', detail: `claim ${claim} is malformed: ${shown(payload[claim])}` };
    switch (claim) {
      case 'aud':
        return { check: 'aud', detail: `aud is ${shown(payload.aud)}, expected ${shown(x.audience)}` };
      case 'iss':
        return {
          check: 'iss',
          detail: `iss is ${shown(payload.iss)}, expected the organisation of client ${shown(x.client.client_id)}, ${shown(x.client.organisation_id)}`,
        };
      case 'nbf':
        return { check: 'nbf', detail: `nbf ${instant(payload.nbf)} is after ${clock}` };
      case 'iat':
        return {
          check: 'iat',
          detail:
            typeof payload.iat === 'number' && payload.iat * 1000 > x.now.getTime()
              ? `iat ${instant(payload.iat)} is in the future of ${clock}`
              : `iat ${instant(payload.iat)} is more than ${x.maxAgeSeconds} s before ${clock}`,
        };
    }
    return { check: claim, detail: error.message };
  }
  return { check: 'token', detail: 'the request token is not a valid JWS' };
}

/** Verifies a request token against `schema`: its claims, or which check failed. */
export async function verifyRequest<S extends z.ZodType<RequestClaims>>(
  token: string,
  x: RequestTokenExpectations,
  schema: S,
): Promise<VerifiedRequest<z.output<S>>> {
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, secretKey(x.client.client_secret), {
      algorithms: ['HS256'],
      typ: 'JWT',
      audience: x.audience,
      issuer: x.client.organisation_id,
      requiredClaims: ['cid', 'nbf', 'exp', 'iat', 'iss', 'aud'],
      maxTokenAge: x.maxAgeSeconds,
      clockTolerance: SSO_CLOCK_TOLERANCE_SECONDS,
      currentDate: x.now,
    }));
  } catch (error) {
    return { ok: false, refusal: joseRefusal(error, token, x) };
  }
  const parsed = schema.safeParse(payload);
  if (!parsed.success) {
    const issue = primaryIssue(parsed.error.issues);
    const claim = issue ? fieldOf(issue.path) : '';
    const missing = issue !== undefined && payload[String(issue.path[0])] === undefined;
    return {
      ok: false,
      refusal: {
        check: 'claim',
        detail: missing ? `claim ${claim} is missing` : `claim ${claim} is malformed: ${issue?.message}`,
      },
    };
  }
  const c = parsed.data;
  const nowSeconds = Math.floor(x.now.getTime() / 1000);
  const refuse = (check: string, detail: string): VerifiedRequest<z.output<S>> => ({
    ok: false,
    refusal: { check, detail },
  });
  // Not quoted: a cid that is not the client's may be no client's at all (a secret in its place).
  if (c.cid !== x.client.client_id)
    return refuse('cid', `cid is not ${shown(x.client.client_id)}, the client that signed`);
  if (c.exp <= c.iat) return refuse('exp', `exp ${instant(c.exp)} is not after iat ${instant(c.iat)}`);
  if (c.exp - c.iat > x.maxAgeSeconds)
    return refuse('exp', `exp is ${c.exp - c.iat} s after iat: a request token lives at most ${x.maxAgeSeconds} s`);
  const future = `in the future of the platform clock ${x.now.toISOString()} (leeway ${SSO_CLOCK_TOLERANCE_SECONDS} s)`;
  if (c.iat > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS) return refuse('iat', `iat ${instant(c.iat)} is ${future}`);
  if (c.nbf > nowSeconds + SSO_CLOCK_TOLERANCE_SECONDS) return refuse('nbf', `nbf ${instant(c.nbf)} is ${future}`);
  return { ok: true, claims: c };
}
