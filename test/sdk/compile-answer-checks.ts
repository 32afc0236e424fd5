/**
 * Writes `src/answer-checks.compiled.ts`: the checks of the hot answers (`HOT_ANSWERS` in
 * `src/answer-checks.ts`) compiled by ajv from their zod schemas, which the SDK runs instead of
 * zod's parse once they are loaded. The module imports nothing: a bundler gives it a chunk of its
 * own without moving the schemas it was made from out of the SDK's entry. Run by
 * `test/sdk/answer-checks.test.ts`, which fails when the file is stale:
 * `UPDATE_GENERATED=1 npx vitest run test/sdk/answer-checks.test.ts` rewrites it.
 *
 * A compiled check must decide every answer as zod decides it, and give the same data: so only a
 * schema made of the parts whose JSON Schema says exactly what zod checks is compiled
 * ({@link refusalOf}), and its unknown keys are removed in place, as zod's `z.object` drops them.
 */
import { readdirSync } from 'node:fs';
import { Ajv } from 'ajv';
import standalone from 'ajv/dist/standalone/index.js';
import { transformSync } from 'esbuild';
import * as z from 'zod';
import { HOT_ANSWERS } from '../../src/answer-checks.js';

/** The part of a zod schema's definition the gate reads. */
interface Definition {
  readonly type: string;
  readonly check?: string;
  readonly format?: string;
  readonly pattern?: unknown;
  readonly checks?: readonly { readonly _zod: { readonly def: Definition } }[];
  readonly shape?: Readonly<Record<string, z.ZodType>>;
  readonly catchall?: unknown;
  readonly element?: z.ZodType;
  readonly innerType?: z.ZodType;
}

function definitionOf(schema: z.ZodType): Definition {
  return (schema as unknown as { _zod: { def: Definition } })._zod.def;
}

/** A regular expression a JSON Schema `pattern` says exactly: without flags. */
function plainPattern(pattern: unknown): boolean {
  return pattern instanceof RegExp && pattern.flags === '';
}

/** Whether a string check is a regular expression and nothing else (`regex`, `z.iso.datetime`). */
function patternOnly(def: Definition): boolean {
  return (
    def.check === 'string_format' && (def.format === 'regex' || def.format === 'datetime') && plainPattern(def.pattern)
  );
}

/** Whether a number check is one JSON Schema says exactly: a safe integer, a bound. */
function exactNumberCheck(def: Definition): boolean {
  if (def.check === 'number_format') return def.format === 'safeint';
  return def.check === 'greater_than' || def.check === 'less_than';
}

/**
 * Why `schema` cannot be compiled (its first part whose JSON Schema would not check what zod
 * checks), or `undefined` when it can. Refused: refinements, transforms and defaults (JSON Schema
 * has none, or ajv would not apply them), unions (ajv would remove keys while trying a branch that
 * fails), objects that keep or refuse unknown keys, string lengths (JSON Schema counts code points,
 * zod UTF-16 units), regular expressions with flags, and every kind not listed below.
 */
export function refusalOf(schema: z.ZodType, at = 'the answer'): string | undefined {
  const def = definitionOf(schema);
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  switch (def.type) {
    case 'object':
      if (def.catchall !== undefined) return `${at}: an object that keeps or refuses unknown keys`;
      if (checks.length > 0) return `${at}: a refined object`;
      for (const [key, value] of Object.entries(def.shape ?? {})) {
        const refused = refusalOf(value, `${at}.${key}`);
        if (refused) return refused;
      }
      return undefined;
    case 'array':
      if (checks.length > 0) return `${at}: an array with a check of its own`;
      return def.element && refusalOf(def.element, `${at}[]`);
    case 'optional':
    case 'nullable':
      return def.innerType && refusalOf(def.innerType, at);
    case 'string':
      if (def.check !== undefined && !patternOnly(def)) return `${at}: a string of format ${def.format}`;
      return checks.every(patternOnly) ? undefined : `${at}: a string check other than a pattern`;
    case 'number':
      if (def.check !== undefined && !exactNumberCheck(def)) return `${at}: a number of format ${def.format}`;
      return checks.every(exactNumberCheck) ? undefined : `${at}: a number check other than an integer or a bound`;
    case 'boolean':
    case 'null':
    case 'enum':
    case 'literal':
      return checks.length > 0 ? `${at}: a refined ${def.type}` : undefined;
    default:
      return `${at}: a ${def.type}`;
  }
}

