/**
 * The standalone server's options, declared once as the platform's are (`mock/core/options.ts`):
 * type and TSDoc, default, check, and the `platform-mock` flag of each. The options a new platform
 * takes (`seed`, `maxBodyBytes`, `admin`...) are the platform's own schemas, without their
 * defaults: left out, the platform's apply.
 */
import * as z from 'zod';
import { HostUrl } from '../../src/options.js';
import { type AllowedHosts, hostnameOf } from '../core/hosts.js';
import { Digits, flagged, PlatformOptionsSchema } from '../core/options.js';
import type { Refusal } from '../core/refusal.js';
import type { Platform } from '../core/types.js';
import { integerIn } from '../core/validate.js';

const positive = integerIn(1, Number.MAX_SAFE_INTEGER, 'a positive integer');
const platform = PlatformOptionsSchema.shape;

/** One answered request, as `startServer`'s `onRequest` sees it. */
export interface RequestLogLine {
  readonly method: string;
  /** The path and query, secret parameters (in the query, and a secret path parameter such as a `sid`) redacted. */
  readonly path: string;
  readonly status: number;
  /** From the first byte read to the last byte written, in ms. */
  readonly durationMs: number;
  /** The answer's `x-correlation-id`, when it has one. */
  readonly correlationId: string | undefined;
  /** Why the platform refused it, when it did: which check failed (as the journal's entry says). */
  readonly refusal?: Refusal;
}

/**
 * Whether an entry of `allowedHosts` can match a request's host: a host name (letters, digits,
 * `-` and `_` in dot-separated labels), after a leading `.` for a domain; an IPv4 address; or an
 * IPv6 one in brackets. A scheme, a port, a path or a `*` never matches the host a request names.
 */
function isHostRule(entry: string): boolean {
  const host = entry.startsWith('.') ? entry.slice(1) : entry;
  if (host.startsWith('[') && host.endsWith(']'))
    return !entry.startsWith('.') && hostnameOf(host) === host.toLowerCase();
  const labels = host.split('.');
  return labels.every((label) => label.length > 0 && label.length <= 63 && /^[\w-]+$/.test(label));
}

/** Why a host list cannot be used: the entries that can match no request's host; undefined when each can. */
function hostRulesRefusal(entries: readonly string[]): string | undefined {
  const wrong = entries.filter((entry) => !isHostRule(entry));
  if (wrong.length === 0) return undefined;
  return `${wrong.map((w) => JSON.stringify(w)).join(', ')} can match no request's host: list host names (a.test), domains (.dev.example) or IP addresses, without a scheme, a port or *`;
}

/** `allowedHosts`: `all`, or host names, each one a request's host can match ({@link isHostRule}). */
const AllowedHostsSchema = z.union([z.literal('all'), z.array(z.string()).readonly()]).check((ctx) => {
  const refusal = ctx.value === 'all' ? undefined : hostRulesRefusal(ctx.value);
  if (refusal !== undefined) ctx.issues.push({ code: 'custom', input: ctx.value, message: refusal });
});

/** `--allowed-hosts`: `all`, or host names separated by commas. */
const HostList = z.string().transform((text, ctx): AllowedHosts => {
  if (text === 'all') return 'all';
  const entries = text
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h.length > 0);
  const refusal = hostRulesRefusal(entries);
  if (refusal === undefined) return entries;
  ctx.issues.push({ code: 'custom', input: text, message: refusal });
  return z.NEVER;
});

/** The default time to receive a request's headers, in ms (at most the request's own). */
export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;

