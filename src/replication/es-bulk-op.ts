/**
 * `/_bulk` (Elasticsearch style) over a cluster: Manticore reads an `_index` of `cluster:table` as a
 * write through that cluster (searchdhttp.cpp ParseSourceLine, SqlParser_SplitClusterIndex). A request
 * whose every document names `c:t` of one cluster travels as one op: its documents with the bare table
 * names, the writer's generated ids filled in and the sources as lossless JSON text, so every node runs
 * the same request through its own /_bulk and reaches the same tables and the same reply.
 */
import { parse as parseLossless, stringify as losslessStringify } from 'lossless-json';
import { esBulkNeedsId, type EsBulkDoc, type EsBulkItem } from '../engine/json/json-es-bulk.js';
import type { JsonValue } from '../engine/json/json-value.js';

/** One /_bulk document in a replicated op (ids as text: `idNum` a number, `idText` a string `_id`). */
export interface EsBulkOpDoc {
  action: string;
  table: string;
  idNum?: string;
  idText?: string;
  source?: string;
  sourceError?: string;
}

/** `c:t` as [c, t]; undefined for a bare name. */
export function splitClusterTable(name: string): [string, string] | undefined {
  const colon = name.indexOf(':');
  return colon > 0 ? [name.slice(0, colon), name.slice(colon + 1)] : undefined;
}

/**
 * The cluster a request writes when every document names `c:t` for one cluster `c` holding `t` here;
 * undefined otherwise (the request then runs locally, where each such document fails by name).
 */
export function esBulkCluster(docs: EsBulkDoc[], clusterOf: (table: string) => string | undefined): string | undefined {
  let cluster: string | undefined;
  for (const d of docs) {
    const split = splitClusterTable(d.table);
    if (!split || clusterOf(split[1]) !== split[0] || (cluster !== undefined && cluster !== split[0])) return undefined;
    cluster = split[0];
  }
  return cluster;
}

/** The documents for the stream: bare table names, an id generated for each index/create without one. */
export async function esBulkOpDocs(docs: EsBulkDoc[], newId: () => Promise<bigint>): Promise<EsBulkOpDoc[]> {
  const out: EsBulkOpDoc[] = [];
  for (const d of docs) {
    const id = esBulkNeedsId(d) ? await newId() : d.id;
    const o: EsBulkOpDoc = { action: d.action, table: splitClusterTable(d.table)?.[1] ?? d.table };
    if (typeof id === 'bigint') o.idNum = id.toString();
    else if (typeof id === 'string') o.idText = id;
    if (d.source !== undefined) o.source = losslessStringify(d.source) ?? 'null';
    if (d.sourceError !== undefined) o.sourceError = d.sourceError;
    out.push(o);
  }
  return out;
}

/** The documents back as /_bulk reads them. */
export function esBulkDocsOf(docs: EsBulkOpDoc[]): EsBulkDoc[] {
  return docs.map((o) => {
    const d: EsBulkDoc = { action: o.action, table: o.table };
    if (o.idNum !== undefined) d.id = BigInt(o.idNum);
    else if (o.idText !== undefined) d.id = o.idText;
    if (o.source !== undefined) d.source = parseLossless(o.source) as JsonValue;
    if (o.sourceError !== undefined) d.sourceError = o.sourceError;
    return d;
  });
}

/** The reply's items under the names the client gave (`c:t`), as Manticore answers with the request's `_index`. */
export function esBulkItemsAs(items: EsBulkItem[], cluster: string): EsBulkItem[] {
  return items.map((it) => ({ ...it, table: `${cluster}:${it.table}` }));
}
