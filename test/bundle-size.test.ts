/**
 * The SDK's bundle-size budgets, held on every run: a size is the same on any machine (esbuild and
 * gzip level 9 over the same sources), so unlike speed it can be a test. `npm run bench -- size`
 * prints the same figures beside the installed package's.
 */
import { describe, expect, it } from 'vitest';
import { bundleSizes, ENTRY_BUDGET_KB, LAZY_BUDGET_KB, SIGN_ON_BUDGET_KB } from '../bench/size.js';

describe('what a browser build downloads of the SDK stays within its budget', () => {
  it('the sign-on helpers, the whole entry and its chunks loaded on first use', async () => {
    const sizes = await bundleSizes();
    const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;
    expect(kb(sizes.signOn), 'the sign-on helpers alone, min+gz KB').toBeLessThanOrEqual(SIGN_ON_BUDGET_KB);
    expect(kb(sizes.entry), 'the whole SDK entry, min+gz KB').toBeLessThanOrEqual(ENTRY_BUDGET_KB);
    expect(kb(sizes.lazy), 'loaded on first use, min+gz KB').toBeLessThanOrEqual(LAZY_BUDGET_KB);
    // The lazy chunks exist: ky, jose and the compiled checks stay out of the entry.
    expect(sizes.lazy).toBeGreaterThan(0);
  }, 60_000);
});
