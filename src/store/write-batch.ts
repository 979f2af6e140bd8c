/** One write call: ops are encoded eagerly, then applied inside the lmdb transaction with no partial writes. */
import { crc32 } from 'node:zlib';
import { SearchError } from '../util/errors.js';
import { checkDocId, docKey, genKey, opKey, ROW_KEY_LEN, u64Bytes, writeDocKey } from './keys.js';
import type { StoredDoc, WriteOp } from './types.js';
import { readView, type StoreDbs } from './lmdb-env.js';
import { OP_HEADER_BYTES, writeOp } from './op-codec.js';
import { CHECK_BYTES, seal, unseal } from './record-check.js';
import { LogDb, type LogRound, type LoggedPut } from './write-log/write-log.js';
import { decodeValue, encodeValue, ValueWriter } from './values/value-codec.js';
import { varintSize } from './values/value-format.js';

/**
 * One op, encoded: its payload (an update's values, inside the op record; empty for a put and a delete).
 * A put's document is the next of the call's sealed documents (PreparedBatch.docs), in op order.
 */
export interface PreparedOp {
  op: WriteOp['op'];
  docId: bigint;
  payload: Buffer;
}

/**
 * The document records of a call's puts as stored, one after another in one buffer: each the encoded
 * document followed by its checksum (record-check.ts), made once here; the d-th put's record ends at
 * `ends[d]` and starts where the one before ends (the first at 0). No buffer of its own per document:
 * a view per put was a Buffer object per row that a bulk load's 25k-row batch kept past young
 * collections (its rows wait for their segment's build), promoted and copied twice.
 */
export interface SealedDocs {
  buf: Buffer;
  ends: Uint32Array;
}

/** A write call, encoded: its op-log record, its ops and its puts' document records. */
export interface PreparedBatch {
  record: Buffer;
  ops: PreparedOp[];
  docs: SealedDocs;
}

/** The record of the `d`-th put of a call (a view of `docs.buf`). */
export function sealedAt(docs: SealedDocs, d: number): Buffer {
  return docs.buf.subarray(d === 0 ? 0 : docs.ends[d - 1]!, docs.ends[d]!);
}

/**
 * Encoders reused from call to call (a single-row INSERT took two 512-byte buffers, a document of a few
 * kB grew its buffer three times, and seal() copied it once more): a call's op record, and the document
 * of a call with one (docArena), are encoded into the scratch and copied out once (the document with
 * its checksum, into a buffer of its own size). Taken and given back,
 * so a re-entrant call (a getter on a document) gets a writer of its own; one grown past
 * SCRATCH_MAX_BYTES is dropped rather than kept.
 */
const scratch: ValueWriter[] = [new ValueWriter(), new ValueWriter()];
const SCRATCH_MAX_BYTES = 64 << 10;

function takeWriter(): ValueWriter {
  return (scratch.pop() ?? new ValueWriter()).reset();
}

function giveWriter(w: ValueWriter): void {
  if (w.buf.length <= SCRATCH_MAX_BYTES && scratch.length < 2) scratch.push(w);
}

/** `doc` encoded and sealed (record-check.ts) into a buffer of its own size: the document record as stored. */
function sealedDoc(doc: unknown): Buffer {
  const w = takeWriter();
  try {
    w.value(doc);
    return seal(w.view());
  } finally {
    giveWriter(w);
  }
}

/**
 * The documents of a call's puts (`ops`) encoded and each sealed (record-check.ts) one after another into
 * one buffer (SealedDocs). A buffer of its own per document (a pool slice, the document copied into it
 * from the scratch) and a payload view besides made two short-lived objects a row that a bulk load's
 * 25k-row batch kept past young collections: promoted, copied twice. The buffer is the writer's own,
 * not a scratch writer's: the batch keeps it. A call of one document (a single-row INSERT) keeps
 * sealedDoc's buffer of its size.
 */
function docArena(ops: WriteOp[]): SealedDocs {
  let puts = 0;
  let only: unknown;
  for (const op of ops) if (op.op === 'put' || op.op === 'insert') { puts++; only = op.doc; }
  if (puts <= 1) {
    const buf = puts ? sealedDoc(only) : EMPTY;
    return { buf, ends: puts ? Uint32Array.of(buf.length) : NO_ENDS };
  }
  const w = new ValueWriter();
  const ends = new Uint32Array(puts);
  let d = 0;
  for (const op of ops) {
    if (op.op !== 'put' && op.op !== 'insert') continue;
    const start = w.pos;
    w.value(op.doc);
    const crc = crc32(w.buf.subarray(start, w.pos));
    w.ensure(CHECK_BYTES);
    w.buf.writeUInt32LE(crc, w.pos);
    w.pos += CHECK_BYTES;
    ends[d++] = w.pos;
  }
  return { buf: w.buf, ends };
}

