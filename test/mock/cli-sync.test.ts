/** `platform-mock --sync-processing-ms`: the processing time of a sync of customer subscriptions (endpoint 19) reaches the platform. */
import { expect, test } from 'vitest';
import { paths } from '../paths.js';
import { withCli } from './cli-process.js';

const JSON_TYPE = { 'content-type': 'application/json' };

/** Sends one sync of endpoint 19 and a second one while it is under way; answers both statuses and the first's duration. */
async function overlapping(url: string) {
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
  await new Promise((resolve) => setTimeout(resolve, 100));
  const second = await sync('C1007');
  const body = (await second.json()) as { code?: string };
  return { first: await first, second: second.status, code: body.code };
}

test('--sync-processing-ms 600: a sync takes that long, and another sent meanwhile is 409 sync_in_progress', async () => {
  await withCli(['--port', '0', '--quiet', '--sync-processing-ms', '600'], async (url) => {
    const { first, second, code } = await overlapping(url);
    expect(first.status).toBe(200);
    expect(first.ms).toBeGreaterThanOrEqual(600);
    expect([second, code]).toEqual([409, 'sync_in_progress']);
  });
});
