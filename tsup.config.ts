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
 * The dependencies published as ES modules only (jose 6, ky): the CommonJS build bundles them, so
 * that `require` never reaches one. Node before 20.19 cannot `require` an ES module, and neither can
 * jest's CommonJS runtime (its default, with ts-jest or babel-jest), whatever the Node. `noExternal`
 * (below) bundles them in both builds; this keeps them external in the ES module build, where the
 * user's own copy is shared and a bundler loads them on first use (see `options.supported` below).
 */
const ESM_ONLY_DEPENDENCIES = ['jose', 'ky'];

const esmOnlyDependencies: EsbuildPlugin = {
  name: 'esm-only-dependencies-bundled-in-cjs',
  setup(build) {
    const { define } = build.initialOptions;
    if (define?.[FORMAT] === JSON.stringify('cjs')) return;
    const names = ESM_ONLY_DEPENDENCIES.join('|');
    build.onResolve({ filter: new RegExp(`^(${names})(/|$)`) }, (args) => ({ path: args.path, external: true }));
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

/**
 * The CommonJS build's `import()`s become esbuild's `__toESM(__require(...), 1)` (`options.supported`
 * below). For a chunk of the build that is wrong twice: `__toESM` in Node's mode makes the chunk's
 * whole `exports` the `default` (ky's `default` would not be ky), and `__require`, defined in a chunk
 * at the root of `dist/`, resolves a path from there (wrong from `dist/mock/`). A chunk's `exports`
 * already has the shape of its namespace (rollup wrote it, `default` included): each such load
 * becomes the module's own `require`. The build fails on one left in another form.
 */
const cjsChunkRequires: TsupPlugin = {
  name: 'cjs-chunks-required-as-they-are',
  buildEnd({ writtenFiles }) {
    const wrapped = /(?:\b\w+\.)?__toESM\((?:\b\w+\.)?__require\(("\.\.?\/[^"]+\.cjs")\), 1\)/g;
    for (const { name } of writtenFiles) {
      if (!name.endsWith('.cjs')) continue;
      const text = readFileSync(name, 'utf8');
      const plain = text.replace(wrapped, 'require($1)');
      const left = /\b__require\(\s*["'`]\.\.?\//.exec(plain);
      if (left) throw new Error(`${name} loads a chunk in a form tsup.config.ts does not rewrite: ${left[0]}`);
      if (plain !== text) writeFileSync(name, plain);
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
  noExternal: ESM_ONLY_DEPENDENCIES,
  esbuildPlugins: [versionOnly, esmOnlyDependencies, mswImport, browserEntry, binEntry],
  plugins: [mappingsOnly, cjsChunkRequires],
  esbuildOptions(options, { format }) {
    options.define = { ...options.define, [FORMAT]: JSON.stringify(format) };
    // The ES module build loads ky, jose, the compiled answer checks and a few Node modules on first
    // use, with `import()`. CommonJS gets `require` in their place: jest's CommonJS runtime refuses
    // every `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG), and the modules are on disk.
    if (format === 'cjs') options.supported = { ...options.supported, 'dynamic-import': false };
    // CommonJS gets the entries `require` reaches; the browser entry and the CLI are ES modules.
    options.entryPoints = format === 'cjs' ? PUBLIC_ENTRIES : { ...PUBLIC_ENTRIES, ...ESM_ONLY_ENTRY_POINTS };
  },
  // The OpenAPI document, generated from the same endpoint table: `subscription-platform-sdk/openapi.json`.
  async onSuccess() {
    writeFileSync('dist/openapi.json', `${JSON.stringify(openApiDocument({ version: pkg.version }))}\n`);
  },
});