/** Every schema `src/schemas/` exports, with its name. */
async function namedSchemas(): Promise<Map<z.ZodType, { name: string }>> {
  const named = new Map<z.ZodType, { name: string }>();
  const folder = new URL('../../src/schemas/', import.meta.url);
  for (const file of readdirSync(folder).sort()) {
    if (!file.endsWith('.ts') || file === 'index.ts') continue;
    const exported: Record<string, unknown> = await import(new URL(file, folder).href);
    for (const [name, value] of Object.entries(exported))
      if (value instanceof z.ZodType && !named.has(value)) named.set(value, { name });
  }
  return named;
}

/** Removes what the compiled checks do not read: `$schema`, and `format` (its `pattern` checks what zod checks). */
function withoutAnnotations(value: unknown): void {
  if (Array.isArray(value)) value.forEach(withoutAnnotations);
  else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    delete record.$schema;
    delete record.format;
    Object.values(record).forEach(withoutAnnotations);
  }
}

const HEADER = `// Generated by test/sdk/compile-answer-checks.ts from the zod schemas of the hot answers; do not
// edit. \`UPDATE_GENERATED=1 npx vitest run test/sdk/answer-checks.test.ts\` rewrites it.
// The code is ajv's standalone code (https://ajv.js.org/standalone.html), as ajv 8 writes it, unchecked:
// @ts-nocheck
`;

/** The source of `src/answer-checks.compiled.ts`. */
export async function compileAnswerChecks(): Promise<string> {
  const named = await namedSchemas();
  const hot = Object.entries(HOT_ANSWERS).map(([name, schema]) => {
    if (named.get(schema)?.name !== name) throw new Error(`${name} is not the schema src/schemas exports by that name`);
    const refused = refusalOf(schema, name);
    if (refused) throw new Error(`${name} cannot be compiled: ${refused}`);
    return name;
  });
  // Every object schema with a name is a definition of its own, so that what answers share
  // (a product, a price period) is one function.
  const registry = z.registry<{ id: string }>();
  for (const [schema, { name }] of named)
    if (definitionOf(schema).type === 'object' && refusalOf(schema) === undefined) registry.add(schema, { id: name });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-7',
    io: 'output',
    unrepresentable: 'throw',
    uri: (id) => id,
  }) as { schemas: Record<string, Record<string, unknown>> };
  const ajv = new Ajv({
    code: { source: true, esm: true },
    // In place, where the schema says `additionalProperties: false`: what z.object drops.
    removeAdditional: true,
    inlineRefs: false,
    // A pattern as zod compiles it: without the `u` flag.
    unicodeRegExp: false,
    allErrors: false,
    messages: false,
    strict: true,
  });
  for (const schema of Object.values(schemas)) {
    withoutAnnotations(schema);
    ajv.addSchema(schema);
  }
  // A CommonJS module: under NodeNext, its function is the `default` of what it exports.
  const code = standalone.default(ajv, Object.fromEntries(hot.map((name) => [`check${name}`, name])));
  // The chunk stands alone: no runtime of ajv's (`equal`, `ucs2length`), which the gate keeps out.
  if (/\brequire\(|^import /m.test(code)) throw new Error('the compiled checks need a module of ajv at run time');
  // Nor code made at run time: a page whose Content-Security-Policy forbids eval runs them.
  if (/\bnew Function\b|\beval\(/.test(code)) throw new Error('the compiled checks would make code at run time');
  const formatted = transformSync(code.replace(/^"use strict";/, ''), { format: 'esm', target: 'es2022' })
    // What ajv exports itself: the map below is the module's one export.
    .code.replace(/^export \{[^}]*\};\n/m, '');
  return [
    HEADER,
    formatted.trimEnd(),
    '',
    "/** The compiled check of each hot answer, by its schema's name: true when the answer is valid (its unknown keys removed). */",
    'export const COMPILED_CHECKS: Readonly<Record<string, (answer: unknown) => boolean>> = {',
    ...hot.map((name) => `  ${name}: check${name},`),
    '};',
    '',
  ].join('\n');
}
