import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { createPlatform, type JournalEntry } from '../mock/index.js';
import { available, runAgainst, standaloneServer } from './other-languages.js';

const script = fileURLToPath(new URL('../examples/python/test_platform.py', import.meta.url));
const hasPython = available('python3', ['--version'], 'python3', 'python3');

const platform = createPlatform();
// Each test of the script starts with POST /__admin/reset, which empties the journal: what each
// reset forgets is kept here, so the whole run can be read afterwards.
const forgotten: JournalEntry[] = [];
const reset = platform.reset;
platform.reset = () => {
  forgotten.push(...platform.requests.list());
  reset();
};
const server = standaloneServer(platform);

test.skipIf(!hasPython)(
  'examples/python/test_platform.py: its four unittest tests pass against the standalone server',
  async () => {
    const started = performance.now();
    const { stderr } = await runAgainst(server.url, 'python3', [script]);
    console.info(`examples/python/test_platform.py ran in ${Math.round(performance.now() - started)} ms`);
    expect(stderr).toContain('Ran 4 tests');
    expect(stderr.trimEnd().endsWith('OK')).toBe(true);

    const python = [...forgotten, ...platform.requests.list()].filter((e) =>
      e.headers['user-agent']?.startsWith('Python-urllib'),
    );
    const token = ['POST', '/api/authorization/access_token', {}, 200];
    // unittest runs the tests in the order of their names.
    expect(python.map((e) => [e.method, e.path, e.query, e.status])).toEqual([
      // test_a_new_price_is_visible_to_the_next_read
      token,
      ['POST', '/external/api/v1/prices', {}, 200],
      ['GET', '/external/api/v1/products', { product_code: 'premium-digital' }, 200],
      // test_a_refused_request_names_the_field
      token,
      ['GET', '/external/api/v1/products', { id: 'xyz' }, 400],
      // test_lists_the_packages_on_sale
      token,
      ['GET', '/external/api/v1/products', { product_type: 'packages' }, 200],
      // test_no_token_is_refused
      ['GET', '/external/api/v1/products', {}, 401],
    ]);
    const write = python.find((e) => e.path === '/external/api/v1/prices');
    expect(JSON.parse(write?.body ?? 'null')).toMatchObject({
      package_integration_code: 'PREMIUM-DIGITAL',
      price_periods: [{ payment_option: 'creditcard', price: 9.9 }],
    });
    expect(python.filter((e) => e.status >= 400).map((e) => e.refusal?.check)).toEqual(['invalid_parameter', 'token']);
  },
  90_000,
);
