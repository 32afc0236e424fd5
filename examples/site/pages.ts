/**
 * What every route of the example site works with: the request's context, the answer it builds,
 * and the page helpers (a whole page, a one-card message, a redirect).
 */
import type { IncomingMessage } from 'node:http';
import { APIConnectionError, APIError } from '../../src/index.js';
import type { SsoVisitor } from '../../src/types.js';
import { html, layout, type SafeHtml } from './html.js';
import type { Session } from './sessions.js';

/** An answer the handlers build. */
export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What one request's handler works with. */
export interface Ctx {
  req: IncomingMessage;
  /** The site's origin for this request, from an allowed `Host`. */
  origin: string;
  /** The full request URL on that origin. */
  url: URL;
  /** The visitor's session, if the browser has one. */
  session: Session | undefined;
  /** The visitor's address and browser, for the SSO service's session timeline. */
  visitor: SsoVisitor;
  /** A notice shown at the top of the page (e.g. "you were logged out on every site"). */
  notice?: SafeHtml;
  /** Headers every answer to this request carries (e.g. the Set-Cookie that ends a session). */
  extraHeaders?: Record<string, string>;
}

/** The page helpers of one site. */
export interface Pages {
  /** A whole page with the site's header. */
  page(ctx: Ctx, status: number, title: string, body: SafeHtml): Answer;
  /** A page of one card: a title and a text, marked for tests with `testId`. */
  message(
    ctx: Ctx,
    status: number,
    title: string,
    kind: 'ok' | 'warn' | 'error',
    testId: string,
    text: SafeHtml,
  ): Answer;
  /** A redirect. */
  redirect(status: 302 | 303, location: string, headers?: Record<string, string>): Answer;
}

/** The page helpers for a site named `siteName`. */
export function pagesFor(siteName: string): Pages {
  function page(ctx: Ctx, status: number, title: string, body: SafeHtml): Answer {
    const user = ctx.session?.user;
    const who = user ? `${user.name} (${user.email})` : undefined;
    return {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8', ...ctx.extraHeaders },
      body: layout({ title, siteName, who, body: html`${ctx.notice ?? ''}${body}` }),
    };
  }
  return {
    page,
    message: (ctx, status, title, kind, testId, text) =>
      page(
        ctx,
        status,
        title,
        html`<section class="card ${kind}" data-testid="${testId}"><h1>${title}</h1>${text}</section>`,
      ),
    redirect: (status, location, headers = {}) => ({ status, headers: { location, ...headers } }),
  };
}

const MAX_FORM_BYTES = 8 * 1024;

/** A form body (`application/x-www-form-urlencoded`, at most 8 KiB), or `undefined`. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** An error for a log line: its class, status and code; SDK errors never carry tickets, tokens or secrets. */
export function describe(error: unknown): string {
  if (error instanceof APIError) return `${error.name} ${error.status} ${error.code ?? ''}`.trim();
  if (error instanceof APIConnectionError) return error.name;
  return error instanceof Error ? error.name : 'unknown error';
}
