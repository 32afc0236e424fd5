/**
 * The `platform-mock` command line, read without side effects: its flags, their help and their
 * checks all come from the declarations of the options they set (the platform's,
 * `mock/core/options.ts`; the server's, `mock/node/options.ts`; and the command's own switches
 * here). {@link parseCommandLine} turns arguments into options or a {@link UsageError}.
 */
import { parseArgs } from 'node:util';
import * as z from 'zod';
import { REDACTED } from '../../src/logger.js';
import { redactText } from '../../src/secrets.js';
import { HttpError } from '../core/errors.js';
import type { PlatformOptions } from '../core/options.js';
import { type CommandLineFlag, flagged, flagOf, type HelpSection, PlatformOptionsSchema } from '../core/options.js';
import { validate } from '../core/validate.js';
import {
  type CaptureOptions,
  CaptureOptionsSchema,
  type ParityCommandOptions,
  ParityCommandSchema,
  ServerOptionsSchema,
  type StartServerOptions,
} from './options.js';

/**
 * Where the help and the start-up lines send a reader for more: the docs in the package's
 * repository (package.json's `repository`), which the published package does not ship.
 */
export const DOCS_URL = 'https://github.com/subscription-platform-sdk/subscription-platform-sdk/blob/main/docs/';

/** The command's own switches: not options of the server or the platform. */
const commandShape = {
  quiet: flagged(z.boolean().default(false), {
    flag: '--quiet',
    help: 'no line per request (default: a line each when standard output is a terminal)',
    section: 'server',
  }),
  log: flagged(z.boolean().default(false), {
    flag: '--log',
    help: 'a line per request even when standard output is not a terminal',
    section: 'server',
  }),
  help: flagged(z.boolean().default(false), { flag: '--help', short: '-h', help: 'this help', section: 'command' }),
  version: flagged(z.boolean().default(false), {
    flag: '--version',
    short: '-v',
    help: 'the package version',
    section: 'command',
  }),
};

/** Flags that may not be given together. */
const EXCLUSIVE: readonly (readonly [string, string])[] = [
  ['--quiet', '--log'],
  ['--admin-token', '--no-admin'],
];

/** Whose option a flag sets: the command's, the server's, the platform's, `capture`'s or `parity`'s. */
type Target = 'command' | 'server' | 'platform' | 'capture' | 'parity';

/** A flag as declared, with the option it sets: whose, and where (`['login', 'maxFailedAttempts']`). */
interface DeclaredFlag extends CommandLineFlag {
  readonly target: Target;
  readonly path: readonly string[];
}

/** Every flag declared in `shape` (and in the objects it nests, such as `login`). */
function flagsIn(
  shape: Readonly<Record<string, z.core.$ZodType>>,
  target: Target,
  path: string[] = [],
): DeclaredFlag[] {
  return Object.entries(shape).flatMap(([key, schema]) => {
    const flag = flagOf(schema);
    if (flag) return [{ ...flag, target, path: [...path, key] }];
    const inner = schema instanceof z.ZodPrefault || schema instanceof z.ZodDefault ? schema.unwrap() : schema;
    return inner instanceof z.ZodObject ? flagsIn(inner.shape, target, [...path, key]) : [];
  });
}

/** Every flag, in the help's order within each section: the server's, the platform's, the command's own. */
const FLAGS: readonly DeclaredFlag[] = [
  ...flagsIn(ServerOptionsSchema.shape, 'server'),
  ...flagsIn(PlatformOptionsSchema.shape, 'platform'),
  ...flagsIn(commandShape, 'command'),
];

/** The flags of `platform-mock capture`: its options, and the help. */
const CAPTURE_FLAGS: readonly DeclaredFlag[] = [
  ...flagsIn(CaptureOptionsSchema.shape, 'capture'),
  ...flagsIn({ help: commandShape.help }, 'command'),
];

/** The flags of `platform-mock parity`: its options, and the help. */
const PARITY_FLAGS: readonly DeclaredFlag[] = [
  ...flagsIn(ParityCommandSchema.shape, 'parity'),
  ...flagsIn({ help: commandShape.help }, 'command'),
];

/** The subcommand that writes a state document from a real platform's catalogue. */
const CAPTURE = 'capture';

/** The subcommand that runs the parity scenarios against a platform, or against recorded snapshots. */
const PARITY = 'parity';

/** What an argument list asks for. */
export type CommandLine =
  | { readonly action: 'help' }
  | { readonly action: 'version' }
  | {
      readonly action: 'serve';
      /** The platform's options (`seed` as given: `demo`, `empty` or a file's path). */
      readonly platform: PlatformOptions;
      /** The server's options. */
      readonly server: StartServerOptions;
      /** A line per request: always (`--log`), never (`--quiet`), or when standard output is a terminal. */
      readonly requestLines: 'always' | 'never' | 'terminal';
    }
  | { readonly action: 'capture-help' }
  | {
      readonly action: 'capture';
      /** Where to read and where to write; the secret from `--client-secret` or its variable. */
      readonly options: CaptureOptions;
    }
  | { readonly action: 'parity-help' }
  | {
      readonly action: 'parity';
      /** The target or the snapshots, and what to write; the secret from `--client-secret` or its variable. */
      readonly options: ParityCommandOptions;
    };

