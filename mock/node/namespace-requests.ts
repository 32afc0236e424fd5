/**
 * Requests to a server's namespaces: those to `/_ns/{name}/...`, each served by its namespace's
 * platform (made for the request, and kept only when the request may open it), and the namespaces'
 * admin routes at the root (`/__admin/namespaces`).
 */
import { refusalResponse, respond, withoutCors } from '../core/answers.js';
import { HttpError } from '../core/errors.js';
import type { CoreRequest, CoreResponse, RequestHandler } from '../core/messages.js';
import { type AdminSettings, bearsAdminToken, guardAdmin } from '../core/security.js';
import type { State } from '../core/state.js';
import type { Platform } from '../core/types.js';
import {
  invalidNamespaceName,
  isNamespaceName,
  type Lease,
  type NamespaceEntry,
  type Namespaces,
  namespaceOf,
} from './namespaces.js';
import { fromOtherSite, type HostRules } from './request-head.js';
import { removeStateFile, StateFileError, type StateWriter } from './state-file.js';

/** What a server knows that its namespaces' requests need. */
export interface NamespaceContext extends HostRules {
  /** The admin settings of the platform at the root, which guard the namespaces' admin routes. */
  readonly adminSettings: AdminSettings;
  /** The root platform's state file, beside which each namespace keeps its own. */
  readonly stateFile: string | undefined;
  readonly warn: (message: string) => void;
}

/** What serves a request: a platform's core, and what is told once it has answered (its state file's writer). */
export interface Target {
  readonly handle: RequestHandler;
  readonly changed: (() => void) | undefined;
}

/** A namespace of the server: a platform of its own, under `/_ns/{name}`, and its state file's writer. */
export interface Namespace extends Target {
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
 * Why a request may not open a namespace made for it, even when it is accepted; undefined when it
 * may. `other site`: a page of another site sent it. `no token`: the server has an admin token,
 * which the request does not bear, and the namespace does not come back from its state file (then
 * it was opened before).
 */
function whyNotOpen(
  ctx: NamespaceContext,
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
export async function inNamespace(
  ctx: NamespaceContext,
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
export function namespacesAdminTarget(path: string): string | null | undefined {
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
export function namespaceFile(stateFile: string | undefined, name: string): string | undefined {
  return stateFile === undefined ? undefined : `${stateFile}.ns-${name}.json`;
}

/**
 * The namespaces' admin routes at the server's root, behind the root platform's admin guard (as
 * `/__admin`): `GET /__admin/namespaces` lists the namespaces held (`{ items: [{ name, last_used_at,
 * in_flight, records }] }`); `DELETE /__admin/namespaces/{name}` drops one now, and removes its
 * state file (also one left by a namespace dropped as idle): 204, or `404 not_found` (field
 * `namespace`) when there is neither.
 */
export async function namespacesAdmin(
  ctx: NamespaceContext,
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