const serverShape = {
  /**
   * The platform to serve; a new one from `seed` when absent. For any other platform option (the
   * clock, lifetimes, `environment`, `syncProcessingMs`...), pass `createPlatform({ ... })` here
   * (from this entry point, or from `/mock`).
   */
  platform: z.custom<Platform>().optional(),
  /** The port; 0 picks a free one. Default 4010. */
  port: flagged(integerIn(0, 65535).default(4010), {
    flag: '--port',
    value: '<n>',
    help: 'port to listen on; 0 picks a free port',
    section: 'server',
    read: Digits,
  }),
  /** The interface to listen on. Default `127.0.0.1`. */
  host: flagged(
    z.string().min(1, { error: 'Parameter must be a host name or an address, e.g. 127.0.0.1' }).default('127.0.0.1'),
    {
      flag: '--host',
      value: '<host>',
      help: 'interface to listen on',
      section: 'server',
    },
  ),
  /** The seed of the new platform (ignored when `platform` is given), and of every namespace. Default `demo`. */
  seed: platform.seed.unwrap().optional(),
  /**
   * Keep the state in this file: read at start when it exists (else the seed), written back at most
   * about half a second after a change and when the server stops, each time replaced atomically.
   * Each namespace keeps its own beside it, `<path>.ns-<name>.json`. None by default.
   */
  stateFile: flagged(z.string().min(1, { error: 'Parameter must be a path' }).optional(), {
    flag: '--state-file',
    value: '<path>',
    help: 'load the state from it (when it exists) and write it back after changes\nand on a clean stop; a namespace to <path>.ns-<name>.json',
    section: 'server',
  }),
  /**
   * How many namespaces (`/_ns/{name}/...`, each a platform of its own made from the seed on its
   * first request) the server holds at once; a new one beyond is `503 namespace_limit_reached`. 0:
   * no namespaces. Default 32. Namespaces need a platform made by `createPlatform`, at the root (no `basePath`).
   */
  maxNamespaces: flagged(integerIn(0, 10_000).default(32), {
    flag: '--max-namespaces',
    value: '<n>',
    help: 'namespaces (/_ns/{name}/...) held at once; 0: none',
    section: 'server',
    read: Digits,
  }),
  /** How long a namespace may go without a request before it is dropped (its state file kept), in seconds. Default 900. */
  namespaceIdleSeconds: flagged(integerIn(1, 7 * 24 * 3600).default(900), {
    flag: '--namespace-idle',
    value: '<s>',
    help: 'seconds without a request before a namespace is dropped',
    section: 'server',
    read: Digits,
  }),
  /**
   * Host names answered besides loopback ones (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`)
   * and the IP address given as `host`: each exact, or `.example.com` for it and every name under
   * it; `all` answers any. A request with another `Host` gets `403 host_not_allowed`: a web page
   * cannot reach the platform by making its own host name resolve to this machine (DNS rebinding).
   */
  allowedHosts: flagged(AllowedHostsSchema.optional(), {
    flag: '--allowed-hosts',
    value: '<list>',
    help: 'host names answered besides loopback ones, comma-separated;\n.example.com for a domain and its subdomains; all for any',
    section: 'security',
    read: HostList,
  }),
  /**
   * Trust `X-Forwarded-Proto` and `X-Forwarded-For` from a reverse proxy in front: the first
   * gives the scheme of the request's URL (so the shop's cookies are `Secure` behind a TLS proxy),
   * the second the client's IP (its first entry). Without it both are ignored. Default false.
   */
  trustProxy: flagged(z.boolean().default(false), {
    flag: '--trust-proxy',
    help: 'trust X-Forwarded-Proto and X-Forwarded-For from a proxy in front',
    section: 'security',
  }),
  /** The body size limit in bytes (413 over it). Default: the platform's (`createPlatform`'s `maxBodyBytes`, 1 MiB). */
  maxBodyBytes: platform.maxBodyBytes.unwrap().optional(),
  /**
   * The bytes the bodies of requests being read or answered may hold together, across connections
   * (each body is also held to its own limit, `maxBodyBytes`). A body that would take them over is
   * `503 busy` (`Retry-After: 1`, field `body`) and its connection closed, unless it is of 64 KiB
   * at most or no other body is held. Default 67108864 (64 MiB).
   */
  maxHeldBodyBytes: flagged(positive.default(64 * 1024 * 1024), {
    flag: '--max-held-body-bytes',
    value: '<n>',
    help: 'bytes of request bodies held at once, across connections (503 beyond)',
    section: 'security',
    read: Digits,
  }),
  /** Serve `/__admin` (new platform only; see `createPlatform`). Default true. */
  admin: platform.admin.unwrap().optional(),
  /** The bearer token `/__admin` requires (new platform only; see `createPlatform`). */
  adminToken: platform.adminToken.unwrap().optional(),
  /** Show a "you are leaving" page for returns to unregistered domains (new platform only). */
  returnInterstitial: platform.returnInterstitial.unwrap().optional(),
  /**
   * Time to receive a whole request, in ms; a slower client gets 408 and is disconnected. Also the
   * time an answer the connection did not take whole at once (a large one, or one to a client that
   * does not read) has to be read, from when it is written; past it, the connection is closed. Default 30000.
   */
  requestTimeoutMs: flagged(positive.default(30_000), {
    flag: '--request-timeout',
    value: '<ms>',
    help: 'time to receive a whole request, and to read an answer once written',
    section: 'security',
    read: Digits,
  }),
  /** Time to receive a request's headers, in ms; at most `requestTimeoutMs`. Default 10000 (or `requestTimeoutMs`, when less). */
  headersTimeoutMs: flagged(positive.optional(), {
    flag: '--headers-timeout',
    value: '<ms>',
    help: "time to receive a request's headers",
    section: 'security',
    defaultText: `${DEFAULT_HEADERS_TIMEOUT_MS}, or the request timeout when less`,
    read: Digits,
  }),
  /** How long an idle kept-alive connection stays open, in ms. Default 5000. */
  keepAliveTimeoutMs: flagged(positive.default(5_000), {
    flag: '--keep-alive-timeout',
    value: '<ms>',
    help: 'idle time of a kept-alive connection',
    section: 'security',
    read: Digits,
  }),
  /**
   * Open connections at once. Over it, a new connection takes the place of the oldest one that
   * holds no request being answered (idle, or still sending its request); when every one holds
   * such a request, the new one is closed at once. Default 256.
   */
  maxConnections: flagged(positive.default(256), {
    flag: '--max-connections',
    value: '<n>',
    help: 'open connections at once',
    section: 'security',
    read: Digits,
  }),
  /** Where warnings go (listening beyond loopback without an admin token). Default: standard error. */
  warn: z.custom<(message: string) => void>().optional(),
  /** Called once per answered request (the CLI prints a line each); secrets in the path and query are redacted. */
  onRequest: z.custom<(line: RequestLogLine) => void>().optional(),
};

