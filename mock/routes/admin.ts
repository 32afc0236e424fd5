/**
 * The test-suite tools over HTTP, under `/__admin` (WireMock's habit): reset, the state document,
 * tokens, tickets, SSO sessions, the clock, the request journal and faults. No token needed;
 * never journaled.
 */
import * as z from 'zod';
import { atLeastOne, atMostOne, dateTime } from '../../src/schemas/common.js';
import type { Clock } from '../core/clock.js';
import { ExternalCustomer, StateDocumentSchema } from '../core/document.js';
import { notFound } from '../core/errors.js';
import type { Fault } from '../core/faults.js';
import { type Route, route } from '../core/route.js';
import { ssoAudienceOf, ssoSessionOrThrow } from '../core/sso.js';
import { DistributionSettings } from '../core/subscription-system.js';
import { demoGuide } from '../seeds/demo-guide.js';

const TokenRequest = z.strictObject({
  scopes: z.array(z.string().min(1)),
  account_id: z.string().min(1).optional(),
  client_id: z.string().min(1).optional(),
  expires_in: z.number().int().positive().optional(),
});

/** At most one of `advance_seconds` and `now`, and `frozen` to stop or resume the clock; at least one key. */
const ClockRequest = atMostOne(
  atLeastOne(
    z.strictObject({
      advance_seconds: z.number().optional(),
      now: dateTime.optional(),
      frozen: z.boolean().optional(),
    }),
    ['advance_seconds', 'now', 'frozen'],
  ),
  ['advance_seconds', 'now'],
);

/** The clock as the admin API shows it. */
function clockJson(clock: Clock): { now: string; frozen: boolean } {
  return { now: clock.now().toISOString(), frozen: clock.frozen };
}

const FaultRequest = z.strictObject({
  path: z.string(), // its rules are the fault's own (`mock/core/faults.ts`), checked as it is added
  method: z.string().min(1).optional(),
  times: z.number().int().positive().optional(),
  status: z.number().int().min(200).max(599).optional(),
  code: z.string().min(1).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  latency_ms: z.number().nonnegative().optional(),
  drop: z.boolean().optional(),
});

/** A fault in the admin API's snake_case. */
function faultJson(f: Fault): Record<string, unknown> {
  const { latencyMs, ...rest } = f;
  return latencyMs === undefined ? rest : { ...rest, latency_ms: latencyMs };
}

/** A customer of an external system, its number in the path. */
const CustomerBody = ExternalCustomer.omit({ customer_number: true });

const SessionRequest = z.strictObject({ client_id: z.string().min(1).optional() });

const TicketRequest = z.strictObject({
  account_id: z.string().min(1),
  client_id: z.string().min(1),
  expires_in: z.number().int().positive().optional(),
});

const admin = (method: string, path: string) => ({ method, path: `/__admin/${path}`, kind: 'admin' as const });

