import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../${path}`, import.meta.url), 'utf8');

test('the README\u2019s quick start and the test authors\u2019 page show the vitest example exactly as examples/vitest-suite.test.ts runs it', () => {
  const example = read('examples/vitest-suite.test.ts')
    .replace("from '../mock/index.js'", "from 'subscription-platform-sdk/mock'")
    .replace("from '../src/index.js'", "from 'subscription-platform-sdk'");
  expect(read('README.md')).toContain(example);
  expect(read('docs/test-authors.md')).toContain(example);
});

test('the test authors\u2019 page\u2019s demo users are the seed\u2019s: e-mail, password and account id', async () => {
  const { demoUsers } = await import('../mock/seeds/demo.js');
  const rows = [
    ...read('docs/test-authors.md').matchAll(/^\| `([^`]+@example\.com)` \| `([^`]+)` \| `([a-f\d]{24})` \|/gm),
  ].map(([, email, password, id]) => ({ email, password, id }));
  expect(rows).toEqual(Object.values(demoUsers).map(({ email, password, id }) => ({ email, password, id })));
});

test('a page that runs an example with `npx tsx` says to install tsx, which the package does not bring', () => {
  for (const path of ['README.md', 'docs/sign-on.md']) {
    const page = read(path);
    expect(page, path).toMatch(/npx tsx \S+\.mts/);
    expect(page, path).toContain('`npm i -D tsx`');
  }
  expect(JSON.parse(read('package.json')).dependencies).not.toHaveProperty('tsx');
});