/** The schema of `startServer`'s options, one by one. */
const ServerOptionsObject: z.ZodObject<typeof serverShape> = z.object(serverShape);

/** The schema of `startServer`'s options: their checks and defaults, the headers' timeout within the request's. */
export const ServerOptionsSchema = ServerOptionsObject.check((ctx) => {
  const { headersTimeoutMs, requestTimeoutMs } = ctx.value;
  if (headersTimeoutMs !== undefined && headersTimeoutMs > requestTimeoutMs)
    ctx.issues.push({
      code: 'custom',
      input: headersTimeoutMs,
      path: ['headersTimeoutMs'],
      message: 'Parameter must be at most requestTimeoutMs (--request-timeout)',
    });
});

/**
 * Options of `startServer`.
 * @interface
 */
export type StartServerOptions = z.input<typeof ServerOptionsObject>;

/** The options of a server, checked, with their defaults. */
export type ServerSettings = z.output<typeof ServerOptionsObject>;

/**
 * A host's base URL, as `platform-mock capture` and `parity` take a platform's hosts: the SDK's own
 * rule for its `hosts` (absolute http(s), without credentials, a query or a fragment), as they are
 * handed to it. A schema each (a flag is declared on its schema).
 */
const httpUrl = () => HostUrl.clone();

const captureShape = {
  /** The platform's external API, `{base_url}` (endpoints 2, 3, 14, 15 and the titles). */
  api: flagged(httpUrl(), {
    flag: '--api',
    value: '<base_url>',
    help: "the platform's external API",
    section: 'command',
  }),
  /** The platform's authorization API, `{auth_api_url}` (endpoint 23, the client-credentials grant). */
  auth: flagged(httpUrl(), {
    flag: '--auth',
    value: '<auth_api_url>',
    help: "the platform's authorization API",
    section: 'command',
  }),
  /** The id of a client of the organisation whose catalogue is read. */
  clientId: flagged(z.string().min(1, { error: 'Parameter must be a non-empty string' }), {
    flag: '--client-id',
    value: '<id>',
    help: 'a client of the organisation (with /external/product/r; also\n/external/cancellation_reason/r and /external/title/r to read those)',
    section: 'command',
  }),
  /** Its secret; never written to the state document. */
  clientSecret: flagged(z.string().min(1, { error: 'Parameter must be a non-empty string' }), {
    flag: '--client-secret',
    value: '<secret>',
    help: "the client's secret (never written to the file)",
    section: 'command',
    env: 'PLATFORM_CLIENT_SECRET',
  }),
  /** The organisation's id: the records of the document are its. */
  organisation: flagged(
    z.string().regex(/^[a-f\d]{24}$/i, { error: 'Parameter must be an organisation id: 24 hexadecimal characters' }),
    {
      flag: '--organisation',
      value: '<id>',
      help: "the client's organisation",
      section: 'command',
    },
  ),
  /** Where the state document is written (replaced atomically). */
  out: flagged(z.string().min(1, { error: 'Parameter must be a path' }), {
    flag: '--out',
    value: '<file>',
    help: 'where the state document is written',
    section: 'command',
  }),
};

