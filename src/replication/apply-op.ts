/**
 * Applies one op of a cluster's stream to this node's tables, through the same executor and JSON API
 * as a local write (never the replication hook again). Returns what the writer's client gets back.
 */
import type { ExecContext } from '../engine/exec/executor.js';
import { executeLocal } from '../engine/exec/executor.js';
import type { JsonApi } from '../engine/json/json-api.js';
import type { Result } from '../engine/result.js';
import { newSession } from '../engine/session.js';
import { parseSql } from '../sql/parse-sql.js';
import { parse as parseLossless } from 'lossless-json';
import type { JsonValue } from '../engine/json/json-value.js';
import type { ReplicatedOp } from './replicated-op.js';
import { SearchError, asSearchError } from '../util/errors.js';

/** The outcome handed to the writer waiting on its op: a result, or the error every node met alike. */
export type ApplyOutcome = { ok: true; value: unknown } | { ok: false; error: SearchError };

export interface ApplyTarget {
  /** The engine's context without the replication hook. */
  ctx: ExecContext;
  /** The JSON API over that context. */
  json: JsonApi;
}

/** An id source that hands out the writer's ids in order (a replicated INSERT's generated ids). */
function fixedIds(ids: string[]) {
  const queue = ids.map((s) => BigInt(s));
  return {
    take: async (n: number) => {
      if (queue.length < n) throw new SearchError('INTERNAL', 'replicated write carries fewer generated ids than it needs');
      return queue.splice(0, n);
    },
  };
}

async function applySql(target: ApplyTarget, op: Extract<ReplicatedOp, { op: 'sql' }>): Promise<Result | Result[]> {
  const [st] = parseSql(op.sql);
  if (!st || (st.kind !== 'insert' && st.kind !== 'update' && st.kind !== 'delete' && st.kind !== 'truncate')) {
    throw new SearchError('INTERNAL', `replicated op is not a write: ${op.sql.slice(0, 60)}`);
  }
  st.table = op.table;
  return executeLocal({ ...target.ctx, ids: fixedIds(op.ids) }, st, newSession());
}

async function applyJson(target: ApplyTarget, op: Extract<ReplicatedOp, { op: 'json' }>): Promise<unknown> {
  const body = parseLossless(op.body) as JsonValue;
  switch (op.kind) {
    case 'insert': return target.json.insert(body, false);
    case 'replace': return target.json.insert(body, true);
    case 'update': return target.json.update(body);
    case 'delete': return target.json.delete(body);
  }
}

/** A write op's outcome on this node; user errors (duplicate id...) are outcomes, not failures. */
export async function applyWrite(target: ApplyTarget, op: ReplicatedOp): Promise<ApplyOutcome> {
  try {
    if (op.op === 'sql') {
      const r = await applySql(target, op);
      const first = Array.isArray(r) ? r[0] : r;
      if (first?.kind === 'error') return { ok: false, error: new SearchError(first.code as SearchError['code'], first.message) };
      return { ok: true, value: r };
    }
    if (op.op === 'json') return { ok: true, value: await applyJson(target, op) };
    if (op.op === 'bulk') {
      const lines = op.lines.map((l) => (l === '' ? { kind: 'empty' as const } : { kind: 'json' as const, value: parseLossless(l) as JsonValue }));
      return { ok: true, value: await target.json.bulk(lines) };
    }
    return { ok: true, value: undefined };
  } catch (e) {
    // every node meets the same error for the same op on the same table: it is the op's outcome
    const err = asSearchError(e);
    if (err.code === 'INTERNAL') console.error(`quarry: replicated op ${op.id} failed on this node:`, e);
    return { ok: false, error: err };
  }
}
