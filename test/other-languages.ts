/**
 * What the tests of programs in other languages share: whether their interpreter or library is on
 * this machine (missing: a warning and a skipped test, but an error in CI, which installs it), the
 * standalone server each runs against, and the run itself, given PATH and the server's URL alone.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import type { Platform } from '../mock/index.js';
import { type RunningServer, startServer } from '../mock/node/index.js';

/** Whether `command args` exits 0 here: `what` is there. Missing in CI, an error naming `install`. */
export function available(command: string, args: readonly string[], what: string, install: string): boolean {
  const ok = spawnSync(command, args).status === 0;
  if (!ok && process.env.CI) throw new Error(`${what} is missing: .ci/run installs ${install}, and CI runs it`);
  if (!ok) console.warn(`${what} is missing (${install}): its test is skipped`);
  return ok;
}

/** The standalone server over `platform` for one file's tests: started before them, closed after. */
export function standaloneServer(platform: Platform): { readonly url: string } {
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer({ platform, port: 0 });
  });
  afterAll(() => server?.close());
  return {
    get url() {
      if (!server) throw new Error('the standalone server is not started yet');
      return server.url;
    },
  };
}

/** Runs a program with PATH, PLATFORM_URL and `env` alone in its environment; rejects on a non-zero exit. */
export function runAgainst(
  url: string,
  command: string,
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(command, args, {
    env: { PATH: process.env.PATH ?? '', PLATFORM_URL: url, ...env },
    timeout: 60_000,
  });
}
