import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

test('the README shows the vitest example exactly as examples/vitest-suite.test.ts runs it', () => {
  const example = read('examples/vitest-suite.test.ts')
    .replace("from '../mock/index.js'", "from 'subscription-platform-sdk/mock'")
    .replace("from '../src/index.js'", "from 'subscription-platform-sdk'");
  expect(read('README.md')).toContain(example);
});
