/**
 * The store's document reads over one table generation: a document by id, every live document, and
 * the op log's tail with each logged put given the document as stored now. Reads are synchronous and
 * see every committed write, the rounds' writes not yet flushed into lmdb (`pending`) over lmdb's;
 * `dbs` is read by the caller at each call (releaseMappedPages replaces it).
 */
import { tableKey } from './catalog.js';
import { docIdOf, genRange, opsAfter, ROW_KEY_LEN, seqOf, writeDocKey } from './keys.js';
import { readView, type StoreDbs } from './lmdb-env.js';
import { readOps } from './op-codec.js';
import type { DbName, PendingWrites } from './pending-writes.js';
import { unseal } from './record-check.js';
import type { LoggedOp, StoredDoc } from './types.js';
import { decodeValue } from './value-codec.js';

/** A stored document, its checksum checked. */
function docOf(table: string, docId: bigint, raw: Buffer): StoredDoc {
  return decodeValue(unseal(raw, () => `table '${tableKey(table)}': document ${docId}`)) as StoredDoc;
}

/**
 * The key of every document read: lmdb copies a key in before the read, so one buffer serves them all
 * (a `/search` page reads 20 documents: a Buffer object less for each).
 */
const readKey = Buffer.alloc(ROW_KEY_LEN);

/** Document `docId` of `table`'s generation `gen`, or undefined when none is stored. */
export function readDoc(dbs: StoreDbs, pending: PendingWrites, gen: number, table: string, docId: bigint): StoredDoc | undefined {
  const key = writeDocKey(readKey, gen, docId);
  const p = pending.get('docs', key);
  const raw = p ? p.value : readView(dbs.docs, key);
  return raw ? docOf(table, docId, raw) : undefined;
}

/** lmdb's records of `db` in `range`, in key order, with the pending writes over them. */
function* mergedRange(dbs: StoreDbs, pending: PendingWrites, db: DbName, range: { start: Buffer; end: Buffer }): Iterable<{ key: Buffer; value: Buffer }> {
  const over = pending.size ? pending.range(db, range.start, range.end) : [];
  let i = 0;
  for (const { key, value } of dbs[db].getRange(range)) {
    for (; i < over.length && Buffer.compare(over[i]!.key, key) < 0; i++) if (over[i]!.value) yield over[i]! as { key: Buffer; value: Buffer };
    if (i < over.length && Buffer.compare(over[i]!.key, key) === 0) {
      const o = over[i++]!;
      if (o.value) yield { key, value: o.value };
      continue;
    }
    yield { key, value };
  }
  for (; i < over.length; i++) if (over[i]!.value) yield over[i]! as { key: Buffer; value: Buffer };
}

/** Every live document of the generation in docId order (signed), for rebuilding an index. */
export function* liveDocs(dbs: StoreDbs, pending: PendingWrites, gen: number, table: string): Iterable<[bigint, StoredDoc]> {
  for (const { key, value } of mergedRange(dbs, pending, 'docs', genRange(gen))) {
    const docId = docIdOf(key);
    yield [docId, docOf(table, docId, value)];
  }
}

/**
 * Logged ops with seq > `seq`, in order. A put is logged by its id alone (its document is written in
 * the same transaction), so it comes with the document as stored now (a later op in this tail may
 * have changed it since), or as a delete when it is stored no more: replaying the whole tail in
 * order ends in the stored state (op-codec.ts).
 */
export function* logTail(dbs: StoreDbs, pending: PendingWrites, gen: number, table: string, seq: bigint): Iterable<LoggedOp> {
  // records are keyed by their last seq: the first one in range may start at or before `seq`
  for (const { key, value } of mergedRange(dbs, pending, 'ops', opsAfter(gen, seq))) {
    for (const op of readOps(seqOf(key), unseal(value, () => `table '${tableKey(table)}': op record ${seqOf(key)}`), seq)) {
      if (op.op !== 'stored-put') {
        yield op;
        continue;
      }
      const { seq: at, docId } = op;
      const doc = readDoc(dbs, pending, gen, table, docId);
      yield doc ? { seq: at, op: 'put', docId, doc } : { seq: at, op: 'delete', docId };
    }
  }
}
