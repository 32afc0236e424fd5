/**
 * The rules the snippet test and the docs site share (`docs/site/examples.ts`): which blocks make a
 * program, which need Node, and when an output is the one a guide states.
 */
import { describe, expect, test } from 'vitest';
import { blocksOfMarkdown, nodeOnlyReason, nodeRun, outputMatches, programsOf } from '../../docs/site/examples.js';

describe('an output is the stated one', () => {
  test.each([
    ['the same text', 'true', 'true', true],
    ['other text', 'false', 'true', false],
    ['spacing and blank ends aside', '\n  [ 1,\n2 ]  \n', '[ 1,\n2 ]', true],
    ['… for any text within a line', 'at=Kz9_q&r=x', 'at=…&r=x', true],
    ['… for no text', 'at=&r=x', 'at=…&r=x', true],
    ['… never for a line', 'a\nb\nc', 'a\n…', false],
    ['a line short', 'a', 'a\nb', false],
    ['the parts in order', 'aXbYc', 'a…b…c', true],
    ['a part missing', 'ac', 'a…b…c', false],
    ['the first part at the start', 'xa1', 'a…', false],
    ['the last part at the end', '1ax', '…a', false],
    ['the first and last parts not overlapping', 'a', 'a…a', false],
  ])('%s', (_, actual, expected, matches) => {
    expect(outputMatches(actual, expected)).toBe(matches);
  });

  test('a long output against many … is a plain search, not a backtracking one', () => {
    expect(outputMatches('x'.repeat(1_000_000), '…y…y…y…y…y…')).toBe(false);
    expect(outputMatches(`${'x'.repeat(1_000_000)}y`, '…x…x…y')).toBe(true);
  });
});

test('a block that starts with an import begins a program; one without continues it', () => {
  const markdown = [
    '```ts\n// a comment first\nimport { a } from "x";\nconst b = a;\n```\n',
    '```ts\nconsole.log(b);\n```\n\n```text\n1\n```\n',
    '```ts\nimport { c } from "y";\n```\n',
  ].join('\n');
  const programs = programsOf(blocksOfMarkdown(markdown));
  expect(programs.map((p) => p.map((b) => b.expected))).toEqual([[undefined, '1\n'], [undefined]]);
});

test('what only Node has is named', () => {
  expect(nodeOnlyReason("import { startServer } from 'subscription-platform-sdk/mock/node';")).toContain('mock/node');
  expect(nodeOnlyReason("import { test } from 'vitest';")).toContain('vitest');
  expect(nodeOnlyReason("import { readFileSync } from 'node:fs';")).toContain("Node's own modules");
  expect(nodeOnlyReason("import { PlatformClient } from 'subscription-platform-sdk';")).toBeUndefined();
});

test('a program only Node can run is saved as the README says: a vitest suite as a test file, any other as an ES module', () => {
  expect(nodeRun("import { test } from 'vitest';")).toEqual({ file: 'example.test.ts', command: 'npx vitest run' });
  expect(nodeRun("import { startServer } from 'subscription-platform-sdk/mock/node';")).toEqual({
    file: 'example.mts',
    command: 'npx tsx example.mts',
  });
});
