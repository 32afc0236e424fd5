/**
 * An example site with its own login that sends its users to the platform's shop with a ticket and
 * takes them back with another one (spec endpoints 9, 22-25 and the "Return flow"). Plain node:http,
 * server-rendered HTML, and only the SDK's public surface.
 *
 * The same app answers on every host name in `hostnames`; which integration mode the shop uses on
 * the way back depends on the platform's ticket configuration for that host name (in the demo seed:
 * `localhost` returns in mode `ReturnUrl`, `127.0.0.1` in mode `SeparateTicketAuth`, and a host name
 * that is not registered, such as `unregistered.localhost`, returns without a ticket).
 *
 * Routes: `GET /` (who is signed in, and the subscription read with endpoint 9), `GET|POST /login`,
 * `POST /logout`, `GET /subscribe` (endpoint 22 then a redirect to endpoint 25), `GET /return`
 * (mode `ReturnUrl`), `GET /auth/ticket` (mode `SeparateTicketAuth`).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  type ClientCredentials,
  PlatformClient,
  type ReturnHandler,
  type SignedInUser,
  SignOnValidationError,
  TicketReplayError,
} from '../../src/index.js';
import { html, layout, type SafeHtml } from './html.js';
import { type Session, SessionStore, sessionCookie } from './sessions.js';
import { authenticate, defaultSiteUsers, type SiteUser } from './users.js';

export { DEMO_SITE_PASSWORDS, defaultSiteUsers, type SiteUser, siteUser } from './users.js';

/** Options of {@link createSite}. */
export interface SiteOptions {
  /** The platform's origin: API, authorization API, SSO and shop all on it (the reference platform). */
  platformUrl: string;
  /** The site's own API client (the demo seed's `demoSite`): server-to-server token, ticket exchange. */
  credentials: ClientCredentials;
  /** The shop: its client id (tickets to the shop are bound to it) and the marketplace to send users to. */
  shop: { clientId: string; groupId: string; marketplaceId: string };
  /** The package whose subscription the home page shows. Default `premium-digital`. */
  packageCode?: string;
  /** The site's own users. Default: {@link defaultSiteUsers}. */
  users?: readonly SiteUser[];
  /** The port; 0 picks a free one. Default 0. */
  port?: number;
  /** The interface to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * The host names the site answers on (the port must be the site's own). Redirects are built from
   * the request's `Host` only when it is one of these. Default `localhost`, `127.0.0.1`,
   * `unregistered.localhost`.
   */
  hostnames?: readonly string[];
  /** The site's name in its pages. Default `Demo News`. */
  siteName?: string;
  /** Where to write one line per sign-in event (never a ticket or token). Default: nowhere. */
  log?: (line: string) => void;
}

