/**
 * What a recorded snapshot keeps of an answer: the values a comparison reads (the error's `code`
 * and `field`, the catalogue's own values, the pointers a step names), and for everything else a
 * placeholder of the same shape. Ids become other ids of the same form, the same id always the
 * same placeholder (so the catalogue's references still hold); times, e-mail addresses, tokens and
 * any other text become placeholders, so no secret, ticket or personal detail is written. What is
 * kept as text (an error's message, a compared value, a header's meaning) has every secret the run
 * has sent taken out, in any spelling (a stage may quote a request back: its `client_secret`, its
 * bearer token), and whatever is shaped like a credential.
 */
import { REDACTED } from '../../../src/logger.js';
import { unquoting } from '../../../src/quoted-secrets.js';
import { redactText } from '../../../src/secrets.js';
import { type Answer, catalogueValue, DATE_TIME, EMAIL, OPAQUE_KEY, typeOf, type Values } from './compare.js';

const HEX_ID = /^[a-f\d]{24}$/i;
const HEX_IDS = /\b[a-f\d]{24}\b/gi;

/** Where a time was. */
const TIME_PLACEHOLDER = '2000-01-01T00:00:00.000Z';

/** Replaces ids, e-mail addresses and opaque text by placeholders, the same value always by the same one. */
export class Normaliser {
  private readonly ids = new Map<string, string>();
  private readonly emails = new Map<string, string>();
  private readonly secrets = new Set<string>();
  private unquote: (text: string) => string = (text) => text;

  /** Adds secrets the run sent (a client secret, a token, a ticket): no text kept quotes them. */
  remember(secrets: Iterable<string>): void {
    const before = this.secrets.size;
    for (const secret of secrets) this.secrets.add(secret);
    if (this.secrets.size !== before) this.unquote = unquoting([...this.secrets]);
  }

  /** A text kept as it is, but for the secrets in it. */
  private clean(value: string): string {
    return redactText(this.unquote(value), REDACTED);
  }

  /** The placeholder of an id: 24 hex digits, `0a1a1a1a1a1a1a1a` and a count. */
  id(value: string): string {
    const key = value.toLowerCase();
    let placeholder = this.ids.get(key);
    if (placeholder === undefined) {
      placeholder = `0a1a1a1a1a1a1a1a${(this.ids.size + 1).toString(16).padStart(8, '0')}`;
      this.ids.set(key, placeholder);
    }
    return placeholder;
  }

  /** The placeholder of an e-mail address: `user-N@example.invalid`. */
  email(value: string): string {
    const key = value.toLowerCase();
    let placeholder = this.emails.get(key);
    if (placeholder === undefined) {
      placeholder = `user-${this.emails.size + 1}@example.invalid`;
      this.emails.set(key, placeholder);
    }
    return placeholder;
  }

  /** A text with the ids and e-mail addresses in it replaced (an error's message). */
  text(value: string): string {
    return this.clean(value)
      .replace(HEX_IDS, (id) => this.id(id))
      .split(' ')
      .map((word) => (EMAIL.test(word) ? this.email(word) : word))
      .join(' ');
  }

  /** A string that is not compared by value: a placeholder of its kind. */
  opaque(value: string): string {
    if (HEX_ID.test(value)) return this.id(value);
    if (DATE_TIME.test(value)) return TIME_PLACEHOLDER;
    if (EMAIL.test(value)) return this.email(value);
    return 'x'.repeat(Math.min(value.length, 32));
  }

  /** An answer as a snapshot keeps it: compared values as they are, every other string a placeholder. */
  answer(answer: Answer, values: Values): Answer {
    const error = answer.status >= 400 && typeOf(answer.body) === 'object';
    const headers = Object.fromEntries(
      Object.entries(answer.headers).map(([name, value]) => [name, this.clean(value)]),
    );
    return { status: answer.status, headers, body: this.body(answer.body, '', '', values, error) };
  }

  private body(value: unknown, at: string, key: string, values: Values, error: boolean): unknown {
    if (Array.isArray(value)) return value.map((v, i) => this.body(v, `${at}/${i}`, String(i), values, false));
    if (typeOf(value) === 'object')
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [
          k,
          error && (k === 'code' || k === 'field')
            ? typeof v === 'string'
              ? this.clean(v)
              : v
            : error && k === 'message' && typeof v === 'string'
              ? this.text(v)
              : this.body(v, `${at}/${k}`, k, values, false),
        ]),
      );
    if (typeof value !== 'string') return value;
    return kept(at, key, value, values) ? this.clean(value) : this.opaque(value);
  }

  /**
   * A catalogue (the records of a state document) with every id replaced by its placeholder; the
   * rest is the target's own catalogue, kept as read.
   */
  catalogue<T>(document: T): T {
    const walk = (value: unknown, key: string): unknown => {
      if (Array.isArray(value)) return value.map((v) => walk(v, key));
      if (typeOf(value) === 'object')
        return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, walk(v, k)]));
      return typeof value === 'string' && OPAQUE_KEY.test(key) && HEX_ID.test(value) ? this.id(value) : value;
    };
    return walk(document, '') as T;
  }
}

/** Whether a leaf is compared by value, and so kept as it is. */
function kept(at: string, key: string, value: string, values: Values): boolean {
  if (values === 'catalogue') return catalogueValue(key, value);
  return values?.includes(at) ?? false;
}
