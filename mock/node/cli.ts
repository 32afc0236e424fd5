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
import { demoCredentials, demoShop, demoSite, demoUsers } from '../seeds/index.js';
import { SERVER_DEFAULTS, type StartServerOptions, startServer } from './server.js';

const HELP = `platform-mock: the subscription platform's reference implementation, in memory.

Usage: platform-mock [options]

  --port <n>                port to listen on (default 4010; 0 picks a free port)
  --host <host>             interface to listen on (default 127.0.0.1)
  --seed <seed>             demo | empty | path to a state document (JSON) (default demo)

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

Test tools are under /__admin: reset, state, tokens, tickets, sso/sessions, clock, requests, faults.
`;

/** The options `startServer` checks (any other HttpError is about the seed). */
const OPTION_FIELDS = new Set([
  'maxBodyBytes',
  'adminToken',
  'requestTimeoutMs',
  'headersTimeoutMs',
  'keepAliveTimeoutMs',
  'maxConnections',
]);

function fail(message: string): never {
  process.stderr.write(`platform-mock: ${message}\n\n${HELP}`);
  process.exit(2);
}

/** A whole number option in a range, or undefined when not given; exits with a usage error otherwise. */
function integer(value: string | undefined, name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < min || n > max) fail(`invalid ${name}: ${value}`);
  return n;
}

async function main(): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string', default: '4010' },
        host: { type: 'string', default: '127.0.0.1' },
        seed: { type: 'string', default: 'demo' },
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
  const port = integer(text('port'), 'port', 0, 65535) ?? 4010;

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

  const adminToken = text('admin-token') ?? (process.env.PLATFORM_MOCK_ADMIN_TOKEN || undefined);
  if (adminToken !== undefined && values['no-admin']) fail('--admin-token and --no-admin exclude each other');
  const hosts = text('allowed-hosts');
  const options: StartServerOptions = {
    port,
    host: text('host'),
    seed,
    admin: !values['no-admin'],
    adminToken,
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
    returnInterstitial: values['return-interstitial'] === true,
    maxBodyBytes: integer(text('max-body-bytes'), 'max-body-bytes', 1),
    requestTimeoutMs: integer(text('request-timeout'), 'request-timeout', 1),
    headersTimeoutMs: integer(text('headers-timeout'), 'headers-timeout', 1),
    keepAliveTimeoutMs: integer(text('keep-alive-timeout'), 'keep-alive-timeout', 1),
    maxConnections: integer(text('max-connections'), 'max-connections', 1),
  };

  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer(options);
  } catch (err) {
    if (err instanceof HttpError && OPTION_FIELDS.has(err.field ?? '')) fail(`invalid ${err.field}: ${err.message}`);
    if (err instanceof HttpError) fail(`invalid seed: ${err.field ?? ''}: ${err.message}`);
    fail(err instanceof Error ? err.message : String(err));
  }
  process.stdout.write(
    `platform-mock listening on ${server.url}\n` +
      `demo client_id:     ${demoCredentials.clientId}\n` +
      `demo client_secret: ${demoCredentials.clientSecret}\n` +
      `demo site:          ${demoSite.clientId} / ${demoSite.clientSecret}\n` +
      `demo user:          ${demoUsers.anna.email} / ${demoUsers.anna.password}\n` +
      `demo shop:          ${server.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}\n`,
  );

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
}

await main();
