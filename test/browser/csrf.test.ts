/**
 * Login CSRF on the shop, in a real browser: a page on another site auto-submits the shop's login
 * form with the attacker's own credentials and the attacker's own form token. The shop refuses it
 * with a 403 page, and the victim's browser is signed into nothing.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { demoShop, demoUsers } from '../../mock/index.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { hasChromium, launchChromium, requireChromium } from './chromium.js';

const TIMEOUT = 60_000;

requireChromium('test/browser/csrf.test.ts');

describe.skipIf(!hasChromium)('the shop refuses a cross-site login in Chromium', () => {
  let platform: RunningServer;
  let attacker: Server;
  let attackerOrigin: string;
  let browser: Browser;
  const market = () => `${platform.url}/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;

  beforeAll(async () => {
    platform = await startServer({ port: 0, seed: 'demo' });
    // The attacker's site: a page that posts the shop's login form as soon as it loads.
    attacker = createServer(async (_req, res) => {
      // The attacker's own token, from its own visit to the login page (the cookie stays with the attacker).
      const own = await (await fetch(market())).text();
      const token = /name="csrf_token" value="([^"]*)"/.exec(own)?.[1] ?? '';
      const field = (name: string, value: string) => `<input type="hidden" name="${name}" value="${value}">`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><body>
<form id="f" method="post" action="${platform.url}/shop/login">
${field('group_id', demoShop.groupId)}${field('marketplace_id', demoShop.marketplaceId)}
${field('email', demoUsers.bo.email)}${field('password', demoUsers.bo.password)}${field('csrf_token', token)}
</form><script>document.getElementById('f').submit()</script></body></html>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    // Chromium resolves *.localhost to loopback: another site than the platform's 127.0.0.1.
    attackerOrigin = `http://attacker.localhost:${(attacker.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    attacker?.closeAllConnections();
    await new Promise((resolve) => attacker?.close(resolve));
    await platform?.close();
  });

  test(
    'the auto-submitted form gets the 403 page; the victim is signed into nothing',
    async () => {
      const context = await browser.newContext();
      try {
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        // The victim has visited the shop before: the browser holds its own shop_csrf cookie.
        await page.goto(market());
        await expect(page.getByTestId('login-email').count()).resolves.toBe(1);
        const refused = page.waitForResponse((r) => r.url().endsWith('/shop/login'));
        await page.goto(`${attackerOrigin}/`);
        const answer = await refused;
        expect(answer.status()).toBe(403);
        expect((await answer.request().allHeaders())['sec-fetch-site']).toBe('cross-site');
        await page.waitForLoadState();
        expect(await page.getByTestId('error').textContent()).toContain('not sent from this shop');
        const cookies = await context.cookies(platform.url);
        expect(cookies.map((c) => c.name)).not.toContain('shop_session');
        // Back at the shop: still the login form, nobody signed in.
        await page.goto(market());
        await expect(page.getByTestId('signed-in-as').count()).resolves.toBe(0);
        await expect(page.getByTestId('login-email').count()).resolves.toBe(1);
        expect(platform.platform.requests.list().some((r) => r.path === '/shop/login' && r.status === 403)).toBe(true);
      } finally {
        await context.close();
      }
    },
    TIMEOUT,
  );
});
