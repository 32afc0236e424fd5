/**
 * Sends drawn requests through both adapters and checks the fuzz suite's properties after each:
 * no 5xx and no dropped connection, every refusal a JSON error with `code` and `message` (and
 * `field` for a refused parameter), and the state document byte-identical after every refusal.
 * For the SSO service: a whole request token passes verification, and a broken one is refused as
 * `invalid_request_token` (a signed answer saying so, or a 400 when no client can be named).
 */
import { createRequire } from 'node:module';
import { decodeJwt, SignJWT } from 'jose';
import { setupServer } from 'msw/node';
import {
  createHandlers,
  createPlatform,
  DEMO_SSO_AUDIENCE,
  defaultHosts,
  demoIds,
  type Platform,
} from '../../mock/index.js';
import { startServer } from '../../mock/node/index.js';
import { type FuzzRequest, faultName, NEW_SESSION, NEW_TICKET, type SsoToken } from './requests.js';

// The CommonJS modules: MSW intercepts their `request` (a GET with a body goes through them).
const require = createRequire(import.meta.url);
const http = require('node:http') as typeof import('node:http');
const https = require('node:https') as typeof import('node:https');

/** The two adapters: MSW in process, and the node:http server. */
export type AdapterKind = 'msw' | 'http';

/** A platform behind one adapter. */
export interface Target {
  readonly kind: AdapterKind;
  readonly platform: Platform;
  origin(host: FuzzRequest['endpoint']['host']): string;
  close(): Promise<void>;
}

/** Starts a demo platform behind `kind`. */
export async function open(kind: AdapterKind): Promise<Target> {
  if (kind === 'msw') {
    const platform = createPlatform({ seed: 'demo' });
    const server = setupServer(...createHandlers(platform, defaultHosts));
    server.listen({ onUnhandledRequest: 'error' });
    return { kind, platform, origin: (host) => defaultHosts[host], close: async () => server.close() };
  }
  const server = await startServer({ port: 0, seed: 'demo' });
  return { kind, platform: server.platform, origin: () => server.url, close: () => server.close() };
}

/** An answer, read whole. */
export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Codes that refuse one parameter: the answer names it in `field`. */
const FIELD_CODES = new Set(['invalid_parameter', 'unknown_parameter']);

function tokenFor(platform: Platform, r: FuzzRequest): string | undefined {
  if (r.token === 'none') return undefined;
  const e = r.endpoint;
  const scopes =
    r.token === 'scoped'
      ? [...e.scopes]
      : [e.scopes.includes('/external/product/r') ? '/external/price/w' : '/external/product/r'];
  return platform.mintToken({ scopes, accountId: e.identity ? demoIds.accounts.gus : undefined }).access_token;
}

