/**
 * A collection of the state document declared once: its record schema, the indexes it needs and
 * the fields that name records of other collections. From that one declaration come the document's
 * schema and checks (unique keys, references), and the live indexes: each built when first read,
 * then kept right by `add`, `update`, `replace` and `remove`. A collection may be immutable: its live
 * records frozen, each write a new record in place of the last.
 */
import type * as z from 'zod';

/** How a key part is compared: ids and e-mail addresses ignore case, codes do not. */
export type Normalize = (value: string) => string;
/** Compared in lower case (the spec's id pattern ignores case). */
export const lower: Normalize = (value) => value.toLowerCase();

/** One part of an index key: a field (as written, or normalized), or a value computed from the record. */
export type KeyPart<T> =
  | (keyof T & string)
  | readonly [keyof T & string, Normalize]
  | ((record: T) => string | null | undefined);

/** An index over a collection: by a key made of `parts`; `unique` keys name one record, others a list. */
export interface IndexSpec<T, U extends boolean = boolean> {
  readonly parts: readonly KeyPart<T>[];
  readonly unique: U;
}

/** Builds the indexes of a collection of `T`. */
export interface IndexBuilder<T> {
  /** A key that names at most one record; the document refuses a second record with the same key. */
  unique(...parts: KeyPart<T>[]): IndexSpec<T, true>;
  /** A key that names a list of records, in document order. */
  grouped(...parts: KeyPart<T>[]): IndexSpec<T, false>;
}

/** The declaration of one collection. The first index is the primary key (`get`), and must be unique. */
export interface CollectionSpec<
  T extends object,
  I extends Record<string, IndexSpec<T>>,
  S extends z.ZodType = z.ZodType,
> {
  /** The schema of one record (its input type is what a seed may write). */
  readonly schema: S;
  readonly indexes: I;
  /** Fields naming a record of another collection (by its primary key): field name to document key. */
  readonly references: Readonly<Partial<Record<string, string>>>;
  /**
   * Whether its live records are frozen, deep: a write replaces a record ({@link Collection.replace})
   * and never changes one in place, so what is derived from a record can be kept by the record.
   */
  readonly immutable: boolean;
}

/** Declares a collection: `collection(Account, (k) => ({ id: k.unique(['id', lower]) }), { organisation_id: 'organisations' })`. */
export function collection<
  S extends z.ZodType<object, unknown>,
  const I extends Record<string, IndexSpec<z.output<S>>>,
>(
  schema: S,
  indexes: (k: IndexBuilder<z.output<S>>) => I,
  references?: Readonly<Partial<Record<keyof z.output<S> & string, string>>>,
  options?: { readonly immutable?: boolean },
): CollectionSpec<z.output<S>, I, S> {
  const builder: IndexBuilder<z.output<S>> = {
    unique: (...parts) => ({ parts, unique: true }),
    grouped: (...parts) => ({ parts, unique: false }),
  };
  return { schema, indexes: indexes(builder), references: references ?? {}, immutable: options?.immutable === true };
}

/** The names of the unique indexes of `I`. */
export type UniqueIndex<I> = { [N in keyof I]: I[N] extends IndexSpec<never, true> ? N : never }[keyof I];
/** The names of the grouped indexes of `I`. */
export type GroupedIndex<I> = { [N in keyof I]: I[N] extends IndexSpec<never, false> ? N : never }[keyof I];

const SEPARATOR = '\u0000';

function partOf<T>(part: KeyPart<T>, record: T): string | undefined {
  if (typeof part === 'function') return part(record) ?? undefined;
  // No tuple is built for a plain field name: this runs for every index of every record written.
  const value = (record as Record<string, unknown>)[typeof part === 'string' ? part : part[0]];
  if (typeof value !== 'string') return undefined;
  return normalizedPart(part, value);
}

/** The key of `record` in an index; undefined when a part is absent (the record is then not in that index). */
function keyOf<T>(index: IndexSpec<T>, record: T): string | undefined {
  const parts = index.parts;
  if (parts.length === 1) return partOf(parts[0]!, record);
  let key = '';
  for (let i = 0; i < parts.length; i++) {
    const part = partOf(parts[i]!, record);
    if (part === undefined) return undefined;
    key = i === 0 ? part : key + SEPARATOR + part;
  }
  return key;
}

/** The key an index gives to these values (normalized as the index's parts say). */
function lookupKey<T>(index: IndexSpec<T>, values: readonly string[]): string {
  let key = '';
  for (let i = 0; i < index.parts.length; i++) {
    const normalized = normalizedPart(index.parts[i]!, values[i] ?? '');
    key = i === 0 ? normalized : key + SEPARATOR + normalized;
  }
  return key;
}

