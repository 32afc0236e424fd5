/**
 * The helpdesk's read endpoints: 8 (an account's pending messages), 10 (a message template; its
 * path is spelled differently on production) and 11 (a message). The embedded `account` and
 * `assignee` are read from the accounts at answer time, never stored copies.
 */

import { getHelpdeskMessage, getHelpdeskMessageTemplate, getPendingMessages } from '../../src/endpoints.js';
import type { HelpdeskAccount, HelpdeskAssignee, HelpdeskMessage } from '../../src/schemas/helpdesk.js';
import { callerAccount } from '../core/authentication.js';
import { timeMs } from '../core/clock.js';
import type { AccountRecord, HelpdeskMessageRecord } from '../core/document.js';
import { notFound } from '../core/errors.js';
import { apiRoute, type Route } from '../core/route.js';
import type { State } from '../core/state.js';
import { givesAccess } from '../core/user-products.js';

function assigneeView(a: AccountRecord): HelpdeskAssignee {
  return {
    id: a.id,
    first_name: a.first_name,
    last_name: a.last_name,
    contact_email: a.email,
    mobile_number: a.mobile_number ?? '',
    customer_number: a.customer_number,
    status: a.status,
    verified: a.verified,
  };
}

/** The account as a message embeds it: `has_products` when a user-product of it gives access now. */
function accountView(state: State, a: AccountRecord, nowMs: number): HelpdeskAccount {
  return { ...assigneeView(a), has_products: state.userProductsOf(a.id).some((u) => givesAccess(u, nowMs)) };
}

/** A message as the spec's Helpdesk message reads it; `occurrences` only on single reads. */
function messageView(state: State, m: HelpdeskMessageRecord, nowMs: number): HelpdeskMessage {
  const account = state.accounts.get(m.account_id)!;
  const assignee = m.assignee_id === null ? undefined : state.accounts.get(m.assignee_id);
  return {
    id: m.id,
    account_id: m.account_id,
    account: accountView(state, account, nowMs),
    assignee_id: assignee ? assignee.id : '',
    assignee: assignee ? assigneeView(assignee) : null,
    created_at: m.created_at,
    updated_at: m.updated_at,
    resolved_at: m.resolved_at,
    heading: m.heading,
    message: m.message,
    type: m.type,
    identifier: m.identifier,
    state: m.state,
    comments: m.comments.map((c) => ({ ...c })),
  };
}

/** A message or template of the caller's organisation (by its account), or undefined. */
function ofOrganisation(state: State, org: string, m: HelpdeskMessageRecord | undefined) {
  return m && state.account(org, m.account_id) ? m : undefined;
}

/** Endpoint 8: the account's messages in state `pending`, oldest first. */
const pending = apiRoute(getPendingMessages, ({ input, state, auth, clock }) => {
  const account = callerAccount(state, auth, input.account_id);
  const items = state.helpdeskMessages
    .list('account', account.id)
    .filter((m) => m.state === 'pending')
    // Oldest first as instants: a text with an offset (`12:00+05:00`) does not sort as the instant it names.
    .sort((a, b) => timeMs(a.created_at) - timeMs(b.created_at) || a.id.localeCompare(b.id))
    .map((m) => messageView(state, m, clock.nowMs()));
  return { body: { items } };
});

/** Endpoint 10: a message template by id. */
const template = apiRoute(getHelpdeskMessageTemplate, ({ input, state, auth, clock }) => {
  const t = ofOrganisation(state, auth.client.organisation_id, state.helpdeskMessageTemplates.get(input.id));
  if (!t) throw notFound('id', 'Helpdesk message template not found');
  return { body: { item: { ...messageView(state, t, clock.nowMs()), occurrences: t.occurrences } } };
});

/** Endpoint 11: a message by id, whatever its state. */
const message = apiRoute(getHelpdeskMessage, ({ input, state, auth, clock }) => {
  const m = ofOrganisation(state, auth.client.organisation_id, state.helpdeskMessages.get(input.id));
  if (!m) throw notFound('id', 'Helpdesk message not found');
  return { body: { item: { ...messageView(state, m, clock.nowMs()), occurrences: m.occurrences } } };
});

/** The routes of this file. */
export const helpdeskRoutes: readonly Route[] = [pending, template, message];
