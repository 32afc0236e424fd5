/**
 * `platform-mock parity`: the command line's options turned into a run, its progress on standard
 * error, the summary on standard output, the JSON and JUnit files, and the exit code (0: no
 * difference, 1: a difference, 2: anything that stopped the run before it could compare: a usage
 * error, a target that cannot be reached or read, snapshots or a report that cannot be read or written).
 */

import { AuthenticationError } from '../../../src/errors.js';
import { REDACTED } from '../../../src/logger.js';
import { unquoting } from '../../../src/quoted-secrets.js';
import { redactText } from '../../../src/secrets.js';
import type { ParityCommandOptions } from '../options.js';
import { writeAtomically } from '../state-file.js';
import { junitXml, summaryText } from './report.js';
import { type ParityOptions, type ParityProgress, runParity, UnknownScenarioError, UnreachableError } from './run.js';

/** Where the command writes: standard output and error, and whether standard error is a terminal. */
export interface ParityConsole {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly terminal: boolean;
}

/** The run's options from the command line's. */
function parityOptionsOf(options: ParityCommandOptions): ParityOptions {
  const { api, auth, sso, shop, clientId, clientSecret, organisation } = options;
  const target =
    options.snapshots === undefined && api && auth && clientId && clientSecret && organisation
      ? { api, auth, clientId, clientSecret, organisation, ...(sso ? { sso } : {}), ...(shop ? { shop } : {}) }
      : undefined;
  return {
    ...(target ? { target } : {}),
    ...(options.snapshots === undefined ? {} : { snapshots: options.snapshots }),
    ...(options.record === undefined ? {} : { record: options.record }),
    ...(options.account === undefined ? {} : { account: options.account }),
    ...(options.marketplace === undefined ? {} : { marketplace: options.marketplace }),
    ...(options.only === undefined ? {} : { only: options.only }),
    allowWrites: options.allowWrites,
    ssoAudience: options.ssoAudience,
    dryRun: options.dryRun,
    timeoutMs: options.timeoutMs,
  };
}

/** Progress on standard error: a count in place on a terminal, else a line as each scenario starts. */
function progressPrinter(console: ParityConsole): (progress: ParityProgress) => void {
  let scenario = '';
  return ({ scenario: name, done, total }) => {
    if (console.terminal)
      console.err(`\rparity: ${done}/${total} ${cutTo(name, 30).padEnd(30)}${done === total ? '\n' : ''}`);
    else if (name !== scenario) console.err(`parity: ${name}\n`);
    scenario = name;
  };
}

function cutTo(text: string, n: number): string {
  return text.length > n ? text.slice(0, n) : text;
}

/** Runs the command; answers its exit code. A failure that is not a difference is one line on standard error. */
export async function parityCommand(options: ParityCommandOptions, console: ParityConsole): Promise<number> {
  let report: Awaited<ReturnType<typeof runParity>>;
  try {
    report = await runParity({ ...parityOptionsOf(options), progress: progressPrinter(console) });
  } catch (error) {
    if (error instanceof UnreachableError) {
      console.err(`platform-mock parity: ${error.message} (check ${flagOf(error.origin, options)})\n`);
      return 2;
    }
    if (error instanceof AuthenticationError) {
      console.err(
        `platform-mock parity: the platform refused the client's credentials: ${error.status}${error.code ? ` ${error.code}` : ''} (check --client-id and --client-secret)\n`,
      );
      return 2;
    }
    if (error instanceof UnknownScenarioError) {
      console.err(`platform-mock parity: ${error.message} (check --only)\n`);
      return 2;
    }
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' && options.snapshots !== undefined) {
      console.err(`platform-mock parity: no snapshots in ${options.snapshots} (check --snapshots)\n`);
      return 2;
    }
    // Anything else stopped the run before it could compare (an answer the SDK refuses to read, a
    // redirect it does not follow, a snapshot it cannot write or read): not a difference.
    console.err(`platform-mock parity: the run stopped: ${oneLine(error, options)}\n`);
    return 2;
  }
  try {
    if (options.json !== undefined) await writeAtomically(options.json, `${JSON.stringify(report, null, 2)}\n`);
    if (options.junit !== undefined) await writeAtomically(options.junit, junitXml(report));
  } catch (error) {
    console.err(
      `platform-mock parity: the report could not be written: ${oneLine(error, options)} (check --json, --junit)\n`,
    );
    return 2;
  }
  console.out(summaryText(report));
  return report.differences.length > 0 ? 1 : 0;
}

/** An error's message on one line, without the client's secret or anything shaped like a credential. */
function oneLine(error: unknown, options: ParityCommandOptions): string {
  const message = error instanceof Error ? error.message : String(error);
  const unquote = unquoting(options.clientSecret === undefined ? [] : [options.clientSecret]);
  return redactText(unquote(message), REDACTED).replace(/\s+/g, ' ').trim();
}

/** The flag that named a host. */
function flagOf(origin: string, options: ParityCommandOptions): string {
  const flags = [
    ['--api', options.api],
    ['--auth', options.auth],
    ['--sso', options.sso],
    ['--shop', options.shop],
  ] as const;
  const named = flags.filter(([, url]) => url !== undefined && new URL(url).origin === origin).map(([flag]) => flag);
  return named.length > 0 ? named.join(', ') : 'the hosts given';
}
