/** One write call: ops are encoded eagerly, then applied inside the lmdb transaction with no partial writes. */
import { SearchError } from '../util/errors.js';
import { checkDocId, docKey, genKey, opKey, u64Bytes } from './keys.js';
import type { StoredDoc, WriteOp } from './types.js';
import { readView, type StoreDbs } from './lmdb-env.js';
import { OP_HEADER_BYTES, writeOp } from './op-codec.js';
import { seal, unseal } from './record-check.js';
import { LogDb, type LogRound, type LoggedPut } from './write-log/write-log.js';
import { decodeValue, encodeValue, ValueWriter } from './values/value-codec.js';

/** One op, encoded: its payload (a put's document; an update's values, inside the op record; empty for delete). */
export interface PreparedOp {
  op: WriteOp['op'];
  docId: bigint;
  payload: Buffer;
}

/** A write call, encoded: its op-log record and its ops. */
export interface PreparedBatch {
  record: Buffer;
  ops: PreparedOp[];
}

/**
 * Validates and encodes `ops` at call time, so a caller mutating its objects afterwards cannot
 * change what gets written, and a bad value fails before any transaction starts. Puts' documents go
 * to a buffer of their own: the op record logs a put without its document (op-codec.ts).
 */
export function prepareBatch(ops: WriteOp[]): PreparedBatch {
  const w = new ValueWriter();
  const docs = new ValueWriter();
  w.varint(ops.length);
  const spans: number[] = [];
  for (const op of ops) {
    checkOp(op);
    const isPut = op.op === 'put' || op.op === 'insert';
    spans.push(isPut ? docs.pos : w.pos + OP_HEADER_BYTES);
    writeOp(w, op);
    if (isPut) docs.value(op.doc);
    spans.push(isPut ? docs.pos : w.pos);
  }
  const record = w.view();
  const docBytes = docs.view();
  const out: PreparedOp[] = [];
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const isPut = op.op === 'put' || op.op === 'insert';
    const from = isPut ? docBytes : record;
    const start = spans[2 * i]!;
    const end = spans[2 * i + 1]!;
    // a put whose document is all of docBytes (a single-row INSERT's) takes that view: no second one per statement
    out.push({ op: op.op, docId: op.docId, payload: isPut && start === 0 && end === docBytes.length ? docBytes : from.subarray(start, end) });
  }
  return { record, ops: out };
}

/** The bytes a prepared batch stores: its op record and its documents (other ops' payloads are in the record). */
export function batchBytes(batch: PreparedBatch): number {
  let n = batch.record.byteLength;
  for (const op of batch.ops) if (op.op === 'put' || op.op === 'insert') n += op.payload.byteLength;
  return n;
}

/**
 * Applies prepared ops to generation `gen`, numbering them lastSeq+1, lastSeq+2, ... Must run
 * inside an lmdb write transaction. Phase one reads, checks duplicates and merges updates (it may
 * throw: nothing is written yet, so a failed batch leaves no trace even in a commit it shares with
 * other writers); phase two only puts. Returns the last sequence assigned.
 */
export function applyBatch(dbs: StoreDbs, gen: number, lastSeq: bigint, batch: PreparedBatch): bigint {
  const ops = batch.ops;
  // docId -> encoded doc after the ops so far (null: deleted or absent)
  const states = new Map<bigint, Buffer | null>();
  for (const op of ops) {
    if (op.op === 'insert' && currentBytes(dbs, gen, states, op.docId) !== null) {
      throw new SearchError('DUPLICATE_ID', `duplicate id '${BigInt.asUintN(64, op.docId)}'`);
    }
    if (op.op === 'put' || op.op === 'insert') states.set(op.docId, op.payload);
    else if (op.op === 'delete') states.set(op.docId, null);
    else {
      const cur = currentBytes(dbs, gen, states, op.docId);
      if (cur === null) continue; // updating a missing doc changes nothing (but is still logged)
      const values = decodeValue(op.payload) as Record<string, unknown>;
      states.set(op.docId, encodeValue({ ...(decodeValue(cur) as StoredDoc), ...values }));
    }
  }
  return writeRecords(dbs, gen, lastSeq, batch, states);
}

