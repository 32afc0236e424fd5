/** Endpoint 14, get cancellation reason: one reason by id, or the list, filtered by two flags. */
import { getCancellationReason } from '../../src/endpoints.js';
import type { CancellationReason } from '../../src/schemas/cancellation-reasons.js';
import type { CancellationReasonRecord } from '../core/document.js';
import { notFound } from '../core/errors.js';
import { sameId } from '../core/ids.js';
import { apiRoute, type Route } from '../core/route.js';

function view(r: CancellationReasonRecord): CancellationReason {
  return {
    index: r.index,
    id: r.id,
    name: r.name,
    code: r.code,
    integration_code: r.integration_code,
    visible_to_end_customer: r.visible_to_end_customer,
    internal: r.internal,
  };
}

/**
 * Endpoint 14. The flags filter, with `id` too: internal reasons only with `include_internal=true`;
 * `visible_to_end_customer=true` keeps only the reasons visible to the end customer, `false` only
 * the others, and without it both. With `id`: `{ item }`, or 404 when it is absent or filtered out;
 * without: `{ items }` ordered by `index`.
 */
const get = apiRoute(getCancellationReason, ({ input, state, auth }) => {
  const kept = (r: CancellationReasonRecord) =>
    (input.include_internal === true || !r.internal) &&
    (input.visible_to_end_customer === undefined || r.visible_to_end_customer === input.visible_to_end_customer);
  const org = auth.client.organisation_id;
  if (input.id !== undefined) {
    const r = state.cancellationReasons.get(input.id);
    if (!r || !sameId(r.organisation_id, org) || !kept(r)) throw notFound('id', 'Cancellation reason not found');
    return { body: { item: view(r) } };
  }
  const items = state.cancellationReasons
    .list('organisation', org)
    .filter(kept)
    .sort((a, b) => a.index - b.index)
    .map(view);
  return { body: { items } };
});

/** The routes of this file. */
export const cancellationReasonRoutes: readonly Route[] = [get];
