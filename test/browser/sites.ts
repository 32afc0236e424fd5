/**
 * The reference platform and the example sites (examples/site) for the browser tests, each on a
 * free port, with the sites' SSO landing pages registered for those ports (the demo seed has
 * `localhost:3000` and `localhost:3001`, the ports of `npm start`).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { createSite, type RunningSite } from '../../examples/site/index.js';
import { type DemoUser, demoShop, demoSite, demoSiteB } from '../../mock/index.js';
import { type RunningServer, startServer } from '../../mock/node/index.js';
import { launchChromium } from './chromium.js';

/** The platform and the sites of one test file. */
export interface DemoSites {
  platform: RunningServer;
  /** Site A (client `demo-site`): SSO, the shop and back, the cancel page. */
  siteA: RunningSite;
  /** Site B (client `demo-site-b`): the same organisation, no shop. */
  siteB: RunningSite;
  /** Back to the demo seed, with the landing pages registered again. */
  reset(): void;
  close(): Promise<void>;
}

/** The SSO settings of the demo organisation. */
const SSO = { audience: demoSite.ssoAudience, organisationId: demoSite.organisationId };

/** Starts the platform (demo seed) and both sites, and registers the sites' landing pages. */
export async function startDemoSites(): Promise<DemoSites> {
  const platform = await startServer({ port: 0, seed: 'demo' });
  const siteA = await createSite({
    platformUrl: platform.url,
    credentials: { clientId: demoSite.clientId, clientSecret: demoSite.clientSecret },
    sso: SSO,
    shop: demoShop,
    port: 0,
  });
  const siteB = await createSite({
    platformUrl: platform.url,
    credentials: { clientId: demoSiteB.clientId, clientSecret: demoSiteB.clientSecret },
    sso: SSO,
    siteName: 'Demo Sport',
    cookieName: 'site_b_session',
    hostnames: ['localhost'],
    port: 0,
  });
  const reset = () => {
    platform.platform.reset();
    const doc = platform.platform.snapshot();
    for (const client of doc.clients) {
      if (client.client_id === demoSite.clientId) client.landing_url = siteA.landingUrl;
      if (client.client_id === demoSiteB.clientId) client.landing_url = siteB.landingUrl;
    }
    platform.platform.restore(doc);
  };
  reset();
  return {
    platform,
    siteA,
    siteB,
    reset,
    close: async () => {
      await Promise.allSettled([siteA.close(), siteB.close()]);
      await platform.close();
    },
  };
}

/** What {@link useDemoSitesInChromium} gives a test file. */
export interface DemoSitesInChromium {
  /** The platform and both sites (from the file's `beforeAll` on). */
  readonly demo: DemoSites;
  /** The browser windows the running test opened: closed after it. */
  readonly contexts: BrowserContext[];
  /** A new browser window with its own cookie jar, closed after the test. */
  newContext(): Promise<BrowserContext>;
}

/**
 * The demo sites and Chromium for one test file: started before its tests, back to the demo seed
 * before each test, every window a test opened closed after it, all stopped at the end.
 */
export function useDemoSitesInChromium(timeout: number): DemoSitesInChromium {
  let demo: DemoSites | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    demo = await startDemoSites();
    browser = await launchChromium();
  }, timeout);
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });
  beforeEach(() => demo?.reset());
  afterEach(async () => {
    await Promise.all(contexts.splice(0).map((c) => c.close()));
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the demo sites start in beforeAll');
    return value;
  };
  return {
    get demo() {
      return started(demo);
    },
    contexts,
    async newContext() {
      const context = await started(browser).newContext();
      contexts.push(context);
      return context;
    },
  };
}

/** The text of the element with `testId`, trimmed. */
export const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();

/** A new page that records every navigation (redirect hops included). */
export async function recordingPage(context: BrowserContext): Promise<{ page: Page; navigations: string[] }> {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const navigations: string[] = [];
  page.on('request', (r) => {
    if (r.isNavigationRequest()) navigations.push(r.url());
  });
  return { page, navigations };
}

/** Fills in the site's login form at `origin` and submits it (the password goes to the SSO service). */
export async function submitLogin(page: Page, origin: string, user: DemoUser, password = user.password): Promise<void> {
  await page.goto(`${origin}/login`);
  await page.getByTestId('login-email').fill(user.email);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.waitForLoadState();
}

/** Logs `user` in with the form at `origin` and checks the home page says so. */
export async function logInWithForm(page: Page, origin: string, user: DemoUser, name: string): Promise<void> {
  await submitLogin(page, origin, user);
  await page.waitForURL(`${origin}/`);
  expect(await text(page, 'signed-in-as')).toBe(`Signed in as ${name} (${user.email})`);
  expect(await page.getByTestId('signed-in-by').getAttribute('data-mode')).toBe('password');
}

/** Runs a test body; on failure saves a screenshot of every open page before rethrowing. */
export async function withScreenshots(
  contexts: readonly BrowserContext[],
  name: string,
  body: () => Promise<void>,
): Promise<void> {
  try {
    await body();
  } catch (error) {
    const pages = contexts.flatMap((c) => c.pages());
    const dir = mkdtempSync(join(tmpdir(), 'browser-screenshots-'));
    await Promise.all(
      pages.map((p, i) => p.screenshot({ path: join(dir, `${name}-${i}.png`), fullPage: true }).catch(() => undefined)),
    );
    if (pages.length > 0) console.error(`[test/browser] screenshots of "${name}" in ${dir}`);
    throw error;
  }
}
