/**
 * The package as users run it: `dist/`, built by `npm run build` (tsup), and rebuilt first when it
 * is missing or older than its sources. The SDK's and the server's cases measure it rather than the
 * sources, as the peers are measured as they are published: the bench itself runs under tsx, whose
 * transform keeps function names by wrapping each function made at run time in a call (`__name`),
 * a cost the published build does not have (it was 1.8 us of a request's 3 us in reading the
 * query, in a profile of the standalone server under load).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { progress } from './harness.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** What the build is made from. */
const SOURCES = ['src', 'mock'];
const CONFIG = ['tsup.config.ts', 'package.json'];

/** The CLI's bundle: every build writes it anew (tsup empties dist/ first), so its time is the build's. */
const CLI = 'dist/cli.js';

function stale(): boolean {
  if (!existsSync(`${root}${CLI}`)) return true;
  const built = statSync(`${root}${CLI}`).mtimeMs;
  const files = [
    ...CONFIG,
    ...SOURCES.flatMap((dir) =>
      readdirSync(`${root}${dir}`, { recursive: true, encoding: 'utf8' }).map((f) => `${dir}/${f}`),
    ),
  ];
  return files.some((file) => statSync(`${root}${file}`).mtimeMs > built);
}

let checked = false;

/** The root of the package, with `dist/` built from the sources as they are now. */
export function builtPackage(): string {
  if (!checked && stale()) {
    progress('  building dist/ (npm run build), older than its sources ');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' });
    progress('ok\n');
  }
  checked = true;
  return root;
}

/** The `platform-mock` command as the package installs it. */
export function builtCli(): string {
  return `${builtPackage()}${CLI}`;
}

/** `subscription-platform-sdk/mock/node` as the package exports it (ES module build). */
export async function builtMockNode(): Promise<typeof import('../mock/node/index.js')> {
  return import(`${builtPackage()}dist/mock/node.js`);
}

/** `subscription-platform-sdk/mock` as the package exports it (ES module build, for Node). */
export async function builtMock(): Promise<typeof import('../mock/index.js')> {
  return import(`${builtPackage()}dist/mock/index.js`);
}

/** `subscription-platform-sdk` as the package exports it (ES module build). */
export async function builtSdk(): Promise<typeof import('../src/index.js')> {
  return import(`${builtPackage()}dist/index.js`);
}
