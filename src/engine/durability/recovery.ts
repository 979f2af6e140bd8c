/**
 * Brings a table's index back at startup: the last checkpoint's segment files, then the ops logged
 * after it re-applied in order (inserts re-indexed, deletes and attribute updates re-done). Without a
 * checkpoint, or when its segments cannot be read, the index is rebuilt from the stored documents,
 * which always hold the complete current state.
 */
import type { Store } from '../../store/index.js';
import type { DocInput } from '../../index/types.js';
import { type AutoOptimize, createIndex, loadIndex } from '../index-factory.js';
import type { Table } from '../table.js';
import { noteLoadedSegments } from './checkpointer.js';
import type { StoredDoc } from './table-store.js';
import { logWarning } from '../../util/server-log.js';

/** Documents per segment when an index is rebuilt from the store. */
export const REBUILD_BATCH = 20_000;

function rebuildFromDocs(store: Store, table: Table): void {
  let batch: DocInput[] = [];
  for (const [docId, doc] of store.docs(table.name)) {
    batch.push(table.docInput(docId, doc as StoredDoc));
    if (batch.length >= REBUILD_BATCH) { table.index.addBatch(batch); batch = []; }
  }
  if (batch.length) table.index.addBatch(batch);
}

function replayOps(store: Store, table: Table, afterSeq: bigint): void {
  let puts: DocInput[] = [];
  const flush = () => { if (puts.length) { table.index.addBatch(puts); puts = []; } };
  for (const op of store.opsSince(table.name, afterSeq)) {
    if (op.op === 'put') {
      if (puts.some((p) => p.docId === op.docId)) flush();
      if (table.index.has(op.docId)) table.index.delete([op.docId]);
      puts.push(table.docInput(op.docId, op.doc as StoredDoc));
      continue;
    }
    flush();
    if (op.op === 'delete') table.index.delete([op.docId]);
    else table.index.updateAttrs(op.docId, new Map(Object.entries(op.values) as [string, never][]));
  }
  flush();
}

/**
 * Loads `table.index` from the store; returns the sequence the index now covers (-1 when a damaged
 * checkpoint was discarded: the checkpointer then saves a fresh one at its next pass). A damaged
 * checkpoint (manifest or segment file failing its checksum, truncated, missing) or op record is
 * logged and the index rebuilt from the documents; a damaged document throws (the table is not served).
 */
export function recoverIndex(store: Store, table: Table, autoOptimize: AutoOptimize): bigint {
  try {
    const cp = store.loadCheckpoint(table.name);
    if (!cp.segments.length) {
      rebuildFromDocs(store, table);
      return store.lastSeq(table.name);
    }
    table.index = loadIndex(table.index.schema, cp.segments.map((s) => s.bytes), table.schema.settings, autoOptimize);
    noteLoadedSegments(table.index.segments, cp.segments.map((s) => s.name));
    replayOps(store, table, cp.lastSeq);
    return store.lastSeq(table.name);
  } catch (e) {
    logWarning(`table ${table.name}: checkpoint damaged (${(e as Error).message}); rebuilding the table from the store of record`);
    table.index.truncate();
    table.index = createIndex(table.index.schema, table.schema.settings, autoOptimize);
    store.discardCheckpoint(table.name);
  }
  rebuildFromDocs(store, table);
  return -1n;
}
