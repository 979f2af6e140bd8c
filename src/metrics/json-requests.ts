/**
 * HTTP JSON API requests in the counters and the query log, as SQL statements are in engine/index.ts:
 * each request counts in `command_json` and in its own kind's counter (a /search is a `search`, /insert
 * an `insert`, ...), its time goes to the latency windows and histograms, and the query log gets the
 * request body (metrics/query-log.ts decides what it writes).
 */
import { metrics, type Command } from './metrics.js';

/** The statement kind a JSON endpoint runs: `select` for /search. */
export type JsonKind = 'select' | 'insert' | 'replace' | 'update' | 'delete' | 'bulk';

const COMMAND: Record<JsonKind, Command | undefined> = {
  select: 'search', insert: 'insert', replace: 'replace', update: 'update', delete: 'delete', bulk: undefined,
};

/** Runs one JSON request (`run`), counting and logging it; `found` reads a search's total from its result. */
export async function trackJson<T>(
  kind: JsonKind, text: string, table: string | undefined, client: { connId?: number; peer?: string } | undefined,
  run: () => Promise<T>, found?: (r: T) => number,
): Promise<T> {
  metrics.count('json');
  const cmd = COMMAND[kind];
  if (cmd) metrics.count(cmd, table);
  const t0 = performance.now();
  const event = { kind, text, json: true, connId: client?.connId, peer: client?.peer };
  try {
    const r = await run();
    const ms = performance.now() - t0;
    const rows = found?.(r);
    metrics.observe(kind, table, ms, rows);
    metrics.statementListener?.({ ...event, ms, found: rows });
    return r;
  } catch (e) {
    metrics.statementListener?.({ ...event, ms: performance.now() - t0, found: 0, error: (e as Error).message });
    throw e;
  }
}