/** The schema of `platform-mock capture`'s options: every one required but the secret's source. */
export const CaptureOptionsSchema: z.ZodObject<typeof captureShape> = z.object(captureShape);

/**
 * Options of `platform-mock capture`.
 * @interface
 */
export type CaptureOptions = z.output<typeof CaptureOptionsSchema>;

/** A directory's path (`--record`, `--snapshots`). */
const directory = () => z.string().min(1, { error: 'Parameter must be a path' });
/** A file's path (`--json`, `--junit`). */
const file = () => z.string().min(1, { error: 'Parameter must be a path' });
/** An id of the platform's form: 24 hex digits. */
const platformId = (what: string) =>
  z.string().regex(/^[a-f\d]{24}$/i, { error: `Parameter must be ${what} id: 24 hexadecimal characters` });

const parityShape = {
  /** The platform's external API, `{base_url}`. */
  api: flagged(httpUrl().optional(), {
    flag: '--api',
    value: '<base_url>',
    help: "the platform's external API",
    section: 'command',
  }),
  /** The platform's authorization API, `{auth_api_url}`. */
  auth: flagged(httpUrl().optional(), {
    flag: '--auth',
    value: '<auth_api_url>',
    help: "the platform's authorization API",
    section: 'command',
  }),
  /** The SSO service, `{sso_url}`: its scenario runs only with it. */
  sso: flagged(httpUrl().optional(), {
    flag: '--sso',
    value: '<sso_url>',
    help: 'the SSO service (its scenario runs only with it)',
    section: 'command',
  }),
  /** The shop, `{shop_url}`: its scenario runs only with it and `marketplace`. */
  shop: flagged(httpUrl().optional(), {
    flag: '--shop',
    value: '<shop_url>',
    help: 'the shop (its scenario runs only with it and --marketplace)',
    section: 'command',
  }),
  /** The shop's marketplace: `{groupId}/{marketplaceId}`. */
  marketplace: flagged(
    z
      .string()
      .regex(/^[\w-]+\/[\w-]+$/, { error: 'Parameter must be {groupId}/{marketplaceId}' })
      .optional(),
    {
      flag: '--marketplace',
      value: '<group/id>',
      help: "the shop's marketplace, {groupId}/{marketplaceId}",
      section: 'command',
    },
  ),
  /** The id of a client of the organisation. */
  clientId: flagged(z.string().min(1, { error: 'Parameter must be a non-empty string' }).optional(), {
    flag: '--client-id',
    value: '<id>',
    help: 'a client of the organisation',
    section: 'command',
  }),
  /** Its secret; never printed, never written. */
  clientSecret: flagged(z.string().min(1, { error: 'Parameter must be a non-empty string' }).optional(), {
    flag: '--client-secret',
    value: '<secret>',
    help: "the client's secret (never printed, never written)",
    section: 'command',
    env: 'PLATFORM_CLIENT_SECRET',
  }),
  /** The client's organisation. */
  organisation: flagged(platformId('an organisation').optional(), {
    flag: '--organisation',
    value: '<id>',
    help: "the client's organisation",
    section: 'command',
  }),
  /** A test account of the organisation: the scenarios with a user run with it, and the writes go to it. */
  account: flagged(platformId('an account').optional(), {
    flag: '--account',
    value: '<id>',
    help: 'a test account: tickets, user tokens and SSO log-in with it,\nand the writes of --allow-writes on it',
    section: 'command',
  }),
  /** Send the writes, each undone at the end of its scenario (needs `account`). */
  allowWrites: flagged(z.boolean().default(false), {
    flag: '--allow-writes',
    help: 'also send writes (a price, a user-product of --account),\neach undone at the end',
    section: 'command',
  }),
  /** The SSO audience constant. */
  ssoAudience: flagged(z.string().min(1, { error: 'Parameter must be a non-empty string' }).default('pw-sso'), {
    flag: '--sso-audience',
    value: '<constant>',
    help: 'the SSO audience constant (aud of request tokens)',
    section: 'command',
  }),
  /** Write the target's answers, normalised, to this directory. */
  record: flagged(directory().optional(), {
    flag: '--record',
    value: '<dir>',
    help: "save the target's answers, normalised, as snapshot files to commit",
    section: 'command',
  }),
  /** Compare the reference platform with the snapshots in this directory, without a target. */
  snapshots: flagged(directory().optional(), {
    flag: '--snapshots',
    value: '<dir>',
    help: 'compare the reference with recorded snapshots (no target needed)',
    section: 'command',
  }),
  /** List every request the run would send, and send none. */
  dryRun: flagged(z.boolean().default(false), {
    flag: '--dry-run',
    help: 'print every request it would send, and send none',
    section: 'command',
  }),
  /** Write the report as JSON to this file. */
  json: flagged(file().optional(), { flag: '--json', value: '<file>', help: 'the report as JSON', section: 'command' }),
  /** Write the report as JUnit XML to this file. */
  junit: flagged(file().optional(), {
    flag: '--junit',
    value: '<file>',
    help: 'the report as JUnit XML (a test case per step)',
    section: 'command',
  }),
  /** Run only these scenarios (their names, comma-separated). */
  only: flagged(z.array(z.string()).optional(), {
    flag: '--only',
    value: '<names>',
    help: 'run only these scenarios, comma-separated',
    section: 'command',
    read: z.string().transform((text) =>
      text
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    ),
  }),
  /** The time for a whole answer of the target, in ms. */
  timeoutMs: flagged(positive.default(30_000), {
    flag: '--timeout',
    value: '<ms>',
    help: 'time for a whole answer of the target',
    section: 'command',
    read: Digits,
  }),
};

/** The schema of `platform-mock parity`'s options. */
export const ParityCommandSchema: z.ZodObject<typeof parityShape> = z.object(parityShape);

/**
 * Options of `platform-mock parity`, checked, with their defaults.
 * @interface
 */
export type ParityCommandOptions = z.output<typeof ParityCommandSchema>;
