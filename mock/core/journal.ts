/**
 * The request journal: what the platform received, with every secret redacted. What is secret is
 * the SDK logger's rule too (`src/secrets.ts`): by what a name means, and by what a value looks
 * like. A request is redacted when the journal is first read, not on its way through the
 * platform. Bounded: at most {@link JOURNAL_BODY_LIMIT} characters of each body shown, and
 * {@link JOURNAL_TEXT_BUDGET} characters in all.
 */
import {
  isSecretName,
  redactJsonText,
  redactParams,
  redactParamValue,
  redactShapes,
  redactText,
  startsLikeJson,
} from '../../src/secrets.js';
import { redactJsonLikeKeys, redactMultipart, redactPathUserinfo } from './loose-redaction.js';
import { setOwn } from './messages.js';
import type { Refusal } from './refusal.js';

export type { Refusal } from './refusal.js';

/** One request the platform received. */
export interface JournalEntry {
  /** The HTTP method. */
  method: string;
  /** The full URL, with secret query parameters (and a secret `name=value` in the path) redacted. */
  url: string;
  /** The path, without the query; a secret `name=value` in it redacted. */
  path: string;
  /** The query parameters (secret ones redacted; a repeated name keeps its last value). */
  query: Record<string, string>;
  /**
   * The request headers, names in lower case; `authorization` reads `Bearer [redacted]`, cookies
   * are redacted, and a secret in any other value as in free text (`X-Custom: password=[redacted]`).
   */
  headers: Record<string, string>;
  /**
   * The body text with secret fields redacted, or null when there was none (or it was refused).
   * A body longer than 65,536 characters keeps its first ones, then a marker that says how many
   * of how many it kept (`…[truncated by the journal: 65536 of 1048576 characters kept]`).
   */
  body: string | null;
  /** The status answered; 0 when the connection was dropped by a fault. */
  status: number;
  /** When the request arrived, by the platform clock (ISO 8601). */
  received_at: string;
  /** The `x-correlation-id` of the answer. */
  correlation_id: string;
  /** The client's IP address as the adapter knows it (`X-Forwarded-For` only behind a trusted proxy); null when unknown. */
  ip: string | null;
  /**
   * Why it was refused, when it was: every error answer, and an SSO answer `{ t }` whose session
   * token carries an `err`; null otherwise. A detail longer than 1,024 characters once redacted
   * keeps its first ones, then the marker a body's cut ends with.
   */
  refusal: Refusal | null;
}

/** The journal as the platform exposes it. */
export interface RequestJournal {
  /** Every entry, oldest first (copies). */
  list(): JournalEntry[];
  /** Forgets every entry. */
  clear(): void;
}

/** The text that replaces a secret. */
export const REDACTED = '[redacted]';
/** Headers whose values are URLs: their secret parameters are redacted (a ticket in a `Referer`). */
const URL_HEADERS = new Set(['referer', 'origin']);

/** How much of a body an entry keeps: 64 Ki characters (after redaction). */
export const JOURNAL_BODY_LIMIT = 64 * 1024;
/**
 * How much text the journal keeps in all (URLs, header values and bodies, in characters): 16 Mi.
 * Over it, the oldest entries go first, as they do over the entry limit.
 */
export const JOURNAL_TEXT_BUDGET = 16 * 1024 * 1024;

/**
 * How much of a refusal's detail an entry keeps: 1 Ki characters. A detail may quote what the
 * request gave (an unknown parameter's name, the scopes a grant refused), which a body of 1 MiB
 * makes as long; the details the platform words itself are a few hundred characters at most.
 */
export const JOURNAL_REFUSAL_LIMIT = 1024;

/** What ends a body or a refusal's detail the journal cut short: how much of how much it kept. */
export function truncationMarker(kept: number, length: number): string {
  return `…[truncated by the journal: ${kept} of ${length} characters kept]`;
}

/**
 * A redacted text, cut to `limit` characters. Always after redaction, so a cut never leaves part
 * of a secret in a form the redaction would not have recognised; never within a surrogate pair.
 * The kept text is copied, so the whole text is not kept alive behind it.
 */
