/**
 * How two answers to the same request are compared: the status, the error's `code` and `field`, the
 * body's shape (members, their JSON types, nullability, array elements, recursively), the headers
 * that carry meaning, and values only where the step says they are the target's own. A member only
 * the target answers is an extra ("the platform answers more than the document says"), not a
 * difference.
 */

/** The headers whose meaning is compared, each reduced to what it means (`www-authenticate`: its scheme and error). */
export interface MeaningfulHeaders {
  /** The media type, lower case, without parameters. */
  readonly 'content-type'?: string;
  /** The scheme, lower case, and the `error` parameter when there is one: `bearer error=invalid_token`. */
  readonly 'www-authenticate'?: string;
  /** The methods, upper case, sorted: `GET, POST`. */
  readonly allow?: string;
  /** `seconds` or `date`: the form of the wait. */
  readonly 'retry-after'?: string;
  /** A redirect's path and the names of its query parameters, sorted: `/marketplace/demo/main?campaign`. */
  readonly location?: string;
}

/** An answer as it is compared and recorded. */
export interface Answer {
  readonly status: number;
  readonly headers: MeaningfulHeaders;
  /** The JSON body; a text body as a string; `null` for none. */
  readonly body: unknown;
}

/** What differs between the two answers of a step. */
export type DifferenceKind = 'status' | 'code' | 'field' | 'member' | 'type' | 'value' | 'header' | 'accepted';

/** One difference: what differs, where (a JSON pointer or a header's name), and the two values side by side. */
export interface Difference {
  readonly kind: DifferenceKind;
  /** A JSON pointer into the body, with `*` for every element of an array (shapes), or the header's name. */
  readonly at: string;
  /** What the platform under test answered. */
  readonly target: string;
  /** What the reference platform answered. */
  readonly reference: string;
}

/** A member only the platform under test answers: reported apart, not a failure. */
export interface Extra {
  /** A JSON pointer to the member. */
  readonly at: string;
  /** Its JSON type. */
  readonly type: string;
}

/** Which values are compared: `catalogue` (the target's own records), or these pointers, or none. */
export type Values = 'catalogue' | readonly string[] | undefined;

/** Members whose values are ids, tokens, tickets, secrets or correlation ids: compared by shape only. */
export const OPAQUE_KEY =
  /^(?:id|sid|aid|cid|at|t|ticket|access_token|refresh_token|client_secret|api_correlation_id)$|_id$|Id$/;

/** An ISO 8601 date-time: compared by shape only (times differ between any two runs). */
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/** An e-mail address: compared by shape only. */
export const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** A value's JSON type: `null`, `boolean`, `number`, `string`, `array`, `object`. */
export function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** A value as the report shows it: JSON, cut to 80 characters. */
function shown(value: unknown): string {
  const text = value === undefined ? '(absent)' : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}

/** A status with the error code of its body: `404 not_found`. */
function statusOf(answer: Answer): string {
  const code = errorOf(answer)?.code;
  return code === undefined ? String(answer.status) : `${answer.status} ${String(code)}`;
}

