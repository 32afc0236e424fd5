/**
 * The shop (endpoint 25 and the spec's "Return flow"): real, server-rendered HTML pages on the
 * same platform and origin as everything else. A ticket in `at` logs the user into the shop (a
 * `shop_session` cookie) and is stripped from the address bar by a redirect; without one, a login
 * form. The user buys a package or campaign (a user-product), sees a confirmation, and returns to
 * the site with a new ticket for the site's client when its domain has a ticket configuration.
 *
 * Stable `id`s, `name`s and `data-testid`s let a browser test drive the pages: `login-email`,
 * `login-password`, `login-submit`, `login-error`, `signup-first-name`, `signup-last-name`,
 * `signup-email`, `signup-password`, `signup-submit`, `signup-error`, `signed-in-as`,
 * `product-<code>`, `period-<id>`, `buy`, `purchase-refused`, `confirmation`, `return-to-site`,
 * `logout`.
 *
 * Cross-site request forgery: every form carries a `csrf_token`. The login form's is bound to the
 * platform: the `shop_csrf` cookie holds a random value, the form its HMAC under a key only this
 * platform holds (a signed double-submit cookie), so a pair an attacker makes up does not pass; a
 * signed-in form's is its session's. A POST from another site (`Sec-Fetch-Site`, or without it
 * `Origin`, `null` included) is refused first, with a 403 page, and so is a POST whose token does
 * not match: nothing changes.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import * as z from 'zod';
import { marketplace } from '../../src/endpoints.js';
import { emailAddress, ticket as ticketText } from '../../src/schemas/common.js';
import { cookieOf } from '../core/cookies.js';
import type {
  AccountRecord,
  MarketplaceRecord,
  PricePeriodRecord,
  ProductRecord,
  TicketConfigurationRecord,
} from '../core/document.js';
import { stateReplaced } from '../core/errors.js';
import { makeRoomForShopSession, shopSessionOver } from '../core/eviction.js';
import { isLoopbackHost } from '../core/hosts.js';
import { html, type SafeHtml } from '../core/html.js';
import { newId, newSecret, sameId, sameSecret } from '../core/ids.js';
import { judgeOrder, packageForSale } from '../core/orders.js';
import { hashPasswordAsync } from '../core/passwords.js';
import {
  apiRoute,
  type ContextOf,
  type RefusedRequest,
  type RouteContext,
  type RouteResult,
  route,
} from '../core/route.js';
import { checkCredentials } from '../core/sso.js';
import type { ShopSession, State } from '../core/state.js';
import { isActiveAccount, issueTicket, judgeTicket, useTicket } from '../core/tickets.js';
import type { Platform } from '../core/types.js';
import { purchase as buy, priceOf } from '../core/user-products.js';

/** The shop's session cookie. */
const SHOP_SESSION_COOKIE = 'shop_session';

/** The login form's pre-session CSRF cookie (signed double submit: the form carries its HMAC). */
const SHOP_CSRF_COOKIE = 'shop_csrf';

/** The hidden field of every form that carries its CSRF token. */
const CSRF_FIELD = 'csrf_token';

/** Query parameters or form fields, read as plain text. */
const Fields = z.record(z.string(), z.string());
type Fields = z.output<typeof Fields>;

/**
 * The login form's fields: `email` of at most 1,024 characters, as the SSO service's `usr`. Both
 * log-ins count wrong passwords by the e-mail address, and the platform keeps each count (up to
 * `retention.maxWrongPasswordCounts` of them): one longer is `400 invalid_parameter` naming
 * `email`, before anything is counted.
 */
const LoginFields: z.ZodType<Fields> = z.object({ email: z.string().max(1024).optional() }).catchall(z.string());

/**
 * The sign-up form's fields, each at most 1,024 characters: what a form may send is read whole, and
 * the password is hashed (the rules of each, tighter, are the handler's, answered on the form).
 */
const SignUpFields: z.ZodType<Fields> = z
  .object({
    email: z.string().max(1024).optional(),
    password: z.string().max(1024).optional(),
    first_name: z.string().max(1024).optional(),
    last_name: z.string().max(1024).optional(),
  })
  .catchall(z.string());

/** The most characters a name of the sign-up form holds. */
const NAME_CHARACTERS = 100;
/** The fewest characters a password of the sign-up form holds. */
const PASSWORD_CHARACTERS = 8;

