// @ts-check
/**
 * Run after `tsup` (`npm run build`). `subscription-platform-sdk/types` is type-only: `src/types.ts`
 * re-exports with `export type`, and its JavaScript is empty. The declaration bundler drops that
 * modifier, so the bundled declarations would export each schema's value too, and
 * `import { Product } from 'subscription-platform-sdk/types'` would compile as a value that is
 * `undefined` at run time. This puts the modifier back on every export of the two declaration files,
 * and fails the build if a line there is neither a re-export nor a bare `import '...'`.
 */
import { readFileSync, writeFileSync } from 'node:fs';

for (const file of ['dist/types.d.ts', 'dist/types.d.cts']) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const other = lines.find(
    (line) => line.trim() !== '' && !/^(export (type )?\{[^}]*\} from|import) '[^']+';$/.test(line),
  );
  if (other !== undefined) throw new Error(`${file}: not a re-export, so not made type-only: ${other}`);
  writeFileSync(file, lines.map((line) => line.replace(/^export \{/, 'export type {')).join('\n'));
}
