/** The `platform-mock` CLI as a child process, for tests that need a platform outside the test's own process. */
import { type ChildProcess, spawn } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url);

/**
 * Runs the CLI under tsx. Not through `npx`: npm exec answers a signal by dying of it (exit code
 * null) whatever the CLI's own exit code, which the CLI tests check.
 */
export function run(args: string[]): ChildProcess {
  const tsx = new URL('node_modules/.bin/tsx', ROOT);
  return spawn(tsx.pathname, ['mock/node/cli.ts', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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

/** Resolves with the exit code when the child exits. */
export function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
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

/** Runs `body` against a CLI started with `args`, then stops it (SIGTERM, SIGKILL if still there). */
export async function withCli<T>(args: string[], body: (url: string, output: string) => Promise<T>): Promise<T> {
  const child = run(args);
  try {
    const { url, output } = await started(child);
    return await body(url, output);
  } finally {
    if (child.exitCode === null) {
      const exit = exited(child);
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exit;
      clearTimeout(timer);
    }
  }
}
