/**
 * `instanceof` across the package's builds. A program may load both (its ES modules import the
 * package, a CommonJS dependency of it requires it): each error class then exists once per build,
 * and an error thrown by one build must still be an instance of the other's class of the same name,
 * and of each class that one extends, and of no other. The SDK is bundled here in both formats from
 * its sources, as the package's builds are (esbuild, its dependencies left to `node_modules`), and
 * once more minified, as a site's bundler may (its class names changed).
 */
import { mkdirSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { buildSync } from 'esbuild';
import { beforeAll, describe, expect, test } from 'vitest';

type Sdk = typeof import('../../src/index.js');
type ErrorClass = abstract new (...args: never[]) => Error;

const ROOT = new URL('../../', import.meta.url);

/** The SDK's main entry bundled as `format` into `.tmp/` (built under a name of this process's, then renamed). */
function bundle(format: 'esm' | 'cjs', minify: boolean): string {
  const dir = new URL('.tmp/', ROOT);
  mkdirSync(dir, { recursive: true });
  const name = `dual-build-${minify ? 'min' : 'plain'}.${format === 'esm' ? 'mjs' : 'cjs'}`;
  const own = new URL(`${process.pid}-${name}`, dir).pathname;
  buildSync({
    entryPoints: [new URL('src/index.ts', ROOT).pathname],
    bundle: true,
    platform: 'node',
    format,
    target: 'node20',
    packages: 'external',
    minify,
    outfile: own,
    logLevel: 'error',
  });
  const out = new URL(name, dir).pathname;
  renameSync(own, out);
  return out;
}

let esm: Sdk;
let cjs: Sdk;
let minified: Sdk;

beforeAll(async () => {
  esm = (await import(pathToFileURL(bundle('esm', false)).href)) as Sdk;
  cjs = createRequire(import.meta.url)(bundle('cjs', false)) as Sdk;
  minified = (await import(pathToFileURL(bundle('esm', true)).href)) as Sdk;
}, 60_000);

/** The error classes a build exports, by name: every export whose instances are Errors. */
function errorClasses(sdk: Sdk): [string, ErrorClass][] {
  const entries: [string, unknown][] = Object.entries(sdk);
  return entries.filter(
    (entry): entry is [string, ErrorClass] =>
      typeof entry[1] === 'function' && (entry[1] as { prototype?: unknown }).prototype instanceof Error,
  );
}

/** A client of `sdk` whose every request is answered `answer`, over no network. */
function clientOf(sdk: Sdk, answer: () => Response) {
  return new sdk.PlatformClient({
    environment: 'stage',
    hosts: { api: 'http://127.0.0.1:9', auth: 'http://127.0.0.1:9' },
    auth: { accessToken: 'a-fixed-token' },
    maxRetries: 0,
    fetch: async () => answer(),
  });
}

const notFound = () =>
  new Response(JSON.stringify({ code: 'not_found', message: 'Not found', field: 'product_code' }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });

describe('instanceof across the ES module and CommonJS builds', () => {
  test('the builds are two copies: each error class exists twice', () => {
    expect(errorClasses(esm).map(([name]) => name)).toEqual(errorClasses(cjs).map(([name]) => name));
    expect(errorClasses(esm).length).toBeGreaterThanOrEqual(22);
    expect(esm.PlatformError).not.toBe(cjs.PlatformError);
  });

  test("errors thrown by one build are instances of the other's classes, as of their own", async () => {
    const notFoundError = await clientOf(cjs, notFound)
      .products.paymentPeriods({ product_code: 'no-such-product' })
      .catch((e: unknown) => e);
    expect(notFoundError).toBeInstanceOf(esm.NotFoundError);
    expect(notFoundError).toBeInstanceOf(esm.APIError);
    expect(notFoundError).toBeInstanceOf(esm.PlatformError);
    expect(notFoundError).not.toBeInstanceOf(esm.RequestValidationError);
    expect(notFoundError).not.toBeInstanceOf(esm.ConflictError);
    expect(notFoundError).not.toBeInstanceOf(esm.SignOnError);
    expect(notFoundError).toMatchObject({ name: 'NotFoundError', status: 404, code: 'not_found' });

    const refused = await clientOf(esm, notFound)
      .products.paymentPeriods({ product_id: '42' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(cjs.RequestValidationError);
    expect(refused).toBeInstanceOf(cjs.PlatformError);
    expect(refused).not.toBeInstanceOf(cjs.APIError);

    let misconfigured: unknown;
    try {
      new esm.PlatformClient({ environment: 'stage', hosts: { api: '', auth: '' }, auth: { accessToken: 'x' } });
    } catch (error) {
      misconfigured = error;
    }
    expect(misconfigured).toBeInstanceOf(cjs.ClientConfigurationError);
    expect(misconfigured).not.toBeInstanceOf(cjs.UnsupportedRequestError);
  });

  test('for every pair of exported error classes, across the builds as within one', () => {
    const mine = errorClasses(esm);
    const theirs = new Map(errorClasses(cjs));
    for (const [name, ownClass] of mine) {
      const other = theirs.get(name);
      if (!other) throw new Error(`${name} is not exported by the CommonJS build`);
      const ofEsm = Object.create(ownClass.prototype) as unknown;
      const ofCjs = Object.create(other.prototype) as unknown;
      for (const [otherName, classOfEsm] of mine) {
        const classOfCjs = theirs.get(otherName) as ErrorClass;
        // Within one build: the class itself, or one it extends.
        const expected = ownClass === classOfEsm || ownClass.prototype instanceof classOfEsm;
        expect([name, otherName, ofCjs instanceof classOfEsm]).toEqual([name, otherName, expected]);
        expect([name, otherName, ofEsm instanceof classOfCjs]).toEqual([name, otherName, expected]);
      }
    }
  });

  test('a build whose class names a minifier changed: told by the names the SDK gives them, not constructor.name', async () => {
    expect(minified.NotFoundError.name).not.toBe('NotFoundError');
    const fromMinified = await clientOf(minified, notFound)
      .products.paymentPeriods({ product_code: 'no-such-product' })
      .catch((e: unknown) => e);
    expect(fromMinified).toBeInstanceOf(esm.NotFoundError);
    expect(fromMinified).toBeInstanceOf(cjs.APIError);
    expect(fromMinified).not.toBeInstanceOf(cjs.RateLimitError);
    const fromCjs = await clientOf(cjs, notFound)
      .products.paymentPeriods({ product_code: 'no-such-product' })
      .catch((e: unknown) => e);
    expect(fromCjs).toBeInstanceOf(minified.NotFoundError);
    expect(fromCjs).not.toBeInstanceOf(minified.UnprocessableEntityError);
  });

  test("a class of the caller's that extends one is told as any class is; no plain Error is an SDK error", () => {
    class MyNotFound extends esm.NotFoundError {}
    const mine = new MyNotFound({ status: 404, message: 'mine', headers: new Headers(), body: undefined });
    expect(mine).toBeInstanceOf(cjs.NotFoundError);
    expect(mine).toBeInstanceOf(cjs.PlatformError);
    expect(Object.create(cjs.NotFoundError.prototype)).not.toBeInstanceOf(MyNotFound);
    for (const value of [new Error('x'), new TypeError('x'), {}, null, undefined, 'PlatformError', 42]) {
      expect(value).not.toBeInstanceOf(esm.PlatformError);
      expect(value).not.toBeInstanceOf(cjs.SignOnError);
    }
  });
});
