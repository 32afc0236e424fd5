/**
 * docs/state.schema.json is the JSON Schema of the platform's state document, generated from the
 * zod schema the platform validates seeds and `PUT /__admin/state` with; the table of docs/state.md
 * (a row per key of the document: its records' fields and what they are for) is generated from the
 * same JSON Schema, that is from `COLLECTIONS` in mock/core/document.ts and each record schema's
 * `.meta({ description })`. This test fails when either is stale;
 * `UPDATE_GENERATED=1 npx vitest run test/state-schema.test.ts` rewrites them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import * as z from 'zod';
import { createPlatform, StateDocumentSchema } from '../mock/index.js';

const REGENERATE = 'UPDATE_GENERATED=1 npx vitest run test/state-schema.test.ts';
const file = new URL('../docs/state.schema.json', import.meta.url);
const page = new URL('../docs/state.md', import.meta.url);
const BEGIN = `<!-- generated from COLLECTIONS (mock/core/document.ts): ${REGENERATE} -->`;
const END = '<!-- /generated -->';

/** The parts of a JSON Schema (as `z.toJSONSchema` writes it) the table reads. */
type Json = {
  type?: string | string[];
  description?: string;
  properties?: Record<string, Json>;
  required?: string[];
  items?: Json;
  anyOf?: Json[];
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
};

/** The JSON Schema of the state document as a seed may write it: docs/state.schema.json, and the source of the table. */
function stateSchema(): Json & Record<string, unknown> {
  return {
    ...(z.toJSONSchema(StateDocumentSchema, { io: 'input', unrepresentable: 'any' }) as Json),
    title: 'Reference platform state document',
  };
}

const isNull = (s: Json) => s.type === 'null';

