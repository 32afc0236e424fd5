/**
 * What the standalone server reads from a request's head before the platform sees it: whether it
 * answers the host the request names (`Host`, or an absolute-form target's authority), whether a
 * web page of another site sent it (`Origin`, `Sec-Fetch-Site`), and whether it can meet its `Expect`.
 */
import { HttpError } from '../core/errors.js';
import { type AllowedHosts, hostnameOf, isAllowedHost } from '../core/hosts.js';

/** What a server judges a request's host by: the names it answers, and its verdicts so far. */
export interface HostRules {
  /** The host names beyond loopback it answers (`--allowed-hosts`). */
  readonly allowedHosts: AllowedHosts;
  /** The address it listens on, when an IP literal: answered as a host name too. */
  readonly boundAddress: string;
  /** The verdict on each `Host` header value seen lately: its host name when answered, null when refused. */
  readonly hosts: Map<string, string | null>;
}

/** How many `Host` verdicts a server remembers; past it, it starts over (the header is the client's to choose). */
const HOST_VERDICTS = 64;

/**
 * The host name of a request's `Host` when this server answers it (DNS rebinding: only the names
 * it is meant to be reached by), or null. Remembered per header value: a client sends the same one
 * on every request.
 */
function answeredHost(ctx: HostRules, header: string): string | null {
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
export function hostRefusal(
  ctx: HostRules,
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

/** The refusal of a request target that is neither a path nor an absolute http(s) URL (before routing: not journaled). */
export const MALFORMED_TARGET = JSON.stringify({
  code: 'malformed_request',
  field: 'url',
  message:
    'The request target must be a path (/openapi.json) or an absolute http(s) URL naming a host (http://127.0.0.1:4010/openapi.json): * and authority-form are not served',
});

/**
 * An absolute-form request target (RFC 9112, 3.2.2: `http://host[:port]/path?query`, as a client
 * talking to a proxy sends it; or `https://`, the scheme a proxy in front of the server was asked
 * for), which a server must accept: its authority, which takes the place of
 * `Host` (and is checked as a `Host` would be), and the rest as a path. Undefined for a target of
 * any other form, for one with no host, and for one with credentials (`http://user@host/`).
 */
export function absoluteForm(target: string): { authority: string; path: string } | undefined {
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
export function foreignOrigin(ctx: HostRules, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return true;
  }
  return host === '' || answeredHost(ctx, host) === null;
}

/**
 * Whether a request was sent by a web page of another site: its `Origin` is `null` or names a host
 * this server does not answer ({@link foreignOrigin}); without an `Origin` (a browser sends none on
 * a navigation, an `<img>` or a `no-cors` GET), its `Sec-Fetch-Site` says `cross-site`.
 */
export function fromOtherSite(ctx: HostRules, headers: Readonly<Record<string, string>>): boolean {
  const { origin } = headers;
  return origin === undefined ? headers['sec-fetch-site'] === 'cross-site' : foreignOrigin(ctx, origin);
}

/** Why a request's `Expect` is refused: any expectation but `100-continue` (which is met) is one this server cannot meet. */
export function expectationRefusal(header: string | undefined): HttpError | undefined {
  if (header === undefined || header.toLowerCase() === '100-continue') return undefined;
  return new HttpError(
    417,
    'expectation_failed',
    'The Expect header names an expectation this server cannot meet: only 100-continue is',
    'expect',
  );
}
