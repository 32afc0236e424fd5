/**
 * Any state the platform can reach round-trips through `GET /__admin/state` and `PUT /__admin/state`:
 * a property test (fast-check) draws a run of what moves the clock and writes dates (the clock set
 * anywhere it may be, frozen or flowing, moved by any amount; tokens and tickets of any lifetime;
 * grants, refreshes and ticket exchanges; SSO sessions; a price update; records dropped over their
 * caps), then reads the state document, puts it back whole, and reads the same document again.
 *
 * The requests go through the platform's own `handle` (what MSW hands it), so that a case takes
 * milliseconds.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LATEST_SETTABLE, MAX_LIFETIME_SECONDS } from '../../mock/core/clock.js';
import { createPlatform, defaultHosts, type Platform } from '../../mock/index.js';
import { demoIds, demoSite, paths, READ } from './harness.js';

const { anna } = demoIds.accounts;
const site = { client_id: demoSite.clientId, client_secret: demoSite.clientSecret };

/** One request through the platform's own handle: the status and the body as text. */
async function send(
  platform: Platform,
  host: keyof typeof defaultHosts,
  path: string,
  init: { method?: string; json?: unknown; token?: string; text?: string } = {},
): Promise<{ status: number; text: string }> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const body = init.text ?? (init.json === undefined ? undefined : JSON.stringify(init.json));
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  const method = init.method ?? (body === undefined ? 'GET' : 'POST');
  const answer = await platform.handle(new Request(`${defaultHosts[host]}${path}`, { method, headers, body }));
  return { status: answer.status, text: await answer.text() };
}

/** What a step of a run does. */
type Step =
  | { kind: 'set'; ms: number; frozen: boolean }
  | { kind: 'advance'; seconds: number }
  | { kind: 'token'; expiresIn: number }
  | { kind: 'ticket'; expiresIn: number }
  | { kind: 'grant' }
  | { kind: 'session'; terminate: boolean }
  | { kind: 'price' };

const lifetime = fc.oneof(fc.integer({ min: 1, max: 7200 }), fc.integer({ min: 1, max: MAX_LIFETIME_SECONDS }));
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('set' as const),
    ms: fc.oneof(
      fc.integer({ min: Date.parse('0001-01-01T00:00:00Z'), max: LATEST_SETTABLE }),
      fc.integer({ min: LATEST_SETTABLE - 86_400_000, max: LATEST_SETTABLE }),
    ),
    frozen: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('advance' as const),
    seconds: fc.oneof(fc.integer({ min: -3600, max: 3600 }), fc.integer({ min: -4e11, max: 4e11 })),
  }),
  fc.record({ kind: fc.constant('token' as const), expiresIn: lifetime }),
  fc.record({ kind: fc.constant('ticket' as const), expiresIn: lifetime }),
  fc.record({ kind: fc.constant('grant' as const) }),
  fc.record({ kind: fc.constant('session' as const), terminate: fc.boolean() }),
  fc.record({ kind: fc.constant('price' as const) }),
);

/** Does `s` on `platform`; a refused step (a time out of range) is part of the run too. */
async function perform(platform: Platform, s: Step): Promise<void> {
  switch (s.kind) {
    case 'set':
      await send(platform, 'api', '/__admin/clock', { json: { now: new Date(s.ms).toISOString(), frozen: s.frozen } });
      return;
    case 'advance':
      await send(platform, 'api', '/__admin/clock', { json: { advance_seconds: s.seconds } });
      return;
    case 'token':
      platform.mintToken({ scopes: [READ], accountId: anna, expiresIn: s.expiresIn });
      return;
    case 'ticket':
      platform.issueTicket({ accountId: anna, clientId: demoSite.clientId, expiresIn: s.expiresIn });
      return;
    case 'grant': {
      const ticket = platform.issueTicket({ accountId: anna, clientId: demoSite.clientId });
      const granted = await send(platform, 'auth', paths.accessToken, {
        json: { grant_type: 'ticket', ticket, ...site },
      });
      const refresh = (JSON.parse(granted.text) as { refresh_token?: string }).refresh_token ?? '';
      await send(platform, 'auth', paths.accessToken, {
        json: { grant_type: 'refresh_token', refresh_token: refresh, ...site },
      });
      await send(platform, 'auth', paths.accessToken, { json: { grant_type: 'ticket', ticket, ...site } });
      return;
    }
    case 'session': {
      const sid = platform.sso.createSession({ clientId: demoSite.clientId });
      if (s.terminate) platform.sso.terminate(sid);
      return;
    }
    case 'price': {
      const token = platform.mintToken({ scopes: ['/external/price/w'] }).access_token;
      const period = {
        subscription_type: 'recurring',
        payment_option: 'creditcard',
        type: 'month',
        length: 1,
        price: 9,
      };
      await send(platform, 'api', paths.updatePrices, {
        json: { package_integration_code: 'PREMIUM-DIGITAL', price_periods: [period] },
        token,
      });
      return;
    }
  }
}

describe('the state document', () => {
  test('any state the platform can reach round-trips through GET and PUT /__admin/state', async () => {
    // Small caps, so that runs also reach states where records were dropped over them.
    const platform = createPlatform({
      now: '2030-01-01T00:00:00Z',
      retention: { maxAccessTokens: 8, maxTickets: 8, maxSsoSessions: 4 },
    });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        platform.reset();
        for (const s of steps) await perform(platform, s);
        const read = await send(platform, 'api', '/__admin/state');
        expect(read.status).toBe(200);
        const put = await send(platform, 'api', '/__admin/state', { method: 'PUT', text: read.text });
        expect(put.status, put.text).toBe(204);
        expect(JSON.parse((await send(platform, 'api', '/__admin/state')).text)).toEqual(JSON.parse(read.text));
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
