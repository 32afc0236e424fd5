/** The standalone adapter: the platform over node:http, for clients in any language. */
import { createServer, type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isSecretName, redactParams, redactShapes, redactText } from '../../src/secrets.js';
import { MAX_SAFE_TIMEOUT } from '../../src/sleep.js';
import { refusalResponse, respond, withoutCors } from '../core/answers.js';
import { HttpError } from '../core/errors.js';
import { type AllowedHosts, hostnameOf, isAllowedHost, isIpLiteral, isLoopbackHost } from '../core/hosts.js';
import { internalsOf, type PlatformInternals } from '../core/internals.js';
import { REDACTED, type Refusal } from '../core/journal.js';
import { bodyLimitFor, bodyTooLarge, DEFAULT_MAX_BODY_BYTES, declaredLength } from '../core/limits.js';
import { redactPathUserinfo } from '../core/loose-redaction.js';
import { type CoreRequest, type CoreResponse, type RequestHandler, setOwn } from '../core/messages.js';
import type { Route } from '../core/route.js';
import { PathTemplate } from '../core/router.js';
import { type AdminSettings, bearsAdminToken, guardAdmin } from '../core/security.js';
import type { State } from '../core/state.js';
import type { Platform } from '../core/types.js';
import { validate } from '../core/validate.js';
import { createPlatform, createPlatformWith } from '../platform.js';
import { allRoutes } from '../routes/index.js';
import {
  invalidNamespaceName,
  isNamespaceName,
  type Lease,
  NAMESPACE_PREFIX,
  type NamespaceEntry,
  Namespaces,
  namespaceOf,
  namespacePath,
} from './namespaces.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  ServerOptionsSchema,
  type ServerSettings,
  type StartServerOptions,
} from './options.js';
import { removeStateFile, StateFileError, StateWriter } from './state-file.js';

export type { RequestLogLine, StartServerOptions } from './options.js';

/** A running platform server. */
export interface RunningServer {
  /** Its origin, e.g. `http://127.0.0.1:4010`. */
  url: string;
  /** The platform it serves (at the root; each namespace has its own). */
  platform: Platform;
  /** The platform of namespace `name` (`/_ns/{name}/...`), when the server holds it. */
  namespace(name: string): Platform | undefined;
  /** Stops listening and closes every connection; then writes the state files, when it keeps them. */
  close(): Promise<void>;
}

/** What serves a request: a platform's core, and what is told once it has answered (its state file's writer). */
interface Target {
  readonly handle: RequestHandler;
  readonly changed: (() => void) | undefined;
}

/** A namespace of the server: a platform of its own, under `/_ns/{name}`, and its state file's writer. */
interface Namespace extends Target {
  readonly platform: Platform;
  readonly writer: StateWriter | undefined;
  /** Its live state. */
  readonly state: State | undefined;
  /** Whether it was read from its state file when it was made: a namespace opened before (and dropped as idle, or before a restart). */
  readonly fromFile: boolean;
  /**
   * Its state document's text when it was made (after its file was read), to tell whether a request
   * changed it while it is pending; forgotten once it is kept.
   */
  made: string | undefined;
}

/** How long a refused upload may go on being read (and discarded) before its connection is cut. */
const LINGER_MS = 2_000;

/** What one server knows when it serves a request. */
interface ServeContext extends Target {
  /** The path templates (as segments) of its routes with a secret parameter in the path, for the request log. */
  readonly secretPaths: readonly PathTemplate[];
  readonly maxBodyBytes: number;
  readonly allowedHosts: AllowedHosts;
  readonly boundAddress: string;
  readonly trustProxy: boolean;
  /** The server's own origin, for a request whose `Host` cannot be used. */
  origin: string;
  /** Whether answered requests are logged (`onRequest`): only then is each answer's correlation id kept. */
  readonly logged: boolean;
  /** The verdict on each `Host` header value seen lately: its host name when answered, null when refused. */
  readonly hosts: Map<string, string | null>;
  /** Its namespaces; none when they are off or the platform is not from `createPlatform`. */
  readonly namespaces: Namespaces<Namespace> | undefined;
  /** The admin settings of the platform at the root, which guard the namespaces' admin routes. */
  readonly adminSettings: AdminSettings;
  /** The root platform's state file, beside which each namespace keeps its own. */
  readonly stateFile: string | undefined;
  readonly warn: (message: string) => void;
  /** The requests being answered, by where they go: a namespace's path prefix, or '' for the root. */
  readonly inFlight: Map<string, number>;
  /** The requests being answered, in all. */
  answering: number;
  /** The most requests being answered at once, beyond the first of each namespace and of the root. */
  readonly share: number;
  /** How long an answer the connection did not take whole at once may wait to be read: the request timeout. */
  readonly readWithinMs: number;
}

/**
 * The most requests being answered at once, beyond the first of each namespace and of the root:
 * three quarters of the connections. So requests that latency faults hold, in one namespace or in
 * several, cannot take every connection: a quarter stays for the first request of the root and of
 * each other namespace (with fewer than four connections, the first requests may take all).
 */
function requestShare(maxConnections: number): number {
  return maxConnections - Math.floor(maxConnections / 4);
}

/** Where a request goes, as {@link ServeContext.inFlight} counts it: `/_ns/{name}`, or '' for the root. */
function inFlightKey(path: string): string {
  if (!path.startsWith(NAMESPACE_PREFIX)) return '';
  const end = path.indexOf('/', NAMESPACE_PREFIX.length);
  return end < 0 ? path : path.slice(0, end);
}

/**
 * The answer to a request, unless the server is answering its share of requests (three quarters of
 * the connections) and the request's namespace (or the root) has one being answered already: then
 * `503 busy` with `Retry-After: 1`, at once, and its connection is free again. The first request of
 * each namespace, and of the root, is always answered.
 */
