/**
 * The "Run" control of the docs site (`assets/run-controls.js`): under each TypeScript example a
 * Run button runs it in the page against the reference platform running in the reader's browser
 * (`runner.js`, loaded on the first Run), shows what it printed and the requests it sent with what
 * the platform answered; Edit lets the reader change it and run it again, Reset puts the platform
 * back to its demo data. An example that only Node can run says so, and what to save it as and run
 * instead.
 *
 * State for tests and styles is in attributes of each control: `data-run-state` (idle, loading,
 * running, done; node-only, or declares for a block without a Run of its own), `data-matches` (whether the output is the one the guide states), and on `<html>`,
 * `data-first-run-ms` (how long the page's first run took, loading the platform included).
 */
import { type ExampleBlock, nodeOnlyReason, nodeRun, outputMatches, programsOf } from './examples.js';
import type { RunResult } from './runner.js';

interface Runner {
  run(before: string, source: string, limitMs?: number): Promise<RunResult>;
  reset(): void;
}

/** Where this script was loaded from: `runner.js` is beside it. */
const scriptUrl = (document.currentScript as HTMLScriptElement | null)?.src ?? location.href;

let runner: Promise<Runner> | undefined;

/** Loads the runner once, as a classic script (which a browser also loads from `file://`). */
function loadRunner(): Promise<Runner> {
  runner ??= new Promise<Runner>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = new URL('runner.js', scriptUrl).href;
    script.onload = () => {
      const loaded = (globalThis as { platformDocsRunner?: Runner }).platformDocsRunner;
      if (loaded) resolve(loaded);
      else reject(new Error('runner.js loaded without a runner'));
    };
    script.onerror = () => reject(new Error(`could not load ${script.src}`));
    document.head.append(script);
  });
  return runner;
}

/** The text of a highlighted code block (TypeDoc writes its line breaks as `<br>`). */
function codeText(code: Element): string {
  const copy = code.cloneNode(true) as Element;
  for (const br of copy.querySelectorAll('br')) br.replaceWith('\n');
  return copy.textContent ?? '';
}

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<HTMLElementTagNameMap[K]> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const el = Object.assign(document.createElement(tag), props);
  el.append(...children);
  return el;
}

/** One example of the page: its block, where it is shown, and its text as the reader last left it. */
interface Example {
  readonly block: ExampleBlock;
  readonly pre: HTMLPreElement;
  /** After it: the block of its stated output, if any. */
  readonly after: Element;
  source: string;
}

const STYLE = `
.docs-run { margin: -0.5em 0 1.5em; font-size: 0.9em; }
.docs-run-bar { display: flex; gap: 0.5em; align-items: center; flex-wrap: wrap; }
.docs-run-bar button { font: inherit; padding: 0.2em 0.9em; border-radius: 4px; cursor: pointer;
  border: 1px solid var(--color-accent, #888); background: var(--color-background-secondary, #f4f4f4); color: var(--color-text, #222); }
.docs-run-bar button.docs-run-primary { font-weight: bold; }
.docs-run-status { opacity: 0.8; }
.docs-run textarea { width: 100%; box-sizing: border-box; min-height: 12em; font-family: var(--font-family-code, monospace);
  font-size: 0.95em; margin: 0.5em 0; background: var(--color-background-secondary, #f4f4f4); color: var(--color-text, #222); }
.docs-run-result { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 3fr); gap: 0.75em; margin-top: 0.5em; }
@media (max-width: 900px) { .docs-run-result { grid-template-columns: minmax(0, 1fr); } }
.docs-run-result h5 { margin: 0 0 0.25em; font-size: 0.9em; }
.docs-run-output { margin: 0; white-space: pre-wrap; }
.docs-run-journal { width: 100%; table-layout: fixed; border-collapse: collapse; font-family: var(--font-family-code, monospace); font-size: 0.85em; }
.docs-run-journal td { padding: 0.15em 0.4em; border-top: 1px solid var(--color-accent, #ddd); vertical-align: top; }
.docs-run-journal td:first-child { width: 4.5em; }
.docs-run-journal td:last-child { width: 30%; }
.docs-run-journal td:nth-child(2) { word-break: break-all; }
.docs-run-body { opacity: 0.7; font-size: 0.9em; }
.docs-run-node { padding: 0.5em 0.75em; border-left: 3px solid var(--color-accent, #888); }
`;

