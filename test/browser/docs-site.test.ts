/**
 * The docs site as a reader meets it, in Chromium, opened from the folder `npm run docs` writes
 * (`file://`, no server): every TypeScript example a browser can run has a Run control, runs in the
 * page against the reference platform running there, and prints what its guide says it prints;
 * an example only Node can run says so instead; Edit runs the reader's own text; Reset puts the
 * page's platform back to its demo data.
 *
 * The site is built first when it is missing or older than its sources, the SDK and the platform
 * included (CI builds it before the tests, with `npm run docs`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXAMPLE_ENV } from '../../docs/site/example-environment.js';
import { blocksOfMarkdown, nodeOnlyReason, programsOf } from '../../docs/site/examples.js';
import { hasChromium, launchChromium, requireChromium } from './chromium.js';

requireChromium('docs-site.test.ts');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SITE = join(ROOT, 'docs/api');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The Markdown pages of the site and where each is rendered. */
const PAGES: readonly [string, string][] = [
  ['README.md', 'index.html'],
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f): [string, string] => [`docs/${f}`, `documents/${f.replace(/\.md$/, '.html')}`]),
];

/** What each page's examples are, by the rules the site follows: run in the page, Node only, or declarations. */
function expectedKinds(markdown: string): string[] {
  return programsOf(blocksOfMarkdown(markdown)).flatMap((program) => {
    const nodeOnly = nodeOnlyReason(program.map((b) => b.code).join('\n')) !== undefined;
    return program.map((b) => (nodeOnly ? 'node-only' : b.expected === undefined ? 'declares' : 'idle'));
  });
}

const RUNNABLE = PAGES.filter(([md]) => expectedKinds(read(md)).includes('idle'));

/** The most Chromium is given to open a page and show its controls, to finish one Run, and to Reset. */
const OPEN_MS = 20_000;
const RUN_MS = 60_000;
const RESET_MS = 20_000;

/**
 * Each test's own timeout, covering every wait of the longest at its bound (the suite's 15 s would
 * cut one short): a page opened, as many Runs as a page has examples (four in the Edit test), a
 * Reset, and 10 s to spare.
 */
const TEST_MS = (() => {
  const runs = Math.max(4, ...RUNNABLE.map(([md]) => expectedKinds(read(md)).filter((k) => k === 'idle').length));
  return OPEN_MS + runs * RUN_MS + RESET_MS + 10_000;
})();

/** Whether the site is missing or older than what it is built from. */
function stale(): boolean {
  const runner = join(SITE, 'assets/run-controls.js');
  if (!existsSync(runner)) return true;
  const built = statSync(runner).mtimeMs;
  // The pages, the site's own code, and the SDK and platform its runner bundles.
  const sources = [
    ...PAGES.map(([md]) => md),
    'typedoc.plugin.mjs',
    'typedoc.json',
    ...['docs/site', 'src', 'mock'].flatMap((dir) =>
      readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' }).map((f) => join(dir, f)),
    ),
  ];
  return sources.some((file) => statSync(join(ROOT, file)).mtimeMs > built);
}

/** Clicks Run on the `index`th control of the page and waits for it to finish; its status, output and matching. */
async function runExample(page: Page, index: number) {
  const box = page.locator('.docs-run').nth(index);
  await box.locator('button.docs-run-primary').click();
  await page.waitForFunction(
    (i) => document.querySelectorAll<HTMLElement>('.docs-run')[i]?.dataset.runState === 'done',
    index,
    { timeout: RUN_MS },
  );
  return {
    status: (await box.locator('.docs-run-status').textContent()) ?? '',
    output: (await box.locator('.docs-run-output').textContent()) ?? '',
    requests: await box.locator('.docs-run-journal tr').count(),
    matches: await box.getAttribute('data-matches'),
  };
}

/** The index of the page's first control with a Run button. */
function firstRunnable(page: Page): Promise<number> {
  return page.$$eval('.docs-run', (boxes) => boxes.findIndex((b) => (b as HTMLElement).dataset.runState === 'idle'));
}

