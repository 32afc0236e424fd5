/**
 * "Cancel my subscription": the signed-in user's subscriptions (the documented me API, v3), and for
 * the one they pick the cancellation reasons (endpoint 14, the site's own token), whether a
 * retention campaign may be offered (endpoint 6, a GET with a JSON body: sent from this Node
 * server, never from the browser), the campaign applied when they accept (endpoint 7), and the
 * cancellation when they decline (`PUT /external/api/v1/me/cancel_product`). Endpoints 6, 7 and
 * cancel product act for the user: they take the user's token, from the ticket exchange (endpoint 23).
 *
 * Routes: `GET /cancel` (the list), `GET /cancel?id=` (the offer and the form), `POST /cancel/accept`,
 * `POST /cancel/confirm`.
 */
import {
  AuthenticationError,
  ConflictError,
  NotFoundError,
  type PlatformClient,
  RequestValidationError,
} from '../../src/index.js';
import type { CampaignEligibility, CancellationReason, DocumentedUserProductV3 } from '../../src/types.js';
import { html, type SafeHtml } from './html.js';
import { type Answer, type Ctx, type Pages, readForm } from './pages.js';
import type { SignedIn } from './sessions.js';

/** What the cancel pages need from the site. */
export interface CancelDeps {
  client: PlatformClient;
  pages: Pages;
  log: (line: string) => void;
  /** The user's access token, refreshed when it is about to expire. */
  accessToken(user: SignedIn): Promise<string>;
  /** The page for a platform that cannot be reached. */
  unavailable(ctx: Ctx, error: unknown): Answer;
}

/** The cancel pages' routes. */
export interface CancelRoutes {
  show(ctx: Ctx, user: SignedIn): Promise<Answer>;
  accept(ctx: Ctx, user: SignedIn): Promise<Answer>;
  confirm(ctx: Ctx, user: SignedIn): Promise<Answer>;
}

/** The day part of an ISO date-time. */
const day = (iso: string) => iso.slice(0, 10);

