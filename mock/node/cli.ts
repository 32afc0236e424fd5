/**
 * `platform-mock`: the reference platform as a standalone server.
 *
 *   platform-mock [--port 4010] [--host 127.0.0.1] [--seed demo|empty|<file.json>] [options]
 *
 * Its flags are read by `command-line.ts` from the options' declarations; this file runs them.
 */
import { readFileSync } from 'node:fs';
import { APIError, PlatformError } from '../../src/errors.js';
import type { StateDocumentInput } from '../core/document.js';
import { HttpError } from '../core/errors.js';
import { internalsOf } from '../core/internals.js';
import type { PlatformOptions } from '../core/options.js';
import { flagOf, PlatformOptionsSchema } from '../core/options.js';
import type { Platform } from '../core/types.js';
import { validate } from '../core/validate.js';
import { createPlatform } from '../platform.js';
import { demoCredentials, demoShop, demoSite, demoUsers } from '../seeds/index.js';
import type { Captured, CaptureProgress } from './capture.js';
import {
  type CommandLine,
  captureHelpText,
  DOCS_URL,
  helpText,
  parityHelpText,
  parseCommandLine,
  UsageError,
} from './command-line.js';
import { jsonSyntaxError } from './json-syntax.js';
import { isGone, launcherChain } from './launcher.js';
import { type CaptureOptions, type ParityCommandOptions, ServerOptionsSchema } from './options.js';
import { type RequestLogLine, type RunningServer, startServer } from './server.js';

/** What a command line to serve holds. */
type Serve = Extract<CommandLine, { action: 'serve' }>;

/**
 * A usage error: one line, the message and where the flags are listed (the help of `capture` or
 * `parity`, when it was the command), exit code 2. Not the whole help, which would push the
 * message off a terminal's screen.
 */
function fail(message: string): never {
  const command = process.argv[2];
  const help =
    command === 'capture' || command === 'parity' ? `platform-mock ${command} --help` : 'platform-mock --help';
  process.stderr.write(`platform-mock: ${printable(message).replace(/\.$/, '')}; see ${help}\n`);
  process.exit(2);
}

/**
 * A text as a terminal should print it: control characters (an escape sequence a hostile host put in
 * its answer or a request in a JSON key, a line break) each shown as `?`, so that one failure or one
 * request stays one line and cannot rewrite the screen.
 */
function printable(text: string): string {
  // And the characters that break a line or turn text around without being controls (U+2028, bidi).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '?');
}

