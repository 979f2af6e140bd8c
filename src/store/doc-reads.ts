/**
 * The store's document reads over one table generation: a document by id, every live document, and
 * the op log's tail with each logged put given the document as stored now. Reads are synchronous and
 * see every committed write; `dbs` is read by the caller at each call (releaseMappedPages replaces it).
 */
import { tableKey } from './catalog.js';
import { docIdOf, genRange, opsAfter, ROW_KEY_LEN, seqOf, writeDocKey } from './keys.js';
import { readView, type StoreDbs } from './lmdb-env.js';
import type { DocCache } from './doc-cache.js';
import type { LoggedRounds } from './write-log/logged-rounds.js';
import { readOps } from './op-codec.js';
import { unseal } from './record-check.js';
import type { LoggedOp, StoredDoc } from './types.js';
import { decodeValue } from './values/value-codec.js';

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
 * when given (stamped for `gen` by the caller): a cached document, or the store's, then kept. A
 * document of a round logged and not yet in lmdb is read from `logged`.
 */
export function readDoc(dbs: StoreDbs, logged: LoggedRounds, gen: number, table: string, docId: bigint, cache?: DocCache): StoredDoc | undefined {
  const hit = cache?.get(docId);
  if (hit) return hit;
  const ahead = logged.doc(gen, docId);
  const raw = ahead !== undefined ? ahead : readView(dbs.docs, writeDocKey(readKey, gen, docId));
  if (!raw) return undefined;
  const doc = docOf(table, docId, raw);
  return cache ? cache.add(docId, doc, raw.length) : doc;
}


/** Whether document `docId` of generation `gen` is stored (by a logged round not yet in lmdb, or in lmdb). */
export function hasDoc(dbs: StoreDbs, logged: LoggedRounds, gen: number, docId: bigint): boolean {
  const ahead = logged.doc(gen, docId);
  return ahead !== undefined ? ahead !== null : dbs.docs.doesExist(writeDocKey(readKey, gen, docId));
}

/**
 * Every live document of the generation in docId order (signed), for rebuilding an index: lmdb's,
 * merged with those of rounds logged and not yet in lmdb (which win).
 */
export function* liveDocs(dbs: StoreDbs, logged: LoggedRounds, gen: number, table: string): Iterable<[bigint, StoredDoc]> {
  const ahead = logged.docsOf(gen);
  const extra = ahead ? [...ahead].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) : [];
  let i = 0;
  for (const { key, value } of dbs.docs.getRange(genRange(gen))) {
    const docId = docIdOf(key);
    for (; i < extra.length && extra[i]![0] < docId; i++) if (extra[i]![1]) yield [extra[i]![0], docOf(table, extra[i]![0], extra[i]![1]!)];
    if (ahead?.has(docId)) continue; // the logged state, given in its turn
    yield [docId, docOf(table, docId, value)];
  }
  for (; i < extra.length; i++) if (extra[i]![1]) yield [extra[i]![0], docOf(table, extra[i]![0], extra[i]![1]!)];
}

/**
 * Logged ops with seq > `seq`, in order. A put is logged by its id alone (its document is written in
 * the same transaction), so it comes with the document as stored now (a later op in this tail may
 * have changed it since), or as a delete when it is stored no more: replaying the whole tail in
 * order ends in the stored state (op-codec.ts).
 */
export function logTail(dbs: StoreDbs, logged: LoggedRounds, gen: number, table: string, seq: bigint): Iterable<LoggedOp> {
  return flatMap(recordsAfter(dbs, logged, gen, seq), ([key, value]) => {
    const ops = readOps(seqOf(key), unseal(value, () => `table '${tableKey(table)}': op record ${seqOf(key)}`), seq);
    return ops.map((op): LoggedOp => {
      if (op.op !== 'stored-put') return op;
      const { seq: at, docId } = op;
      const doc = readDoc(dbs, logged, gen, table, docId);
      return doc ? { seq: at, op: 'put', docId, doc } : { seq: at, op: 'delete', docId };
    });
  });
}

/** The generation's op records (key, sealed record) that may hold ops after `seq`: lmdb's and the logged rounds', in key order. */
function recordsAfter(dbs: StoreDbs, logged: LoggedRounds, gen: number, seq: bigint): Iterable<[Buffer, Buffer]> {
  // records are keyed by their last seq: the first one in range may start at or before `seq`
  const range = opsAfter(gen, seq);
  const ahead = logged.opRecordsOf(gen);
  if (!ahead.length) return dbs.ops.getRange(range).map(({ key, value }) => [key, value]);
  const out = new Map<string, [Buffer, Buffer]>();
  for (const { key, value } of dbs.ops.getRange(range)) out.set(key.toString('hex'), [key, value]);
  for (const [key, value] of ahead) {
    if (Buffer.compare(key, range.start) >= 0) out.set(key.toString('hex'), [key, value]);
  }
  return [...out.values()].sort((a, b) => Buffer.compare(a[0], b[0]));
}

function* flatMap<T, U>(items: Iterable<T>, fn: (t: T) => U[]): Iterable<U> {
  for (const t of items) yield* fn(t);
}