const NO_ENDS = new Uint32Array(0);

/**
 * Validates and encodes `ops` at call time, so a caller mutating its objects afterwards cannot
 * change what gets written, and a bad value fails before any transaction starts. Each put's document
 * becomes its sealed record (`sealed`): the op record logs a put without its document (op-codec.ts).
 */
export function prepareBatch(ops: WriteOp[]): PreparedBatch {
  for (const op of ops) checkOp(op);
  const docs = docArena(ops);
  const w = takeWriter();
  try {
    w.varint(ops.length);
    const out: PreparedOp[] = [];
    const spans: number[] = [];
    for (const op of ops) {
      if (op.op === 'put' || op.op === 'insert') {
        out.push({ op: op.op, docId: op.docId, payload: EMPTY });
        writeOp(w, op);
      } else {
        out.push({ op: op.op, docId: op.docId, payload: EMPTY });
        spans.push(out.length - 1, w.pos + OP_HEADER_BYTES);
        writeOp(w, op);
        spans.push(w.pos);
      }
    }
    const record = w.finish();
    // an update's values lie inside the record: its payload is a view of them
    for (let i = 0; i < spans.length; i += 3) out[spans[i]!]!.payload = record.subarray(spans[i + 1]!, spans[i + 2]!);
    return { record, ops: out, docs };
  } finally {
    giveWriter(w);
  }
}

const EMPTY = Buffer.alloc(0);

/** The bytes a prepared batch stores: its op record and its documents (other ops' payloads are in the record). */
export function batchBytes(batch: PreparedBatch): number {
  const { ends } = batch.docs;
  return batch.record.byteLength + (ends.length ? ends[ends.length - 1]! : 0) - ends.length * CHECK_BYTES;
}

/**
 * Applies prepared ops to generation `gen`, numbering them lastSeq+1, lastSeq+2, ... Must run
 * inside an lmdb write transaction. Phase one reads, checks duplicates and merges updates (it may
 * throw: nothing is written yet, so a failed batch leaves no trace even in a commit it shares with
 * other writers); phase two only puts. Returns the last sequence assigned.
 */
export function applyBatch(dbs: StoreDbs, gen: number, lastSeq: bigint, batch: PreparedBatch): bigint {
  const ops = batch.ops;
  if (ascendingPuts(ops)) return writePuts(dbs, gen, lastSeq, batch);
  // docId -> sealed document record after the ops so far (null: deleted or absent)
  const states = new Map<bigint, Buffer | null>();
  let d = 0;
  for (const op of ops) {
    if (op.op === 'insert' && currentBytes(dbs, gen, states, op.docId) !== null) {
      throw new SearchError('DUPLICATE_ID', `duplicate id '${BigInt.asUintN(64, op.docId)}'`);
    }
    if (op.op === 'put' || op.op === 'insert') states.set(op.docId, sealedAt(batch.docs, d++));
    else if (op.op === 'delete') states.set(op.docId, null);
    else {
      const cur = currentBytes(dbs, gen, states, op.docId);
      if (cur === null) continue; // updating a missing doc changes nothing (but is still logged)
      const values = decodeValue(op.payload) as Record<string, unknown>;
      states.set(op.docId, seal(encodeValue({ ...(decodeValue(cur) as StoredDoc), ...values })));
    }
  }
  return writeRecords(dbs, gen, lastSeq, batch, states);
}

/**
 * Whether `ops` are puts of ascending ids (a bulk load's batch): each id once and nothing to read, so
 * applyBatch needs no map of the documents' states (25k bigint keys a batch of `quarry import`).
 */
function ascendingPuts(ops: PreparedOp[]): boolean {
  for (let i = 0; i < ops.length; i++) {
    if (ops[i]!.op !== 'put' || (i > 0 && ops[i - 1]!.docId >= ops[i]!.docId)) return false;
  }
  return ops.length > 1;
}

/**
 * writeRecords of a batch of ascending puts, their sealed documents in op order, through one key buffer
 * (lmdb copies a key as it puts it): no map of states, no key buffer per document. Each put is first
 * tried as an append (lmdb's MDB_APPEND: no search from the root, and a full page starts a new one where
 * a split left two half-full ones): a bulk load's batches come in ascending ids after the rows before
 * them. lmdb refuses an append whose key is not past the last one and writes nothing (false); that put,
 * and the rest of the batch, go the usual way.
 */
