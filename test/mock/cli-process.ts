/** The `platform-mock` CLI as a child process, for tests that need a platform outside the test's own process. */
import { type ChildProcess, spawn } from 'node:child_process';
import { bundled } from '../bundle.js';

const ROOT = new URL('../../', import.meta.url);

/** The CLI, bundled once per test process from the current sources: each start takes a third of the time. */
const CLI = bundled('mock/node/cli.ts');

/**
 * How long a test that starts a CLI may take: a start-up takes well under a second on an idle
 * machine, and the bound holds at ten times a whole test's run.
 */
export const CLI_TEST_TIMEOUT_MS = 60_000;

/** Makes the CLI believe its standard output is a terminal (where a line per request is the default). */
const FAKE_TERMINAL = 'process.stdout.isTTY = true;';

/** Every child started and not yet exited, so that {@link stopAll} can end them. */
const running = new Set<ChildProcess>();

/**
 * Each child's exit code, known once it has exited and its output has been read to the end:
 * `exit` can come before the last output is read from the pipes, `close` comes after both.
 */
const closed = new WeakMap<ChildProcess, Promise<number | null>>();

/** Options of {@link run}. */
export interface RunOptions {
  /** Run as if standard output were a terminal. */
  terminal?: boolean;
  /** JavaScript run in the CLI's process before the CLI (to plant a fault). */
  preload?: string;
  /** Variables set in the CLI's environment, beside this process's. */
  env?: Record<string, string>;
}

/**
 * Runs the CLI (bundled, as it is published) in a node process of its own: the CLI's process gets
 * a signal itself. Not through `npx` nor the `tsx` wrapper: both answer a signal by relaying it and
 * ending the CLI on their own terms, whatever the CLI's own exit code, which the CLI tests check.
 */
export function run(args: string[], options: RunOptions = {}): ChildProcess {
  const preloads = [options.terminal ? FAKE_TERMINAL : undefined, options.preload].filter((p) => p !== undefined);
  const loaders = preloads.flatMap((p) => ['--import', `data:text/javascript,${encodeURIComponent(p)}`]);
  const child = spawn(process.execPath, [...loaders, CLI, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
  });
  running.add(child);
  closed.set(
    child,
    new Promise((resolve) =>
      child.on('close', (code) => {
        running.delete(child);
        resolve(code);
      }),
    ),
  );
  return child;
}

/** Waits for the URL line; answers the URL and everything printed so far (stdout and stderr). */
export function started(child: ChildProcess): Promise<{ url: string; output: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(output);
      if (m && /Ctrl-C stops it.*\n/.test(output)) resolve({ url: m[1]!, output });
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
  });
}

/** Resolves with the exit code when the child has exited and everything it printed has been read. */
export function exited(child: ChildProcess): Promise<number | null> {
  const known = closed.get(child);
  if (known) return known;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.on('close', (code) => resolve(code)));
}

/** Runs to the end; answers the exit code and what was printed. */
export async function collect(child: ChildProcess): Promise<{ code: number | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const code = await exited(child);
  return { code, stdout, stderr };
}

/**
 * Stops a child with `signal` and answers its exit code, once it has exited and its output has been
 * read: however long a shutdown takes on a busy machine, with no deadline of its own (the test's
 * timeout bounds it), so that a slow but clean exit still answers 0. A child that never exits
 * fails the test on its timeout, and {@link stopAll} ends it then.
 */
export async function stop(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const exit = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return exit;
}

/**
 * Ends a child left running, for the clean-up after a test: SIGTERM, then SIGKILL after 5 s if it
 * is still there. Its exit code is not checked: only {@link stop} answers one a test asserts.
 */
async function end(child: ChildProcess): Promise<void> {
  const exit = exited(child);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  try {
    await exit;
  } finally {
    clearTimeout(timer);
  }
}

/** Stops every child still running (a test that failed half-way leaves no server behind). */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map(end));
}

/**
 * Runs `body` against a CLI started with `args` (and `options`), then ends it (SIGTERM, SIGKILL
 * if it stays) and waits for it to exit; its exit code is not checked. `child` lets the body read
 * what the CLI prints meanwhile.
 */
export async function withCli<T>(
  args: string[],
  body: (url: string, output: string, child: ChildProcess) => Promise<T>,
  options: RunOptions = {},
): Promise<T> {
  const child = run(args, options);
  try {
    const { url, output } = await started(child);
    return await body(url, output, child);
  } finally {
    await end(child);
  }
}