describe.runIf(hasChromium)('the docs site, in Chromium from its folder', { timeout: TEST_MS }, () => {
  let browser: Browser;
  beforeAll(async () => {
    // A failed build throws with what typedoc printed.
    if (stale()) execFileSync('npm', ['run', 'docs'], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
    browser = await launchChromium();
  }, 300_000);
  afterAll(async () => {
    await browser?.close();
  });

  async function open(html: string): Promise<Page> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(pathToFileURL(join(SITE, html)).href);
    await page.waitForFunction(() => document.querySelector('.docs-run') !== null, undefined, { timeout: OPEN_MS });
    expect(errors).toEqual([]);
    return page;
  }

  test('some pages have examples that run in the page', () => {
    expect(RUNNABLE.map(([md]) => md)).toEqual(
      expect.arrayContaining(['docs/sign-on.md', 'docs/site-developers.md', 'docs/test-authors.md']),
    );
    // The sign-on guide, by hand: its client, to the shop, back and again, its SSO function, identify.
    expect(expectedKinds(read('docs/sign-on.md'))).toEqual(['declares', 'idle', 'idle', 'declares', 'idle']);
  });

  test.each(RUNNABLE)('%s: each example runs in the page and prints what the guide says', async (md, html) => {
    const page = await open(html);
    try {
      const kinds = await page.$$eval('.docs-run', (boxes) => boxes.map((b) => (b as HTMLElement).dataset.runState));
      // Each example of the Markdown has its control, in order: Run, Node only, or declarations.
      expect(kinds).toEqual(expectedKinds(read(md)));
      for (const [i, kind] of kinds.entries()) {
        if (kind !== 'idle') continue;
        const run = await runExample(page, i);
        expect(run, `example ${i + 1} of ${md}: ${run.output}`).toMatchObject({ matches: 'true' });
        expect(run.status).toMatch(/^ran in \d+ ms: printed what the guide says$/);
        expect(run.requests).toBeGreaterThan(0);
      }
      const firstRunMs = Number(await page.evaluate(() => document.documentElement.dataset.firstRunMs));
      expect(firstRunMs).toBeGreaterThan(0);
      console.info(`${md}: first run, the platform loaded into the page included: ${firstRunMs} ms`);
    } finally {
      await page.close();
    }
  });

  test('an example only Node can run says why and shows the command', async () => {
    const page = await open('documents/parity.html');
    try {
      const text = await page.locator('.docs-run[data-run-state="node-only"]').first().textContent();
      expect(text).toContain('Runs in Node, not in this page: it uses subscription-platform-sdk/mock/node');
      expect(text).toContain(
        'It is an ES module (it awaits at the top level): save it as example.mts (or as example.ts with "type": "module" in package.json) and run it with npx tsx example.mts.',
      );
      expect(await page.locator('.docs-run button').count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  test('a vitest example says to save it as a test file and run vitest', async () => {
    const page = await open('documents/test-authors.html');
    try {
      const text = await page.locator('.docs-run[data-run-state="node-only"]').first().textContent();
      expect(text).toContain('it uses vitest, the test runner. Save it as example.test.ts and run npx vitest run.');
    } finally {
      await page.close();
    }
  });

  test('an example that never finishes is given up, one that throws shows its error, and runs take turns', async () => {
    const page = await open('documents/sign-on.html');
    try {
      await runExample(page, await firstRunnable(page)); // loads the runner
      const [hung, threw] = await page.evaluate(async () => {
        const runner = (globalThis as { platformDocsRunner?: { run: (...args: unknown[]) => Promise<unknown> } })
          .platformDocsRunner;
        return [
          await runner?.run('', 'await new Promise(() => {});', 200),
          await runner?.run('', "console.log('before');\nthrow new RangeError('no such thing');"),
        ];
      });
      expect(hung).toMatchObject({ failed: true, output: 'Error: the example did not finish within 0.2 s' });
      expect(threw).toMatchObject({ failed: true, output: 'before\nRangeError: no such thing' });
      // Two runs started together: each prints and sends its own, the second after the first.
      const both = await page.evaluate(() => {
        const runner = (globalThis as { platformDocsRunner?: { run: (...args: unknown[]) => Promise<unknown> } })
          .platformDocsRunner;
        const ask = (path: string) =>
          `const answer = await fetch('https://api.example-platform.com${path}');\nconsole.log(answer.status);`;
        return Promise.all([runner?.run('', ask('/external/api/v1/products')), runner?.run('', ask('/nowhere'))]);
      });
      // The journal's requests show their bodies with the secrets redacted.
      /** Runs `program` in the page, as a Run of an example with no earlier blocks. */
      const runInPage = (program: string) =>
        page.evaluate((source) => {
          const runner = (globalThis as { platformDocsRunner?: { run: (...args: unknown[]) => Promise<unknown> } })
            .platformDocsRunner;
          return runner?.run('', source);
        }, program);
      const grant = await runInPage(
        "await fetch('https://auth.example-platform.com/api/authorization/access_token', { method: 'POST', body: new URLSearchParams({ grant_type: 'none', client_id: process.env.CLIENT_ID!, client_secret: process.env.CLIENT_SECRET! }) });",
      );
      // Objects print as in Node: the bundle keeps its classes' names.
      const named = await runInPage(
        "import { PlatformClient } from 'subscription-platform-sdk';\nimport { createPlatform } from 'subscription-platform-sdk/mock';\nconsole.log(PlatformClient.name, createPlatform.name);",
      );
      expect(named).toMatchObject({ output: 'PlatformClient createPlatform', failed: false });
      expect(JSON.stringify(grant)).not.toContain(EXAMPLE_ENV.CLIENT_SECRET);
      expect(grant).toMatchObject({
        requests: [{ body: `grant_type=none&client_id=${EXAMPLE_ENV.CLIENT_ID}&client_secret=[redacted]` }],
      });
      expect(both).toMatchObject([
        { output: '401', requests: [{ target: '/external/api/v1/products', status: 401 }] },
        { output: '404', requests: [{ target: '/nowhere', status: 404 }] },
      ]);
    } finally {
      await page.close();
    }
  });

  test("Edit runs the reader's text; Reset puts the platform back to its demo data", async () => {
    const page = await open('documents/sign-on.html');
    try {
      const index = await firstRunnable(page);
      const box = page.locator('.docs-run').nth(index);
      await box.getByRole('button', { name: 'Edit' }).click();
      const editor = box.locator('textarea');
      // The reader's own program: a request the platform refuses (no token), then how many requests
      // the page's platform has journaled (the admin API's own are not).
      await editor.fill(
        "await fetch('https://api.example-platform.com/external/api/v1/products');\n" +
          "const journal = await fetch('https://api.example-platform.com/__admin/requests');\n" +
          'console.log((await journal.json()).items.length);',
      );
      const counts: number[] = [];
      for (let i = 0; i < 2; i++) counts.push(Number((await runExample(page, index)).output));
      // Each run adds its request to the journal (the earlier block of the program sends none).
      expect(counts).toEqual([1, 2]);
      expect((await runExample(page, index)).matches).toBe('false');
      await box.getByRole('button', { name: 'Reset platform' }).click();
      await expect
        .poll(() => box.locator('.docs-run-status').textContent(), { timeout: RESET_MS })
        .toBe('the platform is back to its demo data');
      // The journal was emptied with the rest: this run's request is the only one.
      expect(Number((await runExample(page, index)).output)).toBe(1);
    } finally {
      await page.close();
    }
  });
});
