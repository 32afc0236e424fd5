/**
 * Endpoints 4 and the available categories through the SDK, against the reference platform in
 * process: change logs written to accounts (a 207 is a success), the spec's errors, and the batch
 * helper that writes any number of entries.
 */
import { HttpResponse, http } from 'msw';
import { describe, expect, test, vi } from 'vitest';
import { getAvailableCategories, logToAccounts } from '../../src/endpoints.js';
import { BadRequestError, InternalServerError, RequestValidationError } from '../../src/index.js';
import type { BatchProgress, ChangeLogEntry, LogInBatchesOptions, LogToAccountsRequest } from '../../src/types.js';
import { until } from '../until.js';
import {
  client,
  defaultHosts,
  demoIds,
  expectPlatformRefusal,
  paths,
  platform,
  RUN_OPTION_MISTAKES,
  received,
  scopesOf,
  server,
  usePlatform,
} from './helpers.js';

usePlatform();

const { anna, bo, frank } = demoIds.accounts;
const all = scopesOf(logToAccounts, getAvailableCategories);
const sdk = () => client({}, all);

describe('4. log to accounts', () => {
  const entry = (account_id: string, message: string): ChangeLogEntry => ({
    account_id,
    category_type: 'address_change',
    message,
    requested_by: 'batch job',
  });

  test('the available categories', async () => {
    const { items } = await sdk().accountChangeLog.availableCategories();
    expect(items.map((c) => c.category_type)).toEqual(['address_change', 'customer_contact', 'complaint']);
  });

  test('a 207 is a success: { ok, errors }, never an exception', async () => {
    const answer = await sdk().accountChangeLog.logToAccounts({ change_logs: [entry(anna, 'a'), entry(frank, 'f')] });
    expect(answer.ok).toEqual([anna]);
    expect(answer.errors).toEqual([
      expect.objectContaining({
        error_message: 'The account is archived',
        payload: expect.objectContaining({ cateogory: 'address_change' }),
      }),
    ]);
  });

  test('a write is not retried: one 503 is the answer', async () => {
    platform.faults.add({ path: paths.logToAccounts, status: 503 });
    await expect(sdk().accountChangeLog.logToAccounts({ change_logs: [entry(anna, 'a')] })).rejects.toMatchObject({
      status: 503,
    });
    expect(received(paths.logToAccounts)).toEqual([`PUT ${paths.logToAccounts} 503`]);
  });

  describe('logInBatches: any number of entries, in requests of at most 1000, one after another', () => {
    /** 2,500 entries; every 97th is for the archived account, every 250th breaks a rule, #1234 has a category that is not available. */
    function entries(): ChangeLogEntry[] {
      return Array.from({ length: 2500 }, (_, i) => {
        if (i % 250 === 0) return entry(anna, '');
        if (i === 1234) return { ...entry(bo, `entry ${i}`), category_type: 'gossip' };
        return entry(i % 97 === 0 ? frank : i % 2 ? anna : bo, `entry ${i}`);
      });
    }

    test('every entry is accounted for by its index; progress is reported; failures can be resubmitted alone', async () => {
      const list = entries();
      const progress: number[] = [];
      const run = await sdk().accountChangeLog.logInBatches(list, {
        onProgress: ({ done, total }) => progress.push(done / total),
      });
      const archived = list.flatMap((e, i) => (e.account_id === frank && e.message !== '' ? [i] : []));
      const broken = list.flatMap((e, i) => (e.message === '' ? [i] : []));
      expect(run.failed.map((f) => f.index)).toEqual(
        [...new Set([...broken, ...archived, 1234])].sort((a, b) => a - b),
      );
      expect(run.logged).toHaveLength(2500 - run.failed.length);
      expect(run.notSent).toEqual([]);
      expect(run.aborted).toBe(false);
      expect(run.failed.find((f) => f.index === 1234)?.reason).toMatch(/available categories/);
      expect(run.failed.find((f) => f.index === archived[0])?.reason).toBe('The account is archived');
      expect(run.failed.find((f) => f.index === 0)?.reason).toMatch(/^message: Parameter size must be at least 1/);
      expect(progress.at(-1)).toBe(1);
      expect(progress.length).toBe(3);
      // Sent in sequence: 3 requests of at most 1000; the second, refused whole for #1234, sent again without it.
      expect(received(paths.logToAccounts).map((r) => r.split(' ').at(-1))).toEqual(['207', '400', '207', '207']);
      expect(platform.snapshot().account_change_logs).toHaveLength(run.logged.length);

      // Resubmit just the failures after fixing them: each is logged once, nothing twice.
      const fixed = run.failed.map((f) => ({
        ...f.entry,
        account_id: f.entry.account_id === frank ? anna : f.entry.account_id,
        category_type: 'complaint',
        message: f.entry.message || 'fixed',
      }));
      const again = await sdk().accountChangeLog.logInBatches(fixed);
      expect(again.failed).toEqual([]);
      expect(platform.snapshot().account_change_logs).toHaveLength(2500);
    });

    test('an abort between requests: what was sent is reported, the rest is listed as not sent', async () => {
      const list = entries();
      const controller = new AbortController();
      const run = await sdk().accountChangeLog.logInBatches(list, {
        batchSize: 500,
        onProgress: ({ done }) => {
          if (done >= 1000) controller.abort();
        },
        signal: controller.signal,
      });
      expect(run.aborted).toBe(true);
      // Two requests of 500 were sent; none after the abort. The 10 entries that break a rule were refused before.
      expect(received(paths.logToAccounts)).toHaveLength(2);
      const refusedHere = list.flatMap((e, i) => (e.message === '' ? [i] : []));
      const sent = [...run.logged, ...run.failed.map((f) => f.index)].filter((i) => !refusedHere.includes(i));
      expect(sent).toHaveLength(1000);
      expect(run.notSent).toHaveLength(2500 - 1000 - refusedHere.length);
      expect(Math.min(...run.notSent)).toBeGreaterThan(Math.max(...sent));
      expect(new Set([...run.logged, ...run.failed.map((f) => f.index), ...run.notSent]).size).toBe(2500);
    });

    test('an abort while a request is under way: that request is not cut, its entries are reported as the platform answered them, and none after it is sent', async () => {
      const list = Array.from({ length: 3 }, (_, i) => entry(anna, `held ${i}`));
      // The fault's latency runs on fake timers: the request is held until the test moves time on.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      let run: Awaited<ReturnType<ReturnType<typeof sdk>['accountChangeLog']['logInBatches']>>;
      try {
        platform.faults.add({ path: paths.logToAccounts, latencyMs: 200 });
        const controller = new AbortController();
        const running = sdk().accountChangeLog.logInBatches(list, { batchSize: 2, signal: controller.signal });
        await until(() => expect(received(paths.logToAccounts)).toEqual([`PUT ${paths.logToAccounts} 0`]));
        controller.abort();
        await vi.advanceTimersByTimeAsync(200);
        run = await running;
      } finally {
        vi.useRealTimers();
      }
      // Logged by the platform, and reported so: nothing to send again twice.
      expect(run).toMatchObject({ logged: [0, 1], failed: [], notSent: [2], aborted: true });
      expect(platform.snapshot().account_change_logs.filter((l) => l.message.startsWith('held '))).toHaveLength(2);
    });

    test('a signal that is not an AbortSignal: refused before anything is sent, naming it', async () => {
      const run = sdk().accountChangeLog.logInBatches([entry(anna, 'x')], { signal: 'stop' as unknown as AbortSignal });
      await expect(run).rejects.toMatchObject({ constructor: RequestValidationError, field: 'signal' });
      expect(received(paths.logToAccounts)).toEqual([]);
    });

    test.each(RUN_OPTION_MISTAKES)(
      '%s: the run is refused once, at once, naming it, and nothing is sent',
      async (_, options, field, code) => {
        const { accountChangeLog } = sdk();
        const before = platform.snapshot();
        const run = accountChangeLog.logInBatches([entry(anna, 'x'), entry(bo, 'y')], options);
        await expect(run).rejects.toMatchObject({ constructor: RequestValidationError, field, code });
        expect(received(paths.logToAccounts)).toEqual([]);
        expect(platform.snapshot()).toEqual(before);
      },
    );

    test('a hole in a sparse list is an entry too: failed by its index, as an undefined one is', async () => {
      // biome-ignore lint/suspicious/noSparseArray: the hole is the case.
      const list = [entry(anna, 'first'), , entry(anna, 'third')] as ChangeLogEntry[];
      const run = await sdk().accountChangeLog.logInBatches(list);
      expect(run.logged).toEqual([0, 2]);
      expect(run.failed).toEqual([expect.objectContaining({ index: 1 })]);
    });

    test('a request is never retried, even when the options ask: a 503 on the second fails its entries after one attempt', async () => {
      const list = Array.from({ length: 25 }, (_, i) => entry(i % 2 ? anna : bo, `entry ${i}`));
      const smuggled = { retryWrite: true } as LogInBatchesOptions;
      const run = await client({ maxRetries: 3 }, all).accountChangeLog.logInBatches(list, {
        ...smuggled,
        batchSize: 10,
        onProgress: ({ done }) => {
          if (done === 10) platform.faults.add({ path: paths.logToAccounts, status: 503 });
        },
      });
      const put = `PUT ${paths.logToAccounts}`;
      expect(received(paths.logToAccounts)).toEqual([`${put} 207`, `${put} 503`, `${put} 207`]);
      const second = Array.from({ length: 10 }, (_, i) => 10 + i);
      expect(run.failed.map((f) => f.index)).toEqual(second);
      for (const f of run.failed) {
        expect(f.error).toBeInstanceOf(InternalServerError);
        expect(f.error).toMatchObject({ status: 503 });
        expect(f.reason).toBe((f.error as Error).message);
      }
      expect(run.logged).toEqual(list.map((_, i) => i).filter((i) => !second.includes(i)));
      expect(platform.snapshot().account_change_logs).toHaveLength(15);
    });

    test('ok is matched to the entries whatever the letter case of the account ids', async () => {
      // A platform that answers account ids in lower case, whatever case they were sent in.
      server.use(
        http.put(`${defaultHosts.api}${paths.logToAccounts}`, async ({ request }) => {
          const { change_logs } = (await request.json()) as LogToAccountsRequest;
          const [first, second] = change_logs;
          return HttpResponse.json(
            {
              ok: [first!.account_id.toLowerCase()],
              errors: [
                {
                  payload: {
                    account_id: second!.account_id.toLowerCase(),
                    created_at: '2030-01-01T00:00:00Z',
                    message: second!.message,
                    cateogory: second!.category_type,
                    requested_by: second!.requested_by,
                  },
                  error_message: 'The account is archived',
                },
              ],
            },
            { status: 207 },
          );
        }),
      );
      const run = await sdk().accountChangeLog.logInBatches([
        entry(anna.toUpperCase(), 'a'),
        entry(frank.toUpperCase(), 'f'),
      ]);
      expect(run.logged).toEqual([0]);
      expect(run.failed).toEqual([
        { index: 1, entry: entry(frank.toUpperCase(), 'f'), reason: 'The account is archived' },
      ]);
    });

    test('progress is reported even when every entry fails the checks before sending, and nothing is sent', async () => {
      const progress: BatchProgress[] = [];
      const run = await sdk().accountChangeLog.logInBatches([entry(anna, ''), entry(bo, '')], {
        onProgress: (p) => progress.push(p),
      });
      expect(progress).toEqual([{ done: 2, total: 2 }]);
      expect(run.failed.map((f) => f.index)).toEqual([0, 1]);
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([]);
    });

    test('progress counts the entries handled so far, in input order: not the invalid entries of later requests', async () => {
      // Entries 2, 7 and 8 break a rule; requests of 5: entries 0-1, 3-6, then 9.
      const list = Array.from({ length: 10 }, (_, i) => entry(anna, [2, 7, 8].includes(i) ? '' : `entry ${i}`));
      const progress: BatchProgress[] = [];
      const run = await sdk().accountChangeLog.logInBatches(list, {
        batchSize: 5,
        onProgress: (p) => progress.push(p),
      });
      expect(progress).toEqual([
        { done: 6, total: 10 },
        { done: 10, total: 10 },
      ]);
      expect(run.logged).toEqual([0, 1, 3, 4, 5, 6, 9]);
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([
        `PUT ${paths.logToAccounts} 207`,
        `PUT ${paths.logToAccounts} 207`,
      ]);
    });

    test('100 entries of unavailable categories among 1000: the categories are read once, not one request per bad entry', async () => {
      const bad = (i: number) => i % 10 === 3;
      const list = Array.from({ length: 1000 }, (_, i) =>
        bad(i) ? { ...entry(anna, `entry ${i}`), category_type: `gone-${i}` } : entry(bo, `entry ${i}`),
      );
      const run = await sdk().accountChangeLog.logInBatches(list, { batchSize: 500 });
      // The first request is refused whole; the categories are read; both requests then go without the bad entries.
      const put = `PUT ${paths.logToAccounts}`;
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([
        `${put} 400`,
        `GET ${paths.getAvailableCategories} 200`,
        `${put} 207`,
        `${put} 207`,
      ]);
      expect(run.failed.map((f) => f.index)).toEqual(list.flatMap((_, i) => (bad(i) ? [i] : [])));
      expect(run.failed.every((f) => /is not one of the available categories/.test(f.reason))).toBe(true);
      expect(run.logged).toHaveLength(900);
      expect(platform.snapshot().account_change_logs).toHaveLength(900);
    });

    test('when the categories cannot be read, every entry of a refused category goes at once, and they are not read again', async () => {
      platform.faults.add({ method: 'GET', path: paths.getAvailableCategories, status: 503 });
      const list = Array.from({ length: 10 }, (_, i) => ({
        ...entry(anna, `entry ${i}`),
        category_type: [1, 4, 6].includes(i) ? 'gossip' : [2, 8].includes(i) ? 'rumour' : 'address_change',
      }));
      const run = await client({ maxRetries: 0 }, all).accountChangeLog.logInBatches(list);
      const put = `PUT ${paths.logToAccounts}`;
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([
        `${put} 400`,
        `GET ${paths.getAvailableCategories} 503`,
        `${put} 400`,
        `${put} 207`,
      ]);
      expect(run.failed.map((f) => [f.index, f.entry.category_type])).toEqual([
        [1, 'gossip'],
        [2, 'rumour'],
        [4, 'gossip'],
        [6, 'gossip'],
        [8, 'rumour'],
      ]);
      expect(run.failed.every((f) => /available categories/.test(f.reason))).toBe(true);
      expect(run.logged).toEqual([0, 3, 5, 7, 9]);
    });

    test('requests are split by size as well as by count: 1000 entries of the longest fields (1.23 MB) go in requests of at most 1 MiB', async () => {
      const longest = (i: number): ChangeLogEntry => ({
        ...entry(i % 2 ? anna : bo, 'é'.repeat(1024)),
        requested_by: 'r'.repeat(100),
      });
      const sizes: number[] = [];
      const measured: typeof fetch = async (input, init) => {
        if (typeof init?.body === 'string') sizes.push(new TextEncoder().encode(init.body).length);
        return fetch(input, init);
      };
      const run = await client({ fetch: measured }, all).accountChangeLog.logInBatches(
        Array.from({ length: 1000 }, (_, i) => longest(i)),
      );
      expect(run.logged).toHaveLength(1000);
      expect(sizes.length).toBeGreaterThan(1);
      expect(sizes.every((s) => s <= 1024 * 1024)).toBe(true);
      expect(sizes.reduce((a, b) => a + b)).toBeGreaterThan(2 * 1024 * 1024);
      expect(received(paths.logToAccounts)).toHaveLength(sizes.length);

      sizes.length = 0;
      const small = await client({ fetch: measured }, all).accountChangeLog.logInBatches(
        Array.from({ length: 100 }, (_, i) => longest(i)),
        { maxBatchBytes: 50_000 },
      );
      expect(small.logged).toHaveLength(100);
      expect(sizes.every((s) => s <= 50_000)).toBe(true);
      expect(sizes.length).toBeGreaterThanOrEqual(5);
    });

    test('a maxBatchBytes under 8192 is refused before anything is sent', async () => {
      await expect(
        sdk().accountChangeLog.logInBatches([entry(anna, 'a')], { maxBatchBytes: 8191 }),
      ).rejects.toMatchObject({ name: 'RequestValidationError', field: 'maxBatchBytes' });
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([]);
    });

    test('a batchSize out of 1..1000 is refused before anything is sent', async () => {
      await expect(sdk().accountChangeLog.logInBatches([entry(anna, 'a')], { batchSize: 1001 })).rejects.toMatchObject({
        constructor: RequestValidationError,
        field: 'batchSize',
      });
      expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([]);
    });

    test.each([null, undefined, 'entries'])(
      'entries that are %s: RequestValidationError naming them',
      async (given) => {
        await expect(sdk().accountChangeLog.logInBatches(given as never)).rejects.toMatchObject({
          constructor: RequestValidationError,
          field: 'entries',
        });
        expect(received(paths.logToAccounts, paths.getAvailableCategories)).toEqual([]);
      },
    );
  });
});

describe("the spec's errors of 4: the error class, the spec's code and field", () => {
  test('a category that is not available refuses the whole request', () => {
    const { accountChangeLog } = sdk();
    return expectPlatformRefusal(
      () =>
        accountChangeLog.logToAccounts({
          change_logs: [{ account_id: anna, category_type: 'gossip', message: 'm', requested_by: 'r' }],
        }),
      BadRequestError,
      'invalid_parameter',
      'change_logs[0].category_type',
    );
  });
});