async function answerInShare(ctx: ServeContext, request: CoreRequest): Promise<CoreResponse> {
  const key = inFlightKey(request.url.pathname);
  const held = ctx.inFlight.get(key) ?? 0;
  if (held > 0 && ctx.answering >= ctx.share && !request.refusal)
    return refusalResponse(
      new HttpError(
        503,
        'busy',
        `${key === '' ? 'The platform' : `Namespace ${key.slice(NAMESPACE_PREFIX.length)}`} has ${held} requests being answered, and the server ${ctx.answering} in all, as many as it answers at once beyond the first of each namespace (three quarters of --max-connections): try again`,
        key === '' ? undefined : 'namespace',
        { 'retry-after': '1' },
      ),
      request.url.pathname,
    );
  ctx.inFlight.set(key, held + 1);
  ctx.answering += 1;
  try {
    return await answerOf(ctx, request);
  } finally {
    ctx.answering -= 1;
    const left = (ctx.inFlight.get(key) ?? 1) - 1;
    if (left > 0) ctx.inFlight.set(key, left);
    else ctx.inFlight.delete(key);
  }
}

/** How many `Host` verdicts a server remembers; past it, it starts over (the header is the client's to choose). */
const HOST_VERDICTS = 64;

/**
 * The host name of a request's `Host` when this server answers it (DNS rebinding: only the names
 * it is meant to be reached by), or null. Remembered per header value: a client sends the same one
 * on every request.
 */
function answeredHost(ctx: ServeContext, header: string): string | null {
  let verdict = ctx.hosts.get(header);
  if (verdict === undefined) {
    const hostname = hostnameOf(header);
    verdict = hostname !== undefined && isAllowedHost(hostname, ctx.allowedHosts, ctx.boundAddress) ? hostname : null;
    if (ctx.hosts.size >= HOST_VERDICTS) ctx.hosts.clear();
    ctx.hosts.set(header, verdict);
  }
  return verdict;
}

/** Whether a request has more than one `Host` line (node:http keeps the first in `headers.host`). */
function severalHosts(rawHeaders: readonly string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host' && ++seen > 1) return true;
  }
  return false;
}

/**
 * Why a request's `Host` is refused; undefined when it is answered. A request that names no host
 * (no `Host`, as HTTP/1.0 allows, or an empty one) is refused as one naming a host not served,
 * in HTTP/1.0 and 1.1 alike: the server answers only the hosts it is meant to be reached by. One
 * with several `Host` lines is `400 malformed_request` (RFC 9112, 3.2): which one names the host
 * is for no server to guess.
 */
function hostRefusal(
  ctx: ServeContext,
  header: string | undefined,
  rawHeaders: readonly string[],
  inTarget = false,
): HttpError | undefined {
  if (severalHosts(rawHeaders))
    return new HttpError(400, 'malformed_request', 'The request has more than one Host header: send one', 'host');
  if (header !== undefined && header !== '' && answeredHost(ctx, header) !== null) return undefined;
  const message =
    header === undefined || header === ''
      ? 'The request names no host: send a Host header with the host name this server is reached by'
      : `The ${inTarget ? 'request target' : 'Host header'} names a host this server does not answer: reach it by a loopback address, or list the host with --allowed-hosts`;
  return new HttpError(403, 'host_not_allowed', message, 'host');
}

/** The refusal of a request target that is neither a path nor an absolute http URL (before routing: not journaled). */
const MALFORMED_TARGET = JSON.stringify({
  code: 'malformed_request',
  field: 'url',
  message:
    'The request target must be a path (/openapi.json) or an absolute http URL naming a host (http://127.0.0.1:4010/openapi.json): * and authority-form are not served',
});

/**
 * An absolute-form request target (RFC 9112, 3.2.2: `http://host[:port]/path?query`, as a client
 * talking to a proxy sends it), which a server must accept: its authority, which takes the place of
 * `Host` (and is checked as a `Host` would be), and the rest as a path. Undefined for a target of
 * any other form, for one with no host, and for one with credentials (`http://user@host/`).
 */
function absoluteForm(target: string): { authority: string; path: string } | undefined {
  const match = /^https?:\/\/([^/?#]+)/i.exec(target);
  const authority = match?.[1];
  if (match === null || authority === undefined || authority.includes('@')) return undefined;
  const rest = target.slice(match[0].length);
  return { authority, path: rest.startsWith('/') ? rest : `/${rest}` };
}

/**
 * Whether a request comes from a web page of another site: its `Origin` is `null` or names a host
 * this server does not answer (loopback hosts, `--host`, `--allowed-hosts`). Such a page gets no
 * CORS headers: it cannot read a token it had granted with the public demo secret, and its preflight
 * for a call with `Authorization` fails, so it cannot write through the API.
 */
function foreignOrigin(ctx: ServeContext, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  return host === '' || answeredHost(ctx, host) === null;
}

/** Why a request's `Expect` is refused: any expectation but `100-continue` (which is met) is one this server cannot meet. */
function expectationRefusal(header: string | undefined): HttpError | undefined {
  if (header === undefined || header.toLowerCase() === '100-continue') return undefined;
  return new HttpError(
    417,
    'expectation_failed',
    'The Expect header names an expectation this server cannot meet: only 100-continue is',
    'expect',
  );
}

/** The correlation id of each answer, for the request log (headers given to `writeHead` cannot be read back). */
const correlationIds = new WeakMap<ServerResponse, string>();
/** Why each refused answer was refused, for the request log. */
const refusals = new WeakMap<ServerResponse, Refusal>();

/** A body that was not read whole: over the limit. */
const TOO_LARGE = Symbol('too large');
/** A body read whole that cannot be decoded as text (longer than a string can be). */
const UNREADABLE = Symbol('unreadable');

/** The refusal of a body read whole that cannot be decoded: `400 malformed_request`, as the Fetch adapter's of a body it cannot read. */
function unreadableBody(): HttpError {
  return new HttpError(400, 'malformed_request', 'The request body could not be read', 'body');
}

/**
 * The body of a request that has one ({@link hasBody}), read chunk by chunk up to `limit` bytes.
 * A declared length over the limit is refused before reading; a body that goes over while reading
 * stops being kept at once. A body that cannot be decoded is {@link UNREADABLE}: nothing here
 * throws outside the promise (an exception in a listener would end the process).
 */
function readBody(req: IncomingMessage, limit: number): Promise<string | typeof TOO_LARGE | typeof UNREADABLE> {
  const declared = declaredLength(req.headers['content-length']);
  if (declared !== undefined && declared > limit) return Promise.resolve(TOO_LARGE);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        chunks.length = 0;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      try {
        resolve(Buffer.concat(chunks, size).toString('utf8'));
      } catch {
        resolve(UNREADABLE);
      } finally {
        chunks.length = 0;
      }
    });
    req.on('error', reject);
    req.on('close', () => {
      if (!req.complete) reject(new Error('the client went away'));
    });
  });
}