function writePuts(dbs: StoreDbs, gen: number, lastSeq: bigint, batch: PreparedBatch): bigint {
  const key = Buffer.allocUnsafe(ROW_KEY_LEN);
  const docs = dbs.docs as unknown as AppendingDb;
  let append = true;
  const ops = batch.ops;
  for (let d = 0; d < ops.length; d++) {
    writeDocKey(key, gen, ops[d]!.docId);
    // a view of the put's record made here dies young, where one kept with the batch was promoted
    const sealed = sealedAt(batch.docs, d);
    if (append && docs.putSync(key, sealed, APPEND)) continue;
    append = false;
    dbs.docs.putSync(key, sealed);
  }
  return writeTail(dbs, gen, lastSeq, batch);
}

const APPEND = { append: true };
/** lmdb-js's putSync says whether it wrote (its typings say void): false for a refused append. */
interface AppendingDb { putSync(key: Buffer, value: Buffer, options: typeof APPEND): boolean }

/**
 * The documents after a batch of puts and deletes alone (docId -> sealed record, null when deleted; the
 * last op of an id wins): what phase one of applyBatch computes, without reading the store, which
 * such a batch never needs. Throws for ops that must read (insert's duplicate check, update's merge).
 */
export function blindStates(batch: PreparedBatch): Map<bigint, Buffer | null> {
  const states = new Map<bigint, Buffer | null>();
  let d = 0;
  for (const op of batch.ops) {
    if (op.op === 'put') states.set(op.docId, sealedAt(batch.docs, d++));
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
    if (bytes) dbs.docs.putSync(key, bytes); // sealed already
    else dbs.docs.removeSync(key);
  }
  return writeTail(dbs, gen, lastSeq, batch);
}

/** A write call's op record and the generation's last sequence (lastSeq + its op count, returned). */
function writeTail(dbs: StoreDbs, gen: number, lastSeq: bigint, batch: PreparedBatch): bigint {
  const seq = lastSeq + BigInt(batch.ops.length);
  dbs.ops.putSync(opKey(gen, seq), seal(batch.record));
  dbs.seq.putSync(genKey(gen), u64Bytes(seq));
  return seq;
}

/** A call of a group-commit round: its prepared batch, the documents it leaves (sealed; null: deleted), its last sequence number. */
export interface RoundCall { batch: PreparedBatch; states: Map<bigint, Buffer | null>; seq: bigint }

/**
 * The lmdb writes of a group-commit round of generation `gen` ending at sequence `last`, as the write
 * log records them (write-log.ts): each call's documents, then one op record holding every call's ops
 * in order (its calls' sequence numbers are consecutive, and they commit or fail together: op-codec.ts
 * reads a record of many ops), then the sequence record. A record per call was an lmdb put, a key and a
 * checksum per single-row INSERT, and a record for the checkpoint's prune to delete again. Also the
 * documents the round leaves (sealed; null: deleted) and the bytes it stores.
 */
export function roundPuts(gen: number, last: bigint, calls: RoundCall[]): { round: LogRound; docs: Map<bigint, Buffer | null>; bytes: number } {
  const puts: LoggedPut[] = [];
  const docs = new Map<bigint, Buffer | null>();
  let bytes = 0;
  let ops = 0;
  for (const c of calls) {
    for (const [docId, state] of c.states) {
      puts.push({ db: LogDb.DOCS, key: docKey(gen, docId), value: state });
      docs.set(docId, state);
    }
    ops += c.batch.ops.length;
    bytes += batchBytes(c.batch);
  }
  puts.push({ db: LogDb.OPS, key: opKey(gen, last), value: roundRecord(calls, ops) });
  puts.push({ db: LogDb.SEQ, key: genKey(gen), value: u64Bytes(last) });
  return { round: { gen, lastSeq: last, puts }, docs, bytes };
}

/** The sealed op record of a round's calls (`ops` ops in all): the count, then each call's ops as its own record holds them. */
function roundRecord(calls: RoundCall[], ops: number): Buffer {
  if (calls.length === 1) return seal(calls[0]!.batch.record);
  let len = varintSize(ops);
  for (const c of calls) len += c.batch.record.length - varintSize(c.batch.ops.length);
  const out = Buffer.allocUnsafe(len + CHECK_BYTES);
  let at = writeVarint(out, 0, ops);
  for (const c of calls) at += c.batch.record.copy(out, at, varintSize(c.batch.ops.length));
  out.writeUInt32LE(crc32(out.subarray(0, len)), len);
  return out;
}

/** `n` as the value codec's unsigned varint at `at`; returns where it ends. */
function writeVarint(out: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  out[at++] = n;
  return at;
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
  if (s !== undefined) return s && s.subarray(0, s.length - CHECK_BYTES); // sealed here: no check needed
  const raw = readView(dbs.docs, docKey(gen, docId)); // decoded before the next read
  return raw ? unseal(raw, () => `document ${docId}`) : null;
}
