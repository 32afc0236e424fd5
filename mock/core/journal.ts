/** The request journal: what the platform received, with every secret redacted. */

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
/** Body fields and query parameters whose values are secrets (`t` is the SSO's signed token, `at` a ticket). */
const SECRET_KEYS = new Set(['client_secret', 'ticket', 'password', 'access_token', 'refresh_token', 't', 'at']);
/** Headers other than `authorization` whose values are secrets. */
const SECRET_HEADERS = new Set(['cookie', 'proxy-authorization']);
const MAY_HOLD_SECRET = /client_secret|ticket|password|access_token|refresh_token|"t"|(^|&)t=|(^|&)at=/;
const JSON_SECRET =
  /("(?:client_secret|ticket|password|access_token|refresh_token|t|at)"\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\]\s]+)/g;
const FORM_SECRET = /(^|&)((?:client_secret|ticket|password|access_token|refresh_token|t|at)=)[^&]*/g;

function redactValue(value: unknown): { value: unknown; changed: boolean } {
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactValue(v);
      changed ||= r.changed;
      return r.value;
    });
    return { value: out, changed };
  }
  if (value !== null && typeof value === 'object') {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (SECRET_KEYS.has(k)) {
        out[k] = REDACTED;
        changed = true;
      } else {
        const r = redactValue(v);
        changed ||= r.changed;
        out[k] = r.value;
      }
    }
    return { value: out, changed };
  }
  return { value, changed: false };
}

/** A body text with the values of secret fields replaced, whether it is JSON, a form or neither. */
export function redactBody(text: string): string {
  if (!MAY_HOLD_SECRET.test(text)) return text;
  try {
    const r = redactValue(JSON.parse(text));
    return r.changed ? JSON.stringify(r.value) : text;
  } catch {
    // Not JSON: a form, or broken JSON; redact by pattern.
    return text.replace(JSON_SECRET, `$1"${REDACTED}"`).replace(FORM_SECRET, `$1$2${REDACTED}`);
  }
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
  ): JournalEntry {
    const query: Record<string, string> = {};
    let redactedQuery = false;
    if (url.search.length > 1) {
      for (const [k, v] of url.searchParams) {
        if (SECRET_KEYS.has(k)) {
          query[k] = REDACTED;
          redactedQuery = true;
        } else query[k] = v;
      }
    }
    let href = url.href;
    if (redactedQuery) {
      const safe = new URL(url.href);
      for (const k of SECRET_KEYS) if (safe.searchParams.has(k)) safe.searchParams.set(k, REDACTED);
      href = safe.href;
    }
    const headers: Record<string, string> = {};
    for (const k in requestHeaders) {
      const v = requestHeaders[k]!;
      if (k === 'authorization') headers[k] = /^bearer\s/i.test(v) ? `Bearer ${REDACTED}` : REDACTED;
      else headers[k] = SECRET_HEADERS.has(k) ? REDACTED : v;
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