/** Whether a request has a body to read (HTTP/1.1 framing: a non-zero Content-Length, or Transfer-Encoding). */
function hasBody(req: IncomingMessage): boolean {
  const declared = declaredLength(req.headers['content-length']);
  return !((declared === undefined || declared === 0) && req.headers['transfer-encoding'] === undefined);
}

/** The first entry of a forwarding header (`a, b` or a repeated header). */
function firstForwarded(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(',')[0]?.trim();
  return first ? first : undefined;
}

/** Whether a template segment is a parameter with a secret name (`{sid}`). */
function secretParam(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}') && isSecretName(segment.slice(1, -1));
}

/** The path templates of routes with a secret parameter in the path: `/__admin/sso/sessions/{sid}`. */
function secretPathsOf(routes: readonly Route[]): readonly PathTemplate[] {
  return routes.flatMap((route) =>
    (typeof route.path === 'string' ? [route.path] : Object.values(route.path))
      .filter((path) => path.split('/').some(secretParam))
      .map((path) => new PathTemplate(path)),
  );
}

/**
 * A request target as the request log prints it: the path as the platform resolves it (dot
 * segments removed; an absolute URL loses its origin), a secret path parameter (an SSO session's
 * `sid`), secret query parameters and whatever is shaped like a credential redacted, by the
 * journal's rule.
 */
function loggedTarget(target: string, secretPaths: readonly PathTemplate[]): string {
  return redactShapes(namedTarget(target, secretPaths), REDACTED);
}

/**
 * A request target with its secret path and query parameters, by name, redacted. A path is matched
 * as the router matches it (`PathTemplate`), in a namespace (`/_ns/{name}/...`) after its two segments.
 */
