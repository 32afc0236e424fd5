import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';
import { openApiDocument } from './mock/openapi.js';
import pkg from './package.json' with { type: 'json' };

/**
 * The OpenAPI document (`mock/openapi.ts`) imports package.json for its version: the bundles get
 * that field alone, not the scripts and dependency lists.
 */
const versionOnly: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'package-json-version-only',
  setup(build) {
    const file = fileURLToPath(new URL('package.json', import.meta.url));
    build.onLoad({ filter: /[\\/]package\.json$/ }, (args) =>
      args.path === file ? { contents: JSON.stringify({ version: pkg.version }), loader: 'json' } : undefined,
    );
  },
};

// Three entry points and a CLI. `msw` stays external: it is an optional peer the user's test suite owns.
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
    esbuildPlugins: [versionOnly],
    // The OpenAPI document, generated from the same endpoint table: `subscription-platform-sdk/openapi.json`.
    async onSuccess() {
      writeFileSync('dist/openapi.json', `${JSON.stringify(openApiDocument({ version: pkg.version }), null, 2)}\n`);
    },
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
