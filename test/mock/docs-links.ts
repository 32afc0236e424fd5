/**
 * What the CLI's pointers to the docs are checked against: the docs in the repository, where
 * {@link DOCS_URL} points, since the published package does not ship them.
 */
import { readFileSync } from 'node:fs';
import { DOCS_URL } from '../../mock/node/command-line.js';

/** Whether a link under {@link DOCS_URL} names a page of docs/ and, after `#`, one of its headings. */
export function docsPageHas(link: string): boolean {
  const [page = '', anchor] = link.slice(DOCS_URL.length).split('#');
  let markdown: string;
  try {
    markdown = readFileSync(new URL(`../../docs/${page}`, import.meta.url), 'utf8');
  } catch {
    return false;
  }
  const slug = (heading: string) =>
    heading
      .toLowerCase()
      .replace(/[^\w\s-]/g, '')
      .trim()
      .replace(/\s+/g, '-');
  return anchor === undefined || [...markdown.matchAll(/^#{1,6} (.+)$/gm)].some(([, h = '']) => slug(h) === anchor);
}
