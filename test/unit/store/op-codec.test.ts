// Op-log records: a put is logged without its document; records of earlier builds (with it) still read.
import { describe, expect, it } from 'vitest';
import { OP_HEADER_BYTES, readOps, writeOp } from '../../../src/store/op-codec.js';
import { ValueWriter } from '../../../src/store/values/value-codec.js';
import { prepareBatch, sealedAt } from '../../../src/store/write-batch.js';
import { CHECK_BYTES } from '../../../src/store/record-check.js';

describe('op records', () => {
  it('log a put as its id alone, an update with its values, and keep the document for the doc record', () => {
    const doc = { title: 'a long title '.repeat(20), n: 5 };
    const batch = prepareBatch([
      { op: 'insert', docId: 7n, doc },
      { op: 'update', docId: 7n, values: { n: 6 } },
      { op: 'delete', docId: -2n },
    ]);
    const values = new ValueWriter();
    values.value({ n: 6 });
    // count varint + three op headers + the update's values: nothing of the put's document
    expect(batch.record.length).toBe(1 + 3 * OP_HEADER_BYTES + values.pos);
    expect(readOps(3n, batch.record)).toEqual([
      { seq: 1n, op: 'stored-put', docId: 7n },
      { seq: 2n, op: 'update', docId: 7n, values: { n: 6 } },
      { seq: 3n, op: 'delete', docId: -2n },
    ]);
    const w = new ValueWriter();
    w.value(doc);
    // the put's document is its sealed record (the document, then its checksum); an update's payload its values
    expect(batch.ops.map((o) => o.payload.length)).toEqual([0, values.pos, 0]);
    expect(sealedAt(batch.docs, 0).length).toBe(w.pos + CHECK_BYTES);
    expect(sealedAt(batch.docs, 0).subarray(0, w.pos)).toEqual(w.view());
  });

  it('reads a put logged with its document by an earlier build (kind 1)', () => {
    const w = new ValueWriter();
    w.varint(2);
    w.byte(1);
    w.i64(4n);
    w.value({ title: 'old' });
    writeOp(w, { op: 'put', docId: 5n, doc: { title: 'new' } });
    expect(readOps(11n, w.view(), 9n)).toEqual([
      { seq: 10n, op: 'put', docId: 4n, doc: { title: 'old' } },
      { seq: 11n, op: 'stored-put', docId: 5n },
    ]);
  });
});
