/**
 * Server-rendered HTML for the example site: the tagged template that escapes every interpolated
 * value unless it is already {@link SafeHtml}, and the page layout with a small inline stylesheet.
 * Attribute values must be written in double quotes.
 */

// The platform's own template: one escaping rule in the repository, for its pages and this site's.
import { html, type SafeHtml } from '../../mock/core/html.js';

export { html, SafeHtml } from '../../mock/core/html.js';

const STYLE = html`<style>
  :root { color-scheme: light; --accent: #0b5cad; --muted: #5b6470; --line: #d9dee5; }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d2329; background: #f5f7fa; }
  header.top { background: #fff; border-bottom: 1px solid var(--line); }
  header.top .bar { max-width: 44rem; margin: 0 auto; padding: .75rem 1rem; display: flex; gap: 1rem; align-items: center; justify-content: space-between; }
  header.top a.brand { font-weight: 700; color: inherit; text-decoration: none; }
  header.top .account { display: flex; gap: .75rem; align-items: center; }
  header.top form { margin: 0; }
  main { max-width: 44rem; margin: 1.5rem auto; padding: 0 1rem; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 1.25rem 1.5rem; margin-bottom: 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
  p { margin: .5rem 0; }
  .muted { color: var(--muted); font-size: .9rem; }
  .ok { border-left: 4px solid #2e7d32; }
  .warn { border-left: 4px solid #b26a00; }
  .error { border-left: 4px solid #b3261e; }
  .error-text { color: #b3261e; }
  a { color: var(--accent); }
  a.button, button { display: inline-block; font: inherit; padding: .45rem 1rem; border-radius: 6px; border: 1px solid var(--accent); background: var(--accent); color: #fff; text-decoration: none; cursor: pointer; }
  button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
  label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
  input[type=email], input[type=password], select { width: 100%; padding: .45rem .6rem; font: inherit; border: 1px solid var(--line); border-radius: 6px; }
  form.login button, form.cancel button { margin-top: 1rem; }
  button.secondary { background: #fff; color: var(--accent); }
  ul.subscriptions { list-style: none; padding: 0; margin: 0; }
  ul.subscriptions li { display: flex; justify-content: space-between; gap: 1rem; padding: .5rem 0; border-top: 1px solid var(--line); }
  code { background: #eef1f5; padding: 0 .25rem; border-radius: 4px; }
</style>`;

/** A whole page: the site's header (who is signed in, log out everywhere) and the content. */
export function layout(options: { title: string; siteName: string; who?: string | undefined; body: SafeHtml }): string {
  const { title, siteName, who, body } = options;
  const account =
    who === undefined
      ? html`<a href="/login" data-testid="header-login">Sign in</a>`
      : html`<span class="muted" data-testid="header-user">${who}</span>
<form method="post" action="/logout"><button class="link" type="submit" data-testid="logout">Log out everywhere</button></form>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} - ${siteName}</title>${STYLE}</head>
<body><header class="top"><div class="bar"><a class="brand" href="/">${siteName}</a><div class="account">${account}</div></div></header>
<main>${body}</main></body></html>
`.value;
}
