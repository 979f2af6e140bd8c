// Random write sequences for the merge tests (rt-index-merges, merge-thread): adds, deletes, attribute
// updates and OPTIMIZE applied to an RtIndex and to a model of what it must then hold.
import { expect } from 'vitest';
import fc from 'fast-check';
import type { RtIndex } from '../../../src/index/rt-index.js';
import type { IndexSchema } from '../../../src/index/types.js';
import { doc } from './helpers.js';

export const mergeSchema: IndexSchema = { fields: ['body'], attrs: [{ name: 'n', type: 'uint' }, { name: 's', type: 'string' }] };

export type MergeOp = { kind: 'add'; ids: number[] } | { kind: 'del'; id: number } | { kind: 'set'; id: number; n: number } | { kind: 'optimize' };

/** Ids drawn from 1..maxId. */
export function mergeOps(maxId: number): fc.Arbitrary<MergeOp>[] {
  return [
    fc.record({ kind: fc.constant('add' as const), ids: fc.uniqueArray(fc.integer({ min: 1, max: maxId }), { minLength: 1, maxLength: 6 }) }),
    fc.record({ kind: fc.constant('del' as const), id: fc.integer({ min: 1, max: maxId }) }),
    fc.record({ kind: fc.constant('set' as const), id: fc.integer({ min: 1, max: maxId }), n: fc.nat({ max: 1000 }) }),
    fc.constant({ kind: 'optimize' as const }),
  ];
}

/** Applies `o` to the index and the model (id -> [n, s]), checking what delete and update return. */
export function applyMergeOp(idx: RtIndex, model: Map<number, [number, string]>, o: MergeOp): void {
  if (o.kind === 'add') {
    const fresh = o.ids.filter((id) => !model.has(id));
    if (!fresh.length) return;
    idx.addBatch(fresh.map((id) => doc(mergeSchema, id, { body: `w${id} common` }, [id, `s${id}`])));
    for (const id of fresh) model.set(id, [id, `s${id}`]);
  } else if (o.kind === 'del') {
    expect(idx.delete([BigInt(o.id)])).toBe(model.delete(o.id) ? 1 : 0);
  } else if (o.kind === 'set') {
    const ok = idx.updateAttrs(BigInt(o.id), new Map<string, number | string>([['n', o.n], ['s', `u${o.n}`]]));
    expect(ok).toBe(model.has(o.id));
    if (ok) model.set(o.id, [o.n, `u${o.n}`]);
  } else {
    idx.optimize();
  }
}

/** The index holds exactly the model's documents, with its attribute values. */
export function expectModel(idx: RtIndex, model: Map<number, [number, string]>, maxId: number): void {
  expect(idx.count()).toBe(model.size);
  for (let id = 1; id <= maxId; id++) {
    expect(idx.has(BigInt(id))).toBe(model.has(id));
    expect(idx.getAttrs(BigInt(id))).toEqual(model.get(id));
  }
}
