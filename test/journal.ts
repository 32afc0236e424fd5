/**
 * Reading the request journal in a test: by path or by correlation id, never by position. A request
 * another test left under way can reach the journal after `reset()`, before or after this test's
 * own requests, so "the first entry" is not always this test's.
 */
import type { JournalEntry, Platform } from '../mock/index.js';

/** The entries of requests to `path` (without the query), oldest first. */
export function requestsTo(platform: Platform, path: string): JournalEntry[] {
  return platform.requests.list().filter((e) => e.path === path);
}

/**
 * The entry of the request answered with this `x-correlation-id` (an answer, its headers, or the
 * id itself). Throws when the journal holds none, naming the id.
 */
export function entryOf(platform: Platform, answer: { headers: Headers } | Headers | string | null): JournalEntry {
  const id =
    typeof answer === 'string' || answer === null
      ? answer
      : ('headers' in answer ? answer.headers : answer).get('x-correlation-id');
  const entry = platform.requests.list().find((e) => e.correlation_id === id);
  if (!entry) throw new Error(`no journal entry with the correlation id ${id}`);
  return entry;
}
