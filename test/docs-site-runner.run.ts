/**
 * Run by `docs-site-runner.test.ts` in a process of its own: the docs site's runner installs the
 * page's platform in `fetch` when it loads, which a test worker shared with other files must not.
 * Prints what each run listed, as JSON.
 */
import { reset, run } from '../docs/site/runner.js';

const PRODUCTS = 'https://api.example-platform.com/external/api/v1/products';

reset();
const filled = await run('', `for (let i = 0; i < 1005; i++) await fetch('${PRODUCTS}');`);
const next = await run('', `await fetch('${PRODUCTS}?product_type=packages');`);
// An earlier block run silently before the shown one: only the shown block's requests are listed.
const shown = await run(
  `await fetch('${PRODUCTS}?product_type=campaigns');`,
  `await fetch('${PRODUCTS}?product_type=products');`,
);
console.log(
  JSON.stringify({
    filled: { failed: filled.failed, count: filled.requests.length },
    next: next.requests.map((r) => [r.method, r.target, r.status]),
    shown: shown.requests.map((r) => r.target),
  }),
);
