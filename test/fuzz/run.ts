/**
 * Sends drawn requests through both adapters and checks the fuzz suite's properties after each:
 * no 5xx and no dropped connection, every refusal a JSON error with `code` and `message` (and
 * `field` for a refused parameter), and the state document byte-identical after every refusal.
 */
import { createRequire } from 'node:module';
import { setupServer } from 'msw/node';
import { createHandlers, createPlatform, defaultHosts, demoIds, type Platform } from '../../mock/index.js';
import { startServer } from '../../mock/node/index.js';
import type { FuzzRequest } from './requests.js';

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

/** Sends `r` and checks every property; throws {@link PropertyBroken}. Answers the status. */
export async function check(t: Target, r: FuzzRequest): Promise<number> {
  // Minting a token writes to the state: before the snapshot.
  const token = tokenFor(t.platform, r);
  const before = JSON.stringify(t.platform.snapshot());
  let answer: FuzzAnswer;
  try {
    answer = await send(t, r, token);
  } catch (error) {
    throw new PropertyBroken(`${r.method} ${r.target.slice(0, 200)}: the connection failed: ${String(error)}`);
  }
  if (answer.status === 0 || answer.status >= 500) throw new PropertyBroken(`no 5xx: ${describe(r, answer)}`);
  if (r.expected && answer.status !== r.expected.status)
    throw new PropertyBroken(`the answer is ${r.expected.status}: ${describe(r, answer)}`);
  if (answer.status < 400) return answer.status;
  if (JSON.stringify(t.platform.snapshot()) !== before)
    throw new PropertyBroken(`a refused request changed the state: ${describe(r, answer)}`);
  if (r.endpoint.page && answer.contentType.startsWith('text/html')) return answer.status;
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
  return answer.status;
}
