/**
 * A state document of a given size for the benches and the tests that need a large state: the demo
 * seed with `n` more products, each a copy of a package with its price periods (about 2.5 KB of
 * state file each, so 2,000 make some 5 MB).
 */
import { createPlatform, type StateDocument } from '../mock/index.js';

/** The demo seed with `n` more products, appended so that the seed's user-products and sharing options still name theirs. */
export function documentWith(n: number): StateDocument {
  const demo = createPlatform({ seed: 'demo' }).snapshot();
  const template = demo.products.find((p) => p.is_package && p.price_periods.length > 0);
  if (!template) throw new Error('the demo seed has no package with periods');
  const products = Array.from({ length: n }, (_, i) => {
    const hex = i.toString(16).padStart(8, '0');
    return {
      ...structuredClone(template),
      id: `ffff0000ffff0000${hex}`,
      product_code: `bench-${i}`,
      integration_code: `BENCH-${i}`,
      price_periods: template.price_periods.map((p, j) => ({
        ...p,
        id: `eeee${j.toString(16).padStart(4, '0')}eeeeeeee${hex}`,
      })),
    };
  });
  return { ...demo, products: [...demo.products, ...products] };
}
