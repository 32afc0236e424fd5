/**
 * The compiled checks of the hot answers (`src/answer-checks.compiled.ts`): the file is what the
 * generator makes of the schemas now, only schemas a JSON Schema describes exactly are compiled,
 * each check decides an answer as zod does and gives zod's data, and the SDK uses them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import * as z from 'zod';
import { COMPILED_CHECKS } from '../../src/answer-checks.compiled.js';
import { compiledCheckOf, HOT_ANSWERS, loadCompiledChecks } from '../../src/answer-checks.js';
import { findTitle, getPaymentPeriods, getProducts, listTitles } from '../../src/endpoints.js';
import { ResponseValidationError } from '../../src/index.js';
import {
  FindTitleResponse,
  GetPaymentPeriodsResponse,
  GetProductsResponse,
  ListTitlesResponse,
} from '../../src/schemas/index.js';
import { compileAnswerChecks, refusalOf } from './compile-answer-checks.js';
import { client, defaultHosts, paths, platform, READ, scopesOf, server, usePlatform } from './helpers.js';

usePlatform();

test('src/answer-checks.compiled.ts is what the generator makes of the schemas now', async () => {
  const file = new URL('../../src/answer-checks.compiled.ts', import.meta.url);
  const expected = await compileAnswerChecks();
  if (process.env.UPDATE_GENERATED === '1' && readFileSync(file, 'utf8') !== expected) writeFileSync(file, expected);
  expect(
    readFileSync(file, 'utf8'),
    'src/answer-checks.compiled.ts is stale: UPDATE_GENERATED=1 npx vitest run test/sdk/answer-checks.test.ts',
  ).toBe(expected);
  expect(Object.keys(COMPILED_CHECKS)).toEqual(Object.keys(HOT_ANSWERS));
});

describe('only a schema whose JSON Schema says exactly what zod checks is compiled', () => {
  test.each([
    ['a union', z.object({ a: z.union([z.string(), z.number()]) }), 'the answer.a: a union'],
    ['a refined object', z.object({ a: z.string() }).refine(() => true), 'the answer: a refined object'],
    [
      'an object that refuses unknown keys',
      z.strictObject({}),
      'the answer: an object that keeps or refuses unknown keys',
    ],
    [
      'an object that keeps unknown keys',
      z.looseObject({}),
      'the answer: an object that keeps or refuses unknown keys',
    ],
    [
      'a string length (code points in JSON Schema)',
      z.object({ a: z.string().min(1) }),
      'the answer.a: a string check other than a pattern',
    ],
    [
      'a pattern with a flag',
      z.object({ a: z.string().regex(/^a$/i) }),
      'the answer.a: a string check other than a pattern',
    ],
    ['a format checked by more than a pattern', z.object({ a: z.url() }), 'the answer.a: a string of format url'],
    ['a 32-bit integer', z.object({ a: z.int32() }), 'the answer.a: a number of format int32'],
    [
      'a refined number',
      z.object({ a: z.number().refine(() => true) }),
      'the answer.a: a number check other than an integer or a bound',
    ],
    [
      'an array of at least one',
      z.object({ a: z.array(z.string()).min(1) }),
      'the answer.a: an array with a check of its own',
    ],
    ['a default', z.object({ a: z.string().default('x') }), 'the answer.a: a default'],
    ['a transform', z.object({ a: z.string().transform((s) => s.length) }), 'the answer.a: a pipe'],
    ['a record', z.object({ a: z.record(z.string(), z.string()) }), 'the answer.a: a record'],
  ])('refused: %s', (_, schema, reason) => {
    expect(refusalOf(schema)).toBe(reason);
  });

  test('accepted: objects, arrays, patterns, safe integers and bounds, enums, literals, nullable and optional members', () => {
    const schema = z.object({
      at: z.iso.datetime({ offset: true }),
      code: z.string().regex(/^[A-Z]+$/),
      count: z.number().int().min(0),
      kind: z.enum(['a', 'b']).optional(),
      flag: z.literal(true).nullable(),
      list: z.array(z.object({ name: z.string(), price: z.number().lt(100) })),
    });
    expect(refusalOf(schema)).toBeUndefined();
  });

  test('the hot answers are the catalogue a site reads, each with its compiled check once loaded', async () => {
    expect(HOT_ANSWERS).toEqual({
      GetProductsResponse,
      GetPaymentPeriodsResponse,
      ListTitlesResponse,
      FindTitleResponse,
    });
    await loadCompiledChecks();
    for (const [name, schema] of Object.entries(HOT_ANSWERS)) {
      expect(compiledCheckOf(schema), name).toBe(COMPILED_CHECKS[name]);
      expect(typeof COMPILED_CHECKS[name], name).toBe('function');
    }
  });
});

/** Answers of the reference platform (demo seed) to each hot read, as they came. */
async function platformAnswers(): Promise<Map<z.ZodType, unknown[]>> {
  const raw = client({ validateResponses: false }, scopesOf(getProducts, getPaymentPeriods, listTitles, findTitle));
  const products = await Promise.all(
    [{}, { product_type: 'packages' } as const, { product_type: 'campaigns' } as const, { include_inactive: true }].map(
      (query) => raw.products.list(query),
    ),
  );
  const codes = products.flatMap((answer) => answer.items.filter((p) => p.is_package).map((p) => p.product_code));
  const periods = await Promise.all(
    [...new Set(codes)].map((product_code) => raw.products.paymentPeriods({ product_code }).catch(() => undefined)),
  );
  const titles = await raw.titles.list();
  const found = await Promise.all(titles.items.map((t) => raw.titles.find({ title_code: t.code })));
  return new Map<z.ZodType, unknown[]>([
    [GetProductsResponse, products],
    [GetPaymentPeriodsResponse, periods.filter((p) => p !== undefined)],
    [ListTitlesResponse, [titles]],
    [FindTitleResponse, found],
  ]);
}

