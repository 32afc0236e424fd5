/**
 * What a password check may cost: a stored hash names its own scrypt cost, so the state document
 * refuses one costlier than a check of about 100 ms (naming the field), and a check runs off the
 * event loop, so that a login being checked never keeps another request from being answered.
 * Through both adapters, with plain `fetch`; the order in which answers complete is what is
 * asserted, never how long anything took.
 */
import nodeCrypto, { randomBytes, scryptSync } from 'node:crypto';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { OffsetClock } from '../../mock/core/clock.js';
import { internalsOf } from '../../mock/core/internals.js';
import { checkCredentials } from '../../mock/core/sso.js';
import { createPlatform, type StateDocument } from '../../mock/index.js';
import { GetProductsResponse } from '../../src/schemas/products.js';
import { until } from '../until.js';
import {
  ADAPTERS,
  type Answer,
  demoShop,
  demoUsers,
  expectError,
  expectOk,
  expectUnchanged,
  type Harness,
  paths,
  READ,
  useAdapter,
} from './harness.js';

const MARKET = `/marketplace/${demoShop.groupId}/${demoShop.marketplaceId}`;
const market = { group_id: demoShop.groupId, marketplace_id: demoShop.marketplaceId };

/** A real scrypt hash of `password` with these parameters. */
function hashOf(password: string, n: number, r: number, p: number): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: n, r, p, maxmem: 256 * n * r + 1024 * 1024 });
  return `scrypt$${n}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** A hash of the right shape naming these parameters (its key is never computed: it is refused first). */
function shapeOf(n: number, r: number, p: number): string {
  return `scrypt$${n}$${r}$${p}$${randomBytes(16).toString('base64url')}$${randomBytes(32).toString('base64url')}`;
}

/** The state with anna's password hash replaced by `hash`; answers the document and anna's index in it. */
function withAnnasHash(h: Harness, hash: string): { document: StateDocument; at: number } {
  const document = h.platform.snapshot();
  const at = document.accounts.findIndex((a) => a.email === demoUsers.anna.email);
  document.accounts[at] = { ...document.accounts[at]!, password_hash: hash };
  return { document, at };
}

/** One shop login on a fresh browser (the login form's CSRF cookie and token first). */
async function shopLogin(h: Harness, email: string, password: string): Promise<Answer> {
  const form = await h.call(MARKET, { host: 'shop' });
  const cookie =
    form.headers
      .getSetCookie()
      .find((c) => c.startsWith('shop_csrf='))
      ?.split(';')[0] ?? '';
  const csrf = /name="csrf_token" value="([^"]*)"/.exec(form.text)?.[1] ?? '';
  return h.call('/shop/login', {
    method: 'POST',
    host: 'shop',
    form: { ...market, email, password, csrf_token: csrf },
    headers: { cookie },
  });
}

/**
 * Holds every scrypt computation of node:crypto until the test releases it: the key is computed,
 * and its callback called once `release` is.
 */
function holdScrypt(): { release: () => void }[] {
  const held: { release: () => void }[] = [];
  const scrypt = nodeCrypto.scrypt;
  vi.spyOn(nodeCrypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
    const callback = args.pop() as (error: Error | null, key: Buffer) => void;
    const gate = deferred();
    held.push({ release: gate.resolve });
    (scrypt as (...a: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
      void gate.promise.then(() => callback(error, key));
    });
  }) as never);
  return held;
}

/** A promise with its resolve function. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe.each(ADAPTERS)('what a stored password hash may cost, through %s', (kind) => {
  const h = useAdapter(kind);

  test.each([
    ['the cost found in the attack run, N = 2^18, r = 8, p = 16', 262_144, 8, 16],
    ['twice the work, N = 2^15, r = 8, p = 1', 32_768, 8, 1],
    ['twice the work by p, N = 2^14, r = 8, p = 2', 16_384, 8, 2],
    ['twice the work by r (32 MiB), N = 2^14, r = 16, p = 1', 16_384, 16, 1],
    ['N not below 2^(16·r), N = 2^16, r = 1, p = 1', 65_536, 1, 1],
  ])('PUT /__admin/state refuses %s: 400 invalid_parameter naming the field; nothing changes', async (_, n, r, p) => {
    const { document, at } = withAnnasHash(h, shapeOf(n, r, p));
    const answer = await expectUnchanged(h.platform, () => h.call('/__admin/state', { method: 'PUT', json: document }));
    const body = expectError(answer, 400, 'invalid_parameter', `accounts[${at}].password_hash`);
    expect(body.message).toMatch(/^Unusable scrypt parameters: /);
    expect(() => h.platform.restore(document)).toThrow(
      expect.objectContaining({ status: 400, field: `accounts[${at}].password_hash` }),
    );
  });

  test('the costliest accepted hashes load, and their password signs in at the shop', async () => {
    for (const [n, r, p] of [
      [16_384, 8, 1],
      [1024, 8, 16],
    ] as const) {
      const { document } = withAnnasHash(h, hashOf('a-costly-password', n, r, p));
      expect((await h.call('/__admin/state', { method: 'PUT', json: document })).status).toBe(204);
      expect((await shopLogin(h, demoUsers.anna.email, 'a-costly-password')).status).toBe(303);
    }
  });
});

describe.each(ADAPTERS)('a password check runs off the event loop, through %s', (kind) => {
  const h = useAdapter(kind);
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test("a login whose costly hash is being checked does not keep a parallel read from being answered: the read's answer comes first", async () => {
    h.platform.restore(withAnnasHash(h, hashOf(demoUsers.anna.password, 16_384, 8, 1)).document);
    const token = h.token([READ]);
    // The check computes the real key, and is held until the read is answered: if the check ran on
    // the event loop, no read could be answered while it is under way, and the login would come first.
    const started = deferred();
    const release = deferred();
    const scrypt = nodeCrypto.scrypt;
    vi.spyOn(nodeCrypto, 'scrypt').mockImplementation(((...args: unknown[]) => {
      const callback = args.pop() as (error: Error | null, key: Buffer) => void;
      started.resolve();
      (scrypt as (...a: unknown[]) => void)(...args, (error: Error | null, key: Buffer) => {
        void release.promise.then(() => callback(error, key));
      });
    }) as never);
    const order: string[] = [];
    const login = shopLogin(h, demoUsers.anna.email, 'a-wrong-password').then((answer) => {
      order.push(`login ${answer.status}`);
    });
    await Promise.race([started.promise, login]);
    const read = await h.call(paths.getProducts, { token });
    order.push(`read ${read.status}`);
    release.resolve();
    await login;
    expect(order).toEqual(['read 200', 'login 401']);
    expectOk(read, GetProductsResponse);
  });

  test('wrong passwords sent in parallel are counted as if sent one after another: of ten, five are checked and five refused as frozen', async () => {
    h.platform.clock.freeze();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => shopLogin(h, demoUsers.anna.email, `wrong-${i}`)),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([401, 401, 401, 401, 401, 429, 429, 429, 429, 429]);
    expect((await shopLogin(h, demoUsers.anna.email, demoUsers.anna.password)).status).toBe(429);
  });

  test('a state replaced (reset) while a password is checked: the login is refused as a wrong one, and the new state is left as it was', async () => {
    const held = holdScrypt();
    const login = shopLogin(h, demoUsers.anna.email, demoUsers.anna.password);
    await until(() => expect(held).toHaveLength(1));
    h.platform.reset();
    const answer = await expectUnchanged(h.platform, async () => {
      for (const check of held) check.release();
      return login;
    });
    expect(answer.status).toBe(401);
    expect(answer.text).toContain('Wrong e-mail address or password');
  });

  test('once the checks of an address are over, nothing of them is kept (memory stays bounded)', async () => {
    const checks = internalsOf(h.platform)!.state.passwordChecks;
    expect((await shopLogin(h, demoUsers.anna.email, 'wrong-alone')).status).toBe(401);
    expect(checks.size).toBe(0);
    await Promise.all([1, 2, 3].map((i) => shopLogin(h, demoUsers.anna.email, `wrong-${i}`)));
    expect(checks.size).toBe(0);
  });
});

describe('one password check per address at a time', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  test('a check that starts while another waits its turn runs after that one: the wrong password sent before is the one that freezes', async () => {
    const platform = createPlatform({ seed: 'demo', login: { maxFailedAttempts: 2 } });
    const { state, settings } = internalsOf(platform)!;
    const clock = new OffsetClock(Date.parse('2030-03-01T09:00:00Z'));
    clock.freeze();
    const anna = platform.snapshot().accounts.find((a) => a.id === demoUsers.anna.id)!;
    const check = (password: string) =>
      checkCredentials(state, clock, settings.login, anna.organisation_id, anna.email, password);
    const held = holdScrypt();
    const first = check('wrong-1');
    const second = check('wrong-2');
    held[0]?.release();
    expect(await first).toMatchObject({ ok: false, err: 'invalid_credentials', attemptsLeft: 1 });
    // The second is being checked now; the third, started meanwhile, must wait for it: run beside
    // it, the third would pass the freeze check before the second freezes the address.
    await until(() => expect(held).toHaveLength(2));
    const third = check('wrong-3');
    for (const hold of held) hold.release();
    expect(await second).toMatchObject({ ok: false, err: 'invalid_credentials', attemptsLeft: 0 });
    expect(await third).toMatchObject({ ok: false, err: 'account_frozen', frozenForSeconds: 300 });
  });
});
