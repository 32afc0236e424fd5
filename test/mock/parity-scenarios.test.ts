/**
 * The parity scenarios as data: each step tied to a row that `docs/assumptions.md` has, sent to the
 * host its effect allows, named once in its scenario; and the page that lists them (`docs/parity.md`)
 * true to them: its figures are regenerated with `UPDATE_GENERATED=1`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ROWS } from '../../mock/node/parity/rows.js';
import { call, type Step, type StepRequest } from '../../mock/node/parity/scenario.js';
import { SCENARIOS } from '../../mock/node/parity/scenarios/index.js';
import * as table from '../../src/endpoints.js';
import { type Endpoint, endpoints, nameOf } from '../../src/endpoints.js';
import { entryFor } from '../paths.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Every row of `docs/assumptions.md`, spelt `Section / Topic`. */
function assumptionRows(): Set<string> {
  const rows = new Set<string>();
  let section = '';
  for (const line of read('docs/assumptions.md').split('\n')) {
    if (line.startsWith('## ')) section = line.slice(3).trim();
    else if (line.startsWith('| ') && !line.startsWith('| Topic') && !line.startsWith('|---'))
      rows.add(`${section} / ${line.split('|')[1]?.trim() ?? ''}`);
  }
  return rows;
}

/** Every step of every scenario, the undoing steps included. */
const steps: [string, Step][] = SCENARIOS.flatMap((s) =>
  s.steps.flatMap((step): [string, Step][] => [
    [s.name, step],
    ...(step.undo ? [[s.name, step.undo] as [string, Step]] : []),
  ]),
);

/** The reads of the endpoint table (a page, the shop's, is no read of the API). */
const reads = endpoints.filter((e) => e.method === 'GET' && !e.page).map((e) => [nameOf(e), e] as const);

/** The requests of the steps that send `e`: a GET of its path, as written (`{account_id}`, filled by the run) or filled already (`call(entry, { path })`). */
function requestsOf(e: Endpoint): StepRequest[] {
  return steps
    .map(([, step]) => step.request)
    .filter(
      (request) => request.method === 'GET' && entryFor('GET', request.path.split('?')[0] ?? '', request.host) === e,
    );
}

/** The refusal of a token without the read's scope: met only by a read that needs a scope (24 needs none). */
const SCOPE_REFUSAL = 'with a token without its scope';

/** The refusals every read meets (`readRefusals`), each told by its request. */
const READ_REFUSALS: readonly (readonly [string, (request: StepRequest) => boolean])[] = [
  ['without a token', (r) => r.auth === 'none'],
  ['with a token that is not a bearer token', (r) => r.auth === 'malformed'],
  ['with a token the platform never issued', (r) => r.auth === 'unknown'],
  [SCOPE_REFUSAL, (r) => typeof r.auth === 'object'],
  ['with an unknown parameter', (r) => r.query?.some(([name]) => name === 'parity_unknown') === true],
  ['with a content type that is not JSON', (r) => r.headers?.['content-type'] === 'text/plain'],
];

/** Whether a request names a parameter twice. */
function repeatsParameter(request: StepRequest): boolean {
  const names = (request.query ?? []).map(([name]) => name);
  return new Set(names).size < names.length;
}

