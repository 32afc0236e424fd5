/**
 * The OpenAPI document (`mock/openapi.ts`): valid OpenAPI 3.1, with every entry of the endpoint
 * table and every route the platform serves (and nothing else), served at `/openapi.json` (its
 * version: openapi-version.test.ts), and true to the platform: every status a route can answer is in it (read from
 * the routes' source), and every answer of `npm run demo` matches its schema for its status.
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
import { commonErrorStatuses, openApiDocument } from '../mock/openapi.js';
import { allRoutes } from '../mock/routes/index.js';
import * as table from '../src/endpoints.js';
import { type Endpoint, endpoints, pathOf } from '../src/endpoints.js';
import { bundled } from './bundle.js';
import { ADAPTERS, demoUsers, useAdapter } from './mock/harness.js';
import { withAnswersInline } from './openapi-answers.js';
import { type RouteStatuses, routeStatuses } from './route-statuses.js';

interface Operation {
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: unknown }> }>;
}
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = withAnswersInline(openApiDocument()) as Doc;

/** A JSON Schema validator of the document's schemas: a schema compiled with the document's `components` beside it. */
function compiler(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its default export is the module object under Node's ESM.
  const addFormats = ((formats as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => Ajv2020;
  addFormats(ajv);
  return ajv;
}

/**
 * Routes the document leaves out, by design: the test tools (`/__admin`), the document itself, and
 * the shop's own pages and form posts that are not entries of the table (its UI, not an API).
 */
const outOfDocument = (kind: string, method: string, path: string) =>
  kind === 'admin' ||
  path === '/openapi.json' ||
  (kind === 'shop' && !endpoints.some((e) => e.method === method && pathOf(e, 'stage') === path));
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

test("holds every route the platform serves, but its test tools, the shop's own form posts and itself; and serves each", () => {
  const served = new Set(
    allRoutes
      .filter((r) => typeof r.path !== 'string' || !outOfDocument(r.kind, r.method, r.path))
      .flatMap((r) =>
        (typeof r.path === 'string' ? [r.path] : [r.path.stage, r.path.production]).map((p) => `${r.method} ${p}`),
      ),
  );
  expect([...served].filter((op) => !operations.has(op))).toEqual([]);
  expect([...operations].filter((op) => !served.has(op))).toEqual([]);
});

/** Each entry of the table by its export name in `src/endpoints.ts`. */
const entries = new Map<string, Endpoint>();
for (const [name, value] of Object.entries(table) as [string, unknown][])
  if (endpoints.includes(value as Endpoint)) entries.set(name, value as Endpoint);

/**
 * Statuses the source analysis finds but the route cannot answer (a function reached whose refusal
 * the route rules out beforehand), each with the reason. Each must still be found: a stale one fails.
 */
const UNREACHABLE: Readonly<Record<string, readonly number[]>> = {
  // createSsoSession answers 404 for an unknown client; these routes pass the client they have just found.
  ssoIdentify: [404],
  ssoCreateSession: [404],
};

describe("every status a route can answer is in the document, and the table's errors are each answered", () => {
  let analysed: RouteStatuses[] = [];
  beforeAll(() => {
    analysed = routeStatuses();
  }, 120_000);

  /** The document's operations of an entry (both spellings of endpoint 10). */
  const operationsOf = (e: Endpoint): Operation[] =>
    [...new Set([pathOf(e, 'stage'), pathOf(e, 'production')])].map((p) => doc.paths[p]![e.method.toLowerCase()]!);

  test('the analysis reads every route of the table, and every status it finds', () => {
    expect(analysed.flatMap((r) => r.unreadable)).toEqual([]);
    expect(analysed.filter((r) => !entries.has(r.entry)).map((r) => r.entry)).toEqual([]);
    expect([...entries.keys()].filter((name) => !analysed.some((r) => r.entry === name))).toEqual([]);
    // It finds what it must: endpoint 5's refusal of a subscription in another state, 19's sync under way.
    const of = (name: string) => analysed.find((r) => r.entry === name)!;
    expect([...of('transferSubscription').errors]).toContain(409);
    expect([...of('syncCustomerSubscriptions').errors]).toContain(409);
    expect([...of('marketplace').results]).toEqual(expect.arrayContaining([303, 404]));
  });

  test('each status a route answers is documented, with the media type it is answered in', () => {
    const problems: string[] = [];
    for (const r of analysed) {
      const e = entries.get(r.entry)!;
      const skip = new Set(UNREACHABLE[r.entry] ?? []);
      for (const op of operationsOf(e)) {
        for (const status of r.errors) {
          if (skip.has(status)) continue;
          if (!op.responses[String(status)]?.content?.['application/json'])
            problems.push(`${r.entry}: ${status} (a JSON error, ${r.sources.get(status)}) is not documented`);
        }
        for (const status of r.results) {
          if (skip.has(status)) continue;
          const response = op.responses[String(status)];
          const media = status < 400 ? undefined : e.page ? 'text/html' : 'application/json';
          if (!response || (media && !response.content?.[media]))
            problems.push(
              `${r.entry}: ${status} (${media ?? 'a redirect'}, ${r.sources.get(status)}) is not documented`,
            );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test("the document lists no status its route cannot answer: each of an entry's errors is answered by its route", () => {
    const problems: string[] = [];
    for (const [name, e] of entries) {
      const answered = new Set(analysed.filter((r) => r.entry === name).flatMap((r) => [...r.errors, ...r.results]));
      for (const status of e.errors ?? [])
        if (!answered.has(status)) problems.push(`${name}: ${status} is never answered`);
      const expected = new Set([e.status, ...commonErrorStatuses(e), ...answered]);
      for (const op of operationsOf(e))
        for (const status of Object.keys(op.responses).map(Number))
          if (!expected.has(status) || UNREACHABLE[name]?.includes(status))
            problems.push(`${name}: ${status} is documented but never answered`);
    }
    for (const [name, statuses] of Object.entries(UNREACHABLE)) {
      const r = analysed.find((a) => a.entry === name);
      for (const status of statuses)
        if (!r || !(r.errors.has(status) || r.results.has(status)))
          problems.push(`${name}: ${status} is no longer found`);
    }
    expect(problems).toEqual([]);
  });
});

describe.each(ADAPTERS)('GET /openapi.json through %s', (kind) => {
  const h = useAdapter(kind);
  test("answers the document of this server, without a token: its own URL, the stage paths, the spec's /me", async () => {
    const answer = await h.call('/openapi.json');
    expect(answer.status).toBe(200);
    const url = h.origin();
    expect(answer.body).toEqual(openApiDocument({ server: { url, environment: 'stage', meShape: 'spec' } }));
    const served = answer.body as Doc & { servers: { url: string }[] };
    expect(served.servers.map((s) => s.url)).toEqual([url]);
    expect(Object.keys(served.paths)).toContain(pathOf(table.getHelpdeskMessageTemplate, 'stage'));
    expect(Object.keys(served.paths)).not.toContain(pathOf(table.getHelpdeskMessageTemplate, 'production'));
  });
});

describe.each(ADAPTERS)('GET /openapi.json of a production platform with the documented /me, through %s', (kind) => {
  const h = useAdapter(kind, { environment: 'production', meShape: 'documented' });
  test('lists only the production spelling of endpoint 10, and /me in the shape it answers', async () => {
    const served = (await h.call('/openapi.json')).body as Doc & { servers: { url: string }[] };
    expect(served.servers.map((s) => s.url)).toEqual([h.origin()]);
    const production = pathOf(table.getHelpdeskMessageTemplate, 'production');
    expect(Object.keys(served.paths)).toContain(production);
    expect(Object.keys(served.paths)).not.toContain(pathOf(table.getHelpdeskMessageTemplate, 'stage'));
    // The stage spelling answers 404 here: a document that listed it would send clients there.
    const { access_token } = h.platform.mintToken({ scopes: ['/external/helpdesk/r'] });
    const stage = await h.call(pathOf(table.getHelpdeskMessageTemplate, 'stage'), {
      query: { id: 'a'.repeat(24) },
      token: access_token,
    });
    expect(stage.status).toBe(404);
    const me = served.paths[pathOf(table.getSignedInUser, 'stage')]!.get!.responses['200']!.content![
      'application/json'
    ]!.schema as { $ref: string };
    expect(me).toEqual({ $ref: '#/components/schemas/DocumentedMeResponse' });
    // What the server answers is what the document says.
    const user = h.platform.mintToken({ scopes: [], accountId: demoUsers.anna.id }).access_token;
    const answer = await h.call(pathOf(table.getSignedInUser, 'stage'), { token: user });
    const validate = compiler().compile({ ...me, components: served.components });
    expect(validate(answer.body), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe('every answer of npm run demo matches the document', () => {
  let answers: {
    method: string;
    url: string;
    status: number;
    contentType: string;
    headers: Record<string, string>;
    body: string;
  }[] = [];

  beforeAll(async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'demo-answers-')), 'answers.json');
    // Bundled from the current sources and started with node: a third of tsx's start-up.
    await promisify(execFile)(process.execPath, [bundled('examples/demo.ts')], {
      cwd: new URL('..', import.meta.url),
      timeout: 60_000,
      env: { ...process.env, DEMO_RECORD: file },
    });
    answers = JSON.parse(readFileSync(file, 'utf8'));
  }, 60_000);

  test("each answer: its status is in the document, its headers that a client acts on are its response's, and its JSON body matches that status's schema", () => {
    const ajv = compiler();
    /** The operation of a request: the exact path, else a pattern path of the same method. */
    const operationOf = (method: string, pathname: string): Operation | undefined => {
      const m = method.toLowerCase();
      const exact = doc.paths[pathname]?.[m];
      if (exact) return exact;
      for (const [path, ops] of Object.entries(doc.paths)) {
        if (!path.includes('{') || !ops[m]) continue;
        const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
        if (pattern.test(pathname)) return ops[m];
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
      const documentedHeaders = new Set(Object.keys(response.headers ?? {}).map((name) => name.toLowerCase()));
      for (const name of ['x-correlation-id', 'www-authenticate', 'retry-after', 'allow', 'location'])
        if (a.headers[name] !== undefined && !documentedHeaders.has(name))
          problems.push(`${where}: its header ${name} is not documented`);
      // An answer without a body (a redirect) needs no content; any other, its media type documented.
      if (a.body === '' && !response.content) continue;
      const media = a.contentType.split(';')[0]!.trim().toLowerCase();
      const documented = response.content?.[media];
      if (!documented) {
        problems.push(
          `${where}: answered ${media || 'no content type'}, documented ${Object.keys(response.content ?? {}).join(', ') || 'no body'}`,
        );
        continue;
      }
      if (media !== 'application/json') continue;
      const validate = ajv.compile({ ...(documented.schema as object), components: doc.components });
      if (!validate(JSON.parse(a.body))) problems.push(`${where}: ${ajv.errorsText(validate.errors)}`);
      checked++;
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});
