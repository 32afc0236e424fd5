import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { openApiDocument } from './mock/openapi.js';
import pkg from './package.json' with { type: 'json' };

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

/** Where `esbuildOptions` tells the plugins below the output format tsup builds. */
const FORMAT = '__TSUP_OUTPUT_FORMAT__';

/**
 * The OpenAPI document (`mock/openapi.ts`) imports package.json for its version: the bundles get
 * that field alone, not the scripts and dependency lists.
 */
const versionOnly: Plugin = {
  name: 'package-json-version-only',
  setup(build) {
    const file = fileURLToPath(new URL('package.json', import.meta.url));
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) =>
      args.path === file ? { contents: JSON.stringify({ version: pkg.version }), loader: 'json' } : undefined,
    );
  },
};

/**
 * `mock/msw-import.ts` loads the optional peer `msw` with a top-level `await import('msw')`, so
 * that a missing msw is a clear error. CommonJS has no top-level await: its bundle gets the same
 * guard around `require('msw')`. A browser bundle gets a plain import (a bundler names a missing
 * msw itself, and not every browser target has top-level await).
 */
const mswImport: Plugin = {
  name: 'msw-import-per-format',
  setup(build) {
    // tsup has esbuild write ES modules and rollup turn them into CommonJS: the format is in `define` (below).
    const { define, platform } = build.initialOptions;
    const format = define?.[FORMAT] === undefined ? undefined : JSON.parse(define[FORMAT]);
    build.onLoad({ filter: /[\\/]mock[\\/]msw-import\.ts$/ }, (args) => {
      if (platform === 'browser') return { contents: "export { http } from 'msw';", loader: 'ts' };
      if (format !== 'cjs') return undefined;
      const source = readFileSync(args.path, 'utf8');
      const dynamic = "await import('msw')";
      if (!source.includes(dynamic)) throw new Error(`${args.path} no longer says ${dynamic}: update tsup.config.ts`);
      return { contents: source.replace(dynamic, "require('msw')"), loader: 'ts' };
    });
  },
};

// Three entry points, a browser build of the MSW one, and a CLI. `msw` stays external: it is an optional peer the user's test suite owns.
export default defineConfig([
  {
    entry: {
      index: 'src/index.ts',
      'mock/index': 'mock/index.ts',
      'mock/node': 'mock/node/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    treeshake: true,
    esbuildPlugins: [versionOnly, mswImport],
    esbuildOptions(options, { format }) {
      options.define = { ...options.define, [FORMAT]: JSON.stringify(format) };
    },
    // The OpenAPI document, generated from the same endpoint table: `subscription-platform-sdk/openapi.json`.
    async onSuccess() {
      writeFileSync('dist/openapi.json', `${JSON.stringify(openApiDocument({ version: pkg.version }), null, 2)}\n`);
    },
  },
  {
    // `subscription-platform-sdk/mock` for a browser bundler (the `browser` condition): no top-level await.
    entry: { 'mock/browser': 'mock/index.ts' },
    format: ['esm'],
    platform: 'browser',
    sourcemap: true,
    target: 'es2020',
    treeshake: true,
    esbuildPlugins: [versionOnly, mswImport],
  },
  {
    entry: { cli: 'mock/node/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    esbuildPlugins: [versionOnly],
    banner: { js: '#!/usr/bin/env node' },
  },
]);
