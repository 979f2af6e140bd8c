/**
 * Applies one op of a cluster's stream to this node's tables, through the same executor and JSON API
 * as a local write (never the replication hook again). Returns what the writer's client gets back.
 */
import type { ExecContext } from '../engine/exec/executor.js';
import { executeLocal } from '../engine/exec/executor.js';
import type { JsonApi } from '../engine/json/json-api.js';
import { ok, type Result } from '../engine/result.js';
import { newSession, type Session } from '../engine/session.js';
import { commit } from '../engine/transaction/transaction.js';
import { parseSql } from '../sql/parse-sql.js';
import { parse as parseLossless } from 'lossless-json';
import type { JsonValue } from '../engine/json/json-value.js';
import type { ReplicatedOp } from './replicated-op.js';
import { SearchError, asSearchError } from '../util/errors.js';
import { bulkLinesOf } from './bulk-op.js';
import { esBulkDocsOf } from './es-bulk-op.js';

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

/** One replicated statement on the bare table name; an error result is thrown as its SearchError. */
async function runSql(target: ApplyTarget, table: string, sql: string, ids: string[], session: Session): Promise<Result | Result[]> {
  const [st] = parseSql(sql);
  if (!st || (st.kind !== 'insert' && st.kind !== 'update' && st.kind !== 'delete' && st.kind !== 'truncate')) {
    throw new SearchError('INTERNAL', `replicated op is not a write: ${sql.slice(0, 60)}`);
  }
  st.table = table;
  const r = await executeLocal({ ...target.ctx, ids: fixedIds(ids) }, st, session);
  const first = Array.isArray(r) ? r[0] : r;
  if (first?.kind === 'error') throw new SearchError(first.code as SearchError['code'], first.message);
  return r;
}

/** A committed transaction: its statements buffered in a fresh session, then COMMIT. */
async function applyTx(target: ApplyTarget, op: Extract<ReplicatedOp, { op: 'tx' }>): Promise<Result> {
  const session = newSession();
  session.transaction = { writes: [] };
  for (const s of op.statements) await runSql(target, op.table, s.sql, s.ids, session);
  await commit(session, target.ctx.catalog);
  return ok(0);
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
    if (op.op === 'sql') return { ok: true, value: await runSql(target, op.table, op.sql, op.ids, newSession()) };
    if (op.op === 'tx') return { ok: true, value: await applyTx(target, op) };
    if (op.op === 'json') return { ok: true, value: await applyJson(target, op) };
    if (op.op === 'bulk') return { ok: true, value: await target.json.bulk(bulkLinesOf(op.lines)) };
    if (op.op === 'esbulk') return { ok: true, value: await target.json.esBulk(esBulkDocsOf(op.docs)) };
    return { ok: true, value: undefined };
  } catch (e) {
    // every node meets the same error for the same op on the same table: it is the op's outcome
    const err = asSearchError(e);
    if (err.code === 'INTERNAL') console.error(`quarry: replicated op ${op.id} failed on this node:`, e);
    return { ok: false, error: err };
  }
}
