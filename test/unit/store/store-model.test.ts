// Property test: random write batches, truncates and checkpoints against a Map model of the table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../../src/store/store.js';
import type { LoggedOp, StoredDoc, WriteOp } from '../../../src/store/types.js';

type Model = Map<bigint, StoredDoc>;
type Step =
  | { kind: 'write'; ops: WriteOp[] }
  | { kind: 'truncate' }
  | { kind: 'checkpoint' };

const id = fc.bigInt({ min: -3n, max: 5n });
const doc = fc.record({ a: fc.oneof(fc.integer(), fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n })), s: fc.string() }, { requiredKeys: [] });
const op: fc.Arbitrary<WriteOp> = fc.oneof(
  fc.record({ op: fc.constant('put' as const), docId: id, doc }),
  fc.record({ op: fc.constant('insert' as const), docId: id, doc }),
  fc.record({ op: fc.constant('delete' as const), docId: id }),
  fc.record({ op: fc.constant('update' as const), docId: id, values: doc }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('write' as const), ops: fc.array(op, { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'truncate' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'checkpoint' as const }) },
);

/** Applies ops to a copy of the model; null when an insert hits an existing id (batch refused). */
function applyModel(model: Model, ops: (WriteOp | LoggedOp)[]): Model | null {
  const next = new Map(model);
  for (const o of ops) {
    if (o.op === 'insert' && next.has(o.docId)) return null;
    if (o.op === 'put' || o.op === 'insert') next.set(o.docId, o.doc);
    else if (o.op === 'delete') next.delete(o.docId);
    else if (next.has(o.docId)) next.set(o.docId, { ...next.get(o.docId), ...o.values });
  }
  return next;
}

const sorted = (m: Model) => [...m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));

let dir: string;
let store: Store;
let tableNo = 0;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-model-'));
  store = Store.open(dir);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Store against a model', () => {
  it('docs() equals the model, and checkpoint state + opsSince replay equals it too', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
      const t = `m${tableNo++}`;
      await store.createTable({ name: t, columns: [], settings: {} });
      let model: Model = new Map();
      let seq = 0n;
      let ckpt = { model: new Map() as Model, seq: 0n };
      for (const s of steps) {
        if (s.kind === 'write') {
          const next = applyModel(model, s.ops);
          const p = store.write(t, s.ops);
          if (next === null) {
            await expect(p).rejects.toMatchObject({ code: 'DUPLICATE_ID' });
          } else {
            seq += BigInt(s.ops.length);
            expect(await p).toBe(seq);
            model = next;
          }
        } else if (s.kind === 'truncate') {
          await store.truncate(t);
          model = new Map();
          ckpt = { model: new Map(), seq };
        } else {
          await store.saveCheckpoint(t, [], seq);
          await store.pruneOps(t, seq);
          ckpt = { model: new Map(model), seq };
        }
      }
      expect([...store.docs(t)]).toEqual(sorted(model));
      const loaded = store.loadCheckpoint(t);
      expect(loaded.lastSeq).toBe(ckpt.seq);
      expect(sorted(applyModel(ckpt.model, [...store.opsSince(t, loaded.lastSeq)])!)).toEqual(sorted(model));
      await store.dropTable(t);
    }), { numRuns: 60 });
  });
});
