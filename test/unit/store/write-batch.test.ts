import { describe, expect, it } from 'vitest';
import { batchBytes, prepareBatch } from '../../../src/store/write-batch.js';

describe('batchBytes', () => {
  it('counts the op record and the documents once (a delete or update payload lies inside the record)', () => {
    const doc = { title: 'x'.repeat(500) };
    const puts = prepareBatch([{ op: 'insert', docId: 1n, doc }]);
    const mixed = prepareBatch([{ op: 'insert', docId: 1n, doc }, { op: 'delete', docId: 2n }, { op: 'update', docId: 3n, values: { n: 7 } }]);
    const docBytes = puts.ops[0]!.payload.byteLength;
    expect(docBytes).toBeGreaterThan(500);
    expect(batchBytes(puts)).toBe(puts.record.byteLength + docBytes);
    expect(batchBytes(mixed)).toBe(mixed.record.byteLength + docBytes);
  });
});
