/**
 * The sign-on round trip in a real browser: the example site (examples/site) and the reference
 * platform's shop, both served over HTTP in this process, driven by Chromium through playwright-core.
 *
 * The site answers on several host names; the platform's ticket configurations (demo seed) decide
 * how the shop sends the user back: `localhost` in mode ReturnUrl, `127.0.0.1` in mode
 * SeparateTicketAuth, and `unregistered.localhost` (Chromium resolves `*.localhost` to loopback)
 * is not registered, so the user comes back without a ticket. The site has no passwords of its own:
 * its login form signs Anna in through the platform's SSO service (test/browser/sso.test.ts covers
 * the SSO session shared with a second site).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, test } from 'vitest';
import type { RunningSite } from '../../examples/site/index.js';
import { demoSite, demoUsers } from '../../mock/index.js';
import type { RunningServer } from '../../mock/node/index.js';
import { paths } from '../paths.js';
import { hasChromium, requireChromium } from './chromium.js';
import { useDemoSitesInChromium } from './sites.js';

const TIMEOUT = 60_000;

requireChromium('test/browser/sign-on.test.ts');

const anna = demoUsers.anna;

describe.skipIf(!hasChromium)('sign-on round trip in Chromium', () => {
  // Every test starts from the seed: Anna subscribes to nothing live.
  const sites = useDemoSitesInChromium(TIMEOUT);
  const { contexts, newContext } = sites;
  let platform: RunningServer;
  let site: RunningSite;
  beforeAll(() => {
    platform = sites.demo.platform;
    site = sites.demo.siteA;
  });

  /** A new browser window with its own cookie jar, recording every navigation (redirect hops included). */
  async function newPage(): Promise<{ page: Page; context: BrowserContext; navigations: string[] }> {
    const context = await newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const navigations: string[] = [];
    page.on('request', (r) => {
      if (r.isNavigationRequest()) navigations.push(r.url());
    });
    return { page, context, navigations };
  }

  /** Runs a test body; on failure saves a screenshot of every open page before rethrowing. */
  async function withScreenshots(name: string, body: () => Promise<void>): Promise<void> {
    try {
      await body();
    } catch (error) {
      const pages = contexts.flatMap((c) => c.pages());
      const screenshots = mkdtempSync(join(tmpdir(), 'sign-on-screenshots-'));
      await Promise.all(
        pages.map((p, i) =>
          p.screenshot({ path: join(screenshots, `${name}-${i}.png`), fullPage: true }).catch(() => undefined),
        ),
      );
      if (pages.length > 0) console.error(`[test/browser] screenshots of "${name}" in ${screenshots}`);
      throw error;
    }
  }

  const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();

  /**
   * Signs Anna in with the site's login form, at `origin`: her platform password, checked by the SSO
   * service (identify first on `localhost`, the landing page's host name).
   */
  async function signInOnSite(page: Page, origin: string): Promise<void> {
    await page.goto(`${origin}/login`);
    await page.getByTestId('login-email').fill(anna.email);
    await page.getByTestId('login-password').fill(anna.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(`${origin}/`);
    expect(await text(page, 'signed-in-as')).toContain('Anna Andersson');
    expect(await page.getByTestId('signed-in-by').getAttribute('data-mode')).toBe('password');
    expect(await page.getByTestId('subscription').getAttribute('data-subscribed')).toBe('false');
    // The SSO service's `at` was exchanged once (endpoint 23) for Anna's token; no other ticket yet.
    expect(ticketExchanges()).toBe(1);
  }

  /**
   * From the site's home page: Subscribe, then in the shop (signed in by the ticket, no login form,
   * the ticket gone from the address bar) buy Premium Digital, and stop on the confirmation page.
   */
  async function subscribeAndBuy(page: Page, navigations: string[]): Promise<void> {
    await page.getByTestId('subscribe').click();
    await page.waitForURL((url) => url.origin === platform.url && url.pathname === '/marketplace/demo/main');
    // The site sent the browser to the marketplace with a ticket in `at` (endpoint 25) ...
    const toShop = navigations.find((u) => u.startsWith(`${platform.url}/marketplace/`));
    expect(toShop && new URL(toShop).searchParams.get('at')).toBeTruthy();
    // ... and the shop signed the user in from it and dropped it from the address bar.
    expect(new URL(page.url()).searchParams.has('at')).toBe(false);
    expect(await page.getByTestId('login-email').count()).toBe(0);
    expect(await text(page, 'signed-in-as')).toBe(`Signed in as ${anna.email}`);

    await page.locator('input[name="period_id"][data-product-code="premium-digital"]').first().check();
    await page.getByTestId('buy').click();
    await page.getByTestId('confirmation').waitFor();
    expect(await text(page, 'bought-product')).toBe('Premium Digital');
  }

  /** Back on the site's home page: signed in by the shop's ticket, subscribed, no ticket in the address bar. */
  async function expectSignedInAndSubscribed(page: Page, origin: string, mode: string): Promise<void> {
    expect(page.url()).toBe(`${origin}/`);
    expect(await text(page, 'signed-in-as')).toBe(`Signed in as Anna Andersson (${anna.email})`);
    // The session was opened by the return's ticket, not the earlier password login.
    expect(await page.getByTestId('signed-in-by').getAttribute('data-mode')).toBe(mode);
    expect(await page.getByTestId('subscription').getAttribute('data-subscribed')).toBe('true');
    expect(await text(page, 'subscription-status')).toBe('You subscribe to Premium Digital.');
  }

  /** How many ticket grants (endpoint 23) reached the platform (the SSO login's own exchange included). */
  const ticketExchanges = () =>
    platform.platform.requests.list().filter((e) => e.path === paths.accessToken && e.body?.includes('"ticket"'))
      .length;

  test(
    'ReturnUrl mode (localhost): sign in on the site, buy in the shop without a second login, come back signed in and subscribed',
    async () => {
      const origin = site.urlFor('localhost');
      const { page, navigations } = await newPage();
      await withScreenshots('return-url', async () => {
        await signInOnSite(page, origin);
        const exchanges = ticketExchanges();
        await subscribeAndBuy(page, navigations);
        await page.getByTestId('return-to-site').click();
        await page.waitForURL(`${origin}/`);
        await expectSignedInAndSubscribed(page, origin, 'ReturnUrl');

        // The shop sent the user to the return URL with a ticket, which the site then removed.
        const back = navigations.filter((u) => u.startsWith(origin)).map((u) => new URL(u));
        expect(back.some((u) => u.pathname === '/return' && u.searchParams.has('ticket'))).toBe(true);
        expect(back.some((u) => u.pathname === '/auth/ticket')).toBe(false);
        expect(back.at(-1)?.href).toBe(`${origin}/`);
        expect(ticketExchanges()).toBe(exchanges + 1);
      });
    },
    TIMEOUT,
  );

  test(
    'SeparateTicketAuth mode (127.0.0.1): the shop returns through /auth/ticket, which signs in and redirects to the return URL',
    async () => {
      const origin = site.urlFor('127.0.0.1');
      const { page, navigations } = await newPage();
      await withScreenshots('separate-ticket-auth', async () => {
        await signInOnSite(page, origin);
        const exchanges = ticketExchanges();
        await subscribeAndBuy(page, navigations);
        await page.getByTestId('return-to-site').click();
        await page.waitForURL(`${origin}/`);
        await expectSignedInAndSubscribed(page, origin, 'SeparateTicketAuth');

        const back = navigations.filter((u) => u.startsWith(origin)).map((u) => new URL(u));
        const auth = back.find((u) => u.pathname === '/auth/ticket');
        expect(auth?.searchParams.has('ticket')).toBe(true);
        expect(auth?.searchParams.get('returnUrl')).toBe(`${origin}/return`);
        // After /auth/ticket, no URL of the site carries the ticket.
        const after = back.slice(back.indexOf(auth as URL) + 1);
        expect(after.length).toBeGreaterThan(0);
        expect(after.every((u) => !u.searchParams.has('ticket'))).toBe(true);
        expect(ticketExchanges()).toBe(exchanges + 1);
      });
    },
    TIMEOUT,
  );

  test(
    'an unregistered domain (unregistered.localhost): the user comes back without a ticket and the return signs nobody in',
    async () => {
      const origin = site.urlFor('unregistered.localhost');
      const { page, context, navigations } = await newPage();
      await withScreenshots('unregistered', async () => {
        await signInOnSite(page, origin);
        const exchanges = ticketExchanges();
        await subscribeAndBuy(page, navigations);
        // Drop the site's own (password) session, so that only the return could sign the user in.
        await context.clearCookies({ domain: 'unregistered.localhost' });
        const opened = site.stats().sessionsOpened;

        await page.getByTestId('return-to-site').click();
        await page.waitForURL(`${origin}/return`);
        await page.getByTestId('no-ticket').waitFor();
        expect(await text(page, 'no-ticket')).toContain('The shop did not sign you in');
        expect(await page.getByTestId('header-login').count()).toBe(1);
        expect(navigations.filter((u) => u.startsWith(origin)).some((u) => u.includes('ticket='))).toBe(false);
        expect(site.stats().sessionsOpened).toBe(opened);
        expect(ticketExchanges()).toBe(exchanges);

        await page.goto(`${origin}/`);
        await page.getByTestId('signed-out').waitFor();
      });
    },
    TIMEOUT,
  );

  test(
    'reloading the return URL with a used ticket does not sign in twice: the replay is refused and opens no session',
    async () => {
      const origin = site.urlFor('localhost');
      const first = await newPage();
      await withScreenshots('replay', async () => {
        await signInOnSite(first.page, origin);
        await subscribeAndBuy(first.page, first.navigations);
        await first.page.getByTestId('return-to-site').click();
        await first.page.waitForURL(`${origin}/`);
        await expectSignedInAndSubscribed(first.page, origin, 'ReturnUrl');
        const used = first.navigations.find((u) => u.startsWith(`${origin}/return?ticket=`));
        expect(used).toBeDefined();
        const opened = site.stats().sessionsOpened;
        const exchanges = ticketExchanges();

        // The exact return URL, ticket included, in a fresh browser (an empty cookie jar).
        const second = await newPage();
        const response = await second.page.goto(used as string);
        expect(response?.status()).toBe(400);
        expect(response?.headers()['set-cookie']).toBeUndefined();
        expect(await text(second.page, 'ticket-replayed')).toContain('already used');
        expect(await second.page.getByTestId('header-login').count()).toBe(1);
        // The replay guard refused it on the site: no session, and the ticket never reached the platform again.
        expect(site.stats().sessionsOpened).toBe(opened);
        expect(ticketExchanges()).toBe(exchanges);
        await second.page.goto(`${origin}/`);
        await second.page.getByTestId('signed-out').waitFor();

        // RFC 6749 section 10.5: the session the ticket's first use opened is ended too.
        await first.page.reload();
        await first.page.getByTestId('signed-out').waitFor();
      });
    },
    TIMEOUT,
  );

  test(
    'a user new to the platform creates an account in the shop (Return flow 1), is signed in at once, buys, and comes back to the site signed in as that account',
    async () => {
      const origin = site.urlFor('localhost');
      const { page } = await newPage();
      await withScreenshots('sign-up', async () => {
        const exchanges = ticketExchanges();
        const returnUrl = `${origin}/return`;
        await page.goto(`${platform.url}/marketplace/demo/main?${new URLSearchParams({ returnUrl })}`);
        await page.getByTestId('signup-first-name').fill('Nora');
        await page.getByTestId('signup-last-name').fill('New');
        await page.getByTestId('signup-email').fill('nora.new@example.com');
        await page.getByTestId('signup-password').fill('a-new-password-1');
        await page.getByTestId('signup-submit').click();
        await page.getByTestId('signed-in-as').waitFor();
        expect(await text(page, 'signed-in-as')).toBe('Signed in as nora.new@example.com');
        await page.locator('input[name="period_id"][data-product-code="premium-digital"]').first().check();
        await page.getByTestId('buy').click();
        await page.getByTestId('confirmation').waitFor();
        await page.getByTestId('return-to-site').click();
        await page.waitForURL(`${origin}/`);
        expect(await text(page, 'signed-in-as')).toBe('Signed in as Nora New (nora.new@example.com)');
        expect(await page.getByTestId('subscription').getAttribute('data-subscribed')).toBe('true');
        expect(ticketExchanges()).toBe(exchanges + 1);
      });
    },
    TIMEOUT,
  );

  test(
    'SeparateTicketAuth redirects only to an allowed return URL: another origin gets the fallback and the ticket stays unspent',
    async () => {
      const origin = site.urlFor('127.0.0.1');
      const ticket = platform.platform.issueTicket({ accountId: anna.id, clientId: demoSite.clientId });
      const auth = (returnUrl: string) =>
        fetch(`${origin}/auth/ticket?${new URLSearchParams({ ticket, returnUrl })}`, { redirect: 'manual' });

      const refused = await auth('https://evil.example/return');
      expect(refused.status).toBe(303);
      expect(refused.headers.get('location')).toBe(`${origin}/`);
      expect(refused.headers.get('set-cookie')).toBeNull();
      // Another of the site's own host names is another cookie jar: refused too.
      expect((await auth(`${site.urlFor('localhost')}/return`)).headers.get('location')).toBe(`${origin}/`);
      expect(ticketExchanges()).toBe(0);

      const accepted = await auth(`${origin}/return`);
      expect(accepted.status).toBe(303);
      expect(accepted.headers.get('location')).toBe(`${origin}/return`);
      expect(accepted.headers.get('set-cookie')).toMatch(/^site_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Lax/);
      expect(ticketExchanges()).toBe(1);
    },
    TIMEOUT,
  );
});
