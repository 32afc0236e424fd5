/**
 * SSO sessions as sites run them, in Chromium: the two example sites of "Demo Media" (site A,
 * client `demo-site`, and site B, client `demo-site-b`) and the reference platform's SSO service.
 * A new visitor is identified (a redirect through the SSO host to the site's landing page), logs in
 * with the form (authenticate), is logged in on the other site through identify with no form, and
 * "Log out everywhere" on one site ends the session on the other at its next status check.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { demoUsers } from '../../mock/index.js';
import { pathOf, ssoLogout, ssoSessionStatus } from '../../src/endpoints.js';
import { hasChromium, requireChromium } from './chromium.js';
import { logInWithForm, recordingPage, submitLogin, text, useDemoSitesInChromium, withScreenshots } from './sites.js';

const TIMEOUT = 60_000;

requireChromium('test/browser/sso.test.ts');

const { anna, bo } = demoUsers;

describe.skipIf(!hasChromium)('SSO sessions shared by two sites of one organisation, in Chromium', () => {
  const sites = useDemoSitesInChromium(TIMEOUT);
  const { contexts, newContext } = sites;

  /** The browser's SSO session id: the `sso_session` cookie on the SSO host (the platform). */
  async function ssoSid(context: BrowserContext): Promise<string> {
    const cookie = (await context.cookies(sites.demo.platform.url)).find((c) => c.name === 'sso_session');
    expect(cookie, 'the SSO host set its session cookie').toBeDefined();
    return cookie?.value ?? '';
  }

  const ssoSession = (sid: string) => sites.demo.platform.platform.sso.session(sid);

  /** The hops of the navigations recorded, as origin + path. */
  const hops = (navigations: string[]) => navigations.map((u) => `${new URL(u).origin}${new URL(u).pathname}`);

  /** How many SSO calls of one operation the platform answered. */
  const ssoCalls = (path: string) => sites.demo.platform.platform.requests.list().filter((e) => e.path === path).length;

  test(
    'visit A (identified, anonymous), log in on A, visit B (logged in through identify, no form), log out everywhere on B, reload A: A sees terminated and logs out',
    async () => {
      const a = sites.demo.siteA.urlFor('localhost');
      const b = sites.demo.siteB.urlFor('localhost');
      const context = await newContext();
      const tabA = await recordingPage(context);
      const tabB = await recordingPage(context);
      await withScreenshots(contexts, 'sso', async () => {
        // 1. A new visitor on A is identified: A, the SSO host's identify, A's landing page, and back.
        await tabA.page.goto(`${a}/`);
        await tabA.page.getByTestId('signed-out').waitFor();
        expect(tabA.page.url()).toBe(`${a}/`);
        expect(hops(tabA.navigations)).toEqual([
          `${a}/`,
          `${sites.demo.platform.url}/identify`,
          `${a}/sso/landing`,
          `${a}/`,
        ]);
        const toIdentify = new URL(tabA.navigations[1] as string);
        expect(toIdentify.searchParams.get('r')).toBe(`${a}/`);
        const sid = await ssoSid(context);
        expect(ssoSession(sid)?.state).toBe('anon');

        // 2. Log in on A with the form: the password goes to the SSO service, which logs the session in.
        await logInWithForm(tabA.page, a, anna, 'Anna Andersson');
        expect(ssoSession(sid)).toMatchObject({ state: 'loggedin', account_id: anna.id });

        // 3. B, in another tab of the same browser: identify finds the logged-in session; no form.
        await tabB.page.goto(`${b}/`);
        await tabB.page.waitForURL(`${b}/`);
        expect(await text(tabB.page, 'signed-in-as')).toBe(`Signed in as Anna Andersson (${anna.email})`);
        expect(await tabB.page.getByTestId('signed-in-by').getAttribute('data-mode')).toBe('sso');
        expect(hops(tabB.navigations)).toEqual([
          `${b}/`,
          `${sites.demo.platform.url}/identify`,
          `${b}/sso/landing`,
          `${b}/`,
        ]);
        expect(tabB.navigations.some((u) => new URL(u).pathname === '/login')).toBe(false);
        expect(await ssoSid(context)).toBe(sid);

        // 4. Log out everywhere on B: the SSO session ends; B shows the visitor signed out.
        const logouts = ssoCalls(pathOf(ssoLogout, 'stage'));
        await tabB.page.getByTestId('logout').click();
        await tabB.page.getByTestId('signed-out').waitFor();
        expect(ssoCalls(pathOf(ssoLogout, 'stage'))).toBe(logouts + 1);
        expect(ssoSession(sid)?.state).toBe('terminated');
        // The next identify gave the browser a new, anonymous session.
        const next = await ssoSid(context);
        expect(next).not.toBe(sid);
        expect(ssoSession(next)?.state).toBe('anon');

        // 5. Reload A: its session status check sees `terminated`; A logs the visitor out and says so.
        const statusChecks = ssoCalls(pathOf(ssoSessionStatus, 'stage'));
        tabA.navigations.length = 0;
        const reloaded = await tabA.page.reload();
        expect(reloaded?.status()).toBe(200);
        expect(hops(tabA.navigations)).toEqual([`${a}/`]);
        expect(ssoCalls(pathOf(ssoSessionStatus, 'stage'))).toBe(statusChecks + 1);
        expect(await tabA.page.getByTestId('logged-out-everywhere').getAttribute('data-reason')).toBe('terminated');
        expect(await tabA.page.getByTestId('signed-out').count()).toBe(1);
        expect(await tabA.page.getByTestId('header-login').count()).toBe(1);
        expect(await tabA.page.getByTestId('signed-in-as').count()).toBe(0);
        expect((await context.cookies(a)).map((c) => c.name)).not.toContain('site_session');
      });
    },
    TIMEOUT,
  );

  test(
    'a login on B reaches A at its next page: the status check brings a fresh ticket and A signs the user in',
    async () => {
      const a = sites.demo.siteA.urlFor('localhost');
      const b = sites.demo.siteB.urlFor('localhost');
      const context = await newContext();
      const { page } = await recordingPage(context);
      await withScreenshots(contexts, 'sso-status', async () => {
        await page.goto(`${a}/`);
        await page.getByTestId('signed-out').waitFor();
        await logInWithForm(page, b, anna, 'Anna Andersson');
        await page.goto(`${a}/`);
        expect(await text(page, 'signed-in-as')).toBe(`Signed in as Anna Andersson (${anna.email})`);
        expect(await page.getByTestId('signed-in-by').getAttribute('data-mode')).toBe('sso');
      });
    },
    TIMEOUT,
  );

  /** Submits the login form and answers the status and the error the page shows. */
  async function attempt(page: Page, origin: string, password: string) {
    const answer = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/login',
    );
    await submitLogin(page, origin, bo, password);
    const status = (await answer).status();
    const error = page.getByTestId('login-error');
    return { status, code: await error.getAttribute('data-error'), text: (await error.textContent())?.trim() };
  }

  test(
    'the login form shows invalid_credentials with the attempts left, then account_frozen, and signs nobody in',
    async () => {
      const a = sites.demo.siteA.urlFor('localhost');
      const context = await newContext();
      const { page } = await recordingPage(context);
      await withScreenshots(contexts, 'sso-refusals', async () => {
        const opened = sites.demo.siteA.stats().sessionsOpened;
        const first = await attempt(page, a, 'not-the-password');
        expect(first).toEqual({
          status: 401,
          code: 'invalid_credentials',
          text: 'Wrong e-mail address or password. 4 attempts left before the account is frozen.',
        });
        // The e-mail address stays in the form; the password does not.
        expect(await page.getByTestId('login-email').inputValue()).toBe(bo.email);
        expect(await page.getByTestId('login-password').inputValue()).toBe('');
        for (const left of ['3 attempts', '2 attempts', '1 attempt'])
          expect((await attempt(page, a, 'not-the-password')).text).toContain(`${left} left`);
        const last = await attempt(page, a, 'not-the-password');
        expect(last.text).toContain('That was the last attempt');

        // Frozen: even the right password is refused, with the time until it thaws (300 s by default).
        const frozen = await attempt(page, a, bo.password);
        expect(frozen).toEqual({
          status: 429,
          code: 'account_frozen',
          text: 'Too many wrong passwords: this account is frozen. Try again in 5 minutes.',
        });
        expect(await page.getByTestId('header-login').count()).toBe(1);
        expect(ssoSession(await ssoSid(context))?.state).toBe('anon');
        expect(sites.demo.siteA.stats().sessionsOpened).toBe(opened);
      });
    },
    TIMEOUT,
  );
});