/** The spec's error body of an answer (status 400 and over, an object with `code`), if it is one. */
function errorOf(answer: Answer): Record<string, unknown> | undefined {
  const { body } = answer;
  if (answer.status < 400 || typeOf(body) !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  return 'code' in record ? record : undefined;
}

/** Whether a leaf at `key` holding `value` is compared by value under `catalogue`. */
export function catalogueValue(key: string, value: unknown): boolean {
  if (OPAQUE_KEY.test(key)) return false;
  return typeof value !== 'string' || !(DATE_TIME.test(value) || EMAIL.test(value));
}

/** Collects the differences and extras of one body, walking both values together. */
class Walk {
  readonly differences: Difference[] = [];
  readonly extras: Extra[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly values: Values,
    private readonly nullable: readonly string[],
  ) {}

  add(difference: Difference): void {
    const key = JSON.stringify(difference);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.differences.push(difference);
  }

  /** Compares `t` (target) with `r` (reference) at `at` (concrete pointer) and `shape` (pointer with `*` for elements). */
  value(t: unknown, r: unknown, at: string, shape: string, key: string, skip: ReadonlySet<string>): void {
    const tt = typeOf(t);
    const rt = typeOf(r);
    if (tt !== rt) {
      const either = tt === 'null' || rt === 'null';
      if (!(either && this.nullable.some((p) => shape === p || shape.startsWith(`${p}/`))))
        this.add({ kind: 'type', at: shape, target: tt, reference: rt });
    } else if (tt === 'object') {
      this.members(t as Record<string, unknown>, r as Record<string, unknown>, at, shape, skip);
    } else if (tt === 'array') {
      this.elements(t as unknown[], r as unknown[], at, shape);
    } else if (this.comparesValue(at, key, r) && t !== r) {
      this.add({ kind: 'value', at, target: shown(t), reference: shown(r) });
    }
  }

  private comparesValue(at: string, key: string, r: unknown): boolean {
    if (this.values === 'catalogue') return catalogueValue(key, r);
    return this.values?.includes(at) ?? false;
  }

  private members(
    t: Record<string, unknown>,
    r: Record<string, unknown>,
    at: string,
    shape: string,
    skip: ReadonlySet<string>,
  ): void {
    for (const key of Object.keys(r)) {
      if (skip.has(key)) continue;
      const path = `${at}/${key}`;
      const generic = `${shape}/${key}`;
      if (!(key in t)) this.add({ kind: 'member', at: generic, target: '(absent)', reference: typeOf(r[key]) });
      else this.value(t[key], r[key], path, generic, key, NONE);
    }
    for (const key of Object.keys(t)) {
      if (skip.has(key) || key in r) continue;
      const extra = { at: `${shape}/${key}`, type: typeOf(t[key]) };
      if (!this.extras.some((e) => e.at === extra.at)) this.extras.push(extra);
    }
  }

  private elements(t: readonly unknown[], r: readonly unknown[], at: string, shape: string): void {
    if (this.values === 'catalogue' && t.length !== r.length)
      this.add({ kind: 'value', at: `${at}/length`, target: String(t.length), reference: String(r.length) });
    const n = Math.min(t.length, r.length);
    for (let i = 0; i < n; i++) this.value(t[i], r[i], `${at}/${i}`, `${shape}/*`, String(i), NONE);
  }
}

const NONE: ReadonlySet<string> = new Set();
const ERROR_MEMBERS: ReadonlySet<string> = new Set(['code', 'field']);

/**
 * The differences between the answer of the platform under test (`target`) and the reference's, and
 * the members only the target answers. Under the shape pointers of `nullable` (`/items/*`), null
 * against a value is not a difference: the records there are the test account's own. A different status is one difference, and the rest of the
 * two answers is not compared: each drift is reported once.
 */
export function compareAnswers(
  target: Answer,
  reference: Answer,
  values?: Values,
  nullable: readonly string[] = [],
): { differences: Difference[]; extras: Extra[] } {
  if (target.status !== reference.status)
    return {
      differences: [{ kind: 'status', at: 'status', target: statusOf(target), reference: statusOf(reference) }],
      extras: [],
    };
  const walk = new Walk(values, nullable);
  const te = errorOf(target);
  const re = errorOf(reference);
  if (te && re)
    for (const key of ['code', 'field'] as const)
      if (te[key] !== re[key])
        walk.add({ kind: key, at: `/${key}`, target: shown(te[key]), reference: shown(re[key]) });
  walk.value(target.body, reference.body, '', '', '', te && re ? ERROR_MEMBERS : NONE);
  for (const name of HEADER_NAMES) {
    const t = target.headers[name];
    const r = reference.headers[name];
    if (t !== r) walk.add({ kind: 'header', at: name, target: t ?? '(absent)', reference: r ?? '(absent)' });
  }
  return { differences: walk.differences, extras: walk.extras };
}

const HEADER_NAMES = ['content-type', 'www-authenticate', 'allow', 'retry-after', 'location'] as const;

/** The headers of an answer reduced to their meaning ({@link MeaningfulHeaders}). */
export function meaningOf(get: (name: string) => string | null | undefined): MeaningfulHeaders {
  const headers: Record<string, string> = {};
  const type = get('content-type');
  if (type) headers['content-type'] = (type.split(';')[0] ?? '').trim().toLowerCase();
  const challenge = get('www-authenticate');
  if (challenge) {
    const scheme = (challenge.trim().split(/\s+/)[0] ?? '').toLowerCase();
    const error = /(?:^|[\s,])error\s*=\s*"?([^",\s]+)/i.exec(challenge)?.[1];
    headers['www-authenticate'] = error ? `${scheme} error=${error}` : scheme;
  }
  const allow = get('allow');
  if (allow)
    headers.allow = allow
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter((m) => m.length > 0)
      .sort()
      .join(', ');
  const retry = get('retry-after');
  if (retry) headers['retry-after'] = /^\d+$/.test(retry.trim()) ? 'seconds' : 'date';
  const location = get('location');
  if (location) {
    const url = new URL(location, 'http://relative.invalid');
    const names = [...new Set(url.searchParams.keys())].sort();
    headers.location = `${url.pathname}${names.length > 0 ? `?${names.join('&')}` : ''}`;
  }
  return headers;
}