/** A running site. */
export interface RunningSite {
  /** `http://<host>:<port>`: the address it listens on. */
  url: string;
  /** The port it listens on. */
  port: number;
  /** The site's origin for one of its host names, e.g. `urlFor('localhost')`. */
  urlFor(hostname: string): string;
  /** Sessions opened since start, and live now (a refused ticket replay opens none). */
  stats(): { sessionsOpened: number; liveSessions: number };
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_HOSTNAMES = ['localhost', '127.0.0.1', 'unregistered.localhost'];
const MAX_FORM_BYTES = 8 * 1024;

/** Headers of every answer. Pages may be reached with a ticket in their URL: no Referer leaves them. */
const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** An answer the handlers build. */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

/** What one request's handler works with. */
interface Ctx {
  req: IncomingMessage;
  /** The site's origin for this request, from an allowed `Host`. */
  origin: string;
  /** The full request URL on that origin. */
  url: URL;
  session: Session | undefined;
}

/** SHA-256 (hex) of a ticket: what the SDK's replay guard and `TicketReplayError.ticketHash` use. */
function ticketHashOf(url: URL): string | undefined {
  const ticket = url.searchParams.get('ticket');
  return ticket ? createHash('sha256').update(ticket).digest('hex') : undefined;
}

/** Starts the example site. Resolves once it listens. */
export async function createSite(options: SiteOptions): Promise<RunningSite> {
  const {
    platformUrl,
    credentials,
    shop,
    packageCode = 'premium-digital',
    users = defaultSiteUsers(),
    host = '127.0.0.1',
    hostnames = DEFAULT_HOSTNAMES,
    siteName = 'Demo News',
    log = () => {},
  } = options;
  const allowedHostnames = new Set(hostnames.map((h) => h.toLowerCase()));

  // The site's client: its own server-to-server token for endpoints 2, 9 and 22, and its
  // credentials for the ticket exchange (endpoint 23).
  const client = new PlatformClient({
    environment: 'stage',
    hosts: { api: platformUrl, auth: platformUrl, sso: platformUrl, shop: platformUrl },
    auth: {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      scopes: ['/api/authorization/ticket', '/external/order_validation/r', '/external/product/r'],
    },
    credentials,
    timeout: 10_000,
  });
  // One handler for the site's life: its replay guard remembers used tickets for 120 s.
  const returns: ReturnHandler = client.signOn.returnHandler({ readUser: true });
  const sessions = new SessionStore();
  let port = 0;

  // ------------------------------------------------------------------ rendering

  function page(ctx: Ctx, status: number, title: string, body: SafeHtml): Answer {
    const who = ctx.session ? `${ctx.session.name} (${ctx.session.email})` : undefined;
    return {
      status,
      headers: { 'content-type': 'text/html; charset=utf-8' },
      body: layout({ title, siteName, who, body }),
    };
  }

  function message(
    ctx: Ctx,
    status: number,
    title: string,
    kind: 'ok' | 'warn' | 'error',
    testId: string,
    text: SafeHtml,
  ): Answer {
    return page(
      ctx,
      status,
      title,
      html`<section class="card ${kind}" data-testid="${testId}"><h1>${title}</h1>${text}</section>`,
    );
  }

  const redirect = (status: 302 | 303, location: string, headers: Record<string, string> = {}): Answer => ({
    status,
    headers: { location, ...headers },
  });

  // ------------------------------------------------------------------ the platform

  let packageName: Promise<string> | undefined;
  /** The package's name (endpoint 2), read once. */
  function readPackageName(): Promise<string> {
    packageName ??= client.products
      .list({ product_code: packageCode })
      .then(({ items }) => items[0]?.name ?? packageCode)
      .catch((error: unknown) => {
        packageName = undefined;
        throw error;
      });
    return packageName;
  }

  /** The home page's subscription card: endpoint 9 says whether the user may still buy the package. */
  async function subscriptionCard(session: Session): Promise<SafeHtml> {
    try {
      const [name, { item }] = await Promise.all([
        readPackageName(),
        client.orders.validate({ product_code: packageCode, account_id: session.accountId }),
      ]);
      if (!item.purchase_allowed && item.reason === 'already_subscribed')
        return html`<section class="card ok" data-testid="subscription" data-subscribed="true">
<h1>Your subscription</h1><p data-testid="subscription-status">You subscribe to ${name}.</p></section>`;
      if (item.purchase_allowed)
        return html`<section class="card" data-testid="subscription" data-subscribed="false">
<h1>Your subscription</h1><p data-testid="subscription-status">You do not subscribe to ${name} yet.</p>
<p><a class="button" href="/subscribe" data-testid="subscribe">Subscribe</a></p>
<p class="muted">You go to the shop already signed in: no second login.</p></section>`;
      return html`<section class="card warn" data-testid="subscription" data-subscribed="false">
<h1>Your subscription</h1><p data-testid="subscription-status">You cannot buy ${name}: ${item.message ?? item.reason}</p>
<p><a href="/subscribe" data-testid="subscribe">See the other offers in the shop</a></p></section>`;
    } catch (error) {
      log(`subscription read failed: ${describe(error)}`);
      return html`<section class="card error" data-testid="subscription">
<h1>Your subscription</h1><p class="error-text">Your subscription cannot be read right now. Try again later.</p></section>`;
    }
  }

  // ------------------------------------------------------------------ sessions

  /** Opens a session for the account a ticket signed in (a new id: an older session of this browser ends). */
  function signIn(ctx: Ctx, user: SignedInUser | undefined, mode: 'ReturnUrl' | 'SeparateTicketAuth', hash?: string) {
    if (!user) throw new Error('the return handler read no user');
    if (ctx.session) sessions.end(ctx.session.id);
    const accountId = user.id.toLowerCase();
    const known = users.find((u) => u.accountId === accountId);
    const session = sessions.open(
      {
        accountId,
        name: known?.name ?? (`${user.firstName} ${user.lastName}`.trim() || user.email),
        email: user.email,
        signedInBy: mode,
        ...(hash === undefined ? {} : { ticketHash: hash }),
      },
      true,
    );
    log(`signed in account ${accountId} with a ticket from the shop (${mode})`);
    return { 'set-cookie': sessionCookie(session.id, false) };
  }

  /** The page for a ticket that could not be used. Nothing is signed in. */
  function ticketRefused(ctx: Ctx, error: unknown): Answer {
    if (error instanceof TicketReplayError) {
      // RFC 6749 section 10.5: a replayed ticket may have leaked; end what its first use opened.
      const ended = sessions.endByTicketHash(error.ticketHash);
      const mine = ctx.session?.ticketHash === error.ticketHash;
      log(`refused a replayed ticket; ended ${ended} session(s) it had opened`);
      const answer = message(
        { ...ctx, session: mine ? undefined : ctx.session },
        400,
        'This sign-in link was already used',
        'error',
        'ticket-replayed',
        html`<p>A sign-in ticket from the shop works once only, and this one has been used before. You were not signed in again.</p>
${ended > 0 ? html`<p>For your safety, the session it opened has been ended.</p>` : ''}
<p><a href="/login">Sign in</a> or go to the <a href="/">home page</a>.</p>`,
      );
      if (mine) answer.headers = { ...answer.headers, 'set-cookie': sessionCookie('', false) };
      return answer;
    }
    if (error instanceof SignOnValidationError)
      return message(
        ctx,
        400,
        'Invalid sign-in link',
        'error',
        'ticket-invalid',
        html`<p>This sign-in link is malformed.</p>`,
      );
    if (error instanceof AuthenticationError) {
      log('the platform refused a ticket (invalid, expired or used)');
      return message(
        ctx,
        400,
        'Invalid sign-in link',
        'error',
        'ticket-invalid',
        html`<p>This sign-in link is invalid or has expired. Go back to the shop and return from there again.</p>
<p><a href="/">Home page</a></p>`,
      );
    }
    return unavailable(ctx, error);
  }

  function unavailable(ctx: Ctx, error: unknown): Answer {
    log(`platform call failed: ${describe(error)}`);
    return message(
      ctx,
      502,
      'Service unavailable',
      'error',
      'unavailable',
      html`<p>The subscription platform cannot be reached right now. Try again in a moment.</p>`,
    );
  }

  // ------------------------------------------------------------------ routes

  async function home(ctx: Ctx): Promise<Answer> {
    const { session } = ctx;
    if (!session)
      return page(
        ctx,
        200,
        'Home',
        html`<section class="card" data-testid="signed-out"><h1>Welcome to ${siteName}</h1>
<p>You are not signed in.</p><p><a class="button" href="/login" data-testid="login-link">Sign in</a></p></section>`,
      );
    session.justReturned = false;
    const by =
      session.signedInBy === 'password'
        ? 'with your password on this site'
        : `with a ticket from the shop (mode ${session.signedInBy})`;
    return page(
      ctx,
      200,
      'Home',
      html`<section class="card"><h1>Welcome, ${session.name}</h1>
<p data-testid="signed-in-as">Signed in as ${session.name} (${session.email})</p>
<p class="muted" data-testid="signed-in-by" data-mode="${session.signedInBy}">Signed in ${by}.</p></section>
${await subscriptionCard(session)}`,
    );
  }

  function loginForm(ctx: Ctx, status = 200, error?: string, email = ''): Answer {
    return page(
      ctx,
      status,
      'Sign in',
      html`<section class="card"><h1>Sign in to ${siteName}</h1>
${error === undefined ? '' : html`<p class="error-text" role="alert" data-testid="login-error">${error}</p>`}
<form class="login" method="post" action="/login">
  <label for="email">E-mail address</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${email}" data-testid="login-email">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required data-testid="login-password">
  <button type="submit" data-testid="login-submit">Sign in</button>
</form></section>`,
    );
  }

  async function login(ctx: Ctx): Promise<Answer> {
    const form = await readForm(ctx.req);
    if (!form)
      return message(ctx, 400, 'Bad request', 'error', 'bad-request', html`<p>The form could not be read.</p>`);
    const email = form.get('email') ?? '';
    const user = authenticate(users, email, form.get('password') ?? '');
    if (!user) return loginForm(ctx, 401, 'Wrong e-mail address or password', email);
    if (ctx.session) sessions.end(ctx.session.id);
    const session = sessions.open({
      accountId: user.accountId,
      name: user.name,
      email: user.email,
      signedInBy: 'password',
    });
    log(`signed in account ${user.accountId} with the site password`);
    return redirect(303, '/', { 'set-cookie': sessionCookie(session.id, false) });
  }

  function logout(ctx: Ctx): Answer {
    if (ctx.session) sessions.end(ctx.session.id);
    return redirect(303, '/', { 'set-cookie': sessionCookie('', false) });
  }

  /** Endpoint 22 (form a, server to server) just before use, then endpoint 25. */
  async function subscribe(ctx: Ctx): Promise<Answer> {
    if (!ctx.session) return redirect(303, '/login');
    let location: string;
    try {
      const { ticket } = await client.authorization.generateTicket({
        accountId: ctx.session.accountId,
        clientId: shop.clientId,
      });
      location = client.shop.marketplaceUrl({
        groupId: shop.groupId,
        marketplaceId: shop.marketplaceId,
        ticket,
        returnUrl: `${ctx.origin}/return`,
      });
    } catch (error) {
      return unavailable(ctx, error);
    }
    return redirect(302, location);
  }

  /** Mode `ReturnUrl`: the shop sends the user to `/return?ticket=...`. */
  async function returnUrl(ctx: Ctx): Promise<Answer> {
    const hash = ticketHashOf(ctx.url);
    try {
      const result = await returns.handleReturnUrl(ctx.url);
      if (result.status === 'signed_in')
        return redirect(303, result.cleanUrl, signIn(ctx, result.user, 'ReturnUrl', hash));
    } catch (error) {
      return ticketRefused(ctx, error);
    }
    // No ticket: just signed in (the clean URL after a ticket, or SeparateTicketAuth's returnUrl)...
    if (ctx.session?.justReturned) {
      ctx.session.justReturned = false;
      return redirect(303, '/');
    }
    // ... or the shop sent the user back without one (the site's domain is not registered there).
    log('a user came back from the shop without a ticket');
    return message(
      ctx,
      200,
      'Back from the shop',
      'warn',
      'no-ticket',
      html`<p>Welcome back. The shop did not sign you in here: it sent you back without a sign-in ticket
(most likely, this address is not registered with the shop).</p>
${
  ctx.session
    ? html`<p>You are still signed in as ${ctx.session.name} from before.</p><p><a href="/">Home page</a></p>`
    : html`<p>You are not signed in. <a href="/login">Sign in</a> to see your subscription.</p>`
}`,
    );
  }

  /** Mode `SeparateTicketAuth`: the shop sends the user to `/auth/ticket?ticket=...&returnUrl=...`. */
  async function authTicket(ctx: Ctx): Promise<Answer> {
    const hash = ticketHashOf(ctx.url);
    try {
      // Only this request's own origin: the session cookie is set for this host name alone.
      const result = await returns.handleSeparateTicketAuth(ctx.url, { allowedOrigins: [ctx.origin] });
      switch (result.status) {
        case 'signed_in':
          return redirect(303, result.redirectTo, signIn(ctx, result.user, 'SeparateTicketAuth', hash));
        case 'no_ticket':
          return redirect(303, result.redirectTo);
        case 'return_url_refused':
          log(`refused a return URL (${result.reason}); the ticket was not used`);
          return redirect(303, result.fallbackUrl);
      }
    } catch (error) {
      return ticketRefused(ctx, error);
    }
  }

  async function route(ctx: Ctx): Promise<Answer> {
    const { req, url, origin } = ctx;
    const method = req.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    if (method === 'POST' && !sameOriginPost(req, origin))
      return message(ctx, 403, 'Forbidden', 'error', 'forbidden', html`<p>Cross-site form posts are refused.</p>`);
    switch (key) {
      case 'GET /':
        return home(ctx);
      case 'GET /login':
        return ctx.session ? redirect(303, '/') : loginForm(ctx);
      case 'POST /login':
        return login(ctx);
      case 'POST /logout':
        return logout(ctx);
      case 'GET /subscribe':
        return subscribe(ctx);
      case 'GET /return':
        return returnUrl(ctx);
      case 'GET /auth/ticket':
        return authTicket(ctx);
      default:
        return message(
          ctx,
          404,
          'Not found',
          'error',
          'not-found',
          html`<p>There is no such page. <a href="/">Home page</a></p>`,
        );
    }
  }

  /** The site's origin for a `Host` header, only for an allowed host name on the site's own port. */
  function originOf(hostHeader: string | undefined): string | undefined {
    if (hostHeader === undefined) return undefined;
    let parsed: URL;
    try {
      parsed = new URL(`http://${hostHeader}`);
    } catch {
      return undefined;
    }
    if (parsed.host !== hostHeader.toLowerCase() || (parsed.port || '80') !== String(port)) return undefined;
    return allowedHostnames.has(parsed.hostname) ? parsed.origin : undefined;
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = originOf(req.headers.host);
    const target = req.url ?? '/';
    let answer: Answer;
    if (!origin) {
      answer = { status: 421, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Unknown host\n' };
    } else if (!target.startsWith('/')) {
      answer = { status: 400, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Bad request\n' };
    } else {
      // Origin + path, never `new URL(target, origin)`: a target of `//evil.example/` stays on this origin.
      const url = new URL(`${origin}${target}`);
      answer = await route({ req, origin, url, session: sessions.fromCookie(req.headers.cookie) });
    }
    res.writeHead(answer.status, { ...SECURITY_HEADERS, ...answer.headers });
    res.end(answer.body);
  }

  const server = createServer((req, res) => {
    serve(req, res).catch((error: unknown) => {
      log(`internal error: ${describe(error)}`);
      if (!res.headersSent) res.writeHead(500, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      res.end('Internal error\n');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    urlFor: (hostname) => `http://${hostname}:${port}`,
    stats: () => ({ sessionsOpened: sessions.opened, liveSessions: sessions.size }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * Whether a POST comes from the site's own pages. SameSite=Lax already keeps the session cookie off
 * cross-site POSTs; this also refuses login CSRF. Fetch metadata first: with `Referrer-Policy:
 * no-referrer` browsers send `Origin: null` even for same-origin form posts. Without either
 * header (not a browser, e.g. curl) the post is let through.
 */
function sameOriginPost(req: IncomingMessage, origin: string): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const from = req.headers.origin;
  return from === undefined || from === origin;
}

/** A form body (`application/x-www-form-urlencoded`, at most 8 KiB), or `undefined`. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
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

/** An error for a log line: its class, status and code; SDK errors never carry tickets or secrets. */
function describe(error: unknown): string {
  if (error instanceof APIError) return `${error.name} ${error.status} ${error.code ?? ''}`.trim();
  if (error instanceof APIConnectionError) return error.name;
  return error instanceof Error ? error.name : 'unknown error';
}
