/**
 * A collection's indexes are built when first read and kept right by every write from then on:
 * whatever the writes (add, update, remove, sweep, trim) and whenever the first read comes, its
 * lookups answer what a collection loaded with the same records answers.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import * as z from 'zod';
import { Collection, collection, lower } from '../../mock/core/collection.js';

const Row = z.object({ id: z.string(), owner: z.string(), code: z.string() });
type Row = z.output<typeof Row>;

const SPEC = collection(Row, (k) => ({
  id: k.unique(['id', lower]),
  code: k.unique(['owner', lower], 'code'),
  owner: k.grouped(['owner', lower]),
}));

type Step =
  | { kind: 'add'; id: string; owner: string; code: string }
  | { kind: 'update'; at: number; owner: string }
  | { kind: 'replace'; at: number; owner: string; code: string }
  | { kind: 'remove'; at: number }
  | { kind: 'sweep'; count: number; owner: string }
  | { kind: 'trim'; max: number }
  | { kind: 'read'; index: 'id' | 'code' | 'owner' };

const name = fc.constantFrom('a', 'B', 'c');
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    id: fc.string({ unit: fc.constantFrom('0', '1', 'a', 'A'), minLength: 1, maxLength: 3 }),
    owner: name,
    code: name,
  }),
  fc.record({ kind: fc.constant('update' as const), at: fc.nat(20), owner: name }),
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(20), owner: name, code: name }),
  fc.record({ kind: fc.constant('remove' as const), at: fc.nat(20) }),
  fc.record({ kind: fc.constant('sweep' as const), count: fc.nat(5), owner: name }),
  fc.record({ kind: fc.constant('trim' as const), max: fc.nat(20) }),
  fc.record({
    kind: fc.constant('read' as const),
    index: fc.constantFrom('id' as const, 'code' as const, 'owner' as const),
  }),
);

/** Every lookup the collection answers, for every key its records (and a few others) could have. */
function lookups(c: Collection<Row, typeof SPEC.indexes>) {
  const ids = new Set(c.rows.map((r) => r.id).concat(['0', 'F']));
  const owners = ['a', 'A', 'b', 'B', 'c'];
  return {
    get: [...ids].map((id) => [id, c.get(id), c.get(id.toUpperCase())]),
    find: owners.flatMap((o) => owners.map((code) => [o, code, c.find('code', o, code)])),
    list: owners.map((o) => [o, [...c.list('owner', o)]]),
    indexes: c.describeIndexes(),
  };
}

/** Whether a record with these keys would be a second one under a unique key (routes check first, so never). */
function taken(rows: readonly Row[], id: string, owner: string, code: string, except?: Row): boolean {
  return rows.some(
    (r) =>
      r !== except &&
      (r.id.toLowerCase() === id.toLowerCase() || (r.owner.toLowerCase() === owner.toLowerCase() && r.code === code)),
  );
}

function apply(c: Collection<Row, typeof SPEC.indexes>, s: Step): void {
  const rows = c.rows;
  if (s.kind === 'add') {
    if (!taken(rows, s.id, s.owner, s.code)) c.add({ id: s.id, owner: s.owner, code: s.code });
  } else if (s.kind === 'update' && rows.length > 0) {
    const row = rows[s.at % rows.length]!;
    if (!taken(rows, row.id, s.owner, row.code, row))
      c.update(row, (r) => {
        r.owner = s.owner;
      });
  } else if (s.kind === 'replace' && rows.length > 0) {
    const row = rows[s.at % rows.length]!;
    if (!taken(rows, row.id, s.owner, s.code, row)) c.replace(row, { id: row.id, owner: s.owner, code: s.code });
  } else if (s.kind === 'remove' && rows.length > 0) c.remove(rows[s.at % rows.length]!);
  else if (s.kind === 'sweep') c.sweep(s.count, (r) => r.owner === s.owner);
  else if (s.kind === 'trim') c.trim(s.max);
  else if (s.kind === 'read' && s.index === 'id') c.get('0');
  else if (s.kind === 'read' && s.index === 'code') c.find('code', 'a', 'a');
  else if (s.kind === 'read') c.list('owner', 'a');
}

