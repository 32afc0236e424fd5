import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { openApiDocument } from './mock/openapi.js';
import pkg from './package.json' with { type: 'json' };

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];
type TsupPlugin = NonNullable<Options['plugins']>[number];

/** Where `esbuildOptions` tells the plugins below the output format tsup builds. */
const FORMAT = '__TSUP_OUTPUT_FORMAT__';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/** The entry points a user imports, in both formats (`exports` in package.json), with their declarations. */
const PUBLIC_ENTRIES = {
  index: 'src/index.ts',
  types: 'src/types.ts',
  'sign-on': 'src/sign-on/index.ts',
  schemas: 'src/schemas/index.ts',
  'mock/index': 'mock/index.ts',
  'mock/node': 'mock/node/index.ts',
};

/**
 * Entries of the ES module build alone: the browser flavour of `/mock` (the `browser` condition) and
 * the `platform-mock` CLI. Built with the others so that they share the platform's chunks.
 */
const ESM_ONLY_ENTRIES = {
  'mock/browser': 'mock/index.ts',
  cli: 'mock/node/cli.ts',
};

/** The same, as esbuild is given them: each through its plugin below (tsup wants entries that are files). */
const ESM_ONLY_ENTRY_POINTS = {
  'mock/browser': 'browser-entry:mock/index.ts',
  cli: 'bin-entry:mock/node/cli.ts',
};

/**
 * The OpenAPI document (`mock/openapi.ts`) imports package.json for its version: the bundles get
 * that field alone, not the scripts and dependency lists.
 */
const versionOnly: EsbuildPlugin = {
  name: 'package-json-version-only',
  setup(build) {
    const file = source('package.json');
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) =>
      args.path === file ? { contents: JSON.stringify({ version: pkg.version }), loader: 'json' } : undefined,
    );
  },
};

/**
 * `mock/msw-import.ts` loads the optional peer `msw` with a top-level `await import('msw')`, so
 * that a missing msw is a clear error. CommonJS has no top-level await: its bundle gets the same
 * guard around `require('msw')`. The browser entry gets a plain import (a bundler names a missing
 * msw itself, and not every browser target has top-level await): it reaches `mock/msw-import.ts`
 * through modules of its own (`browserEntry`), so the rest of the platform stays shared.
 */
const mswImport: EsbuildPlugin = {
  name: 'msw-import-per-format',
  setup(build) {
    // tsup has esbuild write ES modules and rollup turn them into CommonJS: the format is in `define` (below).
    const { define } = build.initialOptions;
    const format = define?.[FORMAT] === undefined ? undefined : JSON.parse(define[FORMAT]);
    build.onLoad({ filter: /[\\/]mock[\\/]msw-import\.ts$/ }, (args) => {
      if (format !== 'cjs') return undefined;
      const text = readFileSync(args.path, 'utf8');
      const dynamic = "await import('msw')";
      if (!text.includes(dynamic)) throw new Error(`${args.path} no longer says ${dynamic}: update tsup.config.ts`);
      return { contents: text.replace(dynamic, "require('msw')"), loader: 'ts' };
    });
  },
};

/**
 * The browser flavour of `/mock`: `mock/index.ts` and the MSW adapter loaded again in a namespace of
 * their own, where `msw-import` is a plain `import`. Everything else they import resolves as usual,
 * to the same modules (and so the same chunks) as the Node entries.
 */
const browserEntry: EsbuildPlugin = {
  name: 'browser-entry',
  setup(build) {
    const ns = 'browser';
    const root = source('.');
    // Paths in the namespace are relative to the project, as esbuild names files in comments and source maps.
    const own = new Set(['mock/index.ts', 'mock/msw.ts', 'mock/msw-import.ts']);
    build.onResolve({ filter: /^browser-entry:/ }, (args) => ({
      path: args.path.slice('browser-entry:'.length),
      namespace: ns,
    }));
    build.onResolve({ filter: /^\./, namespace: ns }, async (args) => {
      const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir });
      const path = relative(root, resolved.path).split(sep).join('/');
      return own.has(path) ? { path, namespace: ns } : resolved;
    });
    build.onLoad({ filter: /.*/, namespace: ns }, (args) => ({
      contents:
        args.path === 'mock/msw-import.ts' ? "export { http } from 'msw';" : readFileSync(source(args.path), 'utf8'),
      loader: 'ts',
      resolveDir: dirname(source(args.path)),
    }));
  },
};

