import { describe, expect, it } from 'vitest';
import { batchBytes, prepareBatch, sealedAt } from '../../../src/store/write-batch.js';
import { CHECK_BYTES, unseal } from '../../../src/store/record-check.js';
import { decodeValue } from '../../../src/store/values/value-codec.js';

describe('batchBytes', () => {
  it('counts the op record and the documents once (a delete or update payload lies inside the record)', () => {
    const doc = { title: 'x'.repeat(500) };
    const puts = prepareBatch([{ op: 'insert', docId: 1n, doc }]);
    const mixed = prepareBatch([{ op: 'insert', docId: 1n, doc }, { op: 'delete', docId: 2n }, { op: 'update', docId: 3n, values: { n: 7 } }]);
    const docBytes = sealedAt(puts.docs, 0).byteLength - CHECK_BYTES;
    expect(docBytes).toBeGreaterThan(500);
    expect(batchBytes(puts)).toBe(puts.record.byteLength + docBytes);
    expect(batchBytes(mixed)).toBe(mixed.record.byteLength + docBytes);
  });
});

describe('prepareBatch documents', () => {
  it("seals each put's document as a record of its own, in op order, whatever lies between them", () => {
    const docs = [{ title: 'a', n: 1 }, { title: 'b'.repeat(3000), n: 2 }, { title: 'ü €', n: 3 }];
    const batch = prepareBatch([
      { op: 'put', docId: 1n, doc: docs[0] },
      { op: 'delete', docId: 9n },
      { op: 'insert', docId: 2n, doc: docs[1] },
      { op: 'update', docId: 1n, values: { n: 4 } },
      { op: 'put', docId: 3n, doc: docs[2] },
    ]);
    const puts = batch.ops.filter((o) => o.op === 'put' || o.op === 'insert');
    expect(puts.map((o) => o.docId)).toEqual([1n, 2n, 3n]);
    const sealed = puts.map((_, d) => sealedAt(batch.docs, d));
    expect(batch.docs.ends.length).toBe(3);
    expect(sealed.map((b) => decodeValue(unseal(b, () => 'doc')))).toEqual(docs);
    expect(batchBytes(batch)).toBe(batch.record.byteLength + sealed.reduce((n, b) => n + b.byteLength - CHECK_BYTES, 0));
  });
});
