// RtIndex bookkeeping across many merges: ids map to the right rows after merges re-point them.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../src/index/rt-index.js';
import { TieredMergePolicy } from '../../../src/index/merge-policy.js';
import type { IndexSchema } from '../../../src/index/types.js';
import { doc } from './helpers.js';

const schema: IndexSchema = { fields: ['body'], attrs: [{ name: 'n', type: 'uint' }, { name: 's', type: 'string' }] };

type Op = { kind: 'add'; ids: number[] } | { kind: 'del'; id: number } | { kind: 'set'; id: number; n: number } | { kind: 'optimize' };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), ids: fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 6 }) }),
  fc.record({ kind: fc.constant('del' as const), id: fc.integer({ min: 1, max: 60 }) }),
  fc.record({ kind: fc.constant('set' as const), id: fc.integer({ min: 1, max: 60 }), n: fc.nat({ max: 1000 }) }),
  fc.constant({ kind: 'optimize' as const }),
);

describe('RtIndex across merges', () => {
  it('has, getAttrs, updates and deletes follow each document through every merge', () => {
    fc.assert(fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
      const idx = new RtIndex(schema, { mergePolicy: new TieredMergePolicy(2) }); // merges at every chance
      const model = new Map<number, [number, string]>();
      for (const o of ops) {
        if (o.kind === 'add') {
          const fresh = o.ids.filter((id) => !model.has(id));
          if (!fresh.length) continue;
          idx.addBatch(fresh.map((id) => doc(schema, id, { body: `w${id} common` }, [id, `s${id}`])));
          for (const id of fresh) model.set(id, [id, `s${id}`]);
        } else if (o.kind === 'del') {
          expect(idx.delete([BigInt(o.id)])).toBe(model.delete(o.id) ? 1 : 0);
        } else if (o.kind === 'set') {
          const ok = idx.updateAttrs(BigInt(o.id), new Map([['n', o.n]]));
          expect(ok).toBe(model.has(o.id));
          if (ok) model.get(o.id)![0] = o.n;
        } else {
          idx.optimize();
        }
      }
      expect(idx.count()).toBe(model.size);
      for (let id = 1; id <= 60; id++) {
        const want = model.get(id);
        expect(idx.has(BigInt(id))).toBe(!!want);
        expect(idx.getAttrs(BigInt(id))).toEqual(want);
      }
      idx.truncate();
    }), { numRuns: 150 });
  });
});
