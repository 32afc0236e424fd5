/**
 * `platform-mock`: the reference platform as a standalone server.
 *
 *   platform-mock [--port 4010] [--host 127.0.0.1] [--seed demo|empty|<file.json>] [security options]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { StateDocumentInput } from '../core/document.js';
import { HttpError } from '../core/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../core/limits.js';
import { platformSettings } from '../core/options.js';
import type { Platform, PlatformOptions } from '../core/types.js';
import { createPlatform } from '../platform.js';
import { demoCredentials, demoShop, demoSite, demoUsers } from '../seeds/index.js';
import { DEFAULT_HEADERS_TIMEOUT_MS, ServerOptionsSchema } from './options.js';
import { type RequestLogLine, type StartServerOptions, startServer } from './server.js';

const SERVER_DEFAULTS = { ...ServerOptionsSchema.parse({}), headersTimeoutMs: DEFAULT_HEADERS_TIMEOUT_MS };

const D = platformSettings({});
/** An ISO 8601 date-time with a zone (`Z` or an offset), so that it means the same instant everywhere. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

const HELP = `platform-mock: the subscription platform's reference implementation, in memory.

Usage: platform-mock [options]

  --port <n>                port to listen on (default 4010; 0 picks a free port)
  --host <host>             interface to listen on (default 127.0.0.1)
  --seed <seed>             demo | empty | path to a state document (JSON) (default demo)
  --quiet                   no line per request (default: a line each when standard output is a terminal)
  --log                     a line per request even when standard output is not a terminal

The platform:
  --environment <env>       stage | production: which paths to serve (default ${D.environment})
  --now <date-time>         where the platform clock starts, e.g. 2030-01-01T00:00:00Z; it flows on (default: the real time)
  --sso-audience <aud>      the SSO audience constant (default: the state document's sso_audience)
  --ticket-lifetime <s>     lifetime of authorization tickets, in seconds (default ${D.ticketLifetimeSeconds})
  --token-lifetime <s>      lifetime of access tokens, in seconds (default ${D.accessTokenLifetimeSeconds})
  --sync-processing-ms <ms> how long a sync of customer subscriptions takes, 0-60000 (default ${D.syncProcessingMs})
  --me-shape <shape>        spec | documented: what GET /external/api/v1/me answers (default ${D.meShape})
  --login-max-failures <n>  SSO: wrong passwords in a row before an account freezes (default ${D.login.maxFailedAttempts})
  --login-freeze-seconds <s> SSO: how long a frozen account stays frozen (default ${D.login.freezeSeconds})
  --max-sessions-per-account <n> SSO: logged-in sessions one account may hold (default ${D.login.maxSessionsPerAccount})
  --journal-limit <n>       requests the journal (/__admin/requests) keeps; the oldest go first (default ${D.journalLimit})

Security (a test fixture: its state holds client secrets and passwords):
  --admin-token <token>     /__admin requires Authorization: Bearer <token>
                            (or set PLATFORM_MOCK_ADMIN_TOKEN)
  --no-admin                no /__admin at all (404)
  --allowed-hosts <list>    host names answered besides loopback ones, comma-separated;
                            .example.com for a domain and its subdomains; all for any
  --trust-proxy             trust X-Forwarded-Proto and X-Forwarded-For from a proxy in front
  --return-interstitial     a "you are leaving" page instead of a redirect to an unregistered domain
  --max-body-bytes <n>      largest request body (default ${DEFAULT_MAX_BODY_BYTES})
  --request-timeout <ms>    time to receive a whole request (default ${SERVER_DEFAULTS.requestTimeoutMs})
  --headers-timeout <ms>    time to receive a request's headers (default ${SERVER_DEFAULTS.headersTimeoutMs})
  --keep-alive-timeout <ms> idle time of a kept-alive connection (default ${SERVER_DEFAULTS.keepAliveTimeoutMs})
  --max-connections <n>     open connections at once (default ${SERVER_DEFAULTS.maxConnections})

  -h, --help                this help
  -v, --version             the package version

Test tools are under /__admin: reset, state, tokens, tickets, sso/sessions, clock, requests, faults.
`;

/** The command-line flag of each option a HttpError may name. */
const FLAGS: Readonly<Record<string, string>> = {
  environment: '--environment',
  now: '--now',
  journalLimit: '--journal-limit',
  ssoAudience: '--sso-audience',
  ticketLifetimeSeconds: '--ticket-lifetime',
  accessTokenLifetimeSeconds: '--token-lifetime',
  syncProcessingMs: '--sync-processing-ms',
  meShape: '--me-shape',
  'login.maxFailedAttempts': '--login-max-failures',
  'login.freezeSeconds': '--login-freeze-seconds',
  'login.maxSessionsPerAccount': '--max-sessions-per-account',
  maxBodyBytes: '--max-body-bytes',
  adminToken: '--admin-token',
  requestTimeoutMs: '--request-timeout',
  headersTimeoutMs: '--headers-timeout',
  keepAliveTimeoutMs: '--keep-alive-timeout',
  maxConnections: '--max-connections',
};