function viaNode(url: string, method: string, headers: Record<string, string>, body: string): Promise<FuzzAnswer> {
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      target,
      { method, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const encoder = new TextEncoder();
const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
/**
 * How far a broken token's times lie beyond the SSO service's clock tolerance (5 s): a minute, so
 * a token issued ahead is still ahead when a busy machine verifies it seconds later.
 */
const BEYOND_LEEWAY = 60;

/**
 * Signs an SSO request token on the platform's clock: a fresh session for `sid` {@link NEW_SESSION}
 * and a fresh ticket of Anna's for `at` {@link NEW_TICKET} (made now: before the state is compared),
 * then the one fault, if any.
 */
export async function signSso(platform: Platform, sso: SsoToken): Promise<string> {
  const { client, fault, lifetime } = sso;
  const now = Math.floor(platform.clock.now().getTime() / 1000);
  const payload: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(sso.claims)) {
    if (value === NEW_SESSION) payload[name] = platform.sso.createSession({ clientId: client.clientId });
    else if (value === NEW_TICKET)
      payload[name] = platform.issueTicket({ accountId: demoIds.accounts.anna, clientId: client.clientId });
    else payload[name] = value;
  }
  Object.assign(payload, {
    cid: client.clientId,
    iss: client.organisationId,
    aud: DEMO_SSO_AUDIENCE,
    iat: now,
    nbf: now,
    exp: now + lifetime,
  });
  let secret = client.clientSecret;
  let alg = 'HS256';
  switch (fault.kind) {
    case 'omit':
      delete payload[fault.claim];
      break;
    case 'wrong':
      payload[fault.claim] = fault.value;
      break;
    case 'secret':
      secret = `${secret}-other`;
      break;
    case 'alg none':
      return `${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`;
    case 'HS512':
      alg = 'HS512';
      break;
    case 'expired':
      Object.assign(payload, { iat: now - lifetime - BEYOND_LEEWAY, nbf: now - lifetime - BEYOND_LEEWAY });
      payload.exp = now - BEYOND_LEEWAY;
      break;
    case 'not yet valid':
      payload.nbf = now + BEYOND_LEEWAY;
      break;
    case 'issued ahead':
      Object.assign(payload, { iat: now + BEYOND_LEEWAY, exp: now + BEYOND_LEEWAY + lifetime });
      break;
    case 'lives too long':
      payload.exp = now + lifetime + 1;
      break;
    default:
      break;
  }
  return new SignJWT(payload).setProtectedHeader({ alg, typ: 'JWT' }).sign(encoder.encode(secret));
}

/** A request as sent: an SSO request token signed into its body (or, for identify, its query). */
async function prepared(t: Target, r: FuzzRequest): Promise<FuzzRequest> {
  if (!r.sso) return r;
  const token = await signSso(t.platform, r.sso);
  if (r.method === 'GET')
    return { ...r, target: `${r.target}?t=${token}&r=${encodeURIComponent(r.sso.returnUrl ?? '/')}` };
  return { ...r, body: JSON.stringify({ t: token }), contentType: 'application/json' };
}

/** Sends `r` through `t`; answers what came back. */
export async function send(t: Target, r: FuzzRequest, token: string | undefined): Promise<FuzzAnswer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (token !== undefined && r.endpoint.bearer) headers.authorization = `Bearer ${token}`;
  if (r.contentType !== undefined) headers['content-type'] = r.contentType;
  const url = `${t.origin(r.endpoint.host)}${r.target}`;
  if (r.method === 'GET' && r.body !== undefined) return viaNode(url, r.method, headers, r.body);
  const res = await fetch(url, { method: r.method, headers, body: r.body, redirect: 'manual' });
  return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** A broken property: what was sent and what came back. */
export class PropertyBroken extends Error {
  override readonly name = 'PropertyBroken';
}

function describe(r: FuzzRequest, a: FuzzAnswer): string {
  const body = r.body === undefined ? '' : ` body ${r.body.slice(0, 200)}`;
  return `${r.method} ${r.target.slice(0, 200)}${body} [${r.mutation}; token ${r.token}] -> ${a.status} ${a.text.slice(0, 300)}`;
}

/** What a request got: its status, and for an SSO operation the outcome (`200 loggedin`, `200 invalid_request_token`). */
export interface Checked {
  readonly status: number;
  /** The status, and for the SSO service the answer's `err` (or its `sts` when none). */
  readonly outcome: string;
}

/** The `err` (or `sts`) of an SSO answer `{ t }`; throws {@link PropertyBroken} when it is not one. */
function ssoOutcome(r: FuzzRequest, a: FuzzAnswer): string {
  try {
    const claims = decodeJwt((JSON.parse(a.text) as { t: string }).t);
    return typeof claims.err === 'string' ? claims.err : String(claims.sts);
  } catch {
    throw new PropertyBroken(`an SSO answer is a session token: ${describe(r, a)}`);
  }
}

/**
 * The SSO properties: a whole token is verified (identify redirects, the others answer a session
 * token whose `err` is not `invalid_request_token`); a broken one is refused as
 * `invalid_request_token` (400 when it names no known client, else a signed answer), identify's with
 * its 400 page. Answers the outcome.
 */
function checkSso(r: FuzzRequest, a: FuzzAnswer): string {
  const sso = r.sso!;
  const valid = sso.fault.kind === 'none';
  const broken = (what: string) => new PropertyBroken(`${what} [${faultName(sso.fault)}]: ${describe(r, a)}`);
  if (r.method === 'GET') {
    if (valid && a.status !== 302) throw broken('a whole identify token redirects');
    if (!valid && a.status !== 400) throw broken('a broken identify token is refused');
    return String(a.status);
  }
  if (a.status === 400) {
    if (valid) throw broken('a whole request token is verified');
    if (!a.text.includes('"invalid_request_token"')) throw broken('a broken request token is refused as such');
    return '400 invalid_request_token';
  }
  if (a.status !== 200) throw broken('an SSO operation answers 200 with a session token');
  const outcome = ssoOutcome(r, a);
  if (valid && outcome === 'invalid_request_token') throw broken('a whole request token is verified');
  if (!valid && outcome !== 'invalid_request_token') throw broken('a broken request token is refused');
  return `200 ${outcome}`;
}

/**
 * Sends `r` and checks every property; throws {@link PropertyBroken}. Answers the status and
 * outcome. `compareState` false skips the state comparison (two state documents written, about
 * half the time of a request), for a long campaign that compares a sample.
 */
export async function check(t: Target, drawn: FuzzRequest, compareState = true): Promise<Checked> {
  // Minting a token, making a session or a ticket write to the state: before the snapshot.
  const token = tokenFor(t.platform, drawn);
  const r = await prepared(t, drawn);
  const before = compareState ? JSON.stringify(t.platform.snapshot()) : undefined;
  let answer: FuzzAnswer;
  try {
    answer = await send(t, r, token);
  } catch (error) {
    throw new PropertyBroken(`${r.method} ${r.target.slice(0, 200)}: the connection failed: ${String(error)}`);
  }
  if (answer.status === 0 || answer.status >= 500) throw new PropertyBroken(`no 5xx: ${describe(r, answer)}`);
  if (r.expected && answer.status !== r.expected.status)
    throw new PropertyBroken(`the answer is ${r.expected.status}: ${describe(r, answer)}`);
  const outcome = r.sso ? checkSso(r, answer) : String(answer.status);
  if (answer.status < 400) return { status: answer.status, outcome };
  if (before !== undefined && JSON.stringify(t.platform.snapshot()) !== before)
    throw new PropertyBroken(`a refused request changed the state: ${describe(r, answer)}`);
  if (r.endpoint.page && answer.contentType.startsWith('text/html')) return { status: answer.status, outcome };
  let body: { code?: unknown; message?: unknown; field?: unknown };
  try {
    body = JSON.parse(answer.text);
  } catch {
    throw new PropertyBroken(`a refusal is JSON: ${describe(r, answer)}`);
  }
  if (typeof body.code !== 'string' || typeof body.message !== 'string')
    throw new PropertyBroken(`a refusal has code and message: ${describe(r, answer)}`);
  if (r.expected && body.code !== r.expected.code)
    throw new PropertyBroken(`the code is ${r.expected.code}: ${describe(r, answer)}`);
  if (FIELD_CODES.has(body.code) && typeof body.field !== 'string')
    throw new PropertyBroken(`a refused parameter is named in field: ${describe(r, answer)}`);
  return { status: answer.status, outcome };
}