/** A value as a key part compares it. */
function normalizedPart<T>(part: KeyPart<T>, value: string): string {
  return typeof part === 'string' || typeof part === 'function' ? value : part[1](value);
}

/** The field named last in an index (where the document reports a duplicate key). */
function lastField<T>(index: IndexSpec<T>): string | undefined {
  for (let i = index.parts.length - 1; i >= 0; i--) {
    const part = index.parts[i]!;
    if (typeof part === 'string') return part;
    if (typeof part !== 'function') return part[0];
  }
  return undefined;
}

/** One index of a collection: its map, once built. */
interface LiveIndex<T> {
  readonly index: IndexSpec<T>;
  readonly map: Map<string, T | T[]>;
  /** Whether the map holds every record: an index is built when it is first read, kept right from then on. */
  built: boolean;
}

/**
 * A collection's records (the state document's own list) and its live indexes. An index is built
 * the first time it is read, and kept right by every write from then on: an index nothing reads
 * (a collection that is only written, such as endpoint 4's change logs) costs its writes nothing.
 */
export class Collection<T extends object, I extends Record<string, IndexSpec<T>>> {
  readonly spec: CollectionSpec<T, I>;
  #rows: T[] = [];
  readonly #byName = new Map<keyof I, LiveIndex<T>>();
  /** Each index, in declaration order: what every write walks (no lookup by name). */
  readonly #live: readonly LiveIndex<T>[];
  readonly #primary: LiveIndex<T>;
  /** Where the next {@link Collection.sweep} looks first. */
  #cursor = 0;
  /**
   * How many of the first records came with the document ({@link Collection.load}): the records
   * added since always follow them, so they are `rows.slice(loaded)`.
   */
  #loaded = 0;

  constructor(spec: CollectionSpec<T, I>) {
    this.spec = spec;
    for (const name of Object.keys(spec.indexes))
      this.#byName.set(name, { index: spec.indexes[name]!, map: new Map(), built: false });
    this.#live = [...this.#byName.values()];
    const primary = this.#live[0];
    if (primary === undefined || !primary.index.unique)
      throw new Error('The first index of a collection must be unique: it is the primary key');
    this.#primary = primary;
  }

  /** The records, in document order (the state document's list itself). */
  get rows(): readonly T[] {
    return this.#rows;
  }

  /** Takes `rows` (the document's list, owned from now on); each index is built again when next read. */
  load(rows: T[]): void {
    if (this.spec.immutable) for (const row of rows) deepFreeze(row);
    this.#rows = rows;
    this.#cursor = 0;
    this.#loaded = rows.length;
    for (const live of this.#live) {
      live.map.clear();
      live.built = false;
    }
  }

  /** Adds a record at the end of the document's list. */
  add(record: T): void {
    if (this.spec.immutable) deepFreeze(record);
    this.#rows.push(record);
    this.#index(record);
  }

  /**
   * Changes a record in place, keeping every index right when `change` touches an indexed field:
   * the record keeps its place in the document, and so in each list of a grouped index.
   */
  update(record: T, change: (record: T) => void): void {
    if (this.spec.immutable) throw new TypeError('A record of an immutable collection is written by replace()');
    const before = this.#keysOf(record);
    change(record);
    this.#rekey(record, record, before);
  }

  /**
   * Puts `next` where `record` is, in the document's list and in every index: how a record of an
   * immutable collection is written (the route makes the next record, then replaces the last).
   */
  replace(record: T, next: T): void {
    const at = this.#rows.indexOf(record);
    if (at < 0) throw new TypeError('Only a record of the collection can be replaced');
    if (this.spec.immutable) deepFreeze(next);
    this.#rows[at] = next;
    this.#rekey(record, next);
  }

