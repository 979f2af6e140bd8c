/**
 * `/bulk` over a cluster: which cluster a request writes, and its lines as they travel in the stream
 * (`"cluster"` removed, the writer's generated ids filled in, 64-bit numbers exact), so every node
 * runs the same request through its own /bulk and reaches the same table and the same reply.
 */
import { LosslessNumber, parse as parseLossless, stringify as losslessStringify } from 'lossless-json';
import type { BulkLine } from '../engine/json/json-bulk.js';
import { insertId } from '../engine/json/json-write.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../engine/json/json-value.js';

/** One /bulk line in a replicated op: empty, a statement's JSON text, or a line that was not JSON. */
export type BulkOpLine = { kind: 'empty' } | { kind: 'json'; text: string } | { kind: 'bad'; error: string };

const INSERTS = new Set(['insert', 'create', 'replace', 'index']);

/** A statement line's operation and body (`{"insert": {...}}`), when it has that shape. */
function statementOf(line: BulkLine): { op: string; body: JsonObject } | undefined {
  if (line.kind !== 'json' || !isJsonObject(line.value)) return undefined;
  const first = Object.entries(line.value)[0];
  return first && isJsonObject(first[1]) ? { op: first[0], body: first[1] } : undefined;
}

function tableOf(body: JsonObject): string | undefined {
  const t = body.table ?? body.index;
  return typeof t === 'string' ? t.toLowerCase() : undefined;
}

/**
 * The cluster a request writes when every statement line names it (`"cluster"`) and a table of it;
 * undefined when no line touches a cluster (a local request) or the lines do not agree (the local
 * run then refuses the first line that cannot be written here, see Replicator.guardLocal).
 */
export function bulkCluster(lines: BulkLine[], clusterOf: (table: string) => string | undefined): string | undefined {
  let cluster: string | undefined;
  let local = false;
  for (const line of lines) {
    const st = statementOf(line);
    if (!st) continue;
    const table = tableOf(st.body);
    const given = typeof st.body.cluster === 'string' && st.body.cluster !== '' ? st.body.cluster : undefined;
    if (given === undefined || table === undefined || clusterOf(table) !== given || (cluster !== undefined && cluster !== given)) {
      local = true;
      continue;
    }
    cluster = given;
  }
  return local ? undefined : cluster;
}

/** The request's lines for the stream: `"cluster"` removed, an id generated for each insert without one. */
export async function bulkOpLines(lines: BulkLine[], newId: () => Promise<bigint>): Promise<BulkOpLine[]> {
  const out: BulkOpLine[] = [];
  for (const line of lines) {
    if (line.kind !== 'json') { out.push(line); continue; }
    const st = statementOf(line);
    if (st) {
      delete st.body.cluster;
      if (INSERTS.has(st.op) && missingId(st.body)) st.body.id = new LosslessNumber(String(await newId()));
    }
    out.push({ kind: 'json', text: losslessStringify(line.value) ?? 'null' });
  }
  return out;
}

/** True when the line asks for a generated id (none, or 0); a malformed id is left for the apply to refuse. */
function missingId(body: JsonObject): boolean {
  try {
    return insertId(body) === undefined && (body.id === undefined || body.id === null || (body.id instanceof LosslessNumber && body.id.value === '0'));
  } catch {
    return false;
  }
}

/** The lines back as /bulk reads them. */
export function bulkLinesOf(lines: BulkOpLine[]): BulkLine[] {
  return lines.map((l) => (l.kind === 'json' ? { kind: 'json', value: parseLossless(l.text) as JsonValue } : l));
}

/** The op's statement lines that write a table `keep` accepts (the others dropped); empty and bad lines stay. */
export function bulkLinesFor(lines: BulkOpLine[], keep: (table: string) => boolean): BulkOpLine[] {
  return lines.filter((l) => {
    if (l.kind !== 'json') return true;
    const st = statementOf({ kind: 'json', value: parseLossless(l.text) as JsonValue });
    const table = st && tableOf(st.body);
    return table === undefined || keep(table);
  });
}
