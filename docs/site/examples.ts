/**
 * The rules that make the TypeScript examples of the docs programs, shared by the snippet test
 * (which runs them in Node) and the site's "Run" control (which runs them in the reader's browser).
 *
 * - A block that starts with an `import` (after its comments) begins a program; a block without
 *   one continues the program of the block before it, using what that declared.
 * - A block followed by a `text` block states what it prints: the text block holds its output,
 *   where `…` stands for text that differs from run to run (a ticket, a token). A block without
 *   one only declares what later blocks of its program use, and prints nothing.
 * - A program that imports what only Node has (the standalone server, vitest, `node:` modules)
 *   cannot run in a browser: the site says why and shows how to run it instead.
 */

/** Whether a block begins a program of its own: its first statement is an `import`. */
export function beginsProgram(code: string): boolean {
  const first = code
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line !== '' && !line.startsWith('//'));
  return first?.startsWith('import ') ?? false;
}

/** The modules an example may import that exist only in Node, and what each is. */
const NODE_ONLY: readonly [RegExp, string][] = [
  [
    /from 'subscription-platform-sdk\/mock\/node'/,
    'subscription-platform-sdk/mock/node (the standalone server, the parity run), which needs Node',
  ],
  [/from 'vitest'/, 'vitest, the test runner'],
  [/from 'node:[a-z_/]+'/, "Node's own modules"],
];

/** Why a program cannot run in a browser (what it imports that only Node has); undefined when it can. */
export function nodeOnlyReason(program: string): string | undefined {
  return NODE_ONLY.find(([pattern]) => pattern.test(program))?.[1];
}

/**
 * How a reader runs in Node a program the page cannot run, as the README says it: a vitest suite
 * as a test file, run by vitest; any other as an ES module (`.mts`: a project made by `npm init`
 * is CommonJS, where a `.ts` file cannot await at the top level), run by tsx.
 */
export function nodeRun(program: string): { readonly file: string; readonly command: string } {
  return /from 'vitest'/.test(program)
    ? { file: 'example.test.ts', command: 'npx vitest run' }
    : { file: 'example.mts', command: 'npx tsx example.mts' };
}

/**
 * Output as compared: each line without trailing spaces, runs of spaces as one, no blank lines
 * at either end (Node and the browser break a long value's lines alike; spacing is not the point).
 */
export function normalizeOutput(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trimEnd())
    .join('\n')
    .trim();
}

/**
 * Whether `actual` output is the `expected` one, by {@link normalizeOutput}, each `…` of `expected`
 * standing for any text within a line. Line by line, with plain string searches: no pattern is
 * built from the docs, so no output, however long, makes the comparison backtrack.
 */
export function outputMatches(actual: string, expected: string): boolean {
  const lines = normalizeOutput(actual).split('\n');
  const wanted = normalizeOutput(expected).split('\n');
  return lines.length === wanted.length && wanted.every((line, i) => lineMatches(lines[i] ?? '', line));
}

/** Whether `line` is `pattern`, each `…` of it standing for any text: its parts in order, the first at the start, the last at the end. */
function lineMatches(line: string, pattern: string): boolean {
  const parts = pattern.split('…');
  if (parts.length === 1) return line === pattern;
  const first = parts[0] ?? '';
  const last = parts.at(-1) ?? '';
  if (line.length < first.length + last.length || !line.startsWith(first) || !line.endsWith(last)) return false;
  // Each part between, at its leftmost place after the one before: if any placing fits, that one does.
  let at = first.length;
  const end = line.length - last.length;
  for (const part of parts.slice(1, -1)) {
    const found = line.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** A TypeScript block of a page, and the output its `text` block states (undefined: none stated). */
export interface ExampleBlock {
  readonly code: string;
  readonly expected: string | undefined;
}

/** The blocks of one program, in order. */
export type Program = readonly ExampleBlock[];

/** The programs of a page's blocks, by {@link beginsProgram}. */
export function programsOf(blocks: readonly ExampleBlock[]): Program[] {
  const programs: ExampleBlock[][] = [];
  for (const block of blocks) {
    const last = programs.at(-1);
    if (last && !beginsProgram(block.code)) last.push(block);
    else programs.push([block]);
  }
  return programs;
}

/** The TypeScript blocks of a Markdown page, each with the `text` block that follows it, if any. */
export function blocksOfMarkdown(markdown: string): ExampleBlock[] {
  return [...markdown.matchAll(/^```ts\n([\s\S]*?)^```\n(?:\n```text\n([\s\S]*?)^```$)?/gm)].map((m) => ({
    code: m[1] as string,
    expected: m[2],
  }));
}
