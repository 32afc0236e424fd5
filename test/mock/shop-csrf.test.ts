/**
 * The shop's login form token is bound to the platform (a signed double-submit cookie): the
 * `shop_csrf` cookie holds a random value and the form its HMAC under a key only the platform
 * holds, so a matching pair an attacker makes up does not log in. `Origin: null` is refused on
 * every form, as `/__admin` refuses it.
 */
import { describe, expect, test } from 'vitest';
import { internalsOf } from '../../mock/core/internals.js';
import { createPlatform } from '../../mock/index.js';
import {
  ADAPTERS,
  type Answer,
  demoIds,
  demoShop,
  demoUsers,
  expectUnchanged,
  type Harness,
  useAdapter,
} from './harness.js';

const MARKET = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
const market = { group_id: demoShop.groupId, marketplace_id: demoShop.marketplaceId };
const login = { ...market, email: demoUsers.anna.email, password: demoUsers.anna.password };

/** The shop's browser sessions: none may open on a refusal (they are not in the state document). */
function shopSessions(h: Harness): number {
  return internalsOf(h.platform)?.state.shopSessions.size ?? 0;
}

/** The login page as a browser gets it: its `shop_csrf` cookie value and the form's token. */
async function loginForm(h: Harness): Promise<{ cookie: string; token: string }> {
  const answer = await h.call(MARKET, { host: 'shop' });
  const cookie = /^shop_csrf=([^;]*)/.exec(answer.headers.getSetCookie().join('\n'))?.[1] ?? '';
  const token = /name="csrf_token" value="([^"]*)"/.exec(answer.text)?.[1] ?? '';
  return { cookie, token };
}

/** Posts the login form with this cookie value and token (and extra headers). */
function postLogin(h: Harness, cookie: string, token: string, headers: Record<string, string> = {}): Promise<Answer> {
  return h.call('/shop/login', {
    method: 'POST',
    host: 'shop',
    form: { ...login, csrf_token: token },
    headers: { cookie: `shop_csrf=${cookie}`, ...headers },
  });
}

/** A refusal: the 403 page, no shop session. */
function expectRefused(answer: Answer): void {
  expect(answer.status, answer.text).toBe(403);
  expect(answer.text).toContain('Request refused');
  expect(answer.headers.getSetCookie().some((c) => c.startsWith('shop_session='))).toBe(false);
}

describe.each(ADAPTERS)("the shop's CSRF token is bound to the platform, through %s", (kind) => {
  const h = useAdapter(kind, { now: '2030-01-15T12:00:00Z' });

  test.each([
    ['shop_csrf=a, csrf_token=a', 'a', 'a'],
    [
      'a value shaped like the shop’s own, as both',
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    ],
  ])(
    'a matching pair the attacker chose (%s) does not log in: 403 page, no session; nothing changes',
    async (_, cookie, token) => {
      await expectUnchanged(h.platform, async () => expectRefused(await postLogin(h, cookie, token)));
      expect(shopSessions(h)).toBe(0);
    },
  );

  test("the cookie's own value as the token does not log in: the form carries its HMAC", async () => {
    const { cookie, token } = await loginForm(h);
    expect(token).not.toBe(cookie);
    await expectUnchanged(h.platform, async () => expectRefused(await postLogin(h, cookie, cookie)));
    expect(shopSessions(h)).toBe(0);
    // The form's own token logs in.
    expect((await postLogin(h, cookie, token)).status).toBe(303);
    expect(shopSessions(h)).toBe(1);
  });

  test("a pair from another platform's login page does not log in here", async () => {
    const other = createPlatform({ seed: 'demo', now: '2030-01-15T12:00:00Z' });
    const page = await other.handle(new Request(`http://localhost${MARKET}`));
    const cookie = /^shop_csrf=([^;]*)/.exec(page.headers.getSetCookie().join('\n'))?.[1] ?? '';
    const token = /name="csrf_token" value="([^"]*)"/.exec(await page.text())?.[1] ?? '';
    expect(cookie).not.toBe('');
    await expectUnchanged(h.platform, async () => expectRefused(await postLogin(h, cookie, token)));
    expect(shopSessions(h)).toBe(0);
  });

  test('a login form shown before a reset still logs in after it: the key is the platform’s, not the state’s', async () => {
    const { cookie, token } = await loginForm(h);
    h.platform.reset();
    expect((await postLogin(h, cookie, token)).status).toBe(303);
  });

  test('Origin: null with the right pair is refused, as /__admin refuses it: 403 page; nothing changes', async () => {
    const { cookie, token } = await loginForm(h);
    await expectUnchanged(h.platform, async () => {
      expectRefused(await postLogin(h, cookie, token, { origin: 'null' }));
      expectRefused(await postLogin(h, cookie, token, { origin: 'null', 'sec-fetch-site': 'same-origin' }));
    });
    expect(shopSessions(h)).toBe(0);
  });

  test("Origin: null is refused on the signed-in forms too (purchase, sign-out); the shop's own Origin passes", async () => {
    const { cookie, token } = await loginForm(h);
    const shop = h.origin('shop');
    const signedIn = await postLogin(h, cookie, token, { origin: shop });
    expect(signedIn.status).toBe(303);
    const session = /^shop_session=([^;]*)/.exec(signedIn.headers.getSetCookie().join('\n'))?.[1] ?? '';
    const store = await h.call(MARKET, { host: 'shop', headers: { cookie: `shop_session=${session}` } });
    expect(store.headers.get('referrer-policy')).toBe('same-origin');
    const csrf = /name="csrf_token" value="([^"]*)"/.exec(store.text)?.[1] ?? '';
    const post = (path: string, form: Record<string, string>) =>
      h.call(path, {
        method: 'POST',
        host: 'shop',
        form: { ...form, csrf_token: csrf },
        headers: { cookie: `shop_session=${session}`, origin: 'null' },
      });
    await expectUnchanged(h.platform, async () => {
      expectRefused(await post('/shop/purchase', { ...market, period_id: demoIds.periods.premiumCreditcard }));
      expectRefused(await post('/shop/logout', market));
    });
    expect(shopSessions(h)).toBe(1);
  });
});