/** A command line that cannot be run: the message says why (the CLI prints it in one line, exit code 2). */
export class UsageError extends Error {
  /** @param message - what is wrong, naming the flag */
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A record with `value` set at `path`, creating the objects on the way. */
function setAt(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    const child: Record<string, unknown> = typeof next === 'object' && next !== null ? { ...next } : {};
    node[key] = child;
    node = child;
  }
  node[path.at(-1) ?? ''] = value;
}

/**
 * A flag's text as a message quotes it: `''` when empty, else as it is but for what may be a
 * secret (a URL's `user:password@`, a secret parameter, anything shaped like a credential).
 */
function shown(text: string): string {
  if (text === '') return "''";
  let out = text;
  const scheme = out.indexOf('://');
  if (scheme >= 0) {
    const hostStart = scheme + 3;
    let hostEnd = hostStart;
    while (hostEnd < out.length && !'/?#'.includes(out.charAt(hostEnd))) hostEnd++;
    const at = out.lastIndexOf('@', hostEnd - 1);
    if (at >= hostStart) out = `${out.slice(0, hostStart)}${REDACTED}${out.slice(at)}`;
  }
  return redactText(out, REDACTED);
}

/** A refusal's reason as the command line words it: `must be an integer from 1 to 1000`. */
function reason(message: string): string {
  return message.startsWith('Parameter ') ? message.slice('Parameter '.length) : message;
}

/** The value a flag's text stands for, as its declaration reads it. */
function flagValue(flag: DeclaredFlag, text: string): unknown {
  if (!flag.read) return text;
  const read = flag.read.safeParse(text);
  if (read.success) return read.data;
  throw new UsageError(
    `invalid ${flag.flag}: ${shown(text)} (${read.error.issues[0]?.message ?? 'not a valid value'})`,
  );
}

/**
 * The arguments with a negative number after a flag that takes a value joined to it (`--port -1`
 * as `--port=-1`): parseArgs would refuse it as "ambiguous", and the flag's own check says what
 * it takes. No flag begins with a dash and a digit, so nothing else is read otherwise.
 */
function withNegativeValues(flags: readonly DeclaredFlag[], argv: readonly string[]): string[] {
  const valued = new Set(flags.filter((f) => f.value).map((f) => f.flag));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (arg === '--') return [...out, ...argv.slice(i)];
    if (valued.has(arg) && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** The flags of `flags` given, by flag, as their text (or true for a switch): from the arguments, else the environment. */
function given(
  flags: readonly DeclaredFlag[],
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Map<DeclaredFlag, string | true> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: withNegativeValues(flags, argv),
      options: Object.fromEntries(
        flags.map((f) => [
          f.flag.slice(2),
          { type: f.value ? 'string' : 'boolean', ...(f.short ? { short: f.short.slice(1) } : {}) } as const,
        ]),
      ),
      strict: true,
    }));
  } catch (error) {
    // parseArgs words some refusals in several lines: one line, as every usage error.
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      message
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' '),
    );
  }
  const out = new Map<DeclaredFlag, string | true>();
  // Help and the version are printed whatever the environment says.
  const informational = values.help === true || values.version === true;
  for (const f of flags) {
    const fromEnv = f.env === undefined ? undefined : env[f.env];
    // Set but empty is a mistake (`VAR="$UNSET"`), not a choice: it would leave, say, /__admin open.
    if (fromEnv === '' && values[f.flag.slice(2)] === undefined && !informational)
      throw new UsageError(`${f.env} is set but empty: give it a value, or unset it`);
    const value = values[f.flag.slice(2)] ?? fromEnv;
    if (typeof value === 'string') out.set(f, value);
    else if (value === true) out.set(f, true);
  }
  return out;
}

/** Checks options with `schema`; a refusal names the flag of the option it names, and the value given. */
function checked(schema: z.ZodType, options: unknown, target: Target, texts: Map<DeclaredFlag, string | true>): void {
  try {
    validate(schema, options);
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const flag = [...FLAGS, ...CAPTURE_FLAGS, ...PARITY_FLAGS].find(
      (f) => f.target === target && f.path.join('.') === error.field,
    );
    const text = flag && texts.get(flag);
    if (!flag) throw new UsageError(`invalid ${error.field ?? 'option'}: ${reason(error.message)}`);
    throw new UsageError(
      `invalid ${flag.flag}: ${typeof text === 'string' ? `${shown(text)} ` : ''}(${reason(error.message)})`,
    );
  }
}

