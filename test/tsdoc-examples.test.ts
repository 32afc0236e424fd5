/**
 * Every `@example` of the SDK's TSDoc (what an editor shows on hover, and the API reference) is
 * TypeScript that compiles, strict, against the package's own entries: an example that calls a
 * method with the wrong arguments would teach a site developer a type error, or a run-time refusal.
 * Each example is type-checked as the body of an async function, with the names an example may
 * take as given declared before it (`client`, `ticket`) and every value the entries export in scope.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The entries an example's names come from, as the package exports them. */
const ENTRIES = ['src/index.ts', 'src/sign-on/index.ts'];
/** The names an example uses without making them: what a site has at hand where the example runs. */
const GIVEN = 'declare const client: PlatformClient;\ndeclare const ticket: string;\n';

/** The TypeScript files under `dir`, recursively. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Each `@example` code block of a file's doc comments, without the comments' leading `*`. */
function examplesOf(text: string): string[] {
  const found: string[] = [];
  for (const [, block] of text.matchAll(/\* @example\s*\n\s*\* ```ts\n([\s\S]*?)\n\s*\* ```/g))
    found.push(block!.replace(/^\s*\* ?/gm, ''));
  return found;
}

const examples = sources('src').flatMap((file) =>
  examplesOf(readFileSync(join(ROOT, file), 'utf8')).map((code, i) => ({ name: `${file} #${i + 1}`, code })),
);

test('the SDK has examples in its TSDoc, and the scan finds them', () => {
  expect(examples.map((e) => e.name)).toContain('src/sign-on/replay-guard.ts #1');
});

test.each(examples)('the TSDoc example of $name compiles, strict, against the package', ({ code }) => {
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: ['node'],
    noEmit: true,
    skipLibCheck: true,
  };
  // Every name the entries export, values and types alike, as the checker reads them; a name both
  // export is taken from the first.
  const entryFiles = ENTRIES.map((e) => join(ROOT, e));
  const entries = ts.createProgram(entryFiles, options);
  const checker = entries.getTypeChecker();
  const seen = new Set<string>();
  const imports = ENTRIES.map((entry, i) => {
    const source = entries.getSourceFile(entryFiles[i]!);
    const symbol = source && checker.getSymbolAtLocation(source);
    const names = (symbol ? checker.getExportsOfModule(symbol) : []).map((s) => s.name).filter((n) => !seen.has(n));
    for (const n of names) seen.add(n);
    return `import { ${names.join(', ')} } from './${entry.replace(/\.ts$/, '.js')}';`;
  });
  const file = join(ROOT, 'tsdoc-example.ts');
  const text = `${imports.join('\n')}\n${GIVEN}export async function example(): Promise<void> {\n${code}\n}\n`;
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === file ? text : readFile(name));
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.getSourceFile = (name, version) =>
    name === file ? ts.createSourceFile(name, text, version) : getSourceFile(name, version);
  const program = ts.createProgram([file], options, host, entries);
  const problems = ts
    .getPreEmitDiagnostics(program, program.getSourceFile(file))
    // An example uses only some of what is imported.
    .filter((d) => d.code !== 6133 && d.code !== 6192)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  expect(problems).toEqual([]);
});
