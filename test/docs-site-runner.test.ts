/**
 * The docs site's runner (`docs/site/runner.ts`), in Node: what a Run shows of the requests an
 * example sent, however many the page's platform has journaled before (its journal keeps the
 * newest 1,000). Run in a process of its own (`docs-site-runner.run.ts`): loading the runner puts
 * the page's platform in `fetch`.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

test("a run lists the requests it sent, also once the page's platform has journaled more than its 1,000 entries", async () => {
  const script = fileURLToPath(new URL('./docs-site-runner.run.ts', import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', script]);
  expect(JSON.parse(stdout)).toEqual({
    filled: { failed: false, count: 1000 },
    next: [['GET', '/external/api/v1/products?product_type=packages', 401]],
    shown: ['/external/api/v1/products?product_type=products'],
  });
}, 60_000);