function truncate(redacted: string, limit: number): string {
  if (redacted.length <= limit) return redacted;
  let end = limit;
  const last = redacted.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  const kept = JSON.parse(JSON.stringify(redacted.slice(0, end))) as string;
  return kept + truncationMarker(end, redacted.length);
}

/**
 * A body text with the values of secret fields replaced, whether it is JSON (valid or not: keys in
 * single quotes or bare too, `{'client_secret': 'x'}`, `{client_secret: "x"}`), a form, a
 * multipart body (the value of a part whose `name` is a secret; the platform never parses one, so
 * only here) or neither: names are compared decoded (`client\u005fsecret`, `client%5Fsecret`) and
 * by meaning, URL-valued fields lose their secret parameters (a ticket inside a `returnUrl`), and
 * whatever is shaped like a credential goes, under any name. Linear scans: a deeply nested body
 * costs no more than a flat one of the same size.
 */
function redactBody(text: string): string {
  let named: string;
  if (startsLikeJson(text)) named = redactJsonLikeKeys(redactJsonText(text, REDACTED), REDACTED);
  else {
    // A body that opens with its delimiter (`--boundary`) is multipart: its part headers are not
    // `&`-separated fields, so the rest of it is read as free text (`name=value` up to white space).
    const kind = text.startsWith('--') ? 'text' : 'form';
    named = redactJsonText(redactParams(redactMultipart(text, REDACTED), REDACTED, kind), REDACTED);
  }
  return redactShapes(named, REDACTED);
}

/** About how much text an entry holds, in characters. */
function sizeOf(entry: JournalEntry): number {
  let size = 2 * entry.url.length + (entry.body?.length ?? 0);
  for (const k in entry.headers) size += k.length + entry.headers[k]!.length;
  return size;
}

/** A request being journaled: its status is filled in when the answer is known. */
export interface OpenEntry {
  /** The status answered; 0 when the connection was dropped by a fault. */
  status: number;
  /** Why it was refused, when it was. */
  refusal: Refusal | null;
}

/**
 * One request as the journal holds it: what it carried, as it came, until the journal is first
 * read; then its redacted entry, and nothing of what it carried.
 */
class Slot implements OpenEntry {
  status = 0;
  #refusal: Refusal | null = null;
  /** Whether {@link Slot.refusal}'s detail is kept as the journal shows it: redacted and cut when it was set. */
  #shown = false;
  /** The redacted entry, once the journal was read. */
  entry: JournalEntry | undefined = undefined;

  constructor(
    readonly method: string,
    /** The URL as received (a string, not the `URL`: it is all that is kept). */
    readonly href: string,
    readonly path: string,
    public headers: Readonly<Record<string, string>> | undefined,
    public body: string | null,
    /** When the request arrived, by the platform clock, in ms since the epoch. */
    readonly receivedAtMs: number,
    readonly correlationId: string,
    readonly ip: string | null,
    /** About how much text it holds, in characters, its refusal's detail included. */
    public size: number,
    /** Told how much its size grew when its refusal is set, while the journal keeps it. */
    public resized: ((delta: number) => void) | undefined,
  ) {}

  get refusal(): Refusal | null {
    return this.#refusal;
  }

