/**
 * The OpenAPI document (`mock/openapi.ts`): valid OpenAPI 3.1, with every entry of the endpoint
 * table and every route the platform serves (and nothing else), served at `/openapi.json`, and
 * true to the platform: every answer of `npm run demo` matches the document's schema for its status.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import { beforeAll, describe, expect, test } from 'vitest';
import { openApiDocument } from '../mock/openapi.js';
import { allRoutes } from '../mock/routes/index.js';
import { endpoints, pathOf } from '../src/endpoints.js';
import { ADAPTERS, useAdapter } from './mock/harness.js';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = openApiDocument() as Doc;

/**
 * Routes the document leaves out, by design: the test tools (`/__admin`), the document itself, and
 * the shop's own pages and form posts beyond endpoint 25 (its UI, not an API).
 */
const outOfDocument = (kind: string, method: string, path: string) =>
  kind === 'admin' ||
  path === '/openapi.json' ||
  (kind === 'shop' && !(method === 'GET' && path === '/marketplace/{groupId}/{marketplaceId}'));
/** `METHOD path` of every operation of the document. */
const operations = new Set(
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`)),
);

test('is a valid OpenAPI 3.1 document', async () => {
  const result = await new Validator().validate(structuredClone(doc) as Parameters<Validator['validate']>[0]);
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
});

test("holds every entry of the endpoint table, in both environments' spellings, and nothing else", () => {
  const expected = new Set(
    endpoints.flatMap((e) =>
      [...new Set([pathOf(e, 'stage'), pathOf(e, 'production')])].map((p) => `${e.method} ${p}`),
    ),
  );
  expect([...operations].sort()).toEqual([...expected].sort());
});

test("holds every route the platform serves, but its test tools, the shop's own form posts and itself", () => {
  const served = allRoutes
    .filter((r) => typeof r.path !== 'string' || !outOfDocument(r.kind, r.method, r.path))
    .flatMap((r) =>
      (typeof r.path === 'string' ? [r.path] : [r.path.stage, r.path.production]).map((p) => `${r.method} ${p}`),
    );
  expect(served.filter((op) => !operations.has(op))).toEqual([]);
});

describe.each(ADAPTERS)('GET /openapi.json through %s', (kind) => {
  const h = useAdapter(kind);
  test('answers the document, without a token', async () => {
    const answer = await h.call('/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(doc);
  });
});

describe('every answer of npm run demo matches the document', () => {
  let answers: { method: string; url: string; status: number; contentType: string; body: string }[] = [];

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'demo-answers-')), 'answers.json');
    await promisify(execFile)(process.execPath, ['--import', 'tsx', 'examples/demo.ts'], {
      cwd: new URL('..', import.meta.url),
      timeout: 60_000,
      env: { ...process.env, DEMO_RECORD: file },
    });
    answers = JSON.parse(readFileSync(file, 'utf8'));
  }, 60_000);

  test("each answer: its status is in the document, and its JSON body matches that status's schema", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // ajv-formats is CommonJS: its default export is the module object under Node's ESM.
    const addFormats = ((formats as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => Ajv2020;
    addFormats(ajv);
    ajv.addSchema(doc.components.schemas.ErrorBody as object, '#/components/schemas/ErrorBody');
    /** The operation of a request: the exact path, else a pattern path of the same method. */
    const operationOf = (method: string, pathname: string): Operation | undefined => {
      for (const [path, ops] of Object.entries(doc.paths)) {
        const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
        if (pattern.test(pathname) && ops[method.toLowerCase()]) return ops[method.toLowerCase()];
      }
      return undefined;
    };
    expect(answers.length).toBeGreaterThan(40);
    const problems: string[] = [];
    let checked = 0;
    for (const a of answers) {
      const { pathname } = new URL(a.url);
      if (pathname.startsWith('/shop/')) continue; // the shop's own pages (outOfDocument)
      const op = operationOf(a.method, pathname);
      const where = `${a.method} ${pathname} ${a.status}`;
      if (!op) {
        problems.push(`${where}: no operation`);
        continue;
      }
      const response = op.responses[String(a.status)];
      if (!response) {
        problems.push(`${where}: status not in the document`);
        continue;
      }
      const media = response.content?.['application/json'];
      if (!media || !a.contentType.includes('json')) continue;
      const schema = JSON.parse(
        JSON.stringify(media.schema).replaceAll('"#/components/schemas/ErrorBody"', '"#/components/schemas/ErrorBody"'),
      );
      const validate = ajv.compile(schema);
      if (!validate(JSON.parse(a.body))) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      checked++;
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