/**
 * Reads `platform-mock`'s arguments (`process.argv.slice(2)`) and environment: help, the version,
 * or the options to serve with, each checked by its declaration. Throws a {@link UsageError} naming
 * the flag at fault.
 */
export function parseCommandLine(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CommandLine {
  if (argv[0] === CAPTURE) return captureLine(argv.slice(1), env);
  if (argv[0] === PARITY) return parityLine(argv.slice(1), env);
  const texts = given(FLAGS, argv, env);
  const options = optionsOf(texts);
  if (options.command.help === true) return { action: 'help' };
  if (options.command.version === true) return { action: 'version' };
  const names = new Set([...texts.keys()].map((f) => f.flag));
  for (const [a, b] of EXCLUSIVE)
    if (names.has(a) && names.has(b)) throw new UsageError(`${a} and ${b} exclude each other`);
  checked(ServerOptionsSchema, options.server, 'server', texts);
  checked(PlatformOptionsSchema, options.platform, 'platform', texts);
  const { quiet, log } = options.command;
  return {
    action: 'serve',
    platform: options.platform,
    server: options.server,
    requestLines: log === true ? 'always' : quiet === true ? 'never' : 'terminal',
  };
}

/** The options the flags given set, by whose they are. */
function optionsOf(texts: Map<DeclaredFlag, string | true>): Record<Target, Record<string, unknown>> {
  const options: Record<Target, Record<string, unknown>> = {
    command: {},
    server: {},
    platform: {},
    capture: {},
    parity: {},
  };
  for (const [flag, text] of texts) {
    const value = text === true ? !flag.negates : flagValue(flag, text);
    setAt(options[flag.target], flag.path, value);
  }
  return options;
}

/** `platform-mock capture [flags]`: its help, or its options, each required (the secret from its flag or variable). */
function captureLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLine {
  const texts = given(CAPTURE_FLAGS, argv, env);
  const options = optionsOf(texts);
  if (options.command.help === true) return { action: 'capture-help' };
  const missing = CAPTURE_FLAGS.find((f) => f.target === 'capture' && !texts.has(f));
  if (missing)
    throw new UsageError(
      `capture needs ${missing.flag} ${missing.value ?? ''}${missing.env ? ` (or ${missing.env} set)` : ''}`.trimEnd(),
    );
  checked(CaptureOptionsSchema, options.capture, 'capture', texts);
  return { action: 'capture', options: validate(CaptureOptionsSchema, options.capture) };
}

/** The flags a run against a platform needs (with `--snapshots`, none of them). */
const TARGET_FLAGS = ['--api', '--auth', '--client-id', '--client-secret', '--organisation'] as const;

/** Flags of `parity` that need another, and why. */
const PARITY_NEEDS: readonly (readonly [string, string, string])[] = [
  ['--allow-writes', '--account', 'the writes go to that one test account'],
  ['--shop', '--marketplace', "the shop's scenario opens that marketplace"],
  ['--marketplace', '--shop', "the marketplace is the shop's"],
];

/**
 * `platform-mock parity [flags]`: its help, or its options. Against a platform, its hosts, a client
 * and the organisation are required; with `--snapshots`, none of them (and not `--record`).
 */
function parityLine(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CommandLine {
  const texts = given(PARITY_FLAGS, argv, env);
  const options = optionsOf(texts);
  if (options.command.help === true) return { action: 'parity-help' };
  const names = new Set([...texts.keys()].map((f) => f.flag));
  if (names.has('--snapshots')) {
    if (names.has('--record')) throw new UsageError('--snapshots and --record exclude each other');
  } else {
    const missing = PARITY_FLAGS.find((f) => (TARGET_FLAGS as readonly string[]).includes(f.flag) && !texts.has(f));
    if (missing)
      throw new UsageError(
        `parity needs ${missing.flag} ${missing.value ?? ''}${missing.env ? ` (or ${missing.env} set)` : ''}, or --snapshots <dir>`,
      );
  }
  for (const [flag, needed, why] of PARITY_NEEDS)
    if (names.has(flag) && !names.has(needed)) throw new UsageError(`${flag} needs ${needed}: ${why}`);
  checked(ParityCommandSchema, options.parity, 'parity', texts);
  return { action: 'parity', options: validate(ParityCommandSchema, options.parity) };
}

const SECTIONS: readonly (readonly [HelpSection, string | undefined])[] = [
  ['server', undefined],
  ['platform', 'The platform:'],
  ['security', 'Security (a test fixture: its state holds client secrets and passwords):'],
  ['command', undefined],
];

/** What the help says of a flag's default: the declaration's words, else its default value (none for a switch). */
function defaultOf(flag: DeclaredFlag, defaults: Record<Target, unknown>): string | undefined {
  if (flag.defaultText !== undefined) return `: ${flag.defaultText}`;
  if (!flag.value) return undefined;
  let value: unknown = defaults[flag.target];
  for (const key of flag.path)
    value = typeof value === 'object' && value !== null ? Reflect.get(value, key) : undefined;
  return value === undefined ? undefined : ` ${String(value)}`;
}

/** A flag's lines in the help: the flag and its value's name, then its words, aligned. */
function helpLines(flag: DeclaredFlag, defaults: Record<Target, unknown>): string[] {
  const left = `${flag.short ? `${flag.short}, ` : ''}${flag.flag}${flag.value ? ` ${flag.value}` : ''}`;
  const fallback = defaultOf(flag, defaults);
  const [first = '', ...more] = flag.help.split('\n');
  const indent = ' '.repeat(28);
  return [
    `  ${left.padEnd(25)} ${first}${more.length === 0 && fallback !== undefined ? ` (default${fallback})` : ''}`,
    ...more.map(
      (line, i) => `${indent}${line}${i === more.length - 1 && fallback !== undefined ? ` (default${fallback})` : ''}`,
    ),
    ...(flag.env ? [`${indent}(or set ${flag.env})`] : []),
  ];
}

/** The help: every flag by section, with its default. */
export function helpText(): string {
  const defaults: Record<Target, unknown> = {
    command: {},
    server: validate(ServerOptionsSchema, {}),
    platform: validate(PlatformOptionsSchema, {}),
    capture: {},
    parity: {},
  };
  const sections = SECTIONS.map(([section, title]) => {
    const lines = FLAGS.filter((f) => f.section === section).flatMap((f) => helpLines(f, defaults));
    return [...(title ? [title] : []), ...lines].join('\n');
  });
  return `platform-mock: the subscription platform's reference implementation, in memory.

Usage: platform-mock [options]

${sections.join('\n\n')}

Test tools are under /__admin: demo (the demo seed's clients, users and ids, as JSON), reset, state,
tokens, tickets, sso/sessions, clock, requests, faults, subscription-systems, namespaces.
A namespace, /_ns/{name}/..., is a platform of its own:
${DOCS_URL}shared-server.md#namespaces

Usage: platform-mock capture --api <base_url> --auth <auth_api_url> --client-id <id>
         --client-secret <secret> --organisation <id> --out <file>
A real platform's catalogue, read with a client's credentials, as a state document for --seed
(platform-mock capture --help: its flags).

Usage: platform-mock parity --api <base_url> --auth <auth_api_url> --client-id <id>
         --client-secret <secret> --organisation <id> [--account <id>] [--sso <sso_url>]
       platform-mock parity --snapshots <dir>
The same scenarios against a platform and the reference platform, each difference reported
(platform-mock parity --help: its flags).
`;
}

/** The help of `platform-mock parity`. */
export function parityHelpText(): string {
  const defaults: Record<Target, unknown> = {
    command: {},
    server: {},
    platform: {},
    capture: {},
    parity: validate(ParityCommandSchema, {}),
  };
  return `platform-mock parity: prove the reference platform against your own stage.

Usage: platform-mock parity --api <base_url> --auth <auth_api_url> --client-id <id>
         --client-secret <secret> --organisation <id> [options]
       platform-mock parity --snapshots <dir> [options]

Sends the same scenarios (every read of the endpoint table, valid and refused, the token grants,
tickets, and SSO with --sso) to the platform and to a reference platform in process seeded from a
capture of its catalogue, and reports each step where the two differ: status, error code and
field, the answer's shape, the headers that carry meaning, and the catalogue's own values; each
difference names the row of the package's assumptions it tests. Without --allow-writes it sends
no request that can change the platform: reads, grants, SSO session operations, and writes
malformed so that no platform can take them for valid ones. Exit code 0: no difference; 1: a
difference; 2: a usage or connection error, or anything else that stops the run before it can
compare (one line on standard error).
The assumptions: ${DOCS_URL}assumptions.md

${PARITY_FLAGS.flatMap((f) => helpLines(f, defaults)).join('\n')}
`;
}

/** The help of `platform-mock capture`. */
export function captureHelpText(): string {
  const defaults: Record<Target, unknown> = { command: {}, server: {}, platform: {}, capture: {}, parity: {} };
  return `platform-mock capture: a real platform's catalogue as a state document.

Usage: platform-mock capture [options]

Reads, through the SDK with the client's credentials: products (inactive ones too) with their price
periods and sharing options, payment periods, cancellation reasons and titles. Writes them with demo
clients and users of that organisation (fresh secrets, printed once), ready for
platform-mock --seed <file>. The client's own secret is never written.

${CAPTURE_FLAGS.flatMap((f) => helpLines(f, defaults)).join('\n')}
`;
}
