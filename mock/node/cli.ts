/**
 * `platform-mock`: the reference platform as a standalone server.
 *
 *   platform-mock [--port 4010] [--host 127.0.0.1] [--seed demo|empty|<file.json>] [options]
 *
 * Its flags are read by `command-line.ts` from the options' declarations; this file runs them.
 */
import { readFileSync } from 'node:fs';
import type { StateDocumentInput } from '../core/document.js';
import { HttpError } from '../core/errors.js';
import { internalsOf } from '../core/internals.js';
import { flagOf, PlatformOptionsSchema } from '../core/options.js';
import type { Platform, PlatformOptions } from '../core/types.js';
import { createPlatform } from '../platform.js';
import { demoCredentials, demoShop, demoSite, demoUsers } from '../seeds/index.js';
import { type CommandLine, helpText, parseCommandLine, UsageError } from './command-line.js';
import { type RequestLogLine, type RunningServer, startServer } from './server.js';

/** What a command line to serve holds. */
type Serve = Extract<CommandLine, { action: 'serve' }>;

/** A usage error: the message, the usage, exit code 2. */
function fail(message: string): never {
  process.stderr.write(`platform-mock: ${message}\n\n${helpText()}`);
  process.exit(2);
}

/** A failure that is not about the command line: one line, exit code 1. */
function die(message: string): never {
  process.stderr.write(`platform-mock: ${message}\n`);
  process.exit(1);
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

/** The line printed per request; a refused one says which check failed. */
function logLine(l: RequestLogLine): string {
  const why = l.refusal ? ` refused: ${l.refusal.check}: ${l.refusal.detail}` : '';
  return `${l.method} ${l.path} ${l.status} ${l.durationMs.toFixed(1)}ms${l.correlationId ? ` ${l.correlationId}` : ''}${why}\n`;
}

/** The seed `--seed` names: `demo`, `empty`, or the state document in a file. */
function seedOf(seed: PlatformOptions['seed']): PlatformOptions['seed'] {
  if (typeof seed !== 'string' || seed === 'demo' || seed === 'empty') return seed;
  try {
    return JSON.parse(readFileSync(seed, 'utf8')) as StateDocumentInput;
  } catch (err) {
    fail(`cannot read seed ${seed}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The platform of the command line; its options are checked already, so a refusal is the seed's. */
function platformOf(command: Serve): Platform {
  try {
    return createPlatform({
      ...command.platform,
      seed: seedOf(command.platform.seed),
      onError: (error) => process.stderr.write(unexpected(error)),
    });
  } catch (err) {
    if (err instanceof HttpError) fail(`invalid seed: ${err.field ?? ''}: ${err.message}`);
    throw err;
  }
}

/** The server, listening; a port in use or an interface that cannot be listened on is one line, exit code 1. */
async function serve(command: Serve, platform: Platform, logging: boolean): Promise<RunningServer> {
  try {
    return await startServer({
      ...command.server,
      platform,
      onRequest: logging ? (line) => process.stdout.write(logLine(line)) : undefined,
    });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException | undefined)?.code;
    const port = command.server.port ?? 4010;
    if (code === 'EADDRINUSE')
      die(`port ${port} is in use: choose another with --port <n> (--port 0 picks a free one)`);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
      die(`cannot listen on ${command.server.host}: choose another interface with --host`);
    die(err instanceof Error ? err.message : String(err));
  }
}

/** Stops the server on SIGINT and SIGTERM, exit code 0 (1 when closing fails). */
function stopOnSignals(server: RunningServer): void {
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

/** The lines the options declare for the start-up (`environment:`, `sso audience:`...), with their values. */
function optionLines(platform: Platform): string[] {
  const settings = internalsOf(platform)?.settings;
  return Object.entries(PlatformOptionsSchema.shape).flatMap(([key, schema]) => {
    const startup = flagOf(schema)?.startup;
    const shown = startup?.show(settings && Reflect.get(settings, key), platform);
    return startup && shown !== undefined ? [`${`${startup.label}:`.padEnd(20)}${shown}`] : [];
  });
}

/** Each organisation's id (the `iss` of SSO request tokens) with its clients: one line per organisation. */
function organisationLines(platform: Platform): string[] {
  const { organisations, clients } = platform.snapshot();
  return organisations.map((o) => {
    const ids = clients.filter((c) => c.organisation_id === o.id).map((c) => c.client_id);
    return `  ${o.id} (${o.name}): ${ids.join(', ')}`;
  });
}

/** What the CLI prints once it listens: where, the options that matter, and the demo's credentials. */
function startupLines(command: Serve, server: RunningServer, logging: boolean): string[] {
  const seed = command.platform.seed ?? 'demo';
  return [
    `platform-mock listening on ${server.url}`,
    ...optionLines(server.platform),
    ...(seed === 'demo'
      ? [
          `demo client_id:     ${demoCredentials.clientId}`,
          `demo client_secret: ${demoCredentials.clientSecret}`,
          `demo site:          ${demoSite.clientId} / ${demoSite.clientSecret}`,
          `demo shop:          ${server.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`,
          'demo organisations (the iss of SSO request tokens) and their client_ids:',
          ...organisationLines(server.platform),
          'demo users (e-mail / password; what each can do: README, "Demo data"):',
          ...Object.values(demoUsers).map((u) => `  ${u.email} / ${u.password}`),
        ]
      : [`seed:               ${typeof seed === 'string' ? seed : 'a state document'}`]),
    logging ? 'Ctrl-C stops it (--quiet: no line per request).' : 'Ctrl-C stops it (--log: a line per request).',
  ];
}

async function main(): Promise<void> {
  let command: CommandLine;
  try {
    command = parseCommandLine(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) fail(err.message);
    throw err;
  }
  if (command.action !== 'serve') {
    process.stdout.write(command.action === 'help' ? helpText() : `${version()}\n`);
    return;
  }
  const logging =
    command.requestLines === 'always' || (command.requestLines === 'terminal' && process.stdout.isTTY === true);
  const server = await serve(command, platformOf(command), logging);
  // Before the first line: whoever reads it may signal at once.
  stopOnSignals(server);
  process.stdout.write(`${startupLines(command, server, logging).join('\n')}\n`);
}

await main();
