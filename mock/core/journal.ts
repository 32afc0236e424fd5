/**
 * The request journal: what the platform received, with every secret redacted. The secret names
 * are the SDK logger's too (`src/secrets.ts`).
 */
import { isSecretName, redactJsonText, redactParams } from '../../src/secrets.js';

/** One request the platform received. */
export interface JournalEntry {
  /** The HTTP method. */
  method: string;
  /** The full URL, with secret query parameters redacted. */
  url: string;
  /** The path, without the query. */
  path: string;
  /** The query parameters (secret ones redacted; a repeated name keeps its last value). */
  query: Record<string, string>;
  /** The request headers, names in lower case; `authorization` reads `Bearer [redacted]`, cookies are redacted. */
  headers: Record<string, string>;
  /** The body text with secret fields redacted, or null when there was none. */
  body: string | null;
  /** The status answered; 0 when the connection was dropped by a fault. */
  status: number;
  /** When the request arrived, by the platform clock (ISO 8601). */
  received_at: string;
  /** The `x-correlation-id` of the answer. */
  correlation_id: string;
  /** The client's IP address as the adapter knows it (`X-Forwarded-For` only behind a trusted proxy); null when unknown. */
  ip: string | null;
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

function startsLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32) return c === 123 /* { */ || c === 91 /* [ */;
  }
  return false;
}

/**
 * A body text with the values of secret fields replaced, whether it is JSON (valid or not), a form
 * or neither: names are compared decoded (`client\u005fsecret`, `client%5Fsecret`), and URL-valued
 * fields lose their secret parameters (a ticket inside a `returnUrl`). One linear scan: a deeply
 * nested body costs no more than a flat one of the same size.
 */
export function redactBody(text: string): string {
  if (startsLikeJson(text)) return redactJsonText(text, REDACTED);
  return redactJsonText(redactParams(text, REDACTED, 'form'), REDACTED);
}

/** Sets an own property, `__proto__` included (an assignment would set the prototype instead). */
function setOwn(target: Record<string, string>, key: string, value: string): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true });
  else target[key] = value;
}

/** The journal's store, bounded: the oldest entries go first. */
export class Journal implements RequestJournal {
  private entries: JournalEntry[] = [];

  constructor(private readonly limit: number) {}

  /** Records a request; the caller fills `status` when the answer is known. */
  open(
    method: string,
    url: URL,
    requestHeaders: Readonly<Record<string, string>>,
    body: string | null,
    receivedAt: string,
    correlationId: string,
    ip?: string,
  ): JournalEntry {
    const query: Record<string, string> = {};
    let redactedQuery = false;
    if (url.search.length > 1) {
      for (const [k, v] of url.searchParams) {
        let value = v;
        if (isSecretName(k)) value = REDACTED;
        else if (v.includes('=')) value = redactParams(v, REDACTED, 'url');
        if (value !== v) redactedQuery = true;
        setOwn(query, k, value);
      }
    }
    const href = redactedQuery
      ? `${url.origin}${url.pathname}?${redactParams(url.search.slice(1), REDACTED, 'url')}`
      : url.href;
    const headers: Record<string, string> = {};
    for (const k in requestHeaders) {
      const v = requestHeaders[k]!;
      let value = v;
      if (k === 'authorization') value = v.slice(0, 7).toLowerCase() === 'bearer ' ? `Bearer ${REDACTED}` : REDACTED;
      else if (isSecretName(k)) value = REDACTED;
      else if (URL_HEADERS.has(k)) value = redactParams(v, REDACTED, 'url');
      setOwn(headers, k, value);
    }
    const entry: JournalEntry = {
      method,
      url: href,
      path: url.pathname,
      query,
      headers,
      body: body === null ? null : redactBody(body),
      status: 0,
      received_at: receivedAt,
      correlation_id: correlationId,
      ip: ip ?? null,
    };
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    return entry;
  }

  list(): JournalEntry[] {
    return this.entries.map((e) => ({ ...e, query: { ...e.query }, headers: { ...e.headers } }));
  }

  clear(): void {
    this.entries = [];
  }
}