describe('Collection indexes', () => {
  test('built on first read, whatever the writes before and after, they answer as a collection loaded with the same records', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const live = new Collection(SPEC);
        live.load([]);
        for (const s of steps) apply(live, s);
        const loaded = new Collection(SPEC);
        loaded.load(live.rows.map((r) => r));
        expect(lookups(live)).toEqual(lookups(loaded));
      }),
      { numRuns: 3000, seed: 20261127 },
    );
  });

  test('an immutable collection: its records are frozen, deep, from load, add and replace; replace keeps the place and the indexes', () => {
    const Deep = z.object({ id: z.string(), tags: z.array(z.object({ name: z.string() })) });
    const c = new Collection(collection(Deep, (k) => ({ id: k.unique('id') }), {}, { immutable: true }));
    c.load([{ id: 'a', tags: [{ name: 'x' }] }]);
    c.add({ id: 'b', tags: [] });
    const a = c.get('a')!;
    expect(() => {
      a.tags[0]!.name = 'y';
    }).toThrow(TypeError);
    expect(() => c.get('b')!.tags.push({ name: 'z' })).toThrow(TypeError);
    expect(() => c.update(a, () => undefined)).toThrow('written by replace()');
    const next = { id: 'c', tags: [...a.tags, { name: 'y' }] };
    c.replace(a, next);
    expect(Object.isFrozen(next.tags[1])).toBe(true);
    expect(c.rows.map((r) => r.id)).toEqual(['c', 'b']);
    expect(c.get('a')).toBeUndefined();
    expect(c.get('c')).toBe(next);
    expect(() => c.replace(a, { id: 'd', tags: [] })).toThrow('Only a record of the collection');
    // A collection that is not declared immutable keeps its records as they came.
    const mutable = new Collection(SPEC);
    mutable.load([{ id: 'a', owner: 'a', code: 'x' }]);
    expect(Object.isFrozen(mutable.rows[0])).toBe(false);
  });

  test('an index nothing reads is not built: load drops them, the first read builds one', () => {
    const c = new Collection(SPEC);
    c.load([{ id: 'a1', owner: 'a', code: 'x' }]);
    c.add({ id: 'A2', owner: 'a', code: 'y' });
    // Read after the writes: the id index holds both, by the key rule (case ignored).
    expect(c.get('a2')?.code).toBe('y');
    expect(c.list('owner', 'A').map((r) => r.id)).toEqual(['a1', 'A2']);
    c.load([{ id: 'b1', owner: 'b', code: 'z' }]);
    expect(c.get('a1')).toBeUndefined();
    expect(c.get('B1')?.code).toBe('z');
  });

  test('trimAdded drops the oldest records added since the load, never the loaded ones, whatever was removed between', () => {
    const c = new Collection(SPEC);
    const row = (id: string) => ({ id, owner: 'a', code: id });
    c.load([row('l1'), row('l2'), row('l3')]);
    expect(c.added).toBe(0);
    for (const id of ['n1', 'n2', 'n3', 'n4']) c.add(row(id));
    expect(c.added).toBe(4);
    expect(c.oldestAdded()?.id).toBe('n1');
    // A loaded record removed (by a request, by a sweep): the added ones still follow the loaded ones.
    c.remove(c.get('l2')!);
    c.sweep(1, (r) => r.id === 'l1');
    expect(c.added).toBe(4);
    c.trimAdded(2);
    expect(c.rows.map((r) => r.id)).toEqual(['l3', 'n3', 'n4']);
    expect(c.get('n1')).toBeUndefined();
    expect(c.list('owner', 'a').map((r) => r.id)).toEqual(['l3', 'n3', 'n4']);
    // trim (the oldest of all) takes loaded ones first, and the added ones are still known as such.
    c.trim(2);
    expect(c.rows.map((r) => r.id)).toEqual(['n3', 'n4']);
    expect(c.added).toBe(2);
    // A load makes every record the document's own.
    c.load([...c.rows]);
    expect(c.added).toBe(0);
    c.trimAdded(0);
    expect(c.rows).toHaveLength(2);
  });

  test('the records added are counted through every removal: remove, sweep and trim take an added one without touching the loaded ones', () => {
    const c = new Collection(SPEC);
    const row = (id: string) => ({ id, owner: 'a', code: id });
    c.load([row('l1'), row('l2')]);
    for (const id of ['n1', 'n2', 'n3']) c.add(row(id));
    c.remove(c.get('n2')!);
    expect(c.added).toBe(2);
    c.sweep(5, (r) => r.id === 'n3');
    expect(c.added).toBe(1);
    expect(c.oldestAdded()?.id).toBe('n1');
    c.trimAdded(0);
    expect(c.rows.map((r) => r.id)).toEqual(['l1', 'l2']);
    expect(c.added).toBe(0);
  });

  test('trimAdded keeps every index right, built before it or after, and leaves the next sweep where it was', () => {
    const c = new Collection(SPEC);
    const row = (id: string) => ({ id, owner: 'a', code: id });
    c.load([row('l1')]);
    for (const id of ['n1', 'n2', 'n3', 'n4']) c.add(row(id));
    // Both indexes built before the trim.
    expect(c.get('n4')?.id).toBe('n4');
    expect(c.list('owner', 'a')).toHaveLength(5);
    // The sweep stops at n3 (it looked at l1, n1 and n2 and kept them).
    c.sweep(3, () => false);
    c.trimAdded(3);
    expect(c.rows.map((r) => r.id)).toEqual(['l1', 'n2', 'n3', 'n4']);
    expect(['n1', 'n2', 'n3', 'n4'].map((id) => c.get(id)?.id)).toEqual([undefined, 'n2', 'n3', 'n4']);
    expect(c.list('owner', 'a').map((r) => r.id)).toEqual(['l1', 'n2', 'n3', 'n4']);
    // The next sweep looks at n3 first, as it would have without the trim.
    c.sweep(1, (r) => r.id === 'n3');
    expect(c.rows.map((r) => r.id)).toEqual(['l1', 'n2', 'n4']);
    // A sweep not started yet still starts at the first record after a trim.
    const d = new Collection(SPEC);
    d.load([row('l1')]);
    for (const id of ['n1', 'n2']) d.add(row(id));
    d.trimAdded(1);
    d.sweep(1, (r) => r.id === 'l1');
    expect(d.rows.map((r) => r.id)).toEqual(['n2']);
  });
});
