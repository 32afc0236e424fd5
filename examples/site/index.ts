/**
 * An example site of an organisation on the platform: it logs its users in through the platform's
 * SSO service (the site keeps no passwords), shares that login with the organisation's other sites,
 * sends its users to the platform's shop with a ticket and takes them back with another one (spec
 * endpoints 9, 22-25 and the "Return flow"), and lets them cancel a subscription, with a retention
 * offer first (endpoints 6, 7 and 14). Plain node:http, server-rendered HTML, and only the SDK's
 * public surface.
 *
 * SSO as sites run it: a visitor without a session here is sent to the SSO service's identify
 * (a browser redirect), which finds or starts the browser's SSO session and sends it back to this
 * site's registered landing page, `/sso/landing`, logged in already when the user logged in on
 * another site of the organisation. The login form authenticates with the SSO service; every page
 * asks the session's status, and a session logged out elsewhere ends here too; "Log out
 * everywhere" ends the SSO session on every site.
 *
 * The same app answers on every host name in `hostnames`. Identify runs only on the landing page's
 * host name (`landingHostname`): the SSO service sends browsers to one registered landing URL, and
 * cookies belong to one host name. On the others, which show the shop's other return modes, the
 * login form opens the SSO session itself (`createSession`). Which integration mode the shop uses
 * on the way back depends on the platform's ticket configuration for the host name (in the demo
 * seed: `localhost` returns in mode `ReturnUrl`, `127.0.0.1` in mode `SeparateTicketAuth`, and a
 * host name that is not registered, such as `unregistered.localhost`, returns without a ticket).
 *
 * Routes: `GET /` (who is signed in, and the subscription read with endpoint 9), `GET|POST /login`,
 * `POST /logout` (everywhere), `GET /sso/landing`, `GET /cancel`, `POST /cancel/accept`, `POST
 * /cancel/confirm`, and with a shop: `GET /subscribe` (endpoint 22 then a redirect to endpoint 25),
 * `GET /return` (mode `ReturnUrl`), `GET /auth/ticket` (mode `SeparateTicketAuth`).
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AuthenticationError,
  type ClientCredentials,
  PlatformClient,
  SignOnValidationError,
  type SsoOptions,
  SsoTokenError,
  TicketReplayError,
} from '../../src/index.js';
import type { AccessTokenResponse, ReturnHandler, SignedInUser, SsoRefusal, SsoVisitor } from '../../src/types.js';
import { cancelRoutes } from './cancel.js';
import { html, type SafeHtml } from './html.js';
import { type Answer, type Ctx, describe, pagesFor, readForm } from './pages.js';
import { SESSION_COOKIE, SessionStore, type SignedIn, type SsoLink, type UserToken } from './sessions.js';

/** Options of {@link createSite}. */
export interface SiteOptions {
  /** The platform's origin: API, authorization API, SSO and shop all on it (the reference platform). */
  platformUrl: string;
  /**
   * The site's own API client (the demo seed's `demoSite`, or `demoSiteB` for a second site):
   * server-to-server token, ticket exchange, SSO request tokens.
   */
  credentials: ClientCredentials;
  /** The SSO service's audience constant and the organisation's id, from the operator. */
  sso: SsoOptions;
  /**
   * The host name of the landing page registered for this client (`landing_url` of `clients[]`),
   * always at `/sso/landing` on the site's port. Identify runs only on this host name. Default `localhost`.
   */
  landingHostname?: string;
  /**
   * The shop: its client id (tickets to the shop are bound to it) and the marketplace to send users
   * to. Without it the site has no Subscribe button and no return routes (the shop's ticket
   * configurations send returns to the first demo site's client).
   */
  shop?: { clientId: string; groupId: string; marketplaceId: string };
  /** The package whose subscription the home page shows. Default `premium-digital`. */
  packageCode?: string;
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
  /**
   * The session cookie's name. Default `site_session`. Two sites on one host name (ports do not
   * separate cookies) need two names.
   */
  cookieName?: string;
  /** Where to write one line per sign-in event (never a ticket, token, session id or password). Default: nowhere. */
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
  /** The landing page to register for the site's client (`landing_url`): `http://<landingHostname>:<port>/sso/landing`. */
  landingUrl: string;
  /** Signed-in sessions opened since start, and sessions live now (a refused ticket replay opens none). */
  stats(): { sessionsOpened: number; liveSessions: number };
  /** Stops listening and closes every connection. */
  close(): Promise<void>;
}

