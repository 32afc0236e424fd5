/** The standalone adapter: the platform over node:http, for clients in any language. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { MAX_SAFE_TIMEOUT } from '../../src/sleep.js';
import { refusalResponse, withoutCors } from '../core/answers.js';
import { HttpError } from '../core/errors.js';
import { isIpLiteral, isLoopbackHost } from '../core/hosts.js';
import { internalsOf, type PlatformInternals } from '../core/internals.js';
import type { Refusal } from '../core/journal.js';
import { bodyLimitFor, bodyTooLarge, DEFAULT_MAX_BODY_BYTES, declaredLength } from '../core/limits.js';
import { type CoreRequest, type CoreResponse, type RequestHandler, setOwn } from '../core/messages.js';
import type { PathTemplate } from '../core/router.js';
import type { Platform } from '../core/types.js';
import { validate } from '../core/validate.js';
import { createPlatform, createPlatformWith } from '../platform.js';
import { allRoutes } from '../routes/index.js';
import { Connections } from './connections.js';
import { answerClientError, answerConnect } from './http-refusals.js';
import {
  inNamespace,
  type Namespace,
  type NamespaceContext,
  namespaceFile,
  namespacesAdmin,
  namespacesAdminTarget,
  type Target,
} from './namespace-requests.js';
import { NAMESPACE_PREFIX, Namespaces, namespacePath } from './namespaces.js';
import {
  DEFAULT_HEADERS_TIMEOUT_MS,
  ServerOptionsSchema,
  type ServerSettings,
  type StartServerOptions,
} from './options.js';
import {
  bodiesOverBudget,
  HeldBodies,
  hasBody,
  lingerAndClose,
  OVER_BUDGET,
  readBody,
  TOO_LARGE,
  UNREADABLE,
  unreadableBody,
} from './request-body.js';
import { absoluteForm, expectationRefusal, foreignOrigin, hostRefusal, MALFORMED_TARGET } from './request-head.js';
import { loggedRefusal, loggedTarget, secretPathsOf } from './request-log.js';
import { checkStateDirectory, removeStateFile, StateFileError, StateWriter } from './state-file.js';

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

/** What one server knows when it serves a request. */
interface ServeContext extends Target, NamespaceContext {
  /** The path templates (as segments) of its routes with a secret parameter in the path, for the request log. */
  readonly secretPaths: readonly PathTemplate[];
  readonly maxBodyBytes: number;
  /** The bytes its requests' bodies hold together, and their budget. */
  readonly bodies: HeldBodies;
  readonly trustProxy: boolean;
  /** The server's own origin, for a request whose `Host` cannot be used. */
  origin: string;
  /** Whether answered requests are logged (`onRequest`): only then is each answer's correlation id kept. */
  readonly logged: boolean;
  /** Its namespaces; none when they are off or the platform is not from `createPlatform`. */
  readonly namespaces: Namespaces<Namespace> | undefined;
  /** The requests being answered, by where they go: a namespace's path prefix, or '' for the root. */
  readonly inFlight: Map<string, number>;
  /** The requests being answered, in all. */
  answering: number;
  /** The most requests being answered at once, but for the first of a namespace (or the root) with none being answered. */
  readonly share: number;
  /** How long an answer the connection did not take whole at once may wait to be read: the request timeout. */
  readonly readWithinMs: number;
}

/**
 * The most requests being answered at once: three quarters of the connections. A request to a
 * namespace (or the root) with none being answered is answered even past it, so requests that
 * latency faults hold, in one namespace or in several, cannot take every connection: a quarter
 * stays for the first request of the root and of each other namespace (with fewer than four
 * connections, the first requests may take all).
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
 * each namespace, and of the root, is always answered. A request stops counting once answered, or
 * once its connection closes before that (its client gone: a request a latency fault holds for
 * days keeps no one else out).
 */
