/**
 * docs/endpoints.md has a row for every entry of the endpoint table: the row of its number (or, beyond
 * the spec, of its title) names the platform route, `METHOD path`, and the SDK call (`sdk`) as the
 * entry has them.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { endpoints, nameOf, pathOf } from '../src/endpoints.js';

const rows = readFileSync(new URL('../docs/endpoints.md', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.startsWith('| '));

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test.each(endpoints.map((e) => [nameOf(e), e] as const))('%s has its row in docs/endpoints.md', (_, e) => {
  const first = `| ${e.number ?? e.title} |`;
  // The path as the entry has it, after its host's variable where the row names one (`{sso_url}/logout`).
  const route = new RegExp(`\`${e.method} (\\{\\w+_url\\})?${literally(pathOf(e, 'stage'))}[\`?]`);
  const row = rows.filter((r) => r.startsWith(first) && route.test(r));
  expect(row).toHaveLength(1);
  // And the SDK call the entry names.
  expect(row[0]).toContain(`\`client.${e.sdk}(`);
});
