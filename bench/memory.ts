/**
 * Heap per product: the platform holding N products (records, its indexes, and each product's JSON
 * that get products keeps once it has answered it) against the same N products held as plain
 * parsed JSON. Needs `--expose-gc` (the bench script passes it).
 */
import { internalsOf } from '../mock/core/internals.js';
import { createPlatform, defaultHosts, type StateDocument } from '../mock/index.js';
import { documentWith } from './documents.js';
import type { Result } from './harness.js';

const N = 20_000;

function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * Every product read once (the bench's products are the demo organisation's), as a site's reads of
 * the catalogue would: get products keeps each one's JSON. The answer and its journal line go.
 */
async function readEveryProduct(platform: ReturnType<typeof createPlatform>): Promise<void> {
  const token = platform.mintToken({ scopes: ['/external/product/r'] }).access_token;
  const url = `${defaultHosts.api}/external/api/v1/products?include_inactive=true`;
  const answer = await platform.handle(new Request(url, { headers: { authorization: `Bearer ${token}` } }));
  if (answer.status !== 200) throw new Error(`get products answered ${answer.status}`);
  await answer.arrayBuffer();
  platform.requests.clear();
}

/** The heap the platform needs per product record (records and indexes), against plain JSON objects. */
export async function measureHeapPerProduct(): Promise<Result> {
  const text = JSON.stringify(documentWith(N));

  const before = heapAfterGc();
  let plain: unknown = JSON.parse(text);
  const plainBytes = heapAfterGc() - before;
  plain = undefined;

  const beforePlatform = heapAfterGc();
  let platform: ReturnType<typeof createPlatform> | undefined = createPlatform({
    seed: JSON.parse(text) as StateDocument,
  });
  // Every index built, as a platform's reads build them (each is built when first read).
  internalsOf(platform)!.state.describeIndexes();
  await readEveryProduct(platform);
  const platformBytes = heapAfterGc() - beforePlatform;
  platform = undefined;
  void plain;
  void platform;

  const ratio = platformBytes / plainBytes;
  return {
    name: `heap per product, ${N} products: platform state vs plain JSON`,
    baseline: plainBytes / N,
    subject: platformBytes / N,
    unit: 'bytes',
    ratio,
    spread: [ratio, ratio],
    target: 2,
  };
}