type Context = RouteContext<Fields>;
/** What the shop answers: a page or a redirect, never a JSON body. */
type Page = RouteResult<never>;

const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // No Referer leaves the shop (a ticket in a URL does not leak); its own forms send their Origin, not `null`.
  'referrer-policy': 'same-origin',
  'x-content-type-options': 'nosniff',
  'content-security-policy':
    "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

const STYLE = html`<style>
  body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  fieldset { margin: 1rem 0; } label { display: block; margin: .25rem 0; }
  .error { color: #a00; } header { display: flex; justify-content: space-between; align-items: center; }
</style>`;

/** An HTML page answer. */
function page(title: string, body: SafeHtml, status = 200, headers: Record<string, string> = {}): Page {
  const text = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>${STYLE}</head>
<body><main>${body}</main></body></html>
`;
  return { status, text: text.value, headers: { ...PAGE_HEADERS, ...headers } };
}

/** A `303 See Other` to `location` (so a POST is followed by a GET). */
function redirect(location: string, headers: Record<string, string> = {}): Page {
  return {
    status: 303,
    headers: { location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', ...headers },
  };
}

function errorPage(status: number, title: string, message: string): Page {
  return page(title, html`<h1>${title}</h1><p class="error" data-testid="error">${message}</p>`, status);
}

/** The return URL of a request: `returnUrl`, or its aliases `return_url` and `backUrl` (the platform's public documentation). */
function returnUrlOf(fields: Fields): string | undefined {
  return fields.returnUrl ?? fields.return_url ?? fields.backUrl;
}

/** An absolute http(s) URL without credentials, or undefined. */
function httpUrl(value: string | undefined): URL | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '') return undefined;
  return url;
}

/** A path with a query of the given fields (absent ones left out). */
function withQuery(path: string, fields: Readonly<Record<string, string | undefined>>): string {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) query.set(k, v);
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}

/** Where the browser reaches `path` of this platform: under its base path (a namespace's prefix). */
function at(ctx: Pick<RouteContext, 'settings'>, path: string): string {
  return `${ctx.settings.basePath}${path}`;
}

/** The marketplace page of `m`: endpoint 25's path with its ids, under `base`. */
function marketplacePath(base: string, m: MarketplaceRecord): string {
  const ids: Readonly<Record<string, string>> = { groupId: m.group_id, marketplaceId: m.marketplace_id };
  return base + marketplace.path.replace(/\{(\w+)\}/g, (_, id: string) => encodeURIComponent(ids[id] ?? ''));
}

/** The organisation a marketplace sells for: its client's. */
function organisationOf(state: State, m: MarketplaceRecord): string | undefined {
  return state.clients.get(m.client_id)?.organisation_id;
}

/** A signed-in shop visit: the account and its session. */
interface SignedIn {
  readonly account: AccountRecord;
  readonly session: ShopSession;
}

/** The account logged into the shop by this request's cookie, if it is active (and of `organisationId`, when given). */
function loggedIn(ctx: Context, organisationId?: string): SignedIn | undefined {
  const id = cookieOf(ctx.headers, SHOP_SESSION_COOKIE);
  const session = id === undefined ? undefined : ctx.state.shopSessions.get(id);
  if (!session || shopSessionOver(ctx.state.retention, session, ctx.clock.nowMs())) return undefined;
  const account = ctx.state.accounts.get(session.account_id);
  if (!account || !isActiveAccount(account)) return undefined;
  if (organisationId !== undefined && !sameId(account.organisation_id, organisationId)) return undefined;
  return { account, session };
}

/** The Set-Cookie value of a cookie: HttpOnly, SameSite=Lax, the platform's base path (`/`), Secure over https. */
function cookie(ctx: Context, value: string, maxAge?: number, name = SHOP_SESSION_COOKIE): string {
  const secure = ctx.url.protocol === 'https:' ? '; Secure' : '';
  const age = maxAge === undefined ? '' : `; Max-Age=${maxAge}`;
  return `${name}=${value}; Path=${at(ctx, '') || '/'}; HttpOnly; SameSite=Lax${secure}${age}`;
}

/** Logs `account` into the shop: a new random session (the old one of this browser ends). Answers the Set-Cookie. */
function openSession(ctx: Context, account: AccountRecord, ticket?: string): string {
  const old = cookieOf(ctx.headers, SHOP_SESSION_COOKIE);
  if (old !== undefined) ctx.state.shopSessions.delete(old);
  makeRoomForShopSession(ctx.state, ctx.clock.nowMs());
  const id = newSecret(32);
  ctx.state.shopSessions.set(id, {
    account_id: account.id,
    created_at: ctx.clock.now().toISOString(),
    csrf_token: newSecret(24),
    ...(ticket === undefined ? {} : { ticket }),
  });
  return cookie(ctx, id);
}

/** What `newSecret` makes: base64url text (anything else in the cookie is not ours). */
const TOKEN_TEXT = /^[A-Za-z0-9_-]{16,128}$/;

/**
 * Each platform's key for the login form's token: 32 random bytes, made on its first login page
 * and held only here, never in the state document (a reset leaves the forms on screen valid).
 */
const csrfKeys = new WeakMap<Platform, Uint8Array>();

const encoder = new TextEncoder();

/** The login form's token for a `shop_csrf` cookie value: HMAC-SHA256 of it under the platform's key, hex. */
function signedToken(ctx: Context, cookieValue: string): string {
  let key = csrfKeys.get(ctx.platform);
  if (key === undefined) {
    key = crypto.getRandomValues(new Uint8Array(32));
    csrfKeys.set(ctx.platform, key);
  }
  return bytesToHex(hmac(sha256, key, encoder.encode(`${SHOP_CSRF_COOKIE}=${cookieValue}`)));
}

/** The token the login form must carry: the HMAC of the browser's `shop_csrf` cookie; undefined without one of ours. */
function expectedLoginToken(ctx: Context): string | undefined {
  const sent = cookieOf(ctx.headers, SHOP_CSRF_COOKIE);
  return sent !== undefined && TOKEN_TEXT.test(sent) ? signedToken(ctx, sent) : undefined;
}

/** The login form's pre-session token, for the browser's `shop_csrf` cookie or a new one (with its Set-Cookie). */
function preSessionToken(ctx: Context): { token: string; setCookie?: string } {
  const expected = expectedLoginToken(ctx);
  if (expected !== undefined) return { token: expected };
  const value = newSecret(24);
  return { token: signedToken(ctx, value), setCookie: cookie(ctx, value, undefined, SHOP_CSRF_COOKIE) };
}

/**
 * Whether a POST comes from another site: `Origin: null` always (a sandboxed frame, a `data:` page;
 * the shop's own forms send their origin, under `Referrer-Policy: same-origin`), as `/__admin`
 * refuses it; then `Sec-Fetch-Site` when the browser sends it (only `same-origin` and `none`, a
 * user's own action, pass: a sibling subdomain is another site here); else an `Origin` other than
 * the shop's. No `Origin` at all is left to the token check.
 */
function isCrossSite(ctx: Context): boolean {
  const origin = ctx.headers.origin;
  if (origin === 'null') return true;
  const site = ctx.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  return origin !== undefined && origin !== ctx.url.origin;
}

/** Whether the form's `csrf_token` is `expected` (compared in constant time). */
function tokenMatches(f: Fields, expected: string | undefined): boolean {
  const sent = f[CSRF_FIELD];
  return expected !== undefined && sent !== undefined && sameSecret(expected, sent);
}

/** The 403 page of a refused form post. */
function forbidden(): Page {
  return errorPage(
    403,
    'Request refused',
    'This form was not sent from this shop, or it has expired. Go back, reload the page and try again.',
  );
}

/** The hidden field that carries a form's CSRF token. */
function csrfField(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}

function periodText(pp: PricePeriodRecord): string {
  const unit = pp.length === 1 ? pp.type : `${pp.length} ${pp.type}s`;
  return `${priceOf(pp)} per ${unit}, ${pp.payment_option} (${pp.purchase_type})`;
}

/** The packages and campaigns of a marketplace on sale now, with their enabled periods. */
function onSale(state: State, m: MarketplaceRecord, organisationId: string, nowMs: number): ProductRecord[] {
  const out: ProductRecord[] = [];
  for (const code of m.product_codes) {
    const p = packageForSale(state, organisationId, code, nowMs);
    if (p) out.push(p);
  }
  return out;
}

/** The hidden fields that carry the marketplace and the return flow through a form. */
function carried(m: MarketplaceRecord, fields: Readonly<Record<string, string | undefined>>): SafeHtml {
  const all: Record<string, string | undefined> = {
    group_id: m.group_id,
    marketplace_id: m.marketplace_id,
    ...fields,
  };
  return html`${Object.entries(all).map(([name, value]) =>
    value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`,
  )}`;
}

/** Which form of the sign-in page an error is about. */
type SignInForm = 'login' | 'signup';

function loginPage(
  ctx: Context,
  m: MarketplaceRecord,
  fields: Fields,
  error?: string,
  status = 200,
  form: SignInForm = 'login',
): Page {
  const hidden = carried(m, { returnUrl: returnUrlOf(fields), campaign: fields.campaign, period: fields.period });
  const csrf = preSessionToken(ctx);
  const errorOf = (which: SignInForm) =>
    error === undefined || which !== form
      ? ''
      : html`<p class="error" role="alert" data-testid="${which}-error">${error}</p>`;
  const given = (which: SignInForm, name: string) => (which === form ? (fields[name] ?? '') : '');
  return page(
    `Sign in - ${m.name}`,
    html`<h1>${m.name}</h1>
<h2>Sign in</h2>
${errorOf('login')}
<form method="post" action="${at(ctx, '/shop/login')}" id="login-form">
  ${hidden}${csrfField(csrf.token)}
  <label for="login-email">E-mail address</label>
  <input id="login-email" name="email" type="email" autocomplete="username" required data-testid="login-email" value="${given('login', 'email')}">
  <label for="login-password">Password</label>
  <input id="login-password" name="password" type="password" autocomplete="current-password" required data-testid="login-password">
  <button id="login-submit" type="submit" data-testid="login-submit">Sign in</button>
</form>
<h2>New here? Create an account</h2>
${errorOf('signup')}
<form method="post" action="${at(ctx, '/shop/signup')}" id="signup-form">
  ${hidden}${csrfField(csrf.token)}
  <label for="signup-first-name">First name</label>
  <input id="signup-first-name" name="first_name" autocomplete="given-name" required maxlength="${NAME_CHARACTERS}" data-testid="signup-first-name" value="${given('signup', 'first_name')}">
  <label for="signup-last-name">Last name</label>
  <input id="signup-last-name" name="last_name" autocomplete="family-name" required maxlength="${NAME_CHARACTERS}" data-testid="signup-last-name" value="${given('signup', 'last_name')}">
  <label for="signup-email">E-mail address</label>
  <input id="signup-email" name="email" type="email" autocomplete="email" required data-testid="signup-email" value="${given('signup', 'email')}">
  <label for="signup-password">Password</label>
  <input id="signup-password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_CHARACTERS}" data-testid="signup-password">
  <button id="signup-submit" type="submit" data-testid="signup-submit">Create account</button>
</form>`,
    status,
    csrf.setCookie === undefined ? {} : { 'set-cookie': csrf.setCookie },
  );
}

function signedInHeader(base: string, { account, session }: SignedIn, m: MarketplaceRecord | undefined): SafeHtml {
  return html`<header><p data-testid="signed-in-as" id="signed-in-as">Signed in as ${account.email}</p>
<form method="post" action="${base}/shop/logout">${m ? carried(m, {}) : ''}${csrfField(session.csrf_token)}<button type="submit" data-testid="logout" id="logout">Sign out</button></form></header>`;
}

function storePage(ctx: Context, m: MarketplaceRecord, org: string, visit: SignedIn, q: Fields) {
  const { state } = ctx;
  const now = ctx.clock.nowMs();
  const products = onSale(state, m, org, now);
  const periods = (p: ProductRecord) => p.price_periods.filter((pp) => pp.enabled);
  // `period` pre-selects a period shown; else `campaign` pre-selects its first period.
  let selected: string | undefined;
  if (q.period !== undefined && products.some((p) => periods(p).some((pp) => pp.id === q.period))) selected = q.period;
  else if (q.campaign !== undefined) {
    const campaign = products.find((p) => p.product_code === q.campaign);
    selected = campaign && periods(campaign)[0]?.id;
  }
  const list = products.map(
    (p) => html`<fieldset id="product-${p.product_code}" data-testid="product-${p.product_code}">
  <legend>${p.name}</legend><p>${p.description}</p>
  ${periods(p).map(
    (pp) =>
      html`<label><input type="radio" name="period_id" value="${pp.id}" id="period-${pp.id}" data-testid="period-${pp.id}" data-product-code="${p.product_code}" required${selected === pp.id ? html` checked` : ''}> ${periodText(pp)}</label>`,
  )}
</fieldset>`,
  );
  return page(
    m.name,
    html`${signedInHeader(at(ctx, ''), visit, m)}
<h1>${m.name}</h1>
<form method="post" action="${at(ctx, '/shop/purchase')}" id="purchase-form">
  ${carried(m, { returnUrl: returnUrlOf(q) })}${csrfField(visit.session.csrf_token)}
  ${products.length === 0 ? html`<p>Nothing is on sale here.</p>` : list}
  <button id="buy" type="submit" data-testid="buy">Buy</button>
</form>`,
  );
}

/** `GET /marketplace/{groupId}/{marketplaceId}` (endpoint 25). */
function showMarketplace(ctx: ContextOf<typeof marketplace>): Page {
  const { state, clock, params, input: q } = ctx;
  const m = state.marketplace(params.groupId ?? '', params.marketplaceId ?? '');
  const org = m && organisationOf(state, m);
  if (!m || !org) return errorPage(404, 'Not found', 'No such marketplace');
  if (q.at !== undefined) {
    // Consumed when valid; either way the ticket leaves the address bar (and history) at once.
    const presented = judgeTicket(state, clock, q.at, m.client_id);
    const headers: Record<string, string> = {};
    if (presented.ok && sameId(presented.account.organisation_id, org)) {
      useTicket(presented.ticket, clock);
      headers['set-cookie'] = openSession(ctx, presented.account, presented.ticket.ticket);
    }
    const { at: _, ...rest } = q;
    return redirect(withQuery(marketplacePath(at(ctx, ''), m), rest), headers);
  }
  const visit = loggedIn(ctx, org);
  if (!visit) return loginPage(ctx, m, q);
  return storePage(ctx, m, org, visit, q);
}

/**
 * `POST /shop/login`: the login form. The password is checked as the SSO service's authenticate
 * checks it, with the same count of wrong passwords and the same freeze (per organisation and
 * e-mail address, its letter case aside): a wrong password re-shows the form with an error, and so
 * does a frozen account, with the seconds left (`429`, `Retry-After`), whatever the password.
 */
async function login(ctx: Context): Promise<Page> {
  const { state, clock, settings, input: f } = ctx;
  if (isCrossSite(ctx) || !tokenMatches(f, expectedLoginToken(ctx))) return forbidden();
  const m = state.marketplace(f.group_id ?? '', f.marketplace_id ?? '');
  const org = m && organisationOf(state, m);
  if (!m || !org) return errorPage(404, 'Not found', 'No such marketplace');
  const checked = await checkCredentials(state, clock, settings.login, org, f.email ?? '', f.password ?? '');
  if (!checked.ok) {
    if (checked.err === 'account_not_active') return loginPage(ctx, m, f, 'This account cannot sign in', 403);
    if (checked.err === 'invalid_credentials') return loginPage(ctx, m, f, 'Wrong e-mail address or password', 401);
    const seconds = checked.frozenForSeconds ?? settings.login.freezeSeconds;
    const frozen = loginPage(ctx, m, f, `Too many wrong passwords: try again in ${seconds} seconds`, 429);
    return { ...frozen, headers: { ...frozen.headers, 'retry-after': String(seconds) } };
  }
  const location = withQuery(marketplacePath(at(ctx, ''), m), {
    returnUrl: returnUrlOf(f),
    campaign: f.campaign,
    period: f.period,
  });
  return redirect(location, { 'set-cookie': openSession(ctx, checked.account) });
}

/** A customer number for a new account of `organisationId`: `SHOP-` and a number no account of it has. */
function newCustomerNumber(state: State, organisationId: string): string {
  for (let n = state.accounts.added + 1; ; n++) {
    const number = `SHOP-${String(n).padStart(6, '0')}`;
    if (!state.accounts.find('customerNumber', organisationId, number)) return number;
  }
}

/**
 * `POST /shop/signup`: a new account, in the marketplace's organisation ("A user who created a new
 * account is logged into the shop automatically", Return flow 1): active, its e-mail address not
 * verified, its password hashed at once (never kept), its customer number `SHOP-` and a number.
 * The user is then signed in, back on the marketplace page with what it carried. A field that
 * breaks its rule re-shows the form with the error (400), and so does an e-mail address an account
 * of the organisation has (409, any letter case) and a shop at its cap of new accounts
 * (`retention.maxShopAccounts`, 503): nothing is added.
 */
async function signUp(ctx: Context): Promise<Page> {
  const { state, input: f } = ctx;
  if (isCrossSite(ctx) || !tokenMatches(f, expectedLoginToken(ctx))) return forbidden();
  const m = state.marketplace(f.group_id ?? '', f.marketplace_id ?? '');
  const org = m && organisationOf(state, m);
  if (!m || !org) return errorPage(404, 'Not found', 'No such marketplace');
  const refused = (error: string, status: number) => loginPage(ctx, m, f, error, status, 'signup');
  const email = (f.email ?? '').trim();
  const firstName = (f.first_name ?? '').trim();
  const lastName = (f.last_name ?? '').trim();
  const password = f.password ?? '';
  if (!emailAddress.safeParse(email).success) return refused('Enter a valid e-mail address', 400);
  for (const name of [firstName, lastName])
    if (name.length === 0 || name.length > NAME_CHARACTERS)
      return refused(`Enter a first and a last name, each of 1 to ${NAME_CHARACTERS} characters`, 400);
  if (password.length < PASSWORD_CHARACTERS)
    return refused(`Choose a password of at least ${PASSWORD_CHARACTERS} characters`, 400);
  // Judged again once the password is hashed: another sign-up may have come in meanwhile.
  const taken = () =>
    state.accountByEmail(org, email)
      ? refused('An account with this e-mail address exists: sign in above', 409)
      : state.accounts.added >= state.retention.maxShopAccounts
        ? refused('The shop takes no more new accounts (--max-shop-accounts)', 503)
        : undefined;
  const before = taken();
  if (before) return before;
  const generation = state.generation;
  const passwordHash = await hashPasswordAsync(password);
  // A state loaded meanwhile (reset, restore) is not the one this sign-up was judged in.
  if (state.generation !== generation) throw stateReplaced('the password was being hashed');
  const after = taken();
  if (after) return after;
  const account: AccountRecord = {
    id: newId(),
    organisation_id: org,
    email,
    first_name: firstName,
    last_name: lastName,
    customer_number: newCustomerNumber(state, org),
    status: 'active',
    password_hash: passwordHash,
    verified: false,
  };
  state.accounts.add(account);
  const location = withQuery(marketplacePath(at(ctx, ''), m), {
    returnUrl: returnUrlOf(f),
    campaign: f.campaign,
    period: f.period,
  });
  return redirect(location, { 'set-cookie': openSession(ctx, account) });
}

/**
 * `POST /shop/purchase`: `period_id` (one of a product on sale; `product_code`, when sent, must be
 * its product) creates an activated, platform-controlled user-product with its order and payment
 * profile, checked the way endpoint 9 checks an order; then the confirmation page.
 */
function purchase(ctx: Context): Page {
  const { state, clock, input: f } = ctx;
  if (isCrossSite(ctx)) return forbidden();
  const m = state.marketplace(f.group_id ?? '', f.marketplace_id ?? '');
  const org = m && organisationOf(state, m);
  if (!m || !org) return errorPage(404, 'Not found', 'No such marketplace');
  const visit = loggedIn(ctx, org);
  if (!visit) return errorPage(401, 'Sign in first', 'Your shop session has ended: sign in again to buy.');
  if (!tokenMatches(f, visit.session.csrf_token)) return forbidden();
  const { account } = visit;
  const now = clock.nowMs();
  let product: ProductRecord | undefined;
  let period: PricePeriodRecord | undefined;
  for (const p of onSale(state, m, org, now)) {
    const pp = p.price_periods.find((x) => x.enabled && x.id === f.period_id);
    if (pp && (f.product_code === undefined || f.product_code === p.product_code)) {
      product = p;
      period = pp;
      break;
    }
  }
  if (!product || !period)
    return errorPage(400, 'Choose a package', 'Choose a package or campaign and a payment period on sale here.');
  const verdict = judgeOrder(state, product, { account }, now);
  if (!verdict.purchase_allowed)
    return page(
      'Purchase refused',
      html`${signedInHeader(at(ctx, ''), visit, m)}<h1>Purchase refused</h1>
<p class="error" data-testid="purchase-refused" data-reason="${verdict.reason}">${verdict.message}</p>
<p><a href="${withQuery(marketplacePath(at(ctx, ''), m), { returnUrl: returnUrlOf(f) })}">Back to the shop</a></p>`,
      409,
    );
  const { id } = buy(state, clock, { accountId: account.id, product, period });
  return redirect(withQuery(at(ctx, `/shop/confirmation/${id}`), { returnUrl: returnUrlOf(f) }));
}

/** `GET /shop/confirmation/{userProductId}`: what was bought, and the way back to the site. */
function confirmation(ctx: Context): Page {
  const { state, params, input: q } = ctx;
  const visit = loggedIn(ctx);
  const up = visit && state.userProductOfAccount(visit.account.id, params.userProductId ?? '');
  if (!visit || !up) return errorPage(404, 'Not found', 'No such purchase');
  const product = state.products.get(up.product_id);
  const period = product?.price_periods.find((pp) => pp.id === up.period_id);
  const back = httpUrl(returnUrlOf(q));
  return page(
    'Thank you',
    html`${signedInHeader(at(ctx, ''), visit, undefined)}
<h1>Thank you for your purchase</h1>
<dl data-testid="confirmation" id="confirmation" data-user-product-id="${up.id}">
  <dt>Package</dt><dd data-testid="bought-product">${product?.name ?? up.product_code}</dd>
  ${period ? html`<dt>Payment</dt><dd>${periodText(period)}</dd>` : ''}
  <dt>Valid</dt><dd>${up.valid_from} to ${up.valid_to}</dd>
  <dt>Order</dt><dd data-testid="order-id">${up.order_id}</dd>
</dl>
${back ? html`<p><a id="return-to-site" data-testid="return-to-site" href="${withQuery(at(ctx, '/shop/return'), { returnUrl: back.href })}">Return to site</a></p>` : ''}`,
  );
}

/** Where a ticket configuration sends the user: the return URL, or the site's auth endpoint (a path is taken on the return URL's origin). */
function returnTarget(
  back: URL,
  mode: 'ReturnUrl' | 'SeparateTicketAuth',
  authEndpoint: string | null,
  ticket: string,
) {
  if (mode === 'ReturnUrl' || authEndpoint === null) {
    // Added at the end of the query as the site wrote it (`a%20b` stays, not `a+b`): a site may sign its return URL.
    const withTicket = new URL(back.href);
    const pair = new URLSearchParams([['ticket', ticket]]).toString();
    withTicket.search = withTicket.search.length > 1 ? `${withTicket.search}&${pair}` : `?${pair}`;
    return withTicket.href;
  }
  const target = new URL(authEndpoint, back.origin);
  target.searchParams.set('ticket', ticket);
  target.searchParams.set('returnUrl', back.href);
  return target.href;
}

/** Takes every `ticket` parameter out of `url`'s query, the other pairs kept as written (not encoded anew). */
function dropTicketParams(url: URL): void {
  if (!url.searchParams.has('ticket')) return;
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((pair) => !new URLSearchParams(pair).has('ticket'));
  url.search = kept.length > 0 ? `?${kept.join('&')}` : '';
}

/** Over https, or plain http to a loopback host (a site under development). */
function safeForTickets(url: URL): boolean {
  return url.protocol === 'https:' || isLoopbackHost(url.hostname);
}

/**
 * Whether a ticket may travel to `back` under `config`: safely (and so to the auth endpoint, in
 * mode SeparateTicketAuth), and to the configuration's port, when it pins one.
 */
function ticketMayGoTo(back: URL, config: TicketConfigurationRecord): boolean {
  if (!safeForTickets(back)) return false;
  if (config.mode === 'SeparateTicketAuth' && config.auth_endpoint !== null) {
    if (!safeForTickets(new URL(config.auth_endpoint, back.origin))) return false;
  }
  if (config.port === undefined) return true;
  const port = back.port === '' ? (back.protocol === 'https:' ? 443 : 80) : Number(back.port);
  return port === config.port;
}

/** The "you are leaving the shop" page: a link to `back`, which the user follows or not. */
function leavingPage(back: URL): Page {
  return page(
    'You are leaving the shop',
    html`<h1>You are leaving the shop</h1>
<p>The address you are going to is not a site this shop knows:</p>
<p><a id="leave" data-testid="leave" href="${back.href}" rel="noreferrer">${back.href}</a></p>`,
  );
}

/**
 * `GET /shop/return?returnUrl=...` (Return flow 2-6): a logged-in user whose site's domain (the
 * return URL's host name, exactly, case-insensitive) has a ticket configuration gets a new ticket
 * bound to the configuration's client, sent only over https (or http to a loopback host) and to the
 * configuration's port when it pins one. Otherwise the user returns without one: at once (the
 * spec's behaviour, an open redirect), or through a "you are leaving" page when the platform was
 * created with `returnInterstitial`. A `ticket` already in the return URL is always dropped, so no
 * planted ticket reaches the site.
 */
function giveBack(ctx: Context): Page {
  const { state, clock, settings, input: q } = ctx;
  const back = httpUrl(returnUrlOf(q));
  if (!back) return errorPage(400, 'Invalid return address', 'The return address must be an http(s) URL.');
  dropTicketParams(back);
  const config = state.ticketConfiguration(back.hostname);
  if (!config || !ticketMayGoTo(back, config))
    return settings.returnInterstitial ? leavingPage(back) : redirect(back.href);
  const account = loggedIn(ctx)?.account;
  const client = state.clients.get(config.client_id);
  if (!account || !client || !sameId(client.organisation_id, account.organisation_id)) return redirect(back.href);
  const ticket = issueTicket(state, clock, {
    accountId: account.id,
    clientId: client.client_id,
    lifetimeSeconds: settings.ticketLifetimeSeconds,
  });
  return redirect(returnTarget(back, config.mode, config.auth_endpoint, ticket.ticket));
}

/** `POST /shop/logout`: ends the shop session; back to the marketplace when the form names one. */
function logout(ctx: Context): Page {
  const { state, input: f } = ctx;
  if (isCrossSite(ctx)) return forbidden();
  const id = cookieOf(ctx.headers, SHOP_SESSION_COOKIE);
  const session = id === undefined ? undefined : state.shopSessions.get(id);
  if (session && !tokenMatches(f, session.csrf_token)) return forbidden();
  if (id !== undefined) state.shopSessions.delete(id);
  const headers = { 'set-cookie': cookie(ctx, '', 0) };
  const m = state.marketplace(f.group_id ?? '', f.marketplace_id ?? '');
  if (m) return redirect(marketplacePath(at(ctx, ''), m), headers);
  return page('Signed out', html`<h1>Signed out</h1><p>You are signed out of the shop.</p>`, 200, headers);
}

/** A page of the shop that is not an entry of the table, read as plain text. */
const get = (path: string, handler: (ctx: Context) => Page) =>
  route({ method: 'GET', path, kind: 'shop', query: Fields }, handler);
/** A form post of the shop's own pages, its fields read by `body`. */
const post = (path: string, handler: (ctx: Context) => Page | Promise<Page>, body = Fields as z.ZodType<Fields>) =>
  route({ method: 'POST', path, kind: 'shop', form: true, body }, handler);

/** Endpoint 25: the marketplace page a site sends its user to with a ticket. */
/**
 * A marketplace URL whose query the page refuses (another parameter broken, one repeated) but which
 * carries what may be a ticket (an `at` of 1 to 512 characters): the ticket leaves the address bar
 * first, as from any marketplace URL, by a 303 to the same URL without it, unused; the page's
 * refusal answers the next request. A query refused for its `at` alone (empty, or too long for a
 * ticket) is refused at once.
 */
function withoutTicket({ url, settings }: RefusedRequest): Page | undefined {
  if (!url.searchParams.getAll('at').some((v) => ticketText.safeParse(v).success)) return undefined;
  const rest = new URLSearchParams(url.search);
  rest.delete('at');
  const query = rest.toString();
  return redirect(`${settings.basePath}${url.pathname}${query ? `?${query}` : ''}`);
}

export const marketplaceRoute = apiRoute(marketplace, showMarketplace, { refusedInput: withoutTicket });
/** The login form's post. */
export const loginRoute = post('/shop/login', login, LoginFields);
/** The sign-up form's post: a new account, signed in. */
export const signUpRoute = post('/shop/signup', signUp, SignUpFields);
/** The purchase form's post. */
export const purchaseRoute = post('/shop/purchase', purchase);
/** The confirmation page of a purchase. */
export const confirmationRoute = get('/shop/confirmation/{userProductId}', confirmation);
/** The way back to the site (Return flow). */
export const returnRoute = get('/shop/return', giveBack);
/** The sign-out form's post. */
export const logoutRoute = post('/shop/logout', logout);