  /** Removes a record from the document and every index. */
  remove(record: T): void {
    const at = this.#rows.indexOf(record);
    if (at < 0) return;
    this.#unindex(record);
    this.#rows.splice(at, 1);
    if (at < this.#cursor) this.#cursor--;
    if (at < this.#loaded) this.#loaded--;
  }

  /**
   * Looks at the next `count` records (round the list, from where the last sweep stopped) and
   * removes those `done` says are of no more use: a little work per call, never a pass over the
   * whole list, and every record looked at again within `length / count` calls.
   */
  sweep(count: number, done: (record: T) => boolean): void {
    for (let looked = 0; looked < count && this.#rows.length > 0; looked++) {
      if (this.#cursor >= this.#rows.length) this.#cursor = 0;
      const record = this.#rows[this.#cursor]!;
      if (!done(record)) this.#cursor++;
      else {
        this.#unindex(record);
        this.#rows.splice(this.#cursor, 1);
        if (this.#cursor < this.#loaded) this.#loaded--;
      }
    }
  }

  /** Removes the first records, the oldest in document order, until at most `max` remain. */
  trim(max: number): void {
    const excess = this.#rows.length - max;
    if (excess <= 0) return;
    for (let i = 0; i < excess; i++) this.#unindex(this.#rows[i]!);
    this.#rows.splice(0, excess);
    this.#cursor = Math.max(0, this.#cursor - excess);
    this.#loaded = Math.max(0, this.#loaded - excess);
  }

  /** The records added since the document was loaded (by requests), oldest first. */
  get added(): number {
    return this.#rows.length - this.#loaded;
  }

  /** The oldest record added since the document was loaded, or undefined when none is. */
  oldestAdded(): T | undefined {
    return this.#rows[this.#loaded];
  }

  /**
   * Removes the oldest records added since the document was loaded until at most `max` of them
   * remain; the document's own are kept, however many they are.
   */
  trimAdded(max: number): void {
    const excess = this.added - max;
    if (excess <= 0) return;
    const from = this.#loaded;
    for (let i = from; i < from + excess; i++) this.#unindex(this.#rows[i]!);
    this.#rows.splice(from, excess);
    if (this.#cursor > from) this.#cursor = Math.max(from, this.#cursor - excess);
  }

  /** The record with this primary key (normalized as the key says), or undefined. */
  get(key: string): T | undefined {
    const { parts } = this.#primary.index;
    // A key of one part (most collections') is looked up without a list of values made for it.
    const lookup = parts.length === 1 ? normalizedPart(parts[0]!, key) : lookupKey(this.#primary.index, [key]);
    return this.#read(this.#primary).get(lookup) as T | undefined;
  }

  /** Whether a record has this primary key. */
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** The record a unique index names for these key values, or undefined. */
  find(index: UniqueIndex<I>, ...values: string[]): T | undefined {
    const live = this.#byName.get(index)!;
    return this.#read(live).get(lookupKey(live.index, values)) as T | undefined;
  }

  /** The records a grouped index lists for these key values, in document order. */
  list(index: GroupedIndex<I>, ...values: string[]): readonly T[] {
    const live = this.#byName.get(index)!;
    return (this.#read(live).get(lookupKey(live.index, values)) as T[] | undefined) ?? [];
  }

  /** Every index as sorted `[key, position of each record]` pairs: what a test compares after `reset()`. */
  describeIndexes(): Record<string, [string, number[]][]> {
    const out: Record<string, [string, number[]][]> = {};
    for (const [name, live] of this.#byName) {
      const entries: [string, number[]][] = [];
      for (const [key, value] of this.#read(live)) {
        const records = Array.isArray(value) ? value : [value];
        entries.push([key, records.map((r) => this.#rows.indexOf(r))]);
      }
      out[String(name)] = entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    }
    return out;
  }

  /** An index's map, built from the records (in document order) if it is not yet. */
  #read(live: LiveIndex<T>): Map<string, T | T[]> {
    if (!live.built) {
      for (const record of this.#rows) indexInto(live, record);
      live.built = true;
    }
    return live.map;
  }

  #index(record: T): void {
    for (const live of this.#live) if (live.built) indexInto(live, record);
  }

  #unindex(record: T): void {
    for (const live of this.#live) if (live.built) unindexFrom(live, record);
  }

  /** The key of `record` in each built index (in `#live`'s order): what a write compares with after. */
  #keysOf(record: T): (string | undefined)[] {
    return this.#live.map((live) => (live.built ? keyOf(live.index, record) : undefined));
  }

  /**
   * `next` in each built index in place of `record`, whose keys were `before` (the same object
   * after an update; else read from `record`, unchanged): where a key is unchanged it takes the same
   * place in the list, else it leaves its list and joins the other one where the document's order
   * puts it.
   */
  #rekey(record: T, next: T, before?: readonly (string | undefined)[]): void {
    for (let i = 0; i < this.#live.length; i++) {
      const live = this.#live[i]!;
      if (!live.built) continue;
      const old = before === undefined ? keyOf(live.index, record) : before[i];
      const key = keyOf(live.index, next);
      if (live.index.unique) {
        if (old !== undefined && live.map.get(old) === record) live.map.delete(old);
        if (key !== undefined) live.map.set(key, next);
      } else if (old === key) {
        if (key === undefined || record === next) continue;
        const list = live.map.get(key) as T[];
        list[list.indexOf(record)] = next;
      } else {
        if (old !== undefined) removeFrom(live.map, old, record);
        if (key !== undefined) this.#insertInOrder(live.map, key, next);
      }
    }
  }

  /** `record` into the list of `key`, where the document's order puts it (a list keeps that order). */
  #insertInOrder(map: Map<string, T | T[]>, key: string, record: T): void {
    const list = map.get(key) as T[] | undefined;
    if (list === undefined) {
      map.set(key, [record]);
      return;
    }
    const at = this.#rows.indexOf(record);
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.#rows.indexOf(list[middle]!) < at) low = middle + 1;
      else high = middle;
    }
    list.splice(low, 0, record);
  }
}

/** Freezes a record and every object and array within it (a member frozen already is frozen whole). */
function deepFreeze(value: object): void {
  Object.freeze(value);
  // No list of the members is made: this runs on every write of an immutable record.
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) freezeMember(value[i]);
  else for (const key in value) freezeMember((value as Record<string, unknown>)[key]);
}

function freezeMember(member: unknown): void {
  if (typeof member === 'object' && member !== null && !Object.isFrozen(member)) deepFreeze(member);
}

function indexInto<T>({ index, map }: LiveIndex<T>, record: T): void {
  const key = keyOf(index, record);
  if (key === undefined) return;
  if (index.unique) map.set(key, record);
  else {
    const list = map.get(key) as T[] | undefined;
    if (list) list.push(record);
    else map.set(key, [record]);
  }
}

function unindexFrom<T>({ index, map }: LiveIndex<T>, record: T): void {
  const key = keyOf(index, record);
  if (key === undefined) return;
  if (index.unique) {
    if (map.get(key) === record) map.delete(key);
  } else removeFrom(map, key, record);
}

/** `record` out of the list of `key` in a grouped index's map (the list dropped when it empties). */
function removeFrom<T>(map: Map<string, T | T[]>, key: string, record: T): void {
  const list = map.get(key) as T[] | undefined;
  const at = list ? list.indexOf(record) : -1;
  if (list && at >= 0) {
    list.splice(at, 1);
    if (list.length === 0) map.delete(key);
  }
}

type Issues = z.core.ParsePayload<unknown>['issues'];

/**
 * The document's checks from the declarations: a second record with the same unique key (reported
 * on the key's last field), and a reference to a record the document does not have.
 */
/** What {@link checkCollections} reads of a declaration, whatever its record type. */
interface AnyCollectionSpec {
  readonly indexes: Readonly<Record<string, IndexSpec<never>>>;
  readonly references: Readonly<Partial<Record<string, string>>>;
}

export function checkCollections(
  specs: Readonly<Record<string, AnyCollectionSpec>>,
  document: Readonly<Record<string, unknown>>,
  issues: Issues,
): void {
  const primaryKeys = new Map<string, Set<string>>();
  for (const [name, spec] of Object.entries(specs)) {
    const rows = (document[name] ?? []) as object[];
    for (const index of Object.values(spec.indexes) as IndexSpec<object>[]) {
      if (!index.unique) continue;
      const seen = new Set<string>();
      const field = lastField(index);
      rows.forEach((row, i) => {
        const key = keyOf(index, row);
        if (key === undefined) return;
        if (seen.has(key))
          issues.push({
            code: 'custom',
            input: field === undefined ? row : (row as Record<string, unknown>)[field],
            path: field === undefined ? [name, i] : [name, i, field],
            message: 'Parameter must be unique',
          });
        seen.add(key);
      });
      // The first index is the primary key: what references name.
      if (!primaryKeys.has(name)) primaryKeys.set(name, seen);
    }
  }
  for (const [name, spec] of Object.entries(specs)) {
    const rows = (document[name] ?? []) as Record<string, unknown>[];
    for (const [field, target] of Object.entries(spec.references) as [string, string][]) {
      const targetSpec = specs[target];
      const keys = primaryKeys.get(target);
      if (!targetSpec || !keys) continue;
      const primary = Object.values(targetSpec.indexes)[0] as IndexSpec<object>;
      rows.forEach((row, i) => {
        const value = row[field];
        if (typeof value === 'string' && !keys.has(lookupKey(primary, [value])))
          issues.push({
            code: 'custom',
            input: value,
            path: [name, i, field],
            message: `Parameter must name one of the document's ${target}`,
          });
      });
    }
  }
}