const DEFAULT_HOSTNAMES = ['localhost', '127.0.0.1', 'unregistered.localhost'];

/** The scopes the site asks for the user's token (endpoint 23): the me API and retention (6, 7). */
const USER_SCOPE = '/external/me/r /external/me/w';

/** A user token is refreshed this long before it expires. */
const REFRESH_MARGIN_MS = 30_000;

/** Pages reached before identify, or that must not send a ticket in the URL through identify. */
const NO_IDENTIFY = new Set(['/sso/landing', '/return', '/auth/ticket']);

/**
 * Headers of every answer. Pages may be reached with a ticket in their URL: no Referer leaves them.
 * Form posts go to the site itself, and from there through redirects to the SSO host's identify
 * (after "Log out everywhere", say): browsers apply `form-action` to every hop.
 */
function securityHeaders(ssoOrigin: string): Readonly<Record<string, string>> {
  return {
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${ssoOrigin}; frame-ancestors 'none'; base-uri 'none'`,
  };
}

/** SHA-256 (hex) of a ticket: what the SDK's replay guard and `TicketReplayError.ticketHash` use. */
function ticketHashOf(url: URL): string | undefined {
  const ticket = url.searchParams.get('ticket');
  return ticket ? createHash('sha256').update(ticket).digest('hex') : undefined;
}

/** The visitor's address and browser, as the SSO service records them (non-empty, at most 1024 characters). */
function visitorOf(req: IncomingMessage): SsoVisitor {
  const ip = (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
  const agent = req.headers['user-agent'] ?? '';
  return { ipAddress: ip || 'unknown', userAgent: (agent || 'unknown').slice(0, 1024) };
}

/** The user's token as the session keeps it. */
function tokenOf(tokens: AccessTokenResponse): UserToken {
  return {
    accessToken: tokens.access_token,
    ...(tokens.refresh_token === undefined ? {} : { refreshToken: tokens.refresh_token }),
    expiresAt: Date.now() + tokens.expires_in * 1000,
  };
}

/** The name the site shows for a user. */
function nameOf(user: SignedInUser): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

/** A wait in words: `45 seconds`, `5 minutes`. */
function wait(seconds: number): string {
  if (seconds < 90) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minutes`;
}

/** Starts the example site. Resolves once it listens. */
export async function createSite(options: SiteOptions): Promise<RunningSite> {
  const {
    platformUrl,
    credentials,
    sso,
    shop,
    landingHostname = 'localhost',
    packageCode = 'premium-digital',
    host = '127.0.0.1',
    hostnames = DEFAULT_HOSTNAMES,
    siteName = 'Demo News',
    cookieName = SESSION_COOKIE,
    log = () => {},
  } = options;
  const allowedHostnames = new Set(hostnames.map((h) => h.toLowerCase()));
  const SECURITY_HEADERS = securityHeaders(new URL(platformUrl).origin);

  // The site's client: its own server-to-server token for endpoints 2, 9, 14 and 22, and its
  // credentials for the ticket exchange (endpoint 23) and the SSO service.
  const client = new PlatformClient({
    environment: 'stage',
    hosts: { api: platformUrl, auth: platformUrl, sso: platformUrl, shop: platformUrl },
    auth: {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      scopes: [
        '/api/authorization/ticket',
        '/external/order_validation/r',
        '/external/product/r',
        '/external/cancellation_reason/r',
      ],
    },
    credentials,
    sso,
    timeout: 10_000,
  });
  // One handler for the site's life: its replay guard remembers used tickets for 120 s.
  const returns: ReturnHandler | undefined = shop
    ? client.signOn.returnHandler({ readUser: true, scope: USER_SCOPE })
    : undefined;
  const sessions = new SessionStore(cookieName);
  const { page, message, redirect } = pagesFor(siteName);
  let port = 0;

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
  async function subscriptionCard(user: SignedIn): Promise<SafeHtml> {
    const subscribe = shop
      ? html`<p><a class="button" href="/subscribe" data-testid="subscribe">Subscribe</a></p>
<p class="muted">You go to the shop already signed in: no second login.</p>`
      : '';
    try {
      const [name, { item }] = await Promise.all([
        readPackageName(),
        client.orders.validate({ product_code: packageCode, account_id: user.accountId }),
      ]);
      if (!item.purchase_allowed && item.reason === 'already_subscribed')
        return html`<section class="card ok" data-testid="subscription" data-subscribed="true">
<h1>Your subscription</h1><p data-testid="subscription-status">You subscribe to ${name}.</p>
<p><a href="/cancel" data-testid="cancel-subscription">Cancel my subscription</a></p></section>`;
      if (item.purchase_allowed)
        return html`<section class="card" data-testid="subscription" data-subscribed="false">
<h1>Your subscription</h1><p data-testid="subscription-status">You do not subscribe to ${name} yet.</p>
${subscribe}<p><a href="/cancel" data-testid="cancel-subscription">Your other subscriptions</a></p></section>`;
      return html`<section class="card warn" data-testid="subscription" data-subscribed="false">
<h1>Your subscription</h1><p data-testid="subscription-status">You cannot buy ${name}: ${item.message ?? item.reason}</p>
${shop ? html`<p><a href="/subscribe" data-testid="subscribe">See the other offers in the shop</a></p>` : ''}
<p><a href="/cancel" data-testid="cancel-subscription">Your subscriptions</a></p></section>`;
    } catch (error) {
      log(`subscription read failed: ${describe(error)}`);
      return html`<section class="card error" data-testid="subscription">
<h1>Your subscription</h1><p class="error-text">Your subscription cannot be read right now. Try again later.</p></section>`;
    }
  }

  /** Exchanges a ticket for the user's token (endpoint 23) and reads who they are (endpoint 24). */
  async function userFromTicket(ticket: string, signedInBy: SignedIn['signedInBy']): Promise<SignedIn> {
    const tokens = await client.authorization.exchangeTicket({ ticket, scope: USER_SCOPE });
    const me = await client.me.get({ accessToken: tokens.access_token });
    return { accountId: me.id.toLowerCase(), name: nameOf(me), email: me.email, signedInBy, token: tokenOf(tokens) };
  }

  /** The user's access token; refreshed (endpoint 23, grant `refresh_token`) when it is about to expire. */
  async function accessToken(user: SignedIn): Promise<string> {
    const { token } = user;
    if (token.expiresAt - REFRESH_MARGIN_MS > Date.now() || token.refreshToken === undefined) return token.accessToken;
    user.token = tokenOf(await client.authorization.refreshToken({ refreshToken: token.refreshToken }));
    return user.token.accessToken;
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

  const cancel = cancelRoutes({ client, pages: { page, message, redirect }, log, accessToken, unavailable });

  // ------------------------------------------------------------------ sessions

  /**
   * Opens a signed-in session (a new id: the browser's older session here ends) and makes it the
   * request's; answers its cookie header.
   */
  function signIn(ctx: Ctx, user: SignedIn, sso: SsoLink | undefined, justReturned = false): Record<string, string> {
    if (ctx.session) sessions.end(ctx.session.id);
    const session = sessions.open({ sso, user }, justReturned);
    ctx.session = session;
    log(`signed in account ${user.accountId} (${user.signedInBy})`);
    return { 'set-cookie': sessions.cookie(session.id) };
  }

  /** Ends the request's session here: the page shows the visitor signed out, and says why when it was a user. */
  function logOutLocally(ctx: Ctx, why: 'terminated' | 'session_not_found'): void {
    const user = ctx.session?.user;
    if (ctx.session) sessions.end(ctx.session.id);
    ctx.session = undefined;
    ctx.extraHeaders = { ...ctx.extraHeaders, 'set-cookie': sessions.cookie('') };
    if (!user) return;
    log(
      `account ${user.accountId} logged out here: the SSO session is ${why === 'terminated' ? 'terminated' : 'gone'}`,
    );
    ctx.notice = html`<section class="card warn" data-testid="logged-out-everywhere" data-reason="${why}">
<p>You have been logged out: your session was ended on every site, here too.</p></section>`;
  }

  /** Whether identify can run for this request: the SSO service lands only on the registered host name. */
  const onLandingHost = (ctx: Ctx) => ctx.url.hostname === landingHostname;

  /** Sends a new visitor to the SSO service's identify; it comes back to `/sso/landing`. */
  async function identify(ctx: Ctx): Promise<Answer> {
    try {
      return redirect(302, await client.sso.identifyUrl({ returnUrl: ctx.url.href }));
    } catch (error) {
      return unavailable(ctx, error);
    }
  }

  /**
   * The session's status on the SSO service, on every request of a visitor with an SSO session:
   * `terminated` or `session_not_found` ends the session here; a session logged in elsewhere meanwhile
   * comes with a fresh ticket, which signs the user in here too. When the SSO service cannot be
   * reached the page is served as it is.
   */
  async function checkStatus(ctx: Ctx, link: SsoLink): Promise<void> {
    let result: Awaited<ReturnType<typeof client.sso.sessionStatus>>;
    try {
      result = await client.sso.sessionStatus({
        sessionId: link.sessionId,
        lastKnownStatus: link.lastKnown,
        ...ctx.visitor,
      });
    } catch (error) {
      log(`session status failed: ${describe(error)}`);
      return;
    }
    switch (result.status) {
      case 'terminated':
        return logOutLocally(ctx, 'terminated');
      case 'error':
        if (result.error === 'session_not_found') return logOutLocally(ctx, 'session_not_found');
        log(`session status refused: ${result.error}`);
        return;
      case 'anon':
        link.lastKnown = 'anon';
        return;
      case 'loggedin': {
        const user = ctx.session?.user;
        if (user && user.accountId === result.accountId.toLowerCase()) {
          link.lastKnown = 'loggedin';
          return;
        }
        if (result.ticket === undefined) {
          // Logged in, but not as the site knows: ask again with a ticket next time.
          link.lastKnown = 'anon';
          return;
        }
        try {
          const signedIn = await userFromTicket(result.ticket, 'sso');
          const headers = signIn(ctx, signedIn, { sessionId: link.sessionId, lastKnown: 'loggedin' });
          ctx.extraHeaders = { ...ctx.extraHeaders, ...headers };
        } catch (error) {
          log(`a ticket from the SSO service could not be used: ${describe(error)}`);
        }
        return;
      }
    }
  }

  // ------------------------------------------------------------------ SSO: landing, login, logout

  /** `GET /sso/landing?t=...&r=...`: where identify sends the browser back. */
  async function landing(ctx: Ctx): Promise<Answer> {
    let landed: Awaited<ReturnType<typeof client.sso.readLanding>>;
    try {
      // `r` only to this origin: the session cookie is set for this host name alone.
      landed = await client.sso.readLanding(ctx.url, { allowedOrigins: [ctx.origin] });
    } catch (error) {
      if (error instanceof SsoTokenError || error instanceof SignOnValidationError) {
        log(`refused a landing token: ${describe(error)}`);
        return message(
          ctx,
          400,
          'Sign-in link refused',
          'error',
          'landing-refused',
          html`<p>This sign-in link is not valid or has expired. <a href="/">Home page</a></p>`,
        );
      }
      return unavailable(ctx, error);
    }
    const link: SsoLink = { sessionId: landed.sessionId, lastKnown: 'anon' };
    if (landed.returnUrlRefused) log('identify came back with a return URL of another origin: going home instead');
    if (landed.status === 'loggedin' && landed.ticket !== undefined) {
      // Logged in on another site of the organisation: signed in here too, with no form.
      try {
        const user = await userFromTicket(landed.ticket, 'sso');
        link.lastKnown = 'loggedin';
        return redirect(303, landed.redirectTo, signIn(ctx, user, link));
      } catch (error) {
        // Anonymous for now: the next status check asks for a fresh ticket.
        log(`a ticket from the SSO service could not be used: ${describe(error)}`);
      }
    }
    if (ctx.session) sessions.end(ctx.session.id);
    const session = sessions.open({ sso: link });
    return redirect(303, landed.redirectTo, { 'set-cookie': sessions.cookie(session.id) });
  }

  function loginForm(ctx: Ctx, status = 200, error?: { text: string; code: string }, email = ''): Answer {
    return page(
      ctx,
      status,
      'Sign in',
      html`<section class="card"><h1>Sign in to ${siteName}</h1>
${
  error === undefined
    ? ''
    : html`<p class="error-text" role="alert" data-testid="login-error" data-error="${error.code}">${error.text}</p>`
}
<form class="login" method="post" action="/login">
  <label for="email">E-mail address</label>
  <input id="email" name="email" type="email" autocomplete="username" required value="${email}" data-testid="login-email">
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required data-testid="login-password">
  <button type="submit" data-testid="login-submit">Sign in</button>
</form>
<p class="muted">One login for every site of the organisation: you are signed in on the others too.</p></section>`,
    );
  }

  /** The login form again, saying in words why the SSO service refused. */
  function loginRefused(ctx: Ctx, refusal: SsoRefusal, email: string): Answer {
    const again = (status: number, text: string) => loginForm(ctx, status, { text, code: refusal.error }, email);
    switch (refusal.error) {
      case 'invalid_credentials': {
        const left = refusal.remainingAttempts;
        if (left === undefined || left < 0) return again(401, 'Wrong e-mail address or password.');
        if (left === 0)
          return again(
            401,
            'Wrong e-mail address or password. That was the last attempt: the account is now frozen for a while.',
          );
        return again(
          401,
          `Wrong e-mail address or password. ${left} attempt${left === 1 ? '' : 's'} left before the account is frozen.`,
        );
      }
      case 'account_frozen': {
        const seconds = refusal.frozenForSeconds;
        const when = seconds === undefined || seconds < 0 ? 'later' : `in ${wait(seconds)}`;
        return again(429, `Too many wrong passwords: this account is frozen. Try again ${when}.`);
      }
      case 'account_not_active':
        return again(403, 'This account cannot log in. Contact customer service.');
      case 'session_limit_reached':
        return again(409, 'You are logged in on too many devices. Log out on one of them first.');
      case 'session_already_logged_in_on_another_account':
        return again(409, 'This browser is logged in as someone else. Log out first.');
      case 'session_not_found':
      case 'session_terminated':
        if (ctx.session) sessions.end(ctx.session.id);
        ctx.session = undefined;
        ctx.extraHeaders = { ...ctx.extraHeaders, 'set-cookie': sessions.cookie('') };
        return again(409, 'Your sign-in session has ended. Open the sign-in page again and retry.');
      default:
        log(`the SSO service refused a login: ${refusal.error}`);
        return again(502, 'Signing in is not possible right now. Try again in a moment.');
    }
  }

  /** `POST /login`: the e-mail address and password go to the SSO service's authenticate, never kept here. */
  async function login(ctx: Ctx): Promise<Answer> {
    const form = await readForm(ctx.req);
    if (!form)
      return message(ctx, 400, 'Bad request', 'error', 'bad-request', html`<p>The form could not be read.</p>`);
    const email = (form.get('email') ?? '').trim();
    const password = form.get('password') ?? '';
    if (email === '' || password === '')
      return loginForm(ctx, 400, { text: 'Enter your e-mail address and password.', code: 'missing' }, email);
    try {
      let link = ctx.session?.sso;
      if (!link) {
        // The browser's SSO session is unknown here: identify first (the form comes back).
        if (onLandingHost(ctx)) return redirect(303, '/login');
        // The SSO service cannot land on this host name: the site opens a session for the browser itself.
        const created = await client.sso.createSession({
          ...ctx.visitor,
          appName: siteName,
          appVersion: '1.0',
          osName: 'web',
          osVersion: 'any',
        });
        if (created.status !== 'anon') {
          log(`createsession answered ${created.status === 'error' ? created.error : created.status}`);
          return loginForm(ctx, 502, { text: 'Signing in is not possible right now.', code: 'unavailable' }, email);
        }
        link = { sessionId: created.sessionId, lastKnown: 'anon' };
      }
      const result = await client.sso.authenticate({ sessionId: link.sessionId, email, password, ...ctx.visitor });
      switch (result.status) {
        case 'loggedin': {
          if (result.ticket === undefined) throw new Error('authenticate answered no ticket');
          const user = await userFromTicket(result.ticket, 'password');
          return redirect(303, '/', signIn(ctx, user, { sessionId: link.sessionId, lastKnown: 'loggedin' }));
        }
        case 'error':
          return loginRefused(ctx, result, email);
        default:
          log(`authenticate answered ${result.status}`);
          return loginForm(ctx, 502, { text: 'Signing in is not possible right now.', code: result.status }, email);
      }
    } catch (error) {
      return unavailable(ctx, error);
    }
  }

  /** `POST /logout`: log out everywhere (the SSO session and every other of the account), then here. */
  async function logout(ctx: Ctx): Promise<Answer> {
    const link = ctx.session?.sso;
    if (link) {
      try {
        const result = await client.sso.logout({ sessionId: link.sessionId, ...ctx.visitor });
        if (result.status === 'error') log(`logout refused: ${result.error}`);
      } catch (error) {
        log(`logout failed: ${describe(error)}`);
      }
    }
    if (ctx.session) sessions.end(ctx.session.id);
    return redirect(303, '/', { 'set-cookie': sessions.cookie('') });
  }

  // ------------------------------------------------------------------ the shop and the way back

  /** The page for a ticket that could not be used. Nothing is signed in. */
  async function ticketRefused(ctx: Ctx, error: unknown): Promise<Answer> {
    if (error instanceof TicketReplayError) {
      // RFC 6749 section 10.5: a replayed ticket may have leaked; end what its first use opened.
      // With SSO that means its SSO session too, or identify would sign the browser straight back in.
      const ended = sessions.endByTicketHash(error.ticketHash);
      for (const s of ended)
        if (s.sso) await client.sso.logout({ sessionId: s.sso.sessionId, ...ctx.visitor }).catch(() => undefined);
      const mine = ctx.session?.user?.ticketHash === error.ticketHash;
      log(`refused a replayed ticket; ended ${ended.length} session(s) it had opened`);
      const answer = message(
        { ...ctx, session: mine ? undefined : ctx.session },
        400,
        'This sign-in link was already used',
        'error',
        'ticket-replayed',
        html`<p>A sign-in ticket from the shop works once only, and this one has been used before. You were not signed in again.</p>
${ended.length > 0 ? html`<p>For your safety, the session it opened has been ended.</p>` : ''}
<p><a href="/login">Sign in</a> or go to the <a href="/">home page</a>.</p>`,
      );
      if (mine) answer.headers = { ...answer.headers, 'set-cookie': sessions.cookie('') };
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

  /**
   * Signs in the user a shop ticket brought back. The browser's SSO session, if the site knew it,
   * stays with the new session, so its status is still checked.
   */
  function signInFromShop(
    ctx: Ctx,
    user: SignedInUser | undefined,
    tokens: AccessTokenResponse,
    mode: 'ReturnUrl' | 'SeparateTicketAuth',
    hash: string | undefined,
  ): Record<string, string> {
    if (!user) throw new Error('the return handler read no user');
    const signedIn: SignedIn = {
      accountId: user.id.toLowerCase(),
      name: nameOf(user),
      email: user.email,
      signedInBy: mode,
      token: tokenOf(tokens),
      ...(hash === undefined ? {} : { ticketHash: hash }),
    };
    return signIn(ctx, signedIn, ctx.session?.sso, true);
  }

  /** Endpoint 22 (form a, server to server) just before use, then endpoint 25. */
  async function subscribe(ctx: Ctx): Promise<Answer> {
    const user = ctx.session?.user;
    if (!shop) return notFound(ctx);
    if (!user) return redirect(303, '/login');
    let location: string;
    try {
      const { ticket } = await client.authorization.generateTicket({
        accountId: user.accountId,
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
  async function returnUrl(ctx: Ctx, handler: ReturnHandler): Promise<Answer> {
    const hash = ticketHashOf(ctx.url);
    try {
      const result = await handler.handleReturnUrl(ctx.url);
      if (result.status === 'signed_in')
        return redirect(303, result.cleanUrl, signInFromShop(ctx, result.user, result.tokens, 'ReturnUrl', hash));
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
    const user = ctx.session?.user;
    return message(
      ctx,
      200,
      'Back from the shop',
      'warn',
      'no-ticket',
      html`<p>Welcome back. The shop did not sign you in here: it sent you back without a sign-in ticket
(most likely, this address is not registered with the shop).</p>
${
  user
    ? html`<p>You are still signed in as ${user.name} from before.</p><p><a href="/">Home page</a></p>`
    : html`<p>You are not signed in. <a href="/login">Sign in</a> to see your subscription.</p>`
}`,
    );
  }

  /** Mode `SeparateTicketAuth`: the shop sends the user to `/auth/ticket?ticket=...&returnUrl=...`. */
  async function authTicket(ctx: Ctx, handler: ReturnHandler): Promise<Answer> {
    const hash = ticketHashOf(ctx.url);
    try {
      // Only this request's own origin: the session cookie is set for this host name alone.
      const result = await handler.handleSeparateTicketAuth(ctx.url, { allowedOrigins: [ctx.origin] });
      switch (result.status) {
        case 'signed_in':
          return redirect(
            303,
            result.redirectTo,
            signInFromShop(ctx, result.user, result.tokens, 'SeparateTicketAuth', hash),
          );
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

  // ------------------------------------------------------------------ routes

  async function home(ctx: Ctx): Promise<Answer> {
    const user = ctx.session?.user;
    if (!user)
      return page(
        ctx,
        200,
        'Home',
        html`<section class="card" data-testid="signed-out"><h1>Welcome to ${siteName}</h1>
<p>You are not signed in.</p><p><a class="button" href="/login" data-testid="login-link">Sign in</a></p></section>`,
      );
    if (ctx.session) ctx.session.justReturned = false;
    const by = {
      password: 'with your password',
      sso: 'on another site of ours: one login for all of them',
      ReturnUrl: 'with a ticket from the shop (mode ReturnUrl)',
      SeparateTicketAuth: 'with a ticket from the shop (mode SeparateTicketAuth)',
    }[user.signedInBy];
    return page(
      ctx,
      200,
      'Home',
      html`<section class="card"><h1>Welcome, ${user.name}</h1>
<p data-testid="signed-in-as">Signed in as ${user.name} (${user.email})</p>
<p class="muted" data-testid="signed-in-by" data-mode="${user.signedInBy}">Signed in ${by}.</p></section>
${await subscriptionCard(user)}`,
    );
  }

  function notFound(ctx: Ctx): Answer {
    return message(
      ctx,
      404,
      'Not found',
      'error',
      'not-found',
      html`<p>There is no such page. <a href="/">Home page</a></p>`,
    );
  }

  /** A page for signed-in users only: the login form first. */
  function signedIn(ctx: Ctx, then: (user: SignedIn) => Promise<Answer>): Promise<Answer> | Answer {
    const user = ctx.session?.user;
    return user ? then(user) : redirect(303, '/login');
  }

  async function route(ctx: Ctx): Promise<Answer> {
    const { req, url, origin } = ctx;
    const method = req.method ?? 'GET';
    const key = `${method} ${url.pathname}`;
    if (method === 'POST' && !sameOriginPost(req, origin))
      return message(ctx, 403, 'Forbidden', 'error', 'forbidden', html`<p>Cross-site form posts are refused.</p>`);
    if (!NO_IDENTIFY.has(url.pathname) && key !== 'POST /logout') {
      // A new visitor: identify first. A known one: is the SSO session still as the site knows it?
      if (!ctx.session && method === 'GET' && onLandingHost(ctx)) return identify(ctx);
      const link = ctx.session?.sso;
      if (link) await checkStatus(ctx, link);
    }
    switch (key) {
      case 'GET /':
        return home(ctx);
      case 'GET /login':
        return ctx.session?.user ? redirect(303, '/') : loginForm(ctx);
      case 'POST /login':
        return login(ctx);
      case 'POST /logout':
        return logout(ctx);
      case 'GET /sso/landing':
        return landing(ctx);
      case 'GET /cancel':
        return signedIn(ctx, (user) => cancel.show(ctx, user));
      case 'POST /cancel/accept':
        return signedIn(ctx, (user) => cancel.accept(ctx, user));
      case 'POST /cancel/confirm':
        return signedIn(ctx, (user) => cancel.confirm(ctx, user));
      case 'GET /subscribe':
        return subscribe(ctx);
      case 'GET /return':
        return returns ? returnUrl(ctx, returns) : notFound(ctx);
      case 'GET /auth/ticket':
        return returns ? authTicket(ctx, returns) : notFound(ctx);
      default:
        return notFound(ctx);
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
      const ctx: Ctx = { req, origin, url, session: sessions.fromCookie(req.headers.cookie), visitor: visitorOf(req) };
      answer = await route(ctx);
      // A Set-Cookie of the answer itself wins over one set on the way (e.g. a status check's).
      answer.headers = { ...ctx.extraHeaders, ...answer.headers };
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
    landingUrl: `http://${landingHostname}:${port}/sso/landing`,
    stats: () => ({ sessionsOpened: sessions.signIns, liveSessions: sessions.size }),
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