/** Builds the cancel pages. */
export function cancelRoutes(deps: CancelDeps): CancelRoutes {
  const { client, pages, log } = deps;

  let names: Promise<Map<string, string>> | undefined;
  /** Product names by code (endpoint 2, packages and campaigns), read once; codes when it fails. */
  async function productName(code: string): Promise<string> {
    names ??= Promise.all([
      client.products.list({ product_type: 'packages' }),
      client.products.list({ product_type: 'campaigns' }),
    ]).then(
      (lists) => new Map(lists.flatMap(({ items }) => items.map((p) => [p.product_code, p.name] as const))),
      () => {
        names = undefined;
        return new Map<string, string>();
      },
    );
    return (await names).get(code) ?? code;
  }

  /** The user's subscriptions (v3 of the documented me API lists their state). */
  async function subscriptions(user: SignedIn): Promise<DocumentedUserProductV3[]> {
    const { item } = await client.me.getDocumented({ accessToken: await deps.accessToken(user) });
    return item.user_products;
  }

  function notYours(ctx: Ctx): Answer {
    return pages.message(
      ctx,
      404,
      'No such subscription',
      'error',
      'not-found',
      html`<p>There is no such subscription of yours.</p><p><a href="/cancel">Your subscriptions</a></p>`,
    );
  }

  /** The page for a refusal of the platform, in words; `undefined` for a failure to reach it. */
  function refused(ctx: Ctx, error: unknown, testId: string): Answer | undefined {
    if (error instanceof ConflictError)
      return pages.message(
        ctx,
        409,
        'Not possible',
        'warn',
        testId,
        html`<p data-code="${error.code ?? ''}">${error.message}</p><p><a href="/cancel">Your subscriptions</a></p>`,
      );
    if (error instanceof NotFoundError || error instanceof RequestValidationError) return notYours(ctx);
    if (error instanceof AuthenticationError)
      return pages.message(
        ctx,
        401,
        'Sign in again',
        'warn',
        'sign-in-again',
        html`<p>Your sign-in has expired. <a href="/login">Sign in</a> again.</p>`,
      );
    return undefined;
  }

  async function list(ctx: Ctx, user: SignedIn): Promise<Answer> {
    const all = (await subscriptions(user)).filter(
      (u) => u.state === 'activated' || (u.state === 'cancelled' && Date.parse(u.valid_to) > Date.now()),
    );
    if (all.length === 0)
      return pages.message(
        ctx,
        200,
        'Your subscriptions',
        'ok',
        'no-subscriptions',
        html`<p>You have no subscription running.</p><p><a href="/">Home page</a></p>`,
      );
    const rows = await Promise.all(
      all.map(async (u) => {
        const name = await productName(u.product_code);
        return u.state === 'activated'
          ? html`<li data-testid="subscription-row" data-user-product-id="${u.id}" data-state="${u.state}"><span>${name}</span>
<a href="/cancel?id=${encodeURIComponent(u.id)}" data-testid="cancel-link">Cancel</a></li>`
          : html`<li data-testid="subscription-row" data-user-product-id="${u.id}" data-state="${u.state}"><span>${name}</span>
<span class="muted">Cancelled: runs until ${day(u.valid_to)}</span></li>`;
      }),
    );
    return pages.page(
      ctx,
      200,
      'Your subscriptions',
      html`<section class="card"><h1>Cancel my subscription</h1><p>Which subscription do you want to cancel?</p>
<ul class="subscriptions">${rows}</ul></section>`,
    );
  }

  /** The offer card, when a campaign may be offered; a quiet note otherwise. */
  function offerCard(id: string, eligibility: CampaignEligibility): SafeHtml {
    if (!eligibility.eligible)
      return html`<p class="muted" data-testid="not-eligible" data-code="${eligibility.code}">${eligibility.message}</p>`;
    const { item } = eligibility;
    return html`<section class="card ok" data-testid="retention-offer" data-campaign-code="${item.code}">
<h1>Before you go: ${item.name}</h1><p>${item.description}</p>
<form method="post" action="/cancel/accept"><input type="hidden" name="id" value="${id}">
<button type="submit" data-testid="accept-offer">Stay with this offer</button></form></section>`;
  }

  async function show(ctx: Ctx, user: SignedIn): Promise<Answer> {
    const id = ctx.url.searchParams.get('id');
    try {
      if (id === null || id === '') return await list(ctx, user);
      const mine = (await subscriptions(user)).find((u) => u.id === id);
      if (!mine) return notYours(ctx);
      const accessToken = await deps.accessToken(user);
      const [name, { items: reasons }, eligibility] = await Promise.all([
        productName(mine.product_code),
        // The reasons a customer may give: not the internal ones, only those shown to customers.
        client.cancellationReasons.list({ visible_to_end_customer: true }),
        // Endpoint 6: a GET with a JSON body, which this Node server can send.
        client.meRetention.eligibleForCampaign({ user_product_id: id }, { accessToken }),
      ]);
      if (mine.state !== 'activated')
        return pages.message(
          ctx,
          409,
          'Already cancelled',
          'warn',
          'cancel-refused',
          html`<p>Your ${name} is already cancelled: it runs until ${day(mine.valid_to)}.</p><p><a href="/cancel">Your subscriptions</a></p>`,
        );
      return pages.page(
        ctx,
        200,
        'Cancel my subscription',
        html`${offerCard(id, eligibility)}
<section class="card" data-testid="cancel-form"><h1>Cancel ${name}</h1>
<p>Your ${name} runs until ${day(mine.valid_to)}. If you cancel, you keep it until then and it is not renewed.</p>
<form class="cancel" method="post" action="/cancel/confirm"><input type="hidden" name="id" value="${id}">
<label for="reason">Why are you leaving? (optional)</label>
<select id="reason" name="cancellation_reason_id" data-testid="cancel-reason">
<option value="">I would rather not say</option>
${reasons.map((r: CancellationReason) => html`<option value="${r.id}">${r.name}</option>`)}
</select>
<button type="submit" class="${eligibility.eligible ? 'secondary' : ''}" data-testid="confirm-cancel">${
          eligibility.eligible ? 'No thanks, cancel my subscription' : 'Cancel my subscription'
        }</button></form></section>`,
      );
    } catch (error) {
      return refused(ctx, error, 'cancel-refused') ?? deps.unavailable(ctx, error);
    }
  }

  async function accept(ctx: Ctx, user: SignedIn): Promise<Answer> {
    const form = await readForm(ctx.req);
    const id = form?.get('id') ?? '';
    try {
      const { item } = await client.meRetention.subscribeToCampaign(
        { user_product_id: id },
        { accessToken: await deps.accessToken(user) },
      );
      log(`account ${user.accountId} accepted the retention campaign ${item.code}`);
      return pages.message(
        ctx,
        200,
        'Thank you for staying',
        'ok',
        'retained',
        html`<p data-campaign-code="${item.code}">You stay with us on ${item.name}. ${item.description}</p>
<p><a href="/cancel">Your subscriptions</a> · <a href="/">Home page</a></p>`,
      );
    } catch (error) {
      return refused(ctx, error, 'offer-refused') ?? deps.unavailable(ctx, error);
    }
  }

  async function confirm(ctx: Ctx, user: SignedIn): Promise<Answer> {
    const form = await readForm(ctx.req);
    const id = form?.get('id') ?? '';
    const reason = form?.get('cancellation_reason_id') ?? '';
    try {
      const accessToken = await deps.accessToken(user);
      await client.me.cancelProduct(
        { id, ...(reason === '' ? {} : { cancellation_reason_id: reason }) },
        { accessToken },
      );
      log(`account ${user.accountId} cancelled a subscription`);
      const cancelled = (await subscriptions(user)).find((u) => u.id === id);
      const until = cancelled
        ? html` You keep it until <span data-testid="runs-until">${day(cancelled.valid_to)}</span>.`
        : '';
      return pages.message(
        ctx,
        200,
        'Your subscription is cancelled',
        'ok',
        'cancelled',
        html`<p>It is not renewed.${until}</p><p><a href="/cancel">Your subscriptions</a> · <a href="/">Home page</a></p>`,
      );
    } catch (error) {
      return refused(ctx, error, 'cancel-refused') ?? deps.unavailable(ctx, error);
    }
  }

  return { show, accept, confirm };
}
