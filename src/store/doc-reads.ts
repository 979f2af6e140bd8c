/**
 * The store's document reads over one table generation: a document by id, every live document, and
 * the op log's tail with each logged put given the document as stored now. Reads are synchronous and
 * see every committed write; `dbs` is read by the caller at each call (releaseMappedPages replaces it).
 */
import { tableKey } from './catalog.js';
import { docIdOf, genRange, opsAfter, ROW_KEY_LEN, seqOf, writeDocKey } from './keys.js';
import { readView, type StoreDbs } from './lmdb-env.js';
import type { DocCache } from './doc-cache.js';
import { readOps } from './op-codec.js';
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

/**
 * Document `docId` of `table`'s generation `gen`, or undefined when none is stored; through `cache`
 * when given (stamped for `gen` by the caller): a cached document, or the store's, then kept.
 */
export function readDoc(dbs: StoreDbs, gen: number, table: string, docId: bigint, cache?: DocCache): StoredDoc | undefined {
  const hit = cache?.get(docId);
  if (hit) return hit;
  const raw = readView(dbs.docs, writeDocKey(readKey, gen, docId));
  if (!raw) return undefined;
  const doc = docOf(table, docId, raw);
  return cache ? cache.add(docId, doc, raw.length) : doc;
}


/** Every live document of the generation in docId order (signed), for rebuilding an index. */
export function liveDocs(dbs: StoreDbs, gen: number, table: string): Iterable<[bigint, StoredDoc]> {
  return dbs.docs.getRange(genRange(gen)).map(({ key, value }) => {
    const docId = docIdOf(key);
    return [docId, docOf(table, docId, value)];
  });
}

/**
 * Logged ops with seq > `seq`, in order. A put is logged by its id alone (its document is written in
 * the same transaction), so it comes with the document as stored now (a later op in this tail may
 * have changed it since), or as a delete when it is stored no more: replaying the whole tail in
 * order ends in the stored state (op-codec.ts).
 */
export function logTail(dbs: StoreDbs, gen: number, table: string, seq: bigint): Iterable<LoggedOp> {
  // records are keyed by their last seq: the first one in range may start at or before `seq`
  return dbs.ops.getRange(opsAfter(gen, seq)).flatMap(({ key, value }) => {
    const ops = readOps(seqOf(key), unseal(value, () => `table '${tableKey(table)}': op record ${seqOf(key)}`), seq);
    return ops.map((op): LoggedOp => {
      if (op.op !== 'stored-put') return op;
      const { seq: at, docId } = op;
      const doc = readDoc(dbs, gen, table, docId);
      return doc ? { seq: at, op: 'put', docId, doc } : { seq: at, op: 'delete', docId };
    });
  });
}
