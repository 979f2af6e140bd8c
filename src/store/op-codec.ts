/** Op-log records: one write operation per sequence number, in the value codec's byte format. */
import { SearchError } from '../util/errors.js';
import type { LoggedOp, StoredDoc, WriteOp } from './types.js';
import { ValueReader, type ValueWriter } from './value-codec.js';

/* | kind u8 | docId i64 LE | payload: the doc (put) or the values (update); none for delete | */
const enum Kind { PUT = 1, DELETE = 2, UPDATE = 3 }

/** Writes one op into `w` (which the caller resets); `insert` is logged as `put`. */
export function writeOp(w: ValueWriter, op: WriteOp): void {
  switch (op.op) {
    case 'put':
    case 'insert':
      w.byte(Kind.PUT);
      w.i64(op.docId);
      w.value(op.doc);
      return;
    case 'delete':
      w.byte(Kind.DELETE);
      w.i64(op.docId);
      return;
    case 'update':
      w.byte(Kind.UPDATE);
      w.i64(op.docId);
      w.value(op.values);
      return;
  }
}

export function readOp(seq: bigint, buf: Buffer): LoggedOp {
  const r = new ValueReader(buf);
  const kind = buf[r.pos++];
  const docId = r.i64();
  switch (kind) {
    case Kind.PUT: return { seq, op: 'put', docId, doc: r.value() as StoredDoc };
    case Kind.DELETE: return { seq, op: 'delete', docId };
    case Kind.UPDATE: return { seq, op: 'update', docId, values: r.value() as Record<string, unknown> };
    default: throw new SearchError('INTERNAL', `store: corrupt op record at seq ${seq}`);
  }
}
