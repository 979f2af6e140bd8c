/** Op-log records: one record per write call (or group-commit round), holding its ops in order, keyed by its last seq. */
import { SearchError } from '../util/errors.js';
import type { LoggedOp, StoredDoc, WriteOp } from './types.js';
import { ValueReader, type ValueWriter } from './values/value-codec.js';

/*
 * record: | count varint | op | op | ... |          ops numbered lastSeq-count+1 .. lastSeq
 * op:     | kind u8 | docId i64 LE | payload: the values (update); none for a put or a delete |
 * One record per write call (or group-commit round: its calls' ops in order, write-batch.ts roundPuts)
 * halves lmdb puts for large batches (one per doc, plus one) compared with one record per op;
 * opsSince skips the ops of a straddling record that are not wanted.
 *
 * A put is logged without its document (kind STORED_PUT): the document record written in the same
 * transaction holds it. Replaying a put with the document as stored now, not as that put wrote it,
 * ends in the same index: a later op changed the document only if that op is in the log too (it has
 * a higher sequence, and ops are pruned only up to a checkpoint), and it is replayed after the put;
 * a document deleted since replays as a delete. Writing the document twice (record and log) held
 * the text of every write since the last checkpoint in the log, and lmdb's file never shrinks: at
 * 100k dict-gcide documents loaded between two checkpoints, 32 MB of 75 MB of data.mdb were free
 * pages the pruned log had left. Records of kind PUT (with the document) from earlier builds are read.
 */
const enum Kind { PUT = 1, DELETE = 2, UPDATE = 3, STORED_PUT = 4 }

/** A put logged without its document: opsSince gives it the document as stored now. */
export interface StoredPut { seq: bigint; op: 'stored-put'; docId: bigint }

/** Bytes before an op's payload: the kind byte and the docId. */
export const OP_HEADER_BYTES = 9;

/** Writes one op into `w`; `insert` is logged as a put, without its document (above). */
export function writeOp(w: ValueWriter, op: WriteOp): void {
  switch (op.op) {
    case 'put':
    case 'insert':
      w.byte(Kind.STORED_PUT);
      w.i64(op.docId);
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

/** The ops of a record whose last op has sequence `lastSeq`, keeping those with seq > `after`. */
export function readOps(lastSeq: bigint, buf: Buffer, after = -1n): (LoggedOp | StoredPut)[] {
  const r = new ValueReader(buf);
  const n = r.varint();
  const out: (LoggedOp | StoredPut)[] = [];
  let seq = lastSeq - BigInt(n);
  for (let i = 0; i < n; i++) {
    const op = readOp(++seq, r);
    if (seq > after) out.push(op);
  }
  if (r.pos !== buf.length) throw corruptAt(lastSeq);
  return out;
}

function readOp(seq: bigint, r: ValueReader): LoggedOp | StoredPut {
  const kind = r.buf[r.pos++];
  const docId = r.i64();
  switch (kind) {
    case Kind.STORED_PUT: return { seq, op: 'stored-put', docId };
    case Kind.PUT: return { seq, op: 'put', docId, doc: r.value() as StoredDoc };
    case Kind.DELETE: return { seq, op: 'delete', docId };
    case Kind.UPDATE: return { seq, op: 'update', docId, values: r.value() as Record<string, unknown> };
    default: throw corruptAt(seq);
  }
}

function corruptAt(seq: bigint): SearchError {
  return new SearchError('INTERNAL', `store: corrupt op record at seq ${seq}`);
}
