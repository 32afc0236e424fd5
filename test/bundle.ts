/** Programs the tests start as child processes, bundled from the current sources. */
import { mkdirSync, renameSync } from 'node:fs';
import { basename } from 'node:path';
import { buildSync } from 'esbuild';

const ROOT = new URL('..', import.meta.url);

/**
 * Bundles the program at `entry` (a path from the root) into one file, with its packages left to
 * `node_modules`, and answers the file's path. Node starts it in about a third of the time it takes
 * through tsx, which compiles and resolves every module through its loader hooks at each start.
 * The file is in `.tmp/`, one level below the root as a built program is in `dist/` (the CLI
 * finds package.json there). Built under a name of this process's, then renamed: a test process
 * that builds it meanwhile replaces it whole.
 */
export function bundled(entry: string): string {
  const dir = new URL('.tmp/', ROOT);
  mkdirSync(dir, { recursive: true });
  const name = basename(entry).replace(/\.ts$/, '');
  const own = new URL(`${name}.${process.pid}.mjs`, dir).pathname;
  buildSync({
    entryPoints: [new URL(entry, ROOT).pathname],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: own,
    logLevel: 'error',
  });
  const out = new URL(`${name}.mjs`, dir).pathname;
  renameSync(own, out);
  return out;
}
