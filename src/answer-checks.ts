/**
 * The compiled checks of the hot answers (`src/answer-checks.compiled.ts`, written by ajv from
 * their zod schemas): within a call they cost about a third of what zod's parse costs, and copy
 * nothing. Each decides an answer as zod does and gives the same data, its unknown keys removed in
 * place as `z.object` drops them (`test/sdk/answer-checks.test.ts` holds them to it); an answer
 * one of them refuses is parsed by zod again, for zod's issues.
 *
 * They are loaded when a client first asks for a hot answer (a bundler gives them a chunk of their
 * own, 3.3 KB gzipped); should the chunk fail to load, zod checks every answer.
 */
import type * as z from 'zod';
import { GetPaymentPeriodsResponse, GetProductsResponse } from './schemas/products.js';
import { FindTitleResponse, ListTitlesResponse } from './schemas/titles.js';

/**
 * The answers compiled, by the names the compiled module gives their checks: the catalogue a site
 * reads on its pages (products, payment periods, titles), the largest answers it reads most.
 */
export const HOT_ANSWERS: Readonly<Record<string, z.ZodType>> = {
  GetProductsResponse,
  GetPaymentPeriodsResponse,
  ListTitlesResponse,
  FindTitleResponse,
};

const HOT: ReadonlySet<z.ZodType> = new Set(Object.values(HOT_ANSWERS));

/** A compiled check: true when the answer is valid, its unknown keys then removed. */
export type CompiledCheck = (answer: unknown) => boolean;

const NONE: ReadonlyMap<z.ZodType, CompiledCheck> = new Map();

let compiled: ReadonlyMap<z.ZodType, CompiledCheck> | undefined;
let loading: Promise<void> | undefined;

/** Loads the compiled checks, once; resolves when they are in use (or, should they fail to load, zod stays). */
export function loadCompiledChecks(): Promise<void> {
  loading ??= import('./answer-checks.compiled.js').then(
    ({ COMPILED_CHECKS }) => {
      const checks = new Map<z.ZodType, CompiledCheck>();
      for (const [name, schema] of Object.entries(HOT_ANSWERS)) {
        const check = COMPILED_CHECKS[name];
        if (check) checks.set(schema, check);
      }
      compiled = checks;
    },
    () => {
      compiled = NONE;
    },
  );
  return loading;
}

/**
 * The compiled check of `schema` when it is a hot answer: at once when the checks are loaded, else
 * a promise of it, the load started (a call asks as it sends, so the chunk loads while it waits for
 * its answer, and every hot answer is checked the same way: its data in the order it came, as
 * zod's copy would not keep it). `undefined` for any other schema: a client that reads no hot
 * answer never loads the checks.
 */
export function compiledCheckOf(schema: z.ZodType): CompiledCheck | Promise<CompiledCheck | undefined> | undefined {
  if (!HOT.has(schema)) return undefined;
  if (compiled === undefined) return loadCompiledChecks().then(() => compiled?.get(schema));
  return compiled.get(schema);
}