/** Where a value sits in an answer: its keys and indexes. */
type Path = (string | number)[];
type Container = Record<string | number, unknown>;

/** Every place in a JSON value: the path of keys and indexes to it. */
function placesIn(value: unknown, at: Path = []): Path[] {
  const places = [at];
  if (Array.isArray(value))
    value.forEach((item, i) => {
      places.push(...placesIn(item, [...at, i]));
    });
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) places.push(...placesIn(item, [...at, key]));
  return places;
}

/** Values that sit on the edges of what the schemas take: near-miss times, numbers, shapes. */
const EDGE_VALUES: unknown[] = [
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  '',
  'x',
  '2020-02-29T00:00:00Z',
  '2021-02-29T00:00:00Z',
  '2020-01-01T00:00:00.123+02:00',
  '2020-01-01T24:00:00Z',
  '2020-01-01 00:00:00Z',
  '2020-01-01T00:00:00',
  'recurring',
  'month',
  [],
  {},
  [{}],
];

type Change =
  | { kind: 'edit'; place: number; at: number; text: string }
  | { kind: 'renumber'; place: number; value: number }
  | { kind: 'replace'; place: number; value: unknown }
  | { kind: 'remove'; place: number }
  | { kind: 'add'; place: number; key: string; value: unknown };

const anyValue = fc.oneof(fc.constantFrom(...EDGE_VALUES), fc.jsonValue({ maxDepth: 2 }));
const change: fc.Arbitrary<Change> = fc.oneof(
  // A text changed by a character or two, where its pattern (a time) is most likely to tell.
  fc.record({
    kind: fc.constant('edit' as const),
    place: fc.nat(),
    at: fc.nat(),
    text: fc.oneof(
      fc.constantFrom('', '0', '9', '2', 'T', 'Z', '+', '-', ':', '.', ' ', 'a'),
      fc.string({ maxLength: 2 }),
    ),
  }),
  // A number replaced by one on the edge of what its schema takes (an integer, a safe one).
  fc.record({
    kind: fc.constant('renumber' as const),
    place: fc.nat(),
    value: fc.oneof(
      fc.constantFrom(0, -1, 0.5, 1.5, 2 ** 53 - 1, 2 ** 53, -(2 ** 53), 1e308),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    ),
  }),
  fc.record({ kind: fc.constant('replace' as const), place: fc.nat(), value: anyValue }),
  fc.record({ kind: fc.constant('remove' as const), place: fc.nat() }),
  fc.record({
    kind: fc.constant('add' as const),
    place: fc.nat(),
    key: fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'extra'), fc.string()),
    value: anyValue,
  }),
);

/** What sits at `path` in `value`. */
function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, key) => (v as Container)[key], value);
}

/**
 * `answer` with `changes` made to a copy: a text edited, a number put on an edge, a member replaced
 * or removed (an item of a list taken out), a member added to an object (as JSON.parse makes it:
 * own, `__proto__` included).
 */