/** A value's schema without its null, and whether null is allowed. */
function withoutNull(s: Json): { schema: Json; nullable: boolean } {
  if (s.anyOf?.some(isNull)) {
    const { anyOf, ...outer } = s;
    const rest = anyOf.filter((m) => !isNull(m));
    const [only] = rest;
    return { schema: rest.length === 1 && only ? { ...only, ...outer } : { ...outer, anyOf: rest }, nullable: true };
  }
  if (Array.isArray(s.type) && s.type.includes('null')) {
    const types = s.type.filter((t) => t !== 'null');
    return { schema: { ...s, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema: s, nullable: false };
}

/** A bound a schema sets itself (`.int()` alone bounds an integer to the safe ones: not shown). */
const bounded = (n: number | undefined): n is number => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;

/** `a`, `b` or `c`. */
function oneOf(values: readonly unknown[]): string {
  const quoted = values.map((v) => `\`${String(v)}\``);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : quoted.join('');
}

/**
 * What a value's schema says beyond its name: its values, its fields (an object's, or those of the
 * objects of a list), its range, its description (what the Records column says of a field), and
 * null: `or null` unless the description says what null means, `null by default` for a default of null.
 */
function notesOf(value: Json, withDescription = true): string[] {
  const { schema, nullable } = withoutNull(value);
  const shape = schema.type === 'array' && schema.items ? schema.items : schema;
  const notes: string[] = [];
  if (shape.enum) notes.push(oneOf(shape.enum));
  if (shape.properties) notes.push(fieldsOf(shape));
  if (bounded(shape.minimum) && bounded(shape.maximum)) notes.push(`${shape.minimum}-${shape.maximum}`);
  if (withDescription && schema.description) notes.push(schema.description);
  if (schema.default === null) notes.push('null by default');
  else if (nullable && !schema.description?.includes('null')) notes.push('or null');
  if (schema.default !== undefined && schema.default !== null) {
    const shown = typeof schema.default === 'string' ? schema.default : JSON.stringify(schema.default);
    notes.push(`default \`${shown}\``);
  }
  return notes;
}

/** `head`, with its notes in brackets when it has any. */
const annotated = (head: string, notes: string[]) => (notes.length ? `${head} (${notes.join('; ')})` : head);

/** An object's fields in declaration order: `name`, `optional`?, each with its notes. */
function fieldsOf(object: Json): string {
  return Object.entries(object.properties ?? {})
    .map(([name, p]) => annotated(`\`${name}\`${object.required?.includes(name) ? '' : '?'}`, notesOf(p)))
    .join(', ');
}

const cell = (text: string) => text.replaceAll('|', '\\|');

/** The table of docs/state.md: a row per key of the state document, in the document's order. */
function stateTable(document: Json): string {
  const seen = new Map<string, string>();
  const rows = Object.entries(document.properties ?? {}).map(([key, value]) => {
    const record = value.type === 'array' ? value.items : undefined;
    const notes = record ? record.description : value.description;
    if (!notes)
      throw new Error(
        `${key} has no description: give its ${record ? 'record schema' : 'schema'} .meta({ description }) in mock/core/document.ts`,
      );
    if (!record)
      return `| \`${key}\` | ${cell(annotated(`a ${value.type}`, notesOf(value, false)))} | ${cell(notes)} |`;
    const { description: _, ...fields } = record;
    const shape = JSON.stringify(fields);
    const same = [...seen].find(([, earlier]) => earlier === shape)?.[0];
    seen.set(key, shape);
    return `| \`${key}\` | ${cell(same ? `the same fields as \`${same}\`` : fieldsOf(fields))} | ${cell(notes)} |`;
  });
  return ['| Key | Records | Notes |', '|---|---|---|', ...rows].join('\n');
}

/** docs/state.md with its table written anew. */
function rewritten(markdown: string, document: Json): string {
  const start = markdown.indexOf(`${BEGIN}\n`);
  const end = markdown.indexOf(`\n${END}`, start);
  if (start < 0 || end < 0) throw new Error(`docs/state.md has no ${BEGIN} ... ${END} for its table`);
  return `${markdown.slice(0, start + BEGIN.length + 1)}${stateTable(document)}${markdown.slice(end)}`;
}

test('docs/state.schema.json is the JSON Schema of the state document the platform accepts', () => {
  const text = `${JSON.stringify(stateSchema(), null, 2)}\n`;
  if (process.env.UPDATE_GENERATED === '1') writeFileSync(file, text);
  expect(readFileSync(file, 'utf8'), `docs/state.schema.json is stale: ${REGENERATE}`).toBe(text);
});

test("docs/state.md's table is generated from the collections of the state document", () => {
  const markdown = readFileSync(page, 'utf8');
  const expected = rewritten(markdown, stateSchema());
  if (process.env.UPDATE_GENERATED === '1' && expected !== markdown) writeFileSync(page, expected);
  else expect(markdown, `the table of docs/state.md is stale: ${REGENERATE}`).toBe(expected);
});

test('a collection without a description has no row: the table is read from the schema', () => {
  const document = stateSchema();
  const bare = { ...document, properties: { widgets: { type: 'array', items: { type: 'object', properties: {} } } } };
  expect(() => stateTable(bare)).toThrow(/widgets has no description/);
  const table = stateTable(document);
  expect(table).toContain(
    '| `access_tokens` | `access_token`, `refresh_token`, `client_id`, `scopes`, `account_id` (null: server to server),',
  );
  expect(table).toContain('| `helpdesk_message_templates` | the same fields as `helpdesk_messages` | Endpoint 10. |');
});

test('the minimal state document shown in docs/state.md loads, and its client gets a token', async () => {
  const markdown = readFileSync(page, 'utf8');
  const json = /```json\n([\s\S]*?)```/.exec(markdown)?.[1];
  expect(json).toBeDefined();
  const platform = createPlatform({ seed: JSON.parse(json ?? '') });
  const answer = await platform.handle(
    new Request('https://auth.platform.test/api/authorization/access_token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'none',
        client_id: 'my-client',
        client_secret: 'my-client-secret-at-least-32-bytes-long',
      }),
    }),
  );
  expect(answer.status).toBe(200);
  expect(platform.snapshot().products).toEqual([]);
});
