// @ts-check
/**
 * The site's "Run" assets, built into the site's `assets/` when `npm run docs` renders it:
 *
 * - `run-controls.js` (small, on every page with a TypeScript example): the Run, Edit and Reset
 *   controls, the output and the requests under each example;
 * - `runner.js` (loaded on the first Run): the reference platform, the SDK, MSW, zod and the
 *   TypeScript compiler the examples need, as one classic script, so that the site also runs
 *   from `file://`, where a browser loads no ES module.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const here = fileURLToPath(new URL('.', import.meta.url));
const require = createRequire(import.meta.url);

/** @type {import('esbuild').Plugin} */
const inPage = {
  name: 'in-page',
  setup(b) {
    // MSW's React Native build is its interceptor-based setupServer without Node: the package
    // exports it under the `react-native` condition only (and maps `browser` to nothing).
    b.onResolve({ filter: /^msw\/native$/ }, () => ({
      path: join(require.resolve('msw/package.json'), '..', 'lib', 'native', 'index.mjs'),
    }));
    // The platform loads msw with a top-level `await import()` (a clear error when it is missing);
    // a classic script has no top-level await, and msw is in the bundle.
    b.onLoad({ filter: /[\\/]mock[\\/]msw-import\.ts$/ }, () => ({
      contents: "export { http } from 'msw';",
      loader: 'ts',
    }));
  },
};

/**
 * Builds the two scripts into `assets/` of the site at `out`.
 * @param {string} out
 */
export async function buildRunAssets(out) {
  const common = /** @type {const} */ ({
    bundle: true,
    minify: true,
    // An example prints through Node's formatter, which names each object's class: keep the names.
    keepNames: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [inPage],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  await build({
    ...common,
    entryPoints: [join(here, 'runner-entry.ts')],
    outfile: join(out, 'assets', 'runner.js'),
  });
  await build({
    ...common,
    entryPoints: [join(here, 'controls.ts')],
    outfile: join(out, 'assets', 'run-controls.js'),
  });
  return readFileSync(join(out, 'assets', 'runner.js')).byteLength;
}