async function answerInShare(ctx: ServeContext, request: CoreRequest, res: ServerResponse): Promise<CoreResponse> {
  const key = inFlightKey(request.url.pathname);
  const held = ctx.inFlight.get(key) ?? 0;
  if (held > 0 && ctx.answering >= ctx.share && !request.refusal)
    return refusalResponse(
      new HttpError(
        503,
        'busy',
        `${key === '' ? 'The platform' : `Namespace ${key.slice(NAMESPACE_PREFIX.length)}`} has ${held} requests being answered, and the server ${ctx.answering} in all, at least three quarters of --max-connections: past that, a request is answered only when its namespace has none being answered. Try again`,
        key === '' ? undefined : 'namespace',
        { 'retry-after': '1' },
      ),
      request.url.pathname,
    );
  ctx.inFlight.set(key, held + 1);
  ctx.answering += 1;
  let counted = true;
  const release = () => {
    if (!counted) return;
    counted = false;
    ctx.answering -= 1;
    const left = (ctx.inFlight.get(key) ?? 1) - 1;
    if (left > 0) ctx.inFlight.set(key, left);
    else ctx.inFlight.delete(key);
  };
  // Released by the connection's close too (see {@link dispatched}), which then comes first.
  shareReleases.set(res, release);
  try {
    return await answerOf(ctx, request);
  } finally {
    shareReleases.delete(res);
    release();
  }
}

/** What ends each unanswered request's count in the server's share: called on answer, or on close. */
const shareReleases = new WeakMap<ServerResponse, () => void>();

/** The correlation id of each answer, for the request log (headers given to `writeHead` cannot be read back). */
const correlationIds = new WeakMap<ServerResponse, string>();
/** Why each refused answer was refused, for the request log. */
const refusals = new WeakMap<ServerResponse, Refusal>();

/** The first entry of a forwarding header (`a, b` or a repeated header). */
function firstForwarded(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const first = text?.split(',')[0]?.trim();
  return first ? first : undefined;
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

/** Connections node:http refused (`clientError`): no request of theirs still waiting reaches the platform. */
const refusedConnections = new WeakSet<Duplex>();
/** Connections with a request that reached the platform and is not yet answered. */
const answeringOn = new WeakSet<Duplex>();

/** Marks `req`'s connection as answering it, until its answer is done (then closed, if node:http refused it since). */
function dispatched(req: IncomingMessage, res: ServerResponse): void {
  const socket = req.socket;
  answeringOn.add(socket);
  res.once('close', () => {
    answeringOn.delete(socket);
    shareReleases.get(res)?.();
    // Closed whole once the answer is written: the parser refused what the client sent after it.
    if (refusedConnections.has(socket)) socket.end(() => socket.destroy());
  });
}

/**
 * node:http's own refusal on a connection (`clientError`). When a request of the connection already
 * reached the platform, it may have changed the state: its answer is sent, not replaced by a
 * refusal that would say nothing changed, and the connection is closed after it (what follows a
 * request with `Connection: close` is not served, RFC 9112, 9.6). Otherwise the refusal is answered
 * at once and the requests read before it never reach the platform.
 */
function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  refusedConnections.add(socket);
  if (answeringOn.has(socket) && socket.writable && error.code !== 'ECONNRESET') return;
  answerClientError(error, socket);
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
    const read = await readBody(req, res, limit, ctx.bodies);
    if (read === TOO_LARGE || read === OVER_BUDGET) {
      refusal = read === TOO_LARGE ? bodyTooLarge(limit) : bodiesOverBudget(ctx.bodies.budget);
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
  // node:http's parser reads what follows a request in the same packet before this runs on: data
  // after `Connection: close`, or a body sent without framing, is refused on the connection
  // (`answerClientError`), and then this request must change nothing, as its answer is that refusal.
  await Promise.resolve();
  if (refusedConnections.has(req.socket)) return;
  dispatched(req, res);
  const answered = await answerInShare(ctx, request, res);
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
function exposureWarning(host: string, platform: Platform): string | undefined {
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
  checkStateDirectory(settings.stateFile);
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
const NAMESPACES_JOURNAL_TEXT = 128 * 1024 * 1024;

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
    bodies: new HeldBodies(settings.maxHeldBodyBytes),
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
      // A field given on two lines is read as Fetch reads it, its values joined with ", ", as the
      // in-process platform (MSW) receives it: node would keep the first `Content-Type` or
      // `Authorization` alone, and so answer what the other adapter refuses.
      joinDuplicateHeaders: true,
    },
    served,
  );
  server.on('connection', (socket: Socket) => connections.admit(socket));
  server.on('clientError', onClientError);
  server.on('connect', answerConnect);
  // `Expect: 100-continue`: a declared body over the limit, or over what the bodies held together
  // leave, is refused before the client sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const declared = declaredLength(req.headers['content-length']);
    const limit = bodyLimitFor(ctx.maxBodyBytes, req.method ?? 'GET', req.url ?? '/');
    if (declared === undefined || !(declared > limit || !ctx.bodies.admits(0, declared))) res.writeContinue();
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
 * the state file exists but is not a state document, or when its directory is not there or not
 * writable.
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