  /**
   * Why it was refused, counted in its size. A detail over {@link JOURNAL_REFUSAL_LIMIT} characters
   * is redacted and cut at once, so that no more of it is kept; a shorter one is redacted (and cut,
   * should redaction make it longer) when the journal is read.
   */
  set refusal(refusal: Refusal | null) {
    const before = this.#refusal?.detail.length ?? 0;
    this.#shown = refusal !== null && refusal.detail.length > JOURNAL_REFUSAL_LIMIT;
    this.#refusal = this.#shown ? shownRefusal(refusal, this.path, shownPath(this.path)) : refusal;
    const delta = (this.#refusal?.detail.length ?? 0) - before;
    this.size += delta;
    this.resized?.(delta);
  }

  /** Its entry, every secret redacted: made once, when the journal is first read. */
  redacted(): JournalEntry {
    if (this.entry === undefined) {
      this.entry = redactedEntry(this);
      this.headers = undefined;
      this.body = null;
      this.size = sizeOf(this.entry) + (this.#refusal?.detail.length ?? 0);
    }
    this.entry.status = this.status;
    // Redacted once: a cut kept as shown may end inside a `[redacted]`, which a second pass would take for a secret.
    const refusal = this.#refusal;
    this.entry.refusal = this.#shown && refusal ? { ...refusal } : shownRefusal(refusal, this.path, this.entry.path);
    return this.entry;
  }
}

/** A slot's entry, from what its request carried, every secret redacted. */
function redactedEntry(slot: Slot): JournalEntry {
  const url = new URL(slot.href);
  const query: Record<string, string> = {};
  let redactedQuery = false;
  if (url.search.length > 1) {
    for (const [k, v] of url.searchParams) {
      const value = isSecretName(k) ? REDACTED : redactParamValue(v, REDACTED);
      if (value !== v) redactedQuery = true;
      setOwn(query, k, value);
    }
  }
  const headers: Record<string, string> = {};
  for (const k in slot.headers) {
    const v = slot.headers[k]!;
    let value: string;
    if (k === 'authorization') value = v.slice(0, 7).toLowerCase() === 'bearer ' ? `Bearer ${REDACTED}` : REDACTED;
    else if (isSecretName(k)) value = REDACTED;
    else if (URL_HEADERS.has(k)) value = redactShapes(redactParams(v, REDACTED, 'url'), REDACTED);
    // Any other value is free text: a `password=...` in it goes, as in a refusal's detail.
    else value = redactText(v, REDACTED);
    setOwn(headers, k, value);
  }
  const path = shownPath(slot.path);
  const pathname = redactParams(redactPathUserinfo(url.pathname, REDACTED), REDACTED, 'url');
  // The fragment (a raw `#` in the request target) loses its secret parameters as the query does.
  const fragment = url.hash.length > 1 ? url.hash.slice(1) : '';
  const shownFragment = fragment && redactParams(fragment, REDACTED, 'url');
  let shownUrl = url.href;
  if (redactedQuery || shownFragment !== fragment || pathname !== url.pathname) {
    const search = redactedQuery ? `?${redactParams(url.search.slice(1), REDACTED, 'url')}` : url.search;
    shownUrl = `${url.origin}${pathname}${search}${shownFragment ? `#${shownFragment}` : ''}`;
  }
  return {
    method: slot.method,
    url: redactShapes(shownUrl, REDACTED),
    path,
    query,
    headers,
    body: slot.body === null ? null : truncate(redactBody(slot.body), JOURNAL_BODY_LIMIT),
    status: slot.status,
    received_at: new Date(slot.receivedAtMs).toISOString(),
    correlation_id: slot.correlationId,
    ip: slot.ip,
    refusal: null,
  };
}

/** A refusal's detail, already redacted, cut to {@link JOURNAL_REFUSAL_LIMIT} characters: as the journal keeps it, and the request log prints it. */
export function cutRefusalDetail(redacted: string): string {
  return truncate(redacted, JOURNAL_REFUSAL_LIMIT);
}

/** A path as an entry shows it: a `name=value` in it (`/nope/client_secret=...`) goes as in the query, by the request log's rule. */
function shownPath(path: string): string {
  return redactShapes(redactParams(redactPathUserinfo(path, REDACTED), REDACTED, 'url'), REDACTED);
}

/**
 * A refusal as the journal shows it: its detail may quote the path (a 404 names it) or a value,
 * redacted as free text is, then cut to {@link JOURNAL_REFUSAL_LIMIT} characters.
 */
function shownRefusal<R extends Refusal | null>(refusal: R, path: string, shown: string): R {
  return (refusal && {
    ...refusal,
    detail: cutRefusalDetail(redactText(refusal.detail.replaceAll(path, shown), REDACTED)),
  }) as R;
}

/**
 * The journal itself, bounded by a count of entries and by {@link JOURNAL_TEXT_BUDGET}: the oldest
 * entries go first. A request is redacted when the journal is first read, not on its way through
 * the platform (a 1000-entry batch would pay for its body on every call, and every request for its
 * headers); nothing reads a request but {@link Journal.list}, which redacts first.
 */
export class Journal implements RequestJournal {
  /** Slots from {@link Journal.head} on are live; those before it were dropped and are cleared. */
  #slots: (Slot | undefined)[] = [];
  /**
   * The index of the oldest live slot. Dropping the oldest moves it on, so that a full journal
   * pays O(1) per request rather than shifting every entry; the array is compacted once the
   * dropped part is as long as the live one.
   */
  #head = 0;
  /** The text held in all, in characters. */
  #size = 0;
  /** What a kept entry's size grew by (its refusal, set once answered): one function for all of them. */
  readonly #grew = (delta: number): void => {
    this.#size += delta;
  };

  readonly #limit: number;
  readonly #budget: number;

  /**
   * @param limit - how many entries it keeps
   * @param budget - how much text it keeps in all, in characters
   */
  constructor(limit: number, budget: number = JOURNAL_TEXT_BUDGET) {
    this.#limit = limit;
    this.#budget = budget;
  }

  /**
   * Records a request; the caller fills `status` when the answer is known. The headers are kept
   * as given until the journal is read: the caller must not change them (each adapter makes a new
   * record per request). `url` gives the URL as received and the path as the routes see it (under
   * a base path, what follows it).
   */
  open(
    method: string,
    url: Readonly<Pick<URL, 'href' | 'pathname'>>,
    headers: Readonly<Record<string, string>>,
    body: string | null,
    receivedAtMs: number,
    correlationId: string,
    ip?: string,
  ): OpenEntry {
    const href = url.href;
    let size = 2 * href.length + (body?.length ?? 0);
    for (const k in headers) size += k.length + headers[k]!.length;
    const slot = new Slot(
      method,
      href,
      url.pathname,
      headers,
      body,
      receivedAtMs,
      correlationId,
      ip ?? null,
      size,
      this.#limit === 0 ? undefined : this.#grew,
    );
    // A journal of no entries keeps none (`--journal-limit 0`).
    if (this.#limit === 0) return slot;
    this.#slots.push(slot);
    this.#size += size;
    // The newest entry always stays, even over the text budget...
    const last = this.#slots.length - 1;
    while (this.#head < last && (last - this.#head >= this.#limit || this.#size > this.#budget)) this.#drop();
    // ...but over it alone, it keeps no body, only how long the body was: a body at the size limit
    // in each of many namespaces would hold far more than their shares. (Cut at once, before its
    // redaction, it could keep part of a secret; redacted at once, it would hold up every request.)
    const carried = slot.body?.length ?? 0;
    const marker = this.#size > this.#budget ? truncationMarker(0, carried) : undefined;
    if (marker !== undefined && carried > marker.length) {
      slot.body = marker;
      slot.size += marker.length - carried;
      this.#size += marker.length - carried;
    }
    if (this.#head > 0 && this.#head >= this.#slots.length - this.#head) {
      this.#slots.splice(0, this.#head);
      this.#head = 0;
    }
    return slot;
  }

  /** Drops the oldest entry. */
  #drop(): void {
    const slot = this.#slots[this.#head]!;
    this.#size -= slot.size;
    // Its refusal, set later, counts no more.
    slot.resized = undefined;
    this.#slots[this.#head] = undefined;
    this.#head++;
  }

  list(): JournalEntry[] {
    const list: JournalEntry[] = [];
    for (let i = this.#head; i < this.#slots.length; i++) {
      const slot = this.#slots[i]!;
      const before = slot.size;
      const entry = slot.redacted();
      this.#size += slot.size - before;
      list.push({ ...entry, query: { ...entry.query }, headers: { ...entry.headers } });
    }
    return list;
  }

  clear(): void {
    for (let i = this.#head; i < this.#slots.length; i++) this.#slots[i]!.resized = undefined;
    this.#slots = [];
    this.#head = 0;
    this.#size = 0;
  }
}