describe('parity scenarios', () => {
  test('every row they name is a row of docs/assumptions.md, and every step names one of them', () => {
    const rows = assumptionRows();
    expect(Object.values(ROWS).filter((r) => !rows.has(r))).toEqual([]);
    const named = new Set<string>(Object.values(ROWS));
    expect(steps.filter(([, step]) => !named.has(step.row)).map(([s, step]) => `${s} / ${step.name}`)).toEqual([]);
  });

  test('a step is named once in its scenario, and a scenario once in the run (snapshots are keyed by them)', () => {
    for (const scenario of SCENARIOS) {
      const names = scenario.steps.flatMap((s) => [s.name, ...(s.undo ? [s.undo.name] : [])]);
      expect(new Set(names).size, scenario.name).toBe(names.length);
    }
    expect(new Set(SCENARIOS.map((s) => s.name)).size).toBe(SCENARIOS.length);
  });

  test('each effect goes where it may: reads are GETs, grants to the authorization API, SSO operations to the SSO service', () => {
    const wrong = steps
      .filter(([, { effect, request }]) => {
        if (effect === 'read') return request.method !== 'GET';
        if (effect === 'grant') return request.host !== 'auth';
        if (effect === 'sso') return request.host !== 'sso' || request.sso === undefined || request.method !== 'POST';
        if (effect === 'refused') return request.method === 'GET';
        return false;
      })
      .map(([s, step]) => `${s} / ${step.name}`);
    expect(wrong).toEqual([]);
  });

  test('a write goes to the test account and is undone; an undoing step is a write too', () => {
    for (const scenario of SCENARIOS)
      for (const step of scenario.steps.filter((s) => s.effect === 'write')) {
        expect(step.needs, step.name).toContain('account');
        expect(step.undo?.effect, step.name).toBe('write');
      }
  });

  test("a step sent with the scenario's server token calls an entry whose scope the scenario asks for: one it lacks would compare 403 with 403, and nothing would fail", () => {
    const lacking: string[] = [];
    for (const scenario of SCENARIOS)
      for (const step of scenario.steps.flatMap((s) => (s.undo ? [s, s.undo] : [s]))) {
        const { request } = step;
        if (request.auth !== 'server') continue;
        const path = request.path.split('?')[0] ?? '';
        // Its path as written (`call(entry)`: the template, filled by the run), or filled already.
        const entry = entryFor(request.method, path, request.host);
        if (entry && entry.scopes.length > 0 && !entry.scopes.some((s) => scenario.scopes.includes(s)))
          lacking.push(`${scenario.name} / ${step.name}: ${entry.scopes.join(' or ')}`);
      }
    expect(lacking).toEqual([]);
  });

  test('a step of an entry with a path parameter fills it, as the SDK does', () => {
    const entry = { ...table.listTitles, path: '/test/accounts/{account_id}/notes' };
    expect(call(entry, { path: { account_id: 'a/b' } }).path).toBe('/test/accounts/a%2Fb/notes');
  });

  test.each(reads)('%s: a read of the table, sent by a scenario (docs/parity.md says every read is)', (_, e) => {
    expect(requestsOf(e).length).toBeGreaterThan(0);
  });

  test.each(reads)(
    '%s: sent with each refusal every read meets (docs/parity.md says every read is; readRefusals sends them)',
    (name, e) => {
      const requests = requestsOf(e);
      const missing = READ_REFUSALS.filter(
        ([refusal, is]) => !requests.some(is) && (refusal !== SCOPE_REFUSAL || e.scopes.length > 0),
      ).map(([refusal]) => refusal);
      // A parameter given twice, when its refusals send the read with one (its refusal without a token, as every other).
      const withParameter = requests.some((r) => r.auth === 'none' && (r.query ?? []).length > 0);
      if (withParameter && !requests.some(repeatsParameter)) missing.push('with a parameter given twice');
      expect(missing, `${name} lacks these refusals in its parity scenario`).toEqual([]);
    },
  );

  test('docs/parity.md lists every scenario with its number of steps, and the number of assumption rows they reach', () => {
    const file = new URL('../../docs/parity.md', import.meta.url);
    const page = readFileSync(file, 'utf8');
    // Each figure where the page states it, as the scenarios make it now: `UPDATE_GENERATED=1` rewrites them.
    const total = SCENARIOS.reduce((n, s) => n + s.steps.length, 0);
    const reached = new Set(steps.map(([, step]) => step.row)).size;
    const figures: [RegExp, string][] = [
      ...SCENARIOS.map((s): [RegExp, string] => [
        new RegExp(`\\| \`${s.name}\` \\| \\d+ \\|`),
        `| \`${s.name}\` | ${s.steps.length} |`,
      ]),
      [/\d+ scenarios, \d+ steps \(/, `${SCENARIOS.length} scenarios, ${total} steps (`],
      [/\d+ of the \d+ rows/, `${reached} of the ${assumptionRows().size} rows`],
    ];
    let expected = page;
    for (const [pattern, figure] of figures) {
      expect(page, `docs/parity.md states ${figure}`).toMatch(pattern);
      expected = expected.replace(pattern, figure);
    }
    const update = process.env.UPDATE_GENERATED === '1';
    if (update && expected !== page) writeFileSync(file, expected);
    expect(
      update ? readFileSync(file, 'utf8') : page,
      'docs/parity.md is stale: UPDATE_GENERATED=1 npx vitest run test/mock/parity-scenarios.test.ts',
    ).toBe(expected);
  });
});