/** The CLI entry: `mock/node/cli.ts` behind a hashbang, which esbuild keeps at the top of an entry. */
const binEntry: EsbuildPlugin = {
  name: 'bin-entry',
  setup(build) {
    build.onResolve({ filter: /^bin-entry:/ }, (args) => ({
      path: args.path.slice('bin-entry:'.length),
      namespace: 'bin',
    }));
    // The CLI runs for its side effects, whatever package.json's `sideEffects: false` says of the rest.
    build.onResolve({ filter: /.*/, namespace: 'bin' }, async (args) => ({
      ...(await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir })),
      sideEffects: true,
    }));
    build.onLoad({ filter: /.*/, namespace: 'bin' }, (args) => ({
      contents: `#!/usr/bin/env node\nimport ${JSON.stringify(`./${args.path}`)};\n`,
      loader: 'js',
      resolveDir: source('.'),
    }));
  },
};

/**
 * Source maps keep the mappings, so that a stack trace names the original file and line, and drop
 * `sourcesContent`: a second copy of every source, in every map, was most of the package's weight.
 * Each bundle names its map once (tsup's tree shaking leaves the comment twice). Only the ES module
 * build keeps its maps: the CommonJS build is the same readable, unminified code, whose own lines a
 * stack trace names, and its maps (0.4 MB) would take the unpacked package past its 2.5 MB budget.
 */
const mappingsOnly: TsupPlugin = {
  name: 'source-maps-without-sources',
  buildEnd({ writtenFiles }) {
    for (const { name } of writtenFiles) {
      if (name.endsWith('.cjs.map')) {
        rmSync(name);
        continue;
      }
      const text = readFileSync(name, 'utf8');
      if (name.endsWith('.cjs')) writeFileSync(name, text.replace(/(\n\/\/# sourceMappingURL=\S+)+\s*$/, '\n'));
      else if (name.endsWith('.map')) {
        const { sourcesContent: _, ...map } = JSON.parse(text) as { sources: string[]; sourcesContent?: unknown };
        // The browser entry's own modules are named by namespace (`browserEntry`): the map names their files.
        map.sources = map.sources.map((s) => (s.startsWith('browser:') ? relative(dirname(name), s.slice(8)) : s));
        writeFileSync(name, JSON.stringify(map));
      } else if (name.endsWith('.js')) {
        const comment = /(\n\/\/# sourceMappingURL=\S+)+\s*$/;
        writeFileSync(
          name,
          text.replace(comment, (all) => `\n${all.trim().split('\n')[0]}\n`),
        );
      }
    }
  },
};

// One build per format, each with every entry, so the entries share chunks: the platform is in the
// package once per format. `msw` stays external: it is an optional peer the user's test suite owns.
export default defineConfig({
  entry: { ...PUBLIC_ENTRIES, ...ESM_ONLY_ENTRIES },
  format: ['esm', 'cjs'],
  dts: { entry: PUBLIC_ENTRIES },
  splitting: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  treeshake: true,
  esbuildPlugins: [versionOnly, mswImport, browserEntry, binEntry],
  plugins: [mappingsOnly],
  esbuildOptions(options, { format }) {
    options.define = { ...options.define, [FORMAT]: JSON.stringify(format) };
    // CommonJS gets the entries `require` reaches; the browser entry and the CLI are ES modules.
    options.entryPoints = format === 'cjs' ? PUBLIC_ENTRIES : { ...PUBLIC_ENTRIES, ...ESM_ONLY_ENTRY_POINTS };
  },
  // The OpenAPI document, generated from the same endpoint table: `subscription-platform-sdk/openapi.json`.
  async onSuccess() {
    writeFileSync('dist/openapi.json', `${JSON.stringify(openApiDocument({ version: pkg.version }))}\n`);
  },
});