function namedTarget(target: string, secretPaths: readonly PathTemplate[]): string {
  // As the server reads it: a path (`//x` stays a path), or an absolute URL, of which the path is kept.
  const given = target.startsWith('/') ? target : absoluteForm(target)?.path;
  // `//user:pw@host/x` is a path here, its credentials text: redacted as before a host.
  const path = given === undefined ? undefined : redactPathUserinfo(given, REDACTED);
  // A target the server refuses is shown as sent, but for credentials before a host (`//user:pw@`).
  if (path === undefined)
    return redactParams(target.replace(/^([^/]*\/\/)[^/?#]*@/, `$1${REDACTED}@`), REDACTED, 'url');
  let url: URL;
  try {
    url = new URL(`http://platform.invalid${path}`);
  } catch {
    return redactParams(target, REDACTED, 'url');
  }
  const segments = url.pathname.split('/');
  const skip = url.pathname.startsWith(NAMESPACE_PREFIX) && segments.length > 3 ? 2 : 0;
  const routed = skip === 0 ? url.pathname : `/${segments.slice(skip + 1).join('/')}`;
  for (const template of secretPaths) {
    if (!template.match(routed)) continue;
    template.segments.forEach((t, i) => {
      if (secretParam(t)) segments[i + skip] = REDACTED;
    });
  }
  return redactParams(`${segments.join('/')}${url.search}`, REDACTED, 'url');
}

/**
 * A platform that is not from `createPlatform`: through its Fetch `handle`. A request this server
 * refuses (a `Host` it does not serve, a body over the limit) is answered here, with the
 * platform's JSON error, and never reaches the platform: its body was not read whole.
 */
function viaFetch(platform: Platform): RequestHandler {
  return async (r: CoreRequest): Promise<CoreResponse> => {
    if (r.refusal) return refusalResponse(r.refusal, r.url.pathname);
    const response = await platform.handle(new Request(r.url, { method: r.method, headers: r.headers }), {
      ip: r.ip,
      body: r.body ?? undefined,
    });
    if (response.type === 'error') return { status: 0, headers: {}, body: null, drop: true };
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return {
      status: response.status,
      headers,
      body: response.body === null ? null : await response.text(),
      drop: false,
    };
  };
}

/**
 * After answering a request whose body was not read whole: go on reading and discarding what the
 * client still sends (so that it reads the answer rather than a reset connection), then close, at
 * the latest after {@link LINGER_MS}.
 */
function lingerAndClose(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  res.once('finish', () => {
    const socket = req.socket;
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/**
 * After an answer is ended: when its connection did not take it whole at once (a large answer, or
 * a client that does not read what it is sent, with requests behind it), it must be read within
 * `ms` (the request timeout), else its connection is closed. An answer not read holds its memory,
 * and the connection with the requests sent behind it, for as long as the connection is open.
 * Nothing is done for an answer taken whole: the common case costs no timer.
 */
function readWithin(res: ServerResponse, ms: number): void {
  if (res.writableFinished || res.destroyed) return;
  const socket = res.req.socket;
  // A timer holds at most 2^31 - 1 ms (Node takes more as 1 ms): a longer request timeout is none here.
  const timer = setTimeout(() => socket.destroy(), Math.min(ms, MAX_SAFE_TIMEOUT));
  timer.unref();
  res.once('close', () => clearTimeout(timer));
}

/** Whether a namespace's state changed since it was made: its document, or a wrong-password count or shop session beside it. */
function changedSinceMade(namespace: Namespace): boolean {
  const { state } = namespace;
  if (!state) return false;
  return (
    state.loginFailures.size > 0 ||
    state.shopSessions.size > 0 ||
    namespace.made === undefined ||
    JSON.stringify(state.document) !== namespace.made
  );
}

/**
 * Whether a request was sent by a web page of another site: its `Origin` is `null` or names a host
 * this server does not answer ({@link foreignOrigin}); without an `Origin` (a browser sends none on
 * a navigation, an `<img>` or a `no-cors` GET), its `Sec-Fetch-Site` says `cross-site`.
 */
function fromOtherSite(ctx: ServeContext, headers: Readonly<Record<string, string>>): boolean {
  const { origin } = headers;
  return origin === undefined ? headers['sec-fetch-site'] === 'cross-site' : foreignOrigin(ctx, origin);
}

/**
 * Why a request may not open a namespace made for it, even when it is accepted; undefined when it
 * may. `other site`: a page of another site sent it. `no token`: the server has an admin token,
 * which the request does not bear, and the namespace does not come back from its state file (then
 * it was opened before).
 */
function whyNotOpen(
  ctx: ServeContext,
  namespace: Namespace,
  headers: Readonly<Record<string, string>>,
): 'other site' | 'no token' | undefined {
  if (fromOtherSite(ctx, headers)) return 'other site';
  const token = ctx.adminSettings.adminToken;
  if (token === undefined || namespace.fromFile || bearsAdminToken(token, headers)) return undefined;
  return 'no token';
}

/**
 * The server's own refusal of a request to a namespace: a bad name, the cap, one not open. To the
 * namespace's `/__admin`, without CORS headers, as every admin answer (preflights included).
 */
function namespaceRefusal(error: HttpError, path: string): CoreResponse {
  const answer = refusalResponse(error, path);
  return path.split('/', 4)[3] === '__admin' ? withoutCors(answer) : answer;
}

/** The refusal of a request that would make namespace `name` on a server with an admin token, without the token. */
function notOpen(name: string): HttpError {
  return new HttpError(
    403,
    'namespace_not_open',
    `Namespace ${name} is not open: on a server with an admin token, a namespace is opened by a request bearing it (POST /_ns/${name}/__admin/reset with Authorization: Bearer <admin token>)`,
    'namespace',
  );
}

/**
 * The answer to a request to `/_ns/{name}/...`: served by its namespace, or the refusal of a bad
 * name, of a new namespace past the limit, of one whose state file cannot be read. A request the
 * server refuses already (a `Host` it does not serve, a body over the limit) is answered by the
 * namespace when it is held, else as it is. A namespace made for a request is kept only when the
 * request is accepted (answered with a status below 400, or its state changed) and may open it
 * ({@link whyNotOpen}); otherwise it goes once the request is answered, and no state file is
 * written. A page of another site gets its answer; a request without the admin token a server
 * requires gets `403 namespace_not_open` in place of an answer that would have been accepted.
 */
async function inNamespace(
  ctx: ServeContext,
  namespaces: Namespaces<Namespace>,
  request: CoreRequest,
): Promise<CoreResponse> {
  const path = request.url.pathname;
  let name: string;
  let lease: Lease<Namespace>;
  try {
    name = namespaceOf(path) ?? '';
    if (request.refusal) {
      const held = namespaces.get(name);
      return held ? await held.handle(request) : namespaceRefusal(request.refusal, path);
    }
    lease = namespaces.begin(name);
  } catch (error) {
    if (error instanceof HttpError) return namespaceRefusal(error, path);
    throw error;
  }
  const { namespace } = lease;
  const notOpening = lease.pending ? whyNotOpen(ctx, namespace, request.headers) : undefined;
  let keep = false;
  try {
    const answer = await namespace.handle(request);
    if (!lease.pending) keep = true;
    else {
      const accepted = answer.status < 400 || changedSinceMade(namespace);
      keep = accepted && notOpening === undefined;
      // Accepted without the admin token a new namespace needs: refused, and what it changed goes with the namespace.
      if (accepted && notOpening === 'no token') return namespaceRefusal(notOpen(name), path);
    }
    if (keep) {
      namespace.made = undefined;
      namespace.changed?.();
    }
    return answer;
  } finally {
    // The request is over: its namespace is idle from now, unless another one is in flight.
    lease.end(keep);
  }
}

/** Where the namespaces' admin routes are, at the server's root. */
const NAMESPACES_ADMIN = '/__admin/namespaces';

/**
 * What a root path names among the namespaces' admin routes: null for the list
 * (`/__admin/namespaces`), a name as given for one namespace (`/__admin/namespaces/{name}`, checked
 * later); undefined for any other path (the root platform's). A trailing slash names the same.
 */
function namespacesAdminTarget(path: string): string | null | undefined {
  if (!path.startsWith(NAMESPACES_ADMIN)) return undefined;
  const rest = path.slice(NAMESPACES_ADMIN.length);
  if (rest === '' || rest === '/') return null;
  if (!rest.startsWith('/')) return undefined;
  const name = rest.endsWith('/') ? rest.slice(1, -1) : rest.slice(1);
  return name.includes('/') ? undefined : name;
}

/** An answer of the namespaces' admin routes: JSON, without CORS headers, as every `/__admin` answer. */
function adminAnswer(status: number, body?: unknown): CoreResponse {
  return withoutCors(respond(status, body, crypto.randomUUID()));
}

/** How many records a state document holds, in all its collections. */
function recordsOf(state: State | undefined): number {
  let records = 0;
  if (state) for (const value of Object.values(state.document)) if (Array.isArray(value)) records += value.length;
  return records;
}

/** A namespace as `GET /__admin/namespaces` lists it. */
function namespaceJson(entry: NamespaceEntry<Namespace>) {
  return {
    name: entry.name,
    last_used_at: new Date(entry.lastUsedMs).toISOString(),
    in_flight: entry.inFlight,
    records: recordsOf(entry.namespace.state),
  };
}

/** The state file of namespace `name`, beside the server's (`<path>.ns-<name>.json`); none without one. */
function namespaceFile(stateFile: string | undefined, name: string): string | undefined {
  return stateFile === undefined ? undefined : `${stateFile}.ns-${name}.json`;
}

/**
 * The namespaces' admin routes at the server's root, behind the root platform's admin guard (as
 * `/__admin`): `GET /__admin/namespaces` lists the namespaces held (`{ items: [{ name, last_used_at,
 * in_flight, records }] }`); `DELETE /__admin/namespaces/{name}` drops one now, and removes its
 * state file (also one left by a namespace dropped as idle): 204, or `404 not_found` (field
 * `namespace`) when there is neither.
 */
async function namespacesAdmin(
  ctx: ServeContext,
  namespaces: Namespaces<Namespace>,
  request: CoreRequest,
  name: string | null,
): Promise<CoreResponse> {
  const { method } = request;
  const path = request.url.pathname;
  const refusal = request.refusal ?? guardAdmin(ctx.adminSettings, request);
  if (refusal) return refusalResponse(refusal, path);
  const allowed = name === null ? 'GET' : 'DELETE';
  if (method !== allowed)
    return refusalResponse(
      new HttpError(405, 'method_not_allowed', `Method ${method} is not allowed on ${path}`, undefined, {
        allow: allowed,
      }),
      path,
    );
  if (name === null) return adminAnswer(200, { items: namespaces.list().map(namespaceJson) });
  if (!isNamespaceName(name)) return refusalResponse(invalidNamespaceName(), path);
  const file = namespaceFile(ctx.stateFile, name);
  try {
    if (namespaces.has(name)) await namespaces.drop(name);
    // None held: the file an idle one left goes, at once (no request can read it meanwhile).
    else if (file === undefined || !removeStateFile(file))
      return refusalResponse(
        new HttpError(404, 'not_found', `This server holds no namespace ${name}, nor a state file of one`, 'namespace'),
        path,
      );
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    ctx.warn(error.message);
    return refusalResponse(
      new HttpError(
        500,
        'internal_server_error',
        `Namespace ${name} is dropped, but its state file cannot be removed (the server's warnings say why)`,
      ),
      path,
    );
  }
  return adminAnswer(204);
}

/** The answer to a request: the namespaces' admin routes, a namespace's, or the root platform's. */
async function answerOf(ctx: ServeContext, request: CoreRequest): Promise<CoreResponse> {
  const path = request.url.pathname;
  if (ctx.namespaces) {
    if (path.startsWith(NAMESPACE_PREFIX)) return inNamespace(ctx, ctx.namespaces, request);
    const name = namespacesAdminTarget(path);
    if (name !== undefined) return namespacesAdmin(ctx, ctx.namespaces, request, name);
  }
  const answer = await ctx.handle(request);
  ctx.changed?.();
  return answer;
}

async function serve(ctx: ServeContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  for (const name in req.headers) {
    const value = req.headers[name];
    if (value !== undefined) setOwn(headers, name, Array.isArray(value) ? value.join(', ') : value);
  }
  // Origin-form (a path), or absolute-form, whose authority takes the place of `Host`.
  let target = req.url ?? '/';
  let host = req.headers.host;
  const absolute = target.startsWith('/') ? undefined : absoluteForm(target);
  if (absolute) ({ authority: host, path: target } = absolute);
  let refusal =
    hostRefusal(ctx, host, req.rawHeaders, absolute !== undefined) ?? expectationRefusal(req.headers.expect);
  let url: URL;
  try {
    if (!target.startsWith('/')) throw new TypeError('neither origin-form nor absolute-form');
    const proto = ctx.trustProxy ? firstForwarded(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
    const scheme = proto === 'https' || proto === 'http' ? proto : 'http';
    url = new URL(`${scheme}://${refusal ? new URL(ctx.origin).host : (host ?? '')}${target}`);
  } catch {
    res.writeHead(400, [
      'content-type',
      'application/json',
      'content-length',
      String(Buffer.byteLength(MALFORMED_TARGET)),
      'connection',
      'close',
    ]);
    res.end(MALFORMED_TARGET);
    readWithin(res, ctx.readWithinMs);
    req.resume();
    return;
  }
  let body: string | null = null;
  let whole = true;
  if (refusal) whole = req.complete;
  else if (hasBody(req)) {
    const limit = bodyLimitFor(ctx.maxBodyBytes, req.method ?? 'GET', url.pathname);
    const read = await readBody(req, limit);
    if (read === TOO_LARGE) {
      refusal = bodyTooLarge(limit);
      whole = false;
    } else if (read === UNREADABLE) refusal = unreadableBody();
    else body = read;
  }
  const remote = req.socket.remoteAddress;
  const socketIp = remote?.startsWith('::ffff:') ? remote.slice(7) : remote;
  const ip = (ctx.trustProxy ? firstForwarded(req.headers['x-forwarded-for']) : undefined) ?? socketIp;
  const request: CoreRequest = {
    method: (req.method ?? 'GET').toUpperCase(),
    url,
    headers,
    body,
    ip,
    refusal,
  };
  const answered = await answerInShare(ctx, request);
  // A page of another site may send, not read: its origin gets no CORS headers (nor a preflight's).
  const answer = foreignOrigin(ctx, req.headers.origin) ? withoutCors(answered) : answered;
  if (answer.drop) {
    req.socket.destroy();
    return;
  }
  if (!whole) {
    // Say so, or a keep-alive client would send its next request on a connection about to close.
    res.setHeader('connection', 'close');
    lingerAndClose(req, res);
  }
  if (ctx.logged) {
    const id = answer.headers['x-correlation-id'];
    if (id !== undefined) correlationIds.set(res, id);
    if (answer.refusal) refusals.set(res, answer.refusal);
  }
  // Name, value, name, value...: the form writeHead reads fastest.
  const answerHeaders: string[] = [];
  for (const name in answer.headers) answerHeaders.push(name, answer.headers[name]!);
  // The length, or writeHead would choose chunked encoding for a body it already has whole.
  if (answer.body !== null && answer.headers['content-length'] === undefined)
    answerHeaders.push('content-length', String(Buffer.byteLength(answer.body)));
  res.writeHead(answer.status, answerHeaders);
  res.end(answer.body ?? undefined);
  readWithin(res, ctx.readWithinMs);
}

/** Whether listening on `host` reaches beyond this machine. */
function beyondLoopback(host: string): boolean {
  return !isLoopbackHost(host.startsWith('[') || !host.includes(':') ? host : `[${host}]`);
}

/**
 * The warning for a server listening beyond loopback with its admin API open to anyone who can
 * reach the port; undefined when there is nothing to warn about.
 */
export function exposureWarning(host: string, platform: Platform): string | undefined {
  // A platform not made by `createPlatform` is taken to have the defaults: the admin API open.
  const settings = internalsOf(platform)?.settings;
  if (!beyondLoopback(host) || settings?.admin === false || settings?.adminToken !== undefined) return undefined;
  return (
    `listening on ${host}, beyond this machine, with the admin API open: anyone who can reach ` +
    'the port can read the whole state (client secrets, passwords) and change it under /__admin. ' +
    'Start with --admin-token <secret> (or --no-admin).'
  );
}

/** The platform a server serves: the one given, else a new one from the server's options. */
function platformOf(settings: ServerSettings): Platform {
  if (settings.platform) return settings.platform;
  const { seed, maxBodyBytes, admin, adminToken, returnInterstitial } = settings;
  return createPlatform({ seed, maxBodyBytes, admin, adminToken, returnInterstitial });
}

/** Where a server's warnings go: `warn`, else standard error. */
function warnerOf(settings: ServerSettings): (message: string) => void {
  return settings.warn ?? ((m: string) => process.stderr.write(`platform-mock: warning: ${m}\n`));
}

/** The state file of the platform a server serves, read into it when it exists; none without `stateFile`. */
function stateWriterOf(platform: Platform, settings: ServerSettings, warn: (m: string) => void) {
  if (settings.stateFile === undefined) return undefined;
  const writer = new StateWriter(platform, settings.stateFile, { warn });
  writer.load();
  return writer;
}

/**
 * Namespace `name`: a platform made with the options of the one served, under `/_ns/{name}`, and
 * its state file beside the server's (`<path>.ns-<name>.json`), read when it exists.
 */
function makeNamespace(
  internals: PlatformInternals,
  name: string,
  settings: ServerSettings,
  warn: (m: string) => void,
): Namespace {
  const platform = createPlatformWith(internals.routes, {
    ...internals.options,
    basePath: namespacePath(name),
    journalTextLimit: namespaceJournalText(settings.maxNamespaces, internals.settings.journalTextLimit),
  });
  const path = namespaceFile(settings.stateFile, name);
  const writer = path === undefined ? undefined : new StateWriter(platform, path, { warn });
  let fromFile = false;
  try {
    fromFile = writer?.load() ?? false;
  } catch (error) {
    if (!(error instanceof StateFileError)) throw error;
    warn(error.message);
    throw new HttpError(
      500,
      'state_file_invalid',
      `The state file of namespace ${name} cannot be read (the server's warnings say why); it is left as it is`,
      'namespace',
    );
  }
  const own = internalsOf(platform);
  const state = own?.state;
  return {
    platform,
    handle: own?.handle ?? viaFetch(platform),
    changed: writer && (() => writer.changed()),
    writer,
    state,
    fromFile,
    made: state ? JSON.stringify(state.document) : '',
  };
}

/**
 * The text all the namespaces' journals keep together, in characters: 128 Mi (about 128 MB of
 * bodies, URLs and headers), however many namespaces there are. A namespace's journal is what the
 * memory of a flood of large requests to many namespaces grows with: 100 namespaces of 16 Mi each
 * ended in an out-of-memory crash.
 */
export const NAMESPACES_JOURNAL_TEXT = 128 * 1024 * 1024;

/** A namespace's journal text limit: its share of {@link NAMESPACES_JOURNAL_TEXT}, and never more than the root's. */
function namespaceJournalText(maxNamespaces: number, rootLimit: number): number {
  return Math.min(rootLimit, Math.floor(NAMESPACES_JOURNAL_TEXT / Math.max(1, maxNamespaces)));
}

/**
 * The namespaces of a server, unless they are off, the platform served is not from `createPlatform`,
 * or it is under a base path of its own (which may be a namespace's: it is served as it is).
 */
function namespacesOf(platform: Platform, settings: ServerSettings, warn: (m: string) => void) {
  const internals = internalsOf(platform);
  if (!internals || settings.maxNamespaces === 0 || internals.settings.basePath !== '') return undefined;
  return new Namespaces<Namespace>({
    max: settings.maxNamespaces,
    idleMs: settings.namespaceIdleSeconds * 1000,
    create: (name) => makeNamespace(internals, name, settings, warn),
    retire: (_, namespace) => namespace.writer?.flush(),
    // Gone (refused, or dropped as idle once written): its writer writes no more, so a new
    // namespace of the same name is the only one to write its file.
    closed: (_, namespace) => void namespace.writer?.close(),
    // Dropped on request: its writer stops (the write under way, if any, ends first), then its file goes.
    discard: async (_, namespace) => {
      if (!namespace.writer) return;
      await namespace.writer.close();
      removeStateFile(namespace.writer.path);
    },
  });
}

/** What a server knows of the platform it serves, and of its own options, for every request. */
function serveContext(
  platform: Platform,
  settings: ServerSettings,
  writer: StateWriter | undefined,
  warn: (m: string) => void,
): ServeContext {
  const internals = internalsOf(platform);
  return {
    handle: internals?.handle ?? viaFetch(platform),
    changed: writer && (() => writer.changed()),
    namespaces: namespacesOf(platform, settings, warn),
    secretPaths: secretPathsOf(internals?.routes ?? allRoutes),
    maxBodyBytes: settings.maxBodyBytes ?? internals?.settings.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    allowedHosts: settings.allowedHosts ?? [],
    boundAddress: isIpLiteral(settings.host) ? settings.host : '',
    trustProxy: settings.trustProxy,
    origin: '',
    hosts: new Map(),
    logged: settings.onRequest !== undefined,
    adminSettings: internals?.settings ?? { admin: true, adminToken: undefined },
    stateFile: settings.stateFile,
    warn,
    inFlight: new Map(),
    answering: 0,
    share: requestShare(settings.maxConnections),
    readWithinMs: settings.requestTimeoutMs,
  };
}

/**
 * A refusal as the request log prints it: a path in its detail (`No route for GET /...`) as the log
 * shows it, also when the detail names it as a namespace's platform routed it (after
 * `/_ns/{name}`), and the rest redacted as the journal redacts a detail (free text: a secret
 * `name=value`, a value quoted that is shaped like a credential, such as an SSO token's `aud`);
 * the words of the message are left as they are.
 */
function loggedRefusal(refusal: Refusal | undefined, target: string, logged: string): Refusal | undefined {
  if (!refusal) return undefined;
  let raw: string | undefined;
  try {
    raw = new URL(target.startsWith('/') ? `http://platform.invalid${target}` : target).pathname;
  } catch {
    raw = undefined;
  }
  const shown = logged.split('?')[0]!;
  let detail = refusal.detail;
  if (raw !== undefined && raw !== shown) {
    detail = detail.replaceAll(raw, shown);
    // The path after a namespace's two segments, as `namedTarget` reads it and the namespace's platform names it.
    const routed = (path: string) => {
      const segments = path.split('/');
      return path.startsWith(NAMESPACE_PREFIX) && segments.length > 3 ? `/${segments.slice(3).join('/')}` : path;
    };
    const [rawRouted, shownRouted] = [routed(raw), routed(shown)];
    if (rawRouted !== raw && rawRouted !== shownRouted) detail = detail.replaceAll(rawRouted, shownRouted);
  }
  return { ...refusal, detail: redactText(detail, REDACTED) };
}

/**
 * The listener of a server's requests: each served (and logged, when `onRequest` is given), and
 * any failure answered as this request's alone, never the process's.
 */
function requestListener(ctx: ServeContext, onRequest: ServerSettings['onRequest']) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (onRequest) {
      const started = performance.now();
      res.once('finish', () => {
        const path = loggedTarget(req.url ?? '/', ctx.secretPaths);
        onRequest({
          method: req.method ?? 'GET',
          path,
          status: res.statusCode,
          durationMs: performance.now() - started,
          correlationId: correlationIds.get(res),
          refusal: loggedRefusal(refusals.get(res), req.url ?? '/', path),
        });
      });
    }
    serve(ctx, req, res).catch(() => {
      if (res.headersSent || req.socket.destroyed) {
        req.socket.destroy();
        return;
      }
      res.writeHead(500, { 'content-type': 'application/json', connection: 'close' });
      res.end('{"code":"internal_server_error","message":"Internal server error"}');
      readWithin(res, ctx.readWithinMs);
    });
  };
}

/** Why a body sent without framing is refused: Node's `http.request` sends a GET's body so unless told. */
const UNFRAMED_BODY =
  'A body followed a request that declared none: send it with Content-Length or Transfer-Encoding: chunked';

/** Whether a parse error is a JSON body after a request head with no framing (HTTP/1.1 reads it as the next request). */
function unframedBody(error: NodeJS.ErrnoException & { bytesParsed?: number; rawPacket?: Buffer }): boolean {
  if (error.code !== 'HPE_INVALID_METHOD' && error.code !== 'HPE_CLOSED_CONNECTION') return false;
  // The parser stops at the JSON's first byte, or just past it after `Connection: close`.
  const at = error.bytesParsed ?? -1;
  return [at, at - 1].some((i) => error.rawPacket?.[i] === 0x7b || error.rawPacket?.[i] === 0x5b);
}

/**
 * node:http's own refusals (a malformed request, headers over 16 KiB, a timeout): the platform's
 * JSON error too, then the connection is closed.
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'headers_too_large', 'The request headers exceed 16 KiB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time']
        : unframedBody(error)
          ? [400, 'malformed_request', UNFRAMED_BODY]
          : [400, 'malformed_request', 'The request is not valid HTTP/1.1'];
  endWithError(socket, status, code, message, status === 431 ? 'headers' : undefined);
}

/** Writes the platform's JSON error on a connection node:http no longer serves, and closes it. */
function endWithError(socket: Duplex, status: number, code: string, message: string, field?: string): void {
  const body = JSON.stringify({ code, field, message });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * `CONNECT host:port`: this server is not a proxy. node:http hands such a request over with its
 * socket, and would close it without a word: `405 method_not_allowed` as JSON, then close.
 */
function answerConnect(_req: IncomingMessage, socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  endWithError(socket, 405, 'method_not_allowed', 'CONNECT is not served: this server is not a proxy', 'method');
}

/**
 * How many requests a connection may have read and waiting behind the one being answered
 * (pipelined); one more closes it. A client that sends many requests without reading its answers
 * holds at most this many, never an answer each.
 */
export const MAX_PIPELINED = 32;

/** A connection's requests: the answer being served, and the requests read behind it (pipelined), in order. */
interface Lane {
  /** The answer the platform is making or that is being sent; the next waits until it has finished. */
  current: ServerResponse | undefined;
  /** The answers of the requests read behind it, first to serve first; none until a request is. */
  waiting: ServerResponse[] | undefined;
  /** Serves the next waiting request once `current` has finished (made on the first request that waits). */
  next: (() => void) | undefined;
}

/**
 * The open connections of a server, oldest first, with the request each is being answered. Each
 * connection's requests are answered one at a time, in order: the next starts once the answer
 * before it has finished (its last byte taken by the connection), so a client that sends requests
 * and never reads the answers has one answer made at a time, not one per request it sent; beyond
 * {@link MAX_PIPELINED} requests waiting, its connection is closed. At the cap, a new connection
 * takes the place of the oldest one that holds no whole request the platform is still answering
 * (one idle between requests, one that has sent nothing or part of its headers, one still sending
 * its body, one whose answer is only waiting to be read), so sockets that say nothing cannot keep a
 * client out; only when every connection holds a request being answered is the new one closed.
 */
class Connections {
  /** Each connection and its requests, oldest connection first. */
  readonly #open = new Map<Socket, Lane>();

  constructor(
    readonly cap: number,
    readonly serve: (req: IncomingMessage, res: ServerResponse) => void,
  ) {}

  /** A new connection: admitted, in the place of the oldest waiting one when at the cap, or closed. */
  admit(socket: Socket): void {
    if (this.#open.size >= this.cap) {
      const waiting = this.#oldestWaiting();
      if (waiting === undefined) {
        socket.destroy();
        return;
      }
      this.#open.delete(waiting);
      waiting.destroy();
    }
    this.#open.set(socket, { current: undefined, waiting: undefined, next: undefined });
    socket.once('close', () => this.#open.delete(socket));
  }

  /**
   * A request read on a connection: served at once when the answer before it has finished (or it
   * is the first), else queued behind it. Nothing is allocated or listened to for a request that
   * is not pipelined: `writableFinished` tells that the answer before it is all sent.
   */
  received(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket as Socket;
    const lane = this.#open.get(socket);
    if (lane === undefined) {
      // Its connection is gone, or closed as one pipelining too much: the rest of what it sent is not served.
      if (!socket.destroyed) this.serve(req, res);
      return;
    }
    // A request with a body is served as it comes, as before this queue: a body not read while it
    // waits stops the connection's parser, and the server's request timeout would then close the
    // connection, the answer before it included. Its answer is sent in its turn all the same.
    if (hasBody(req)) {
      this.serve(req, res);
      return;
    }
    const { current } = lane;
    if (lane.waiting === undefined || lane.waiting.length === 0) {
      if (current === undefined || current.writableFinished) {
        lane.current = res;
        this.serve(req, res);
        return;
      }
      lane.waiting ??= [];
      lane.next ??= () => this.#next(socket, lane);
      current.once('finish', lane.next);
    } else if (lane.waiting.length >= MAX_PIPELINED) {
      this.#open.delete(socket);
      socket.destroy();
      return;
    }
    lane.waiting.push(res);
  }

  /** The answer before has finished: the next request waiting is served, unless the connection is closing. */
  #next(socket: Socket, lane: Lane): void {
    const waiting = lane.waiting;
    const res = waiting?.shift();
    if (waiting === undefined || res === undefined) return;
    // An answer that closes its connection (`Connection: close`) is its last: what was sent behind it is not served.
    if (socket.destroyed || !socket.writable) {
      waiting.length = 0;
      return;
    }
    lane.current = res;
    this.serve(res.req, res);
    // Not finished yet (that takes a turn of the event loop at least): the next waits for it.
    if (waiting.length > 0 && lane.next) res.once('finish', lane.next);
  }

  #oldestWaiting(): Socket | undefined {
    for (const [socket, { current }] of this.#open) {
      // Busy: a request received whole, whose answer the platform has not ended yet.
      if (current === undefined || !current.req.complete || current.writableEnded) return socket;
    }
    return undefined;
  }
}

/** A node:http server with the connection limits of `settings`, serving through `listener`. */
function httpServer(ctx: ServeContext, settings: ServerSettings, listener: ReturnType<typeof requestListener>) {
  const { requestTimeoutMs } = settings;
  const headersTimeout = settings.headersTimeoutMs ?? Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs);
  const connections = new Connections(settings.maxConnections, listener);
  const served = (req: IncomingMessage, res: ServerResponse): void => connections.received(req, res);
  const server = createServer(
    {
      requestTimeout: requestTimeoutMs,
      headersTimeout,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      // How often the request and header timeouts are checked.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(headersTimeout / 4))),
      // A request without `Host` is refused by `serve` as JSON, in HTTP/1.1 as in HTTP/1.0 (not node's bare 400).
      requireHostHeader: false,
    },
    served,
  );
  server.on('connection', (socket: Socket) => connections.admit(socket));
  server.on('clientError', answerClientError);
  server.on('connect', answerConnect);
  // `Expect: 100-continue`: a declared body over the limit is refused before the client sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = declaredLength(req.headers['content-length']);
    const limit = bodyLimitFor(ctx.maxBodyBytes, req.method ?? 'GET', req.url ?? '/');
    if (declared === undefined || !(declared > limit)) res.writeContinue();
    served(req, res);
  });
  // Any other expectation: refused by `serve` (417), as JSON and journaled.
  server.on('checkExpectation', served);
  return server;
}

/** Listens on `port` and `host`; answers the origin it is reached at. */
async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port: bound } = server.address() as AddressInfo;
  return `http://${address.includes(':') ? `[${address}]` : address}:${bound}`;
}