/** The controls of one runnable example. */
function runControls(example: Example, earlier: readonly Example[]): HTMLElement {
  const box = element('div', { className: 'docs-run' });
  box.dataset.runState = 'idle';
  const run = element('button', { type: 'button', className: 'docs-run-primary', textContent: 'Run' });
  const edit = element('button', { type: 'button', textContent: 'Edit' });
  const reset = element('button', {
    type: 'button',
    textContent: 'Reset platform',
    title: "Put the page's platform back to its demo data",
  });
  const status = element('span', { className: 'docs-run-status', role: 'status' });
  const bar = element('div', { className: 'docs-run-bar' }, run, edit, reset, status);
  const output = element('pre', { className: 'docs-run-output', ariaLive: 'polite' });
  const journal = element('table', { className: 'docs-run-journal' });
  const result = element(
    'div',
    { className: 'docs-run-result', hidden: true },
    element('div', {}, element('h5', { textContent: 'Output' }), output),
    element('div', {}, element('h5', { textContent: 'Requests, and what the platform answered' }), journal),
  );
  let editor: HTMLTextAreaElement | undefined;
  box.append(bar, result);

  edit.onclick = () => {
    if (editor) return;
    editor = element('textarea', { value: example.source, spellcheck: false, ariaLabel: 'The example, to edit' });
    editor.oninput = () => {
      example.source = editor?.value ?? example.source;
    };
    example.pre.hidden = true;
    box.prepend(editor);
    edit.disabled = true;
    editor.focus();
  };

  reset.onclick = async () => {
    (await loadRunner()).reset();
    status.textContent = 'the platform is back to its demo data';
  };

  run.onclick = async () => {
    const first = runner === undefined;
    const started = performance.now();
    box.dataset.runState = first ? 'loading' : 'running';
    status.textContent = first ? 'loading the platform into this page…' : 'running…';
    run.disabled = true;
    try {
      const loaded = await loadRunner();
      box.dataset.runState = 'running';
      const done = await loaded.run(earlier.map((e) => e.source).join('\n'), example.source);
      show(done);
      if (first) document.documentElement.dataset.firstRunMs = String(Math.round(performance.now() - started));
    } catch (error) {
      output.textContent = String(error);
      result.hidden = false;
      status.textContent = 'could not run';
    } finally {
      run.disabled = false;
      box.dataset.runState = 'done';
    }
  };

  function show(done: RunResult): void {
    output.textContent = done.output === '' ? '(printed nothing)' : done.output;
    journal.replaceChildren(
      ...done.requests.map((r) =>
        element(
          'tr',
          {},
          element('td', { textContent: r.method }),
          element(
            'td',
            {},
            r.target,
            ...(r.body === null ? [] : [element('div', { className: 'docs-run-body', textContent: shorter(r.body) })]),
          ),
          element('td', { textContent: r.refusal ? `${r.status} (${r.refusal})` : String(r.status) }),
        ),
      ),
    );
    if (done.requests.length === 0)
      journal.append(element('tr', {}, element('td', { textContent: 'no request reached the platform' })));
    result.hidden = false;
    const expected = example.block.expected;
    const matches = expected !== undefined && outputMatches(done.output, expected);
    box.dataset.matches = String(matches);
    const took = `${Math.round(done.ms)} ms`;
    if (done.failed) status.textContent = `threw (${took})`;
    else if (expected === undefined) status.textContent = `ran in ${took}`;
    else if (matches) status.textContent = `ran in ${took}: printed what the guide says`;
    else status.textContent = `ran in ${took}: printed something else than the guide says`;
  }
  return box;
}

/** A request body as the journal shows it, cut to a line or two. */
function shorter(body: string): string {
  return body.length > 160 ? `${body.slice(0, 160)}…` : body;
}

/** What a block that only declares what later ones use shows instead of the controls. */
function declaresOnly(): HTMLElement {
  const box = element('div', {
    className: 'docs-run docs-run-node',
    textContent: 'This block declares what the examples after it use: their Run runs it first.',
  });
  box.dataset.runState = 'declares';
  return box;
}

/** What an example that only Node can run shows instead of the controls: why, and how Node runs it. */
function nodeOnly(reason: string, program: string): HTMLElement {
  const { file, command } = nodeRun(program);
  const code = (text: string) => element('code', { textContent: text });
  const how =
    file === 'example.test.ts'
      ? [' Save it as ', code(file), ' and run ', code(command), '.']
      : [
          ' It is an ES module (it awaits at the top level): save it as ',
          code(file),
          ' (or as ',
          code('example.ts'),
          ' with ',
          code('"type": "module"'),
          ' in ',
          code('package.json'),
          ') and run it with ',
          code(command),
          '.',
        ];
  const box = element(
    'div',
    { className: 'docs-run docs-run-node' },
    `Runs in Node, not in this page: it uses ${reason}.`,
    ...how,
  );
  box.dataset.runState = 'node-only';
  return box;
}

function setUp(): void {
  const codes = [...document.querySelectorAll('pre > code.ts')];
  if (codes.length === 0) return;
  document.head.append(element('style', { textContent: STYLE }));
  const examples: Example[] = codes.map((code) => {
    const pre = code.parentElement as HTMLPreElement;
    const next = pre.nextElementSibling;
    const stated = next?.matches('pre') ? next.querySelector(':scope > code.text') : null;
    const block = { code: codeText(code), expected: stated ? codeText(stated) : undefined };
    return { block, pre, after: stated && next ? next : pre, source: block.code };
  });
  const byBlock = new Map(examples.map((e) => [e.block, e]));
  for (const program of programsOf(examples.map((e) => e.block))) {
    const members = program.map((block) => byBlock.get(block) as Example);
    const source = program.map((b) => b.code).join('\n');
    const reason = nodeOnlyReason(source);
    members.forEach((example, i) => {
      const controls = reason
        ? nodeOnly(reason, source)
        : example.block.expected === undefined
          ? declaresOnly()
          : runControls(example, members.slice(0, i));
      example.after.after(controls);
    });
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', setUp);
else setUp();
