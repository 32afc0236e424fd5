/** `platform-mock --sync-processing-ms`: the processing time of a sync of customer subscriptions (endpoint 19) reaches the platform. */
import { expect, test } from 'vitest';
import { paths } from '../paths.js';
import { until } from '../until.js';
import { CLI_TEST_TIMEOUT_MS, withCli } from './cli-process.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/**
 * The processing time of a sync: the second sync, the state's reads and the journal's are all sent
 * while the first is under way, and they take milliseconds; seconds leave room for a busy machine.
 */
const PROCESSING_MS = 5000;

/** The statuses of the requests to endpoint 19 in the CLI's journal: 0 for one not answered yet. */
async function syncStatuses(url: string): Promise<number[]> {
  const { items } = (await (await fetch(`${url}/__admin/requests`)).json()) as {
    items: { path: string; status: number }[];
  };
  return items.filter((e) => e.path === paths.syncCustomerSubscriptions).map((e) => e.status);
}

/** The CLI's state document. */
async function state(url: string): Promise<unknown> {
  return (await fetch(`${url}/__admin/state`)).json();
}

test(`--sync-processing-ms ${PROCESSING_MS}: a sync takes that long, and another sent meanwhile is 409 sync_in_progress, changing nothing`, {
  timeout: CLI_TEST_TIMEOUT_MS,
}, async () => {
  await withCli(['--port', '0', '--quiet', '--sync-processing-ms', String(PROCESSING_MS)], async (url) => {
    const { access_token } = (await (
      await fetch(`${url}/__admin/tokens`, {
        method: 'POST',
        headers: JSON_TYPE,
        body: JSON.stringify({ scopes: ['/external/subscription_system/w'] }),
      })
    ).json()) as { access_token: string };
    const sync = (customer_number: string) =>
      fetch(`${url}${paths.syncCustomerSubscriptions}`, {
        method: 'PUT',
        headers: { ...JSON_TYPE, authorization: `Bearer ${access_token}` },
        body: JSON.stringify({ customer_number }),
      });
    const started = performance.now();
    const first = sync('C1001').then((res) => ({ status: res.status, ms: performance.now() - started }));
    // Under way: the journal holds it, not answered yet (the platform marks the sync under way as it journals it).
    await until(async () => expect(await syncStatuses(url)).toEqual([0]));
    const before = await state(url);
    const second = await sync('C1007');
    const body = (await second.json()) as { code?: string };
    expect([second.status, body.code]).toEqual([409, 'sync_in_progress']);
    expect(await state(url)).toEqual(before);
    const answered = await first;
    expect(answered.status).toBe(200);
    // A lower bound only: a slow machine makes it longer, never shorter.
    expect(answered.ms).toBeGreaterThanOrEqual(PROCESSING_MS);
    expect(await syncStatuses(url)).toEqual([200, 409]);
  });
});