/** A usage error: the message, the usage, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`platform-mock: ${message}\n\n${HELP}`);
  process.exit(2);
}

/** A failure that is not about the command line: one line, exit code 1. */
function die(message: string): never {
  process.stderr.write(`platform-mock: ${message}\n`);
  process.exit(1);
}

/** A whole number option in a range, or undefined when not given; exits with a usage error otherwise. */
function integer(value: string | undefined, name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) fail(`invalid ${name}: ${value}`);
  return n;
}

/** This package's version, from its package.json (one level up when built, two from the source). */
function version(): string {
  for (const up of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'subscription-platform-sdk' && pkg.version) return pkg.version;
    } catch {
      // Not there: try the next.
    }
  }
  return 'unknown';
}

/**
 * The line printed for an unexpected exception (answered `500 internal_server_error`): its class and
 * where it was thrown, not its message, which may quote what the request carried (a secret).
 */
function unexpected(error: unknown): string {
  const name = error instanceof Error ? error.name : typeof error;
  const frame = error instanceof Error ? error.stack?.split('\n').find((l) => /^\s+at /.test(l)) : undefined;
  return `platform-mock: an unexpected ${name} was answered 500 internal_server_error${frame ? ` (${frame.trim()})` : ''}\n`;
}

/** The line printed per request. */
function logLine(l: RequestLogLine): string {
  return `${l.method} ${l.path} ${l.status} ${l.durationMs.toFixed(1)}ms${l.correlationId ? ` ${l.correlationId}` : ''}\n`;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        seed: { type: 'string', default: 'demo' },
        quiet: { type: 'boolean' },
        log: { type: 'boolean' },
        environment: { type: 'string' },
        now: { type: 'string' },
        'journal-limit': { type: 'string' },
        'sso-audience': { type: 'string' },
        'ticket-lifetime': { type: 'string' },
        'token-lifetime': { type: 'string' },
        'sync-processing-ms': { type: 'string' },
        'me-shape': { type: 'string' },
        'login-max-failures': { type: 'string' },
        'login-freeze-seconds': { type: 'string' },
        'max-sessions-per-account': { type: 'string' },
        'admin-token': { type: 'string' },
        'no-admin': { type: 'boolean' },
        'allowed-hosts': { type: 'string' },
        'trust-proxy': { type: 'boolean' },
        'return-interstitial': { type: 'boolean' },
        'max-body-bytes': { type: 'string' },
        'request-timeout': { type: 'string' },
        'headers-timeout': { type: 'string' },
        'keep-alive-timeout': { type: 'string' },
        'max-connections': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
    }));
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
  const text = (name: string) => {
    const v = values[name];
    return typeof v === 'string' ? v : undefined;
  };
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return;
  }
  const port = integer(text('port'), 'port', 0, 65535) ?? 4010;
  if (values.quiet && values.log) fail('--quiet and --log exclude each other');

  let seed: 'demo' | 'empty' | StateDocumentInput;
  const seedOption = text('seed') ?? 'demo';
  if (seedOption === 'demo' || seedOption === 'empty') seed = seedOption;
  else {
    try {
      seed = JSON.parse(readFileSync(seedOption, 'utf8')) as StateDocumentInput;
    } catch (err) {
      fail(`cannot read seed ${seedOption}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const environment = text('environment');
  if (environment !== undefined && environment !== 'stage' && environment !== 'production')
    fail(`invalid --environment: ${environment} (stage or production)`);
  const meShape = text('me-shape');
  if (meShape !== undefined && meShape !== 'spec' && meShape !== 'documented')
    fail(`invalid --me-shape: ${meShape} (spec or documented)`);
  const now = text('now');
  if (now !== undefined && !(DATE_TIME.test(now) && Number.isFinite(Date.parse(now))))
    fail(`invalid --now: ${now} (an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z)`);
  const adminToken = text('admin-token') ?? (process.env.PLATFORM_MOCK_ADMIN_TOKEN || undefined);
  if (adminToken !== undefined && values['no-admin']) fail('--admin-token and --no-admin exclude each other');
  const platformOptions: PlatformOptions = {
    seed,
    environment,
    now,
    journalLimit: integer(text('journal-limit'), '--journal-limit', 0),
    ssoAudience: text('sso-audience'),
    ticketLifetimeSeconds: integer(text('ticket-lifetime'), '--ticket-lifetime', 1),
    accessTokenLifetimeSeconds: integer(text('token-lifetime'), '--token-lifetime', 1),
    syncProcessingMs: integer(text('sync-processing-ms'), '--sync-processing-ms', 0, 60_000),
    meShape,
    login: {
      maxFailedAttempts: integer(text('login-max-failures'), '--login-max-failures', 1, 1000),
      freezeSeconds: integer(text('login-freeze-seconds'), '--login-freeze-seconds', 1),
      maxSessionsPerAccount: integer(text('max-sessions-per-account'), '--max-sessions-per-account', 1, 1000),
    },
    admin: !values['no-admin'],
    adminToken,
    returnInterstitial: values['return-interstitial'] === true,
    maxBodyBytes: integer(text('max-body-bytes'), '--max-body-bytes', 1),
    onError: (error) => process.stderr.write(unexpected(error)),
  };
  let platform: Platform;
  try {
    platform = createPlatform(platformOptions);
  } catch (err) {
    if (err instanceof HttpError && err.field !== undefined && err.field in FLAGS)
      fail(`invalid ${FLAGS[err.field]}: ${err.message}`);
    if (err instanceof HttpError) fail(`invalid seed: ${err.field ?? ''}: ${err.message}`);
    fail(err instanceof Error ? err.message : String(err));
  }

  const hosts = text('allowed-hosts');
  const logging = !values.quiet && (values.log === true || process.stdout.isTTY === true);
  const options: StartServerOptions = {
    platform,
    port,
    host: text('host'),
    allowedHosts:
      hosts === undefined
        ? undefined
        : hosts === 'all'
          ? 'all'
          : hosts
              .split(',')
              .map((h) => h.trim())
              .filter((h) => h.length > 0),
    trustProxy: values['trust-proxy'] === true,
    requestTimeoutMs: integer(text('request-timeout'), '--request-timeout', 1),
    headersTimeoutMs: integer(text('headers-timeout'), '--headers-timeout', 1),
    keepAliveTimeoutMs: integer(text('keep-alive-timeout'), '--keep-alive-timeout', 1),
    maxConnections: integer(text('max-connections'), '--max-connections', 1),
    onRequest: logging ? (line) => process.stdout.write(logLine(line)) : undefined,
  };

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(options);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    if (code === 'EADDRINUSE')
      die(`port ${port} is in use: choose another with --port <n> (--port 0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      die(`cannot listen on ${text('host')}: choose another interface with --host`);
    if (err instanceof HttpError && err.field !== undefined && err.field in FLAGS)
      fail(`invalid ${FLAGS[err.field]}: ${err.message}`);
    die(err instanceof Error ? err.message : String(err));
  }
  // Before the first line: whoever reads it may signal at once.
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  const lines = [
    `platform-mock listening on ${server.url}`,
    `environment:        ${platform.environment}`,
    `sso audience:       ${platformOptions.ssoAudience ?? platform.snapshot().sso_audience}`,
  ];
  if (now !== undefined) lines.push(`clock started at:   ${new Date(now).toISOString()} (--now)`);
  if (seed === 'demo') {
    lines.push(
      `demo client_id:     ${demoCredentials.clientId}`,
      `demo client_secret: ${demoCredentials.clientSecret}`,
      `demo site:          ${demoSite.clientId} / ${demoSite.clientSecret}`,
      `demo shop:          ${server.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`,
      'demo users (e-mail / password; what each can do: README, "Demo data"):',
      ...Object.values(demoUsers).map((u) => `  ${u.email} / ${u.password}`),
    );
  } else lines.push(`seed:               ${seedOption}`);
  lines.push(
    logging ? 'Ctrl-C stops it (--quiet: no line per request).' : 'Ctrl-C stops it (--log: a line per request).',
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
