// @ts-check
/**
 * A TypeDoc plugin for options declared as zod schemas (`src/options.ts`): their members are read
 * from the schema's object literal, whose values are schemas, not defaults. TypeDoc would show each
 * as a default (`clientId: string = nonEmpty`), and each as inherited from `z.input`. An interface or
 * type literal has no defaults, so its members show none (each option's default is in its doc
 * comment), and an option is the interface's own.
 *
 * `subscription-platform-sdk/types` re-exports each schema module whole, type-only
 * (`export type * from './schemas/products.js'`), so that a schema's type is public the moment it is
 * declared. TypeScript gives such a module no values, but TypeDoc would still list each schema's
 * variable there: the module shows its types only (the schemas themselves are documented in
 * `subscription-platform-sdk/schemas`).
 *
 * The guides of `docs/` are pages of the same site (`projectDocuments`): each is named by its first
 * heading, as the README's list of guides names it, not by its file name.
 *
 * Their diagrams (```mermaid blocks, which GitHub draws too) are drawn into the pages as SVG when the
 * site is built, by mermaid in Chromium (Debian's, or `CHROMIUM_PATH`): the site needs no script and
 * no network to show them. Without Chromium the build leaves them as code and says so; in CI it fails.
 *
 * Every page with a TypeScript example gets the "Run" control (`docs/site/`): its script is built
 * into the site's assets and added to the page, which then runs each example in the reader's
 * browser against the reference platform running there.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Converter, DeclarationReflection, DocumentReflection, ReflectionKind, RendererEvent } from 'typedoc';
import { buildRunAssets } from './docs/site/build.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const DIAGRAM = /<pre><code class="mermaid">([\s\S]*?)<\/code>(?:<button[^>]*>[\s\S]*?<\/button>)?<\/pre>/g;
const ENTITIES = { lt: '<', gt: '>', amp: '&', quot: '"', '#39': "'", '#x27': "'" };

/**
 * The source of a diagram as TypeDoc printed it (highlighted, lines as `<br/>`).
 * @param {string} html
 */
function diagramSource(html) {
  return html
    .replace(/<br\s*\/?>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&(lt|gt|amp|quot|#39|#x27);/g, (_, name) => ENTITIES[/** @type {keyof typeof ENTITIES} */ (name)]);
}

/**
 * Every HTML file under `dir`.
 * @param {string} dir
 * @returns {string[]}
 */
function htmlFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return htmlFiles(path);
    return entry.name.endsWith('.html') ? [path] : [];
  });
}

/**
 * Draws each diagram of the site's pages as SVG in its place.
 * @param {string} out
 * @param {import('typedoc').Logger} logger
 */
async function drawDiagrams(out, logger) {
  const pages = htmlFiles(out).filter((file) => readFileSync(file, 'utf8').includes('<code class="mermaid">'));
  if (pages.length === 0) return;
  if (!existsSync(CHROMIUM)) {
    const message = `no Chromium at ${CHROMIUM}: the diagrams of ${pages.length} pages are left as code (apt-get install -y chromium)`;
    if (process.env.CI) throw new Error(message);
    logger.info(message);
    return;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js') });
    let drawn = 0;
    for (const file of pages) {
      const html = readFileSync(file, 'utf8');
      const sources = [...html.matchAll(DIAGRAM)].map((m) => diagramSource(m[1] ?? ''));
      /** @type {string[]} */
      const svgs = await page.evaluate(async (texts) => {
        const mermaid = /** @type {any} */ (globalThis).mermaid;
        mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: 'neutral' });
        const out = [];
        for (const [i, text] of texts.entries()) out.push((await mermaid.render(`diagram-${i}`, text)).svg);
        return out;
      }, sources);
      let i = 0;
      const drawnHtml = html.replace(DIAGRAM, () => {
        const svg = svgs[i++] ?? '';
        return `<figure class="diagram" style="background:#fff;padding:1em;border-radius:6px;overflow-x:auto">${svg}</figure>`;
      });
      writeFileSync(file, drawnHtml);
      drawn += svgs.length;
    }
    logger.info(`${drawn} diagrams drawn into ${pages.length} pages`);
  } finally {
    await browser.close();
  }
}

/**
 * Builds the "Run" control's scripts and adds the control to every guide with a TypeScript example
 * (and the front page), beside TypeDoc's own script (with the same relative path to the assets).
 * @param {string} out
 * @param {import('typedoc').Logger} logger
 */
async function addRunControls(out, logger) {
  const bytes = await buildRunAssets(out);
  let pages = 0;
  // The README (the front page) and the guides: the API reference's examples are fragments of a call.
  const guides = [join(out, 'index.html'), ...htmlFiles(join(out, 'documents'))];
  for (const file of guides) {
    const html = readFileSync(file, 'utf8');
    if (!html.includes('<code class="ts">')) continue;
    const main = html.match(/<script defer src="((?:\.\.\/)*)assets\/main\.js"><\/script>/);
    if (!main) throw new Error(`${file}: no assets/main.js script to put the Run control beside`);
    const tag = `<script defer src="${main[1]}assets/run-controls.js"></script>`;
    writeFileSync(file, html.replace(main[0], `${main[0]}${tag}`));
    pages++;
  }
  logger.info(
    `the Run control added to ${pages} pages (its runner: ${Math.round(bytes / 1024)} KiB, loaded on the first Run)`,
  );
}

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.renderer.postRenderAsyncJobs.push((event) => drawDiagrams(event.outputDirectory, app.logger));
  app.renderer.postRenderAsyncJobs.push((event) => addRunControls(event.outputDirectory, app.logger));
  // Once the pages have their addresses (from the file names: `documents/sign-on.html`), each guide
  // takes its first heading for its title, in the navigation and the search.
  app.renderer.on(RendererEvent.BEGIN, (event) => {
    for (const page of event.project.getReflectionsByKind(ReflectionKind.Document)) {
      if (!(page instanceof DocumentReflection)) continue;
      const heading = page.content
        .map((part) => part.text)
        .join('')
        .match(/^# (.+)$/m)?.[1];
      if (heading) page.name = heading;
    }
  });
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
    for (const member of context.project.getReflectionsByKind(ReflectionKind.Property)) {
      if (!(member instanceof DeclarationReflection)) continue;
      if (!member.parent?.kindOf(ReflectionKind.Interface | ReflectionKind.TypeLiteral)) continue;
      member.defaultValue = undefined;
      if (member.inheritedFrom?.name.startsWith('z.input.')) member.inheritedFrom = undefined;
    }
    const types = context.project.getChildByName('subscription-platform-sdk/types');
    if (!(types instanceof DeclarationReflection)) throw new Error('typedoc.plugin: no types module');
    for (const value of types.getChildrenByKind(ReflectionKind.Variable | ReflectionKind.Function))
      context.project.removeReflection(value);
  });
}
