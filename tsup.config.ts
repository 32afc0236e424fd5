import { defineConfig } from 'tsup';

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
  },
  {
    entry: { cli: 'mock/node/cli.ts' },
    format: ['esm'],
    sourcemap: true,
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
]);