/** A failure that is not about the command line: one line, exit code 1. */
function die(message: string): never {
  process.stderr.write(`platform-mock: ${printable(message)}\n`);
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

/**
 * The line printed per request; a refused one says which check failed. Printable, every part of
 * it: a refusal's detail quotes what the request sent (an unknown JSON key, with a line break and
 * escape sequences in it), which must not add a line to the log or rewrite the screen.
 */
function logLine(l: RequestLogLine): string {
  const why = l.refusal ? ` refused: ${l.refusal.check}: ${l.refusal.detail}` : '';
  return `${printable(`${l.method} ${l.path} ${l.status} ${l.durationMs.toFixed(1)}ms${l.correlationId ? ` ${l.correlationId}` : ''}${why}`)}\n`;
}

/**
 * The seed `--seed` names: `demo`, `empty`, or the state document in a file. A file that is not
 * JSON is said to be so with where and why, not with `JSON.parse`'s message, which quotes the text
 * around the fault (a client secret, a password hash).
 */
function seedOf(seed: PlatformOptions['seed']): PlatformOptions['seed'] {
  if (typeof seed !== 'string' || seed === 'demo' || seed === 'empty') return seed;
  let text: string;
  try {
    text = readFileSync(seed, 'utf8');
  } catch (err) {
    fail(`cannot read seed ${seed}: ${err instanceof Error ? err.message : String(err)}`);
  }
  try {
    return JSON.parse(text) as StateDocumentInput;
  } catch {
    fail(`cannot read seed ${seed}: it is not JSON: ${jsonSyntaxError(text)}`);
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

/** How often a CLI started by npx or `npm run` looks whether npm, and each process between, is still there, in ms. */
const PARENT_CHECK_MS = 500;

/**
 * Stops the server on SIGINT and SIGTERM, and when the npx or `npm run` that started it is gone:
 * exit code 0 (1, with one line saying why, when closing fails: a state file left without the last state).
 */
function stopOnSignals(server: RunningServer): void {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`platform-mock: ${printable(error instanceof Error ? error.message : String(error))}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Started by npx or `npm run`: when npm is stopped, it may end without passing the signal on,
  // and the server would go on alone (with the shell and the loader between them). Once npm, or
  // any process between, is gone, it stops too.
  if (process.env.npm_command !== undefined) {
    const parent = process.ppid;
    const chain = launcherChain();
    setInterval(() => {
      if (process.ppid !== parent || chain.some(isGone)) stop();
    }, PARENT_CHECK_MS).unref();
  }
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

/** The start-up lines of a shared server: where its namespaces are, and its state file. */
function sharedLines(command: Serve, server: RunningServer): string[] {
  const { maxNamespaces, namespaceIdleSeconds, stateFile } = validate(ServerOptionsSchema, command.server);
  return [
    ...(maxNamespaces > 0
      ? [
          `namespaces:         ${server.url}/_ns/{name}/ (up to ${maxNamespaces}, dropped after ${namespaceIdleSeconds} s idle)`,
        ]
      : []),
    ...(stateFile === undefined ? [] : [`state file:         ${stateFile} (namespaces beside it: .ns-{name}.json)`]),
  ];
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
          `demo users (e-mail / password, account id; what each can do: ${DOCS_URL}test-authors.md#demo-data):`,
          ...Object.values(demoUsers).map((u) => `  ${u.email} / ${u.password}, ${u.id}`),
          ...(internalsOf(server.platform)?.settings.admin === false
            ? []
            : [`all of it as JSON (clients, scopes, users, record ids): GET ${server.url}/__admin/demo`]),
        ]
      : [`seed:               ${typeof seed === 'string' ? seed : 'a state document'}`]),
    ...sharedLines(command, server),
    logging ? 'Ctrl-C stops it (--quiet: no line per request).' : 'Ctrl-C stops it (--log: a line per request).',
  ];
}

/** Prints a capture's progress on standard error: a line per step, counting up in place on a terminal. */
function progressPrinter(): (progress: CaptureProgress) => void {
  const terminal = process.stderr.isTTY === true;
  return ({ step, done, total, skipped }) => {
    if (skipped !== undefined) return void process.stderr.write(`capture: ${step}: skipped (${skipped})\n`);
    const finished = total !== undefined && done === total;
    if (!terminal && !finished) return;
    const count = total === undefined ? '...' : `${done}/${total}`;
    process.stderr.write(`${terminal ? '\r' : ''}capture: ${step} ${count}${finished ? '\n' : ''}`);
  };
}

/** A capture's failure in one line: the platform's answer (the SDK redacts secrets), or what went wrong. */
function captureFailure(error: unknown): string {
  if (error instanceof HttpError)
    return `what was read is not a valid state document: ${error.field ?? 'document'}: ${error.message}`;
  if (error instanceof APIError)
    return `the platform answered ${error.status}${error.code ? ` ${error.code}` : ''}: ${error.message}`;
  if (error instanceof PlatformError) return `cannot read the catalogue: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** What the CLI prints once the document is written: what it holds, and the demo secrets, this once. */
function capturedLines(options: CaptureOptions, captured: Captured): string[] {
  const d = captured.document;
  const products = d.products ?? [];
  const count = (n: number, what: string) => `${n} ${what}`;
  return [
    `wrote ${options.out}: ${[
      count(products.filter((p) => p.is_package).length, 'packages'),
      count(products.filter((p) => p.is_campaign).length, 'campaigns'),
      count(products.filter((p) => !p.is_package && !p.is_campaign).length, 'products'),
      count(d.cancellation_reasons?.length ?? 0, 'cancellation reasons'),
      count(d.titles?.length ?? 0, 'titles'),
    ].join(', ')}`,
    'Its demo secrets, shown this once (the file holds them; keep it to yourself):',
    ...captured.clients.map((c) => `  ${c.role}: ${c.clientId} / ${c.clientSecret}`),
    `  users (e-mail / password; the shop: ${captured.marketplacePath}):`,
    ...captured.users.map((u) => `    ${u.email} / ${u.password}`),
    `Serve it: platform-mock --seed ${options.out}`,
  ];
}

/** `platform-mock capture`: reads, writes the file, prints the demo secrets; a failure is one line, exit code 1. */
async function captureCommand(options: CaptureOptions): Promise<void> {
  // Loaded for this command only: serving never loads the SDK's client.
  const { capture } = await import('./capture.js');
  let captured: Captured;
  try {
    captured = await capture(options, { progress: progressPrinter() });
  } catch (error) {
    die(captureFailure(error));
  }
  process.stdout.write(`${capturedLines(options, captured).join('\n')}\n`);
}

/** `platform-mock parity`: runs, prints, exits 0 (no difference), 1 (a difference) or 2 (a host cannot be reached). */
async function parityCommand(options: ParityCommandOptions): Promise<void> {
  // Loaded for this command only: serving never loads the SDK's client.
  const { parityCommand: run } = await import('./parity/command.js');
  const code = await run(options, {
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    terminal: process.stderr.isTTY === true,
  });
  process.exitCode = code;
}

async function main(): Promise<void> {
  let command: CommandLine;
  try {
    command = parseCommandLine(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) fail(err.message);
    throw err;
  }
  if (command.action === 'capture') return captureCommand(command.options);
  if (command.action === 'parity') return parityCommand(command.options);
  if (command.action !== 'serve') {
    const texts = {
      help: helpText,
      'capture-help': captureHelpText,
      'parity-help': parityHelpText,
      version: () => `${version()}\n`,
    };
    process.stdout.write(texts[command.action]());
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
