/**
 * Endpoint 4, log to accounts (207), and its available categories: change-log entries written to
 * accounts in batch, each refused or logged on its own.
 */
import { getAvailableCategories, logToAccounts } from '../../src/endpoints.js';
import type { ChangeLogError } from '../../src/schemas/account-change-log.js';
import { invalidParameter } from '../core/errors.js';
import { trimChangeLogs } from '../core/eviction.js';
import { newId } from '../core/ids.js';
import { apiRoute, type Route } from '../core/route.js';

/** The available categories: the organisation's, in document order. */
const categories = apiRoute(getAvailableCategories, ({ state, auth }) => ({
  body: {
    items: state.changeLogCategories
      .list('organisation', auth.client.organisation_id)
      .map((c) => ({ category_type: c.category_type, name: c.name })),
  },
}));

/**
 * Endpoint 4. A category that is not available refuses the whole request (400 `invalid_parameter`,
 * `change_logs[i].category_type`): nothing is logged. Otherwise each entry is judged alone: an
 * account of another organisation (or none) and an archived account are refused in `errors`, with
 * the entry echoed as the platform echoes it; the others are logged, their accounts in `ok`.
 */
const log = apiRoute(logToAccounts, ({ input, state, auth, clock }) => {
  const org = auth.client.organisation_id;
  const available = new Set(state.changeLogCategories.list('organisation', org).map((c) => c.category_type));
  input.change_logs.forEach((entry, i) => {
    if (!available.has(entry.category_type))
      throw invalidParameter(`change_logs[${i}].category_type`, 'Parameter must be one of the available categories');
  });
  const createdAt = clock.now().toISOString();
  const ok: string[] = [];
  const errors: ChangeLogError[] = [];
  // A batch often names the same accounts again and again: each is looked up once per request.
  const accounts = new Map<string, ReturnType<typeof state.account>>();
  for (const entry of input.change_logs) {
    let account = accounts.get(entry.account_id);
    if (account === undefined && !accounts.has(entry.account_id)) {
      account = state.account(org, entry.account_id);
      accounts.set(entry.account_id, account);
    }
    const refusal = !account
      ? 'The account does not belong to the organisation'
      : account.status === 'archived'
        ? 'The account is archived'
        : undefined;
    if (refusal || !account) {
      errors.push({
        payload: {
          account_id: entry.account_id,
          created_at: createdAt,
          message: entry.message,
          cateogory: entry.category_type,
          requested_by: entry.requested_by,
        },
        error_message: refusal ?? 'The account does not belong to the organisation',
      });
      continue;
    }
    state.accountChangeLogs.add({
      id: newId(),
      account_id: account.id,
      category_type: entry.category_type,
      message: entry.message,
      requested_by: entry.requested_by,
      created_at: createdAt,
    });
    ok.push(entry.account_id);
  }
  // Only an addition drops anything: a batch that logged nothing leaves every entry as it was.
  if (ok.length > 0) trimChangeLogs(state);
  return { body: { ok, errors } };
});

/** The routes of this file. */
export const accountChangeLogRoutes: readonly Route[] = [categories, log];