function changed(answer: unknown, changes: readonly Change[]): unknown {
  let copy = structuredClone(answer);
  for (const c of changes) {
    const places = placesIn(copy);
    if (c.kind === 'edit' || c.kind === 'renumber') {
      const kind = c.kind === 'edit' ? 'string' : 'number';
      const leaves = places.filter((path) => path.length > 0 && typeof valueAt(copy, path) === kind);
      if (leaves.length === 0) continue;
      const path = leaves[c.place % leaves.length]!;
      const parent = valueAt(copy, path.slice(0, -1)) as Container;
      const last = path.at(-1)!;
      if (c.kind === 'renumber') parent[last] = c.value;
      else {
        const text = parent[last] as string;
        const at = c.at % (text.length + 1);
        // Inserted, or in the place of one character.
        parent[last] = text.slice(0, at) + c.text + text.slice(at + (c.at % 2));
      }
      continue;
    }
    const path = places[c.place % places.length]!;
    const target = valueAt(copy, path);
    if (c.kind === 'add') {
      if (target !== null && typeof target === 'object' && !Array.isArray(target))
        Object.defineProperty(target, c.key, {
          value: structuredClone(c.value),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      continue;
    }
    if (path.length === 0) {
      if (c.kind === 'replace') copy = structuredClone(c.value);
      continue;
    }
    const parent = valueAt(copy, path.slice(0, -1)) as Container;
    const last = path.at(-1)!;
    if (c.kind === 'replace') parent[last] = structuredClone(c.value);
    else if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  }
  return copy;
}

describe('a compiled check decides each answer as zod does, and gives the same data', () => {
  let answers: Map<z.ZodType, unknown[]>;
  beforeAll(async () => {
    answers = await platformAnswers();
  });

  test('the platform gives answers of every hot read to start from', () => {
    for (const schema of Object.values(HOT_ANSWERS)) expect(answers.get(schema)?.length).toBeGreaterThan(0);
  });

  test.each(Object.keys(HOT_ANSWERS))('%s: any answer, changed anywhere', (name) => {
    const schema = HOT_ANSWERS[name]!;
    const check = COMPILED_CHECKS[name]!;
    const seeds = answers.get(schema)!;
    fc.assert(
      fc.property(fc.nat(), fc.array(change, { maxLength: 3 }), (seed, changes) => {
        const answer = changed(seeds[seed % seeds.length], changes);
        const byZod = schema.safeParse(structuredClone(answer));
        const compiled = structuredClone(answer);
        expect(check(compiled)).toBe(byZod.success);
        if (byZod.success) expect(compiled).toStrictEqual(byZod.data);
      }),
      { numRuns: 4000 },
    );
  });
});

describe('the SDK checks a hot answer with its compiled check', () => {
  beforeAll(() => loadCompiledChecks());

  test('zod does not parse it; the data is what zod would give, a member the platform adds dropped', async () => {
    const parse = vi.spyOn(GetProductsResponse, 'safeParse');
    const answer = await client({ validateResponses: false }).products.list({ product_type: 'packages' });
    server.use(
      http.get(`${defaultHosts.api}${paths.getProducts}`, () =>
        HttpResponse.json({ items: answer.items.map((p) => ({ ...p, added_later: 1 })), next: 'x' }),
      ),
    );
    const { items } = await client().products.list({ product_type: 'packages' });
    expect(parse).not.toHaveBeenCalled();
    expect(items).toStrictEqual(GetProductsResponse.parse(answer).items);
    expect(items.some((p) => 'added_later' in p)).toBe(false);
  });

  test('its data keeps the members in the order they came, as with validateResponses: false', async () => {
    const query = { product_type: 'packages' } as const;
    const raw = await client({ validateResponses: false }).products.list(query);
    const checked = await client().products.list(query);
    expect(JSON.stringify(checked)).toBe(JSON.stringify(raw));
    // zod's copy orders them as its schema does: the platform sends integration_code later.
    expect(JSON.stringify(GetProductsResponse.parse(raw))).not.toBe(JSON.stringify(raw));
  });

  test('an answer it refuses is a ResponseValidationError with zod\u2019s issues', async () => {
    server.use(
      http.get(`${defaultHosts.api}${paths.getProducts}`, () =>
        HttpResponse.json({ items: [{ id: 42, extra: true }] }, { headers: { 'x-correlation-id': 'corr-bad' } }),
      ),
    );
    const error = await client()
      .products.list()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, correlationId: 'corr-bad' });
    const expected = GetProductsResponse.safeParse({ items: [{ id: 42 }] }).error!.issues.map((i) => i.path.join('.'));
    expect((error as ResponseValidationError).issues.map((i) => i.path.join('.'))).toEqual(expected);
  });
});

describe('should the compiled checks fail to load (a chunk a page cannot fetch)', () => {
  // Test files share their workers' module cache (`isolate: false`): the failing chunk is loaded
  // into a fresh registry, and the next file gets the real one back.
  afterAll(() => {
    vi.doUnmock('../../src/answer-checks.compiled.js');
    vi.resetModules();
  });

  test('zod checks every answer, and the calls succeed', async () => {
    vi.resetModules();
    vi.doMock('../../src/answer-checks.compiled.js', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const fresh = await import('../../src/answer-checks.js');
    const { PlatformClient } = await import('../../src/index.js');
    const schema = fresh.HOT_ANSWERS.GetProductsResponse!;
    const parse = vi.spyOn(schema, 'safeParse');
    const accessToken = platform.mintToken({ scopes: [READ] }).access_token;
    const options = { environment: 'stage', hosts: defaultHosts, auth: { accessToken } } as const;
    const checked = await new PlatformClient(options).products.list({ product_type: 'packages' });
    expect(fresh.compiledCheckOf(schema)).toBeUndefined();
    expect(parse).toHaveBeenCalledTimes(1);
    const raw = await new PlatformClient({ ...options, validateResponses: false }).products.list({
      product_type: 'packages',
    });
    expect(checked).toStrictEqual(schema.parse(raw));
  });
});