/**
 * The documents after a batch of puts and deletes alone (docId -> encoded doc, null when deleted; the
 * last op of an id wins): what phase one of applyBatch computes, without reading the store, which
 * such a batch never needs. Throws for ops that must read (insert's duplicate check, update's merge).
 */
export function blindStates(batch: PreparedBatch): Map<bigint, Buffer | null> {
  const states = new Map<bigint, Buffer | null>();
  for (const op of batch.ops) {
    if (op.op === 'put') states.set(op.docId, op.payload);
    else if (op.op === 'delete') states.set(op.docId, null);
    else throw new SearchError('INTERNAL', `a ${op.op} reads the store: writeTogether takes puts and deletes only`);
  }
  return states;
}

/**
 * Phase two of a write call, which only writes, inside an lmdb write transaction: the documents' new
 * states, the call's op record and the generation's last sequence (lastSeq + the call's op count,
 * which it returns).
 */
export function writeRecords(dbs: StoreDbs, gen: number, lastSeq: bigint, batch: PreparedBatch, states: Map<bigint, Buffer | null>): bigint {
  for (const [docId, bytes] of states) {
    const key = docKey(gen, docId);
    if (bytes) dbs.docs.putSync(key, seal(bytes));
    else dbs.docs.removeSync(key);
  }
  const seq = lastSeq + BigInt(batch.ops.length);
  dbs.ops.putSync(opKey(gen, seq), seal(batch.record));
  dbs.seq.putSync(genKey(gen), u64Bytes(seq));
  return seq;
}

/** A call of a group-commit round: its prepared batch, the documents it leaves, its last sequence number. */
export interface RoundCall { batch: PreparedBatch; states: Map<bigint, Buffer | null>; seq: bigint }

/**
 * The lmdb writes of a group-commit round of generation `gen` ending at sequence `last`, as the write
 * log records them (write-log.ts): each call's documents and op record, then the sequence record
 * once. Also the documents the round leaves (sealed; null: deleted) and the bytes it stores.
 */
export function roundPuts(gen: number, last: bigint, calls: RoundCall[]): { round: LogRound; docs: Map<bigint, Buffer | null>; bytes: number } {
  const puts: LoggedPut[] = [];
  const docs = new Map<bigint, Buffer | null>();
  let bytes = 0;
  for (const c of calls) {
    for (const [docId, state] of c.states) {
      const value = state ? seal(state) : null;
      puts.push({ db: LogDb.DOCS, key: docKey(gen, docId), value });
      docs.set(docId, value);
    }
    puts.push({ db: LogDb.OPS, key: opKey(gen, c.seq), value: seal(c.batch.record) });
    bytes += batchBytes(c.batch);
  }
  puts.push({ db: LogDb.SEQ, key: genKey(gen), value: u64Bytes(last) });
  return { round: { gen, lastSeq: last, puts }, docs, bytes };
}

function checkOp(op: WriteOp): void {
  checkDocId(op?.docId);
  const bad = (what: string) => new SearchError('BAD_VALUE', `${op.op} of id ${op.docId}: ${what}`);
  switch (op.op) {
    case 'put': case 'insert': if (!isPlainObject(op.doc)) throw bad('doc must be an object'); break;
    case 'update': if (!isPlainObject(op.values)) throw bad('values must be an object'); break;
    case 'delete': break;
    default: throw new SearchError('BAD_VALUE', `unknown write op '${(op as { op: unknown }).op}'`);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

function currentBytes(dbs: StoreDbs, gen: number, states: Map<bigint, Buffer | null>, docId: bigint): Buffer | null {
  const s = states.get(docId);
  if (s !== undefined) return s;
  const raw = readView(dbs.docs, docKey(gen, docId)); // decoded before the next read
  return raw ? unseal(raw, () => `document ${docId}`) : null;
}