/** The routes of this file. */
export const adminRoutes: readonly Route[] = [
  route(admin('POST', 'reset'), ({ platform }) => {
    platform.reset();
    return { status: 204 };
  }),
  // The document's text straight from the live state: no deep copy of it on the way (a copy
  // doubled what a large state holds in memory); the audience in force, as snapshot() gives it.
  route(admin('GET', 'state'), ({ state, settings }) => ({
    text: JSON.stringify({ ...state.document, sso_audience: ssoAudienceOf(settings, state.document) }),
    headers: { 'content-type': 'application/json' },
  })),
  route({ ...admin('PUT', 'state'), body: StateDocumentSchema }, ({ platform, input }) => {
    platform.restore(input);
    return { status: 204 };
  }),
  route({ ...admin('POST', 'tokens'), body: TokenRequest }, ({ platform, input }) => ({
    body: platform.mintToken({
      scopes: input.scopes,
      accountId: input.account_id,
      clientId: input.client_id,
      expiresIn: input.expires_in,
    }),
  })),
  // What a suite in another language needs of the demo seed; the seed's own, not today's state,
  // but the SSO audience the platform checks (`ssoAudience`, when it was started with one).
  route(admin('GET', 'demo'), ({ settings }) => {
    if (settings.seed !== 'demo')
      throw notFound(undefined, 'This platform was not started with the demo seed: GET /__admin/state shows its data');
    return { body: { ...demoGuide, sso_audience: ssoAudienceOf(settings, demoGuide) } };
  }),
  route(admin('GET', 'clock'), ({ clock }) => ({ body: clockJson(clock) })),
  route({ ...admin('POST', 'clock'), body: ClockRequest }, ({ clock, input }) => {
    // The time first: a refused time (out of range) changes nothing, the freeze included.
    if (input.now !== undefined) clock.set(input.now);
    if (input.advance_seconds !== undefined) clock.advance(input.advance_seconds);
    if (input.frozen === true) {
      clock.freeze();
      // Frozen at the very instant asked for, not at the millisecond the freeze came in.
      if (input.now !== undefined) clock.set(input.now);
    }
    if (input.frozen === false) clock.resume();
    return { body: clockJson(clock) };
  }),
  route(admin('GET', 'requests'), ({ platform }) => ({ body: { items: platform.requests.list() } })),
  route(admin('DELETE', 'requests'), ({ platform }) => {
    platform.requests.clear();
    return { status: 204 };
  }),
  route(admin('GET', 'faults'), ({ platform }) => ({ body: { items: platform.faults.list().map(faultJson) } })),
  route({ ...admin('POST', 'faults'), body: FaultRequest }, ({ platform, input }) => {
    const { latency_ms, ...rest } = input;
    const fault: Fault = latency_ms === undefined ? rest : { ...rest, latencyMs: latency_ms };
    platform.faults.add(fault);
    return { status: 201, body: { items: platform.faults.list().map(faultJson) } };
  }),
  route(admin('DELETE', 'faults'), ({ platform }) => {
    platform.faults.clear();
    return { status: 204 };
  }),
  route({ ...admin('POST', 'tickets'), body: TicketRequest }, ({ platform, input }) => ({
    status: 201,
    body: {
      ticket: platform.issueTicket({
        accountId: input.account_id,
        clientId: input.client_id,
        expiresIn: input.expires_in,
      }),
    },
  })),
  route({ ...admin('POST', 'sso/sessions'), body: SessionRequest }, ({ platform, input }) => ({
    status: 201,
    body: { sid: platform.sso.createSession({ clientId: input.client_id }) },
  })),
  route(admin('GET', 'sso/sessions/{sid}'), ({ state, clock, params }) => ({
    body: ssoSessionOrThrow(state, clock, params.sid ?? ''),
  })),
  route(admin('DELETE', 'sso/sessions/{sid}'), ({ platform, params }) => {
    platform.sso.terminate(params.sid ?? '');
    return { status: 204 };
  }),
  route(admin('GET', 'subscription-systems/{organisationId}'), ({ platform, params }) => {
    const system = platform.subscriptionSystems.get(params.organisationId ?? '');
    if (!system) throw notFound('organisation_id', 'The organisation has no external subscription system');
    return { body: system };
  }),
  route(
    { ...admin('PATCH', 'subscription-systems/{organisationId}'), body: DistributionSettings },
    ({ platform, params, input }) => {
      platform.subscriptionSystems.setDistribution(params.organisationId ?? '', input);
      return { status: 204 };
    },
  ),
  route(
    { ...admin('PUT', 'subscription-systems/{organisationId}/customers/{customerNumber}'), body: CustomerBody },
    ({ platform, params, input }) => {
      platform.subscriptionSystems.setCustomer(params.organisationId ?? '', {
        ...input,
        customer_number: params.customerNumber ?? '',
      });
      return { status: 204 };
    },
  ),
  route(admin('DELETE', 'subscription-systems/{organisationId}/customers/{customerNumber}'), ({ platform, params }) => {
    platform.subscriptionSystems.removeCustomer(params.organisationId ?? '', params.customerNumber ?? '');
    return { status: 204 };
  }),
  route(admin('POST', 'sso/sessions/{sid}/terminate'), ({ platform, params }) => {
    platform.sso.terminate(params.sid ?? '');
    return { status: 204 };
  }),
];
