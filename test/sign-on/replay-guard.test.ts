import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import {
  MemoryTicketStore,
  ReplayGuard,
  SignOnConfigurationError,
  TicketReplayError,
  type TicketStore,
} from '../../src/sign-on/index.js';

const TICKET = 'ticket-abc-0001';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function clock(start = 0) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

function noop(): void {}

async function settle<T>(promise: Promise<T>): Promise<T | Error> {
  return promise.catch((e: unknown) => e as Error);
}

describe('replay guard (Authentication point 7: a ticket is used once)', () => {
  it('refuses a second use of a ticket, sequentially, before the second use runs', async () => {
    const guard = new ReplayGuard();
    const exchange = vi.fn(async () => 'tokens');
    await expect(guard.use(TICKET, exchange)).resolves.toBe('tokens');
    await expect(guard.use(TICKET, exchange)).rejects.toBeInstanceOf(TicketReplayError);
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('refuses a concurrent second use: of two simultaneous uses exactly one succeeds', async () => {
    const guard = new ReplayGuard();
    // The first exchange stays under way until the second use is decided (were the second let
    // through too, its own exchange ends the wait, and the test sees two calls).
    let finish: () => void = () => undefined;
    const underWay = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const exchange = vi.fn(async () => {
      if (exchange.mock.calls.length > 1) finish();
      await underWay;
      return 'tokens';
    });
    const uses = [guard.use(TICKET, exchange), guard.use(TICKET, exchange)];
    // Whichever use claims the ticket first (each hashes it off the event loop: either may) runs
    // the exchange, held open; the other is decided meanwhile. Waiting on the second use alone hung
    // when the second claimed first.
    await Promise.race(uses.map((use) => use.then(noop, noop)));
    finish();
    const results = await Promise.allSettled(uses);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.reason).toBeInstanceOf(TicketReplayError);
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('refuses a concurrent use whose claim came first but was recorded second: the claim recorded first wins', async () => {
    // A store that holds the first claim to arrive until the second one is recorded. Which use
    // claims first is not fixed (each hashes the ticket first, and a loaded machine may finish the
    // second hash first), so the claims are told by their order of arrival, not by their use.
    const inner = new MemoryTicketStore();
    let secondClaimed: () => void = () => undefined;
    const afterSecond = new Promise<void>((resolve) => {
      secondClaimed = resolve;
    });
    const recorded: boolean[] = [];
    let claims = 0;
    const store: TicketStore = {
      async claim(key, ttlSeconds) {
        const arrival = claims++;
        if (arrival === 0) await afterSecond;
        const claimed = await inner.claim(key, ttlSeconds);
        recorded[arrival] = claimed;
        if (arrival === 1) secondClaimed();
        return claimed;
      },
      release: (key) => inner.release(key),
    };
    const guard = new ReplayGuard({ store });
    const exchange = vi.fn(async () => 'tokens');
    const results = await Promise.allSettled([guard.use(TICKET, exchange), guard.use(TICKET, exchange)]);
    // The claim that arrived second was recorded first and won; the held one was refused.
    expect(recorded).toEqual([false, true]);
    expect(results.filter((r) => r.status === 'fulfilled')).toEqual([{ status: 'fulfilled', value: 'tokens' }]);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(TicketReplayError);
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('lets ten concurrent uses of one ticket through exactly once', async () => {
    const guard = new ReplayGuard();
    const exchange = vi.fn(async () => 'tokens');
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => guard.use(TICKET, exchange)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(exchange).toHaveBeenCalledTimes(1);
  });

  it('does not mark a ticket as used when its validation fails: the error is rethrown as-is and a retry runs', async () => {
    const guard = new ReplayGuard();
    const failure = new Error('401 from the authorization API');
    await expect(guard.use(TICKET, () => Promise.reject(failure))).rejects.toBe(failure);
    await expect(guard.use(TICKET, async () => 'tokens')).resolves.toBe('tokens');
    await expect(guard.use(TICKET, async () => 'again')).rejects.toBeInstanceOf(TicketReplayError);
  });

  it('remembers a used ticket for 120 s on the store clock, then forgets it', async () => {
    const time = clock(1_000_000);
    const guard = new ReplayGuard({ store: new MemoryTicketStore({ now: time.now }) });
    await guard.use(TICKET, async () => 1);
    time.advance(119_999);
    await expect(guard.use(TICKET, async () => 2)).rejects.toBeInstanceOf(TicketReplayError);
    time.advance(1);
    await expect(guard.use(TICKET, async () => 3)).resolves.toBe(3);
  });

  it('takes a configurable reuse window', async () => {
    const time = clock();
    const guard = new ReplayGuard({ store: new MemoryTicketStore({ now: time.now }), ttlSeconds: 30 });
    await guard.use(TICKET, async () => 1);
    time.advance(29_000);
    await expect(guard.use(TICKET, async () => 2)).rejects.toBeInstanceOf(TicketReplayError);
    time.advance(1_000);
    await expect(guard.use(TICKET, async () => 3)).resolves.toBe(3);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses a reuse window of %s seconds', (ttlSeconds) => {
    expect(() => new ReplayGuard({ ttlSeconds })).toThrow(SignOnConfigurationError);
  });

  it('keys the store with the SHA-256 of the ticket, never the raw ticket, and a 120 s TTL', async () => {
    const calls: Array<[string, number]> = [];
    const store: TicketStore = {
      async claim(key, ttlSeconds) {
        calls.push([key, ttlSeconds]);
        return true;
      },
      async release() {},
    };
    await new ReplayGuard({ store }).use(TICKET, async () => 'ok');
    expect(calls).toEqual([[`sign-on:ticket:${sha256(TICKET)}`, 120]]);
    expect(calls[0]?.[0]).not.toContain(TICKET);
  });

  it('releases the hashed key, not the ticket, when the use fails', async () => {
    const released: string[] = [];
    const store: TicketStore = {
      claim: async () => true,
      release: async (key) => {
        released.push(key);
      },
    };
    const guard = new ReplayGuard({ store, keyPrefix: 'site-a:' });
    await settle(guard.use(TICKET, () => Promise.reject(new Error('invalid ticket'))));
    expect(released).toEqual([`site-a:${sha256(TICKET)}`]);
  });

  it('fails closed when the store cannot release: the original error is rethrown', async () => {
    const store: TicketStore = {
      claim: async () => true,
      release: () => Promise.reject(new Error('store down')),
    };
    const failure = new Error('exchange failed');
    await expect(new ReplayGuard({ store }).use(TICKET, () => Promise.reject(failure))).rejects.toBe(failure);
  });

  it('reports a replay without the ticket, with its SHA-256 to find what the first use issued (RFC 6749 10.5)', async () => {
    const guard = new ReplayGuard();
    await guard.use(TICKET, async () => 1);
    const error = await settle(guard.use(TICKET, async () => 2));
    expect(error).toBeInstanceOf(TicketReplayError);
    const replay = error as TicketReplayError;
    expect(replay.ticketHash).toBe(sha256(TICKET));
    expect(`${replay.message} ${JSON.stringify(replay)} ${replay.stack}`).not.toContain(TICKET);
  });

  it('keeps tickets apart: another ticket is not affected by a used one', async () => {
    const guard = new ReplayGuard();
    await guard.use(TICKET, async () => 1);
    await expect(guard.use('ticket-abc-0002', async () => 2)).resolves.toBe(2);
  });
});

describe('replay guard without WebCrypto (jest\u2019s jsdom: docs/test-authors.md#jest)', () => {
  it('fails before the use runs, as the page says, where crypto has no subtle', async () => {
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    try {
      const exchange = vi.fn(async () => 'tokens');
      const failed = await settle(new ReplayGuard().use(TICKET, exchange));
      expect(failed).toBeInstanceOf(TypeError);
      expect(readFileSync(new URL('../../docs/test-authors.md', import.meta.url), 'utf8')).toContain(
        `(\`${(failed as Error).message}\`)`,
      );
      expect(exchange).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('MemoryTicketStore', () => {
  it('claim is set-if-absent: true the first time, false while present, true after release', async () => {
    const store = new MemoryTicketStore();
    expect(await store.claim('k', 120)).toBe(true);
    expect(await store.claim('k', 120)).toBe(false);
    await store.release('k');
    expect(await store.claim('k', 120)).toBe(true);
  });

  it('sweeps expired entries a bounded batch at a time', async () => {
    const time = clock();
    const store = new MemoryTicketStore({ now: time.now, sweepBatch: 10 });
    for (let i = 0; i < 50; i++) await store.claim(`old-${i}`, 1);
    expect(store.size).toBe(50);
    time.advance(2_000);
    await store.claim('new-1', 120);
    expect(store.size).toBe(50 - 10 + 1);
    for (let i = 2; i <= 5; i++) await store.claim(`new-${i}`, 120);
    expect(store.size).toBe(5);
  });

  it('stops sweeping at the first live entry', async () => {
    const time = clock();
    const store = new MemoryTicketStore({ now: time.now });
    await store.claim('live', 120);
    await store.claim('short', 1);
    time.advance(2_000);
    await store.claim('other', 120);
    expect(store.size).toBe(3);
    expect(await store.claim('short', 120)).toBe(true); // expired entries are still free to claim
  });
});
