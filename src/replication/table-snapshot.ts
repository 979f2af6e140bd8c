/**
 * A table's snapshot for ALTER CLUSTER ADD and for nodes joining later: its schema and every stored
 * document (text fields included, stored or not), v8-serialized (bigints exact) and gzipped, kept in
 * the cluster's JetStream object store. Loading one replaces the node's table of that name.
 */
import { serialize, deserialize } from 'node:v8';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Catalog } from '../engine/catalog.js';
import type { StoredDoc } from '../engine/durability/table-store.js';
import type { TableSchema } from '../schema/types.js';
import { SearchError } from '../util/errors.js';

/** Documents per write while a snapshot loads (one store transaction, one index batch each). */
export const SNAPSHOT_LOAD_BATCH = 5_000;

interface Snapshot { schema: TableSchema; docs: [bigint, StoredDoc][] }

/** The table as it is now, read under its mutex so no write lands half-way. */
export async function takeSnapshot(catalog: Catalog, name: string): Promise<Uint8Array> {
  const table = catalog.get(name);
  if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown table '${name}'`);
  return table.mutex.run(async () => {
    const docs = [...catalog.store.docs(table.name)] as [bigint, StoredDoc][];
    return gzipSync(serialize({ schema: table.schema, docs } satisfies Snapshot));
  });
}

/** Replaces table `name` on this node with the snapshot's schema and documents. */
export async function loadSnapshot(catalog: Catalog, name: string, bytes: Uint8Array): Promise<void> {
  const snap = deserialize(gunzipSync(bytes)) as Snapshot;
  if (catalog.has(name)) await catalog.drop(name);
  const table = await catalog.create({ ...snap.schema, name });
  await table.mutex.run(async () => {
    for (let i = 0; i < snap.docs.length; i += SNAPSHOT_LOAD_BATCH) {
      const part = snap.docs.slice(i, i + SNAPSHOT_LOAD_BATCH);
      const ids = part.map(([id]) => id);
      const docs = part.map(([, d]) => d);
      await table.write(ids, docs, part.map(([id, d]) => table.docInput(id, d)), true);
    }
  });
}
