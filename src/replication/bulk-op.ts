/**
 * A `/bulk` request as one replicated op: taken only when every statement line names the same cluster
 * and each table belongs to it (anything else runs locally, where guardLocal refuses the cluster lines).
 * Generated ids are filled in by the writer so every node stores the same ones; `"cluster"` is removed.
 */
import { LosslessNumber, stringify as losslessStringify } from 'lossless-json';
import type { BulkLine } from '../engine/json/json-bulk.js';
import { isJsonObject, type JsonObject } from '../engine/json/json-value.js';
import type { IdSource } from '../engine/id-generator.js';
import type { LocalState } from './local-state.js';

const WRITES = new Set(['insert', 'create', 'replace', 'index']);

/** `{ "<op>": { cluster, table, ... } }` -> its op and body, or undefined for anything else. */
function statementOf(value: unknown): { op: string; body: JsonObject } | undefined {
  if (!isJsonObject(value)) return undefined;
  const entries = Object.entries(value);
  if (entries.length !== 1 || !isJsonObject(entries[0]![1])) return undefined;
  return { op: entries[0]![0], body: entries[0]![1] };
}

/** True when some statement line names a `"cluster"` (the request is then the replication layer's). */
export function namesCluster(lines: BulkLine[]): boolean {
  return lines.some((l) => l.kind === 'json' && statementOf(l.value)?.body.cluster !== undefined);
}

/** The cluster and the op's lines when the whole request belongs to one cluster of this node. */
export async function bulkForCluster(lines: BulkLine[], state: LocalState, ids: IdSource): Promise<{ cluster: string; lines: string[] } | undefined> {
  if (lines.some((l) => l.kind === 'bad')) return undefined;
  const statements = lines.map((l) => (l.kind === 'json' ? statementOf(l.value) : null));
  if (statements.some((s) => s === undefined) || !statements.some((s) => s)) return undefined;
  const clusters = new Set(statements.filter((s) => s).map((s) => s!.body.cluster));
  const cluster = [...clusters][0];
  if (clusters.size !== 1 || typeof cluster !== 'string' || !state.get(cluster)) return undefined;
  const tables = state.get(cluster)!.tables;
  for (const s of statements) {
    const t = s?.body.table ?? s?.body.index;
    if (s && (typeof t !== 'string' || !tables.includes(t.toLowerCase()))) return undefined;
  }
  const out: string[] = [];
  for (const s of statements) {
    if (!s) { out.push(''); continue; }
    const { cluster: _c, ...body } = s.body;
    const id = body.id;
    if (WRITES.has(s.op) && (id === undefined || (id instanceof LosslessNumber && id.value === '0'))) {
      body.id = new LosslessNumber(String((await ids.take(1))[0]));
    }
    out.push(losslessStringify({ [s.op]: body }) ?? '{}');
  }
  return { cluster, lines: out };
}