/**
 * Serves a platform over node:http. Resolves once it listens; rejects with a `StateFileError` when
 * the state file exists but is not a state document.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const settings = validate(ServerOptionsSchema, options);
  const warn = warnerOf(settings);
  const platform = platformOf(settings);
  const writer = stateWriterOf(platform, settings, warn);
  const ctx = serveContext(platform, settings, writer, warn);
  const server = httpServer(ctx, settings, requestListener(ctx, settings.onRequest));
  try {
    ctx.origin = await listen(server, settings.port, settings.host);
  } catch (error) {
    ctx.namespaces?.close();
    throw error;
  }
  const warning = exposureWarning(settings.host, platform);
  if (warning) warn(warning);
  return {
    url: ctx.origin,
    platform,
    namespace: (name) => ctx.namespaces?.get(name)?.platform,
    async close() {
      let closing: unknown;
      try {
        await new Promise<void>((resolve, reject) => {
          server.close((err) => (err ? reject(err) : resolve()));
          server.closeAllConnections();
        });
      } catch (error) {
        closing = error;
      }
      // Last, once no request can change a state any more.
      const namespaces = ctx.namespaces?.close() ?? [];
      const writers = [writer, ...namespaces.map((n) => n.writer)].filter((w) => w !== undefined);
      await Promise.all(writers.map((w) => w.flush()));
      if (closing !== undefined) throw closing;
      // A stop that leaves a file without the last state says so (the CLI exits 1).
      const failed = writers.filter((w) => w.failure !== undefined).map((w) => w.path);
      if (failed.length > 0)
        throw new StateFileError(`the last state was not written to ${failed.join(', ')} (the warnings say why)`);
    },
  };
}
