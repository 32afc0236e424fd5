import { writeFileSync } from 'node:fs';
import { defineConfig } from 'tsup';
import { openApiDocument } from './mock/openapi.js';
import pkg from './package.json' with { type: 'json' };

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
    banner: { js: '#!/usr/bin/env node' },
  },
]);
