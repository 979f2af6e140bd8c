/** Which of Manticore's command_* counters a SphinxQL statement counts in, and the table it touches. */
import type { Condition, SelectStatement, Statement } from '../sql/ast.js';
import type { SearchSummary } from './query-log-plain.js';
import type { Command } from './metrics.js';

export function commandOf(st: Statement): Command | undefined {
  switch (st.kind) {
    case 'select': return st.tables.length ? 'search' : undefined;
    case 'insert': return st.replace ? 'replace' : 'insert';
    case 'update': return 'update';
    case 'delete': return 'delete';
    case 'set': case 'set_names': case 'set_transaction': return 'set';
    case 'commit': return 'commit';
    case 'flush': return st.target === 'attributes' ? 'flushattrs' : undefined;
    case 'show': return st.what === 'status' ? 'status' : undefined;
    case 'call':
      if (st.name === 'snippets') return 'excerpt';
      if (st.name === 'keywords') return 'keywords';
      if (st.name === 'suggest' || st.name === 'qsuggest') return 'suggest';
      if (st.name === 'pq') return 'callpq';
      return undefined;
    default: return undefined;
  }
}

/** The statement's kind for latency histograms (REPLACE apart from INSERT). */
export function kindOf(st: Statement): string {
  return st.kind === 'insert' && st.replace ? 'replace' : st.kind;
}

/** The one table a statement reads or writes, if any. */
export function tableOf(st: Statement): string | undefined {
  if (st.kind === 'select') return st.tables.length === 1 ? st.tables[0]!.toLowerCase() : undefined;
  const t = (st as { table?: unknown }).table;
  return typeof t === 'string' ? t.toLowerCase() : undefined;
}

/** Attribute filters of a WHERE: each condition ANDed at the top counts one (Manticore's filter list). */
function filterCount(c: Condition | undefined): number {
  if (!c) return 0;
  return c.kind === 'and' ? c.children.reduce((n, x) => n + filterCount(x), 0) : 1;
}

/** What the plain query log says of a SELECT (metrics/query-log-plain.ts); none without a table. */
export function searchSummaryOf(st: SelectStatement): SearchSummary | undefined {
  if (st.tables.length === 0) return undefined;
  const groups = (st.groupBy ?? []).map((e) => (e.kind === 'column' ? e.name : 'expr'));
  return {
    tables: st.tables.join(','), query: st.match ?? '', filters: filterCount(st.where),
    offset: st.offset ?? 0, limit: st.limit ?? 20, groupBy: groups.length ? groups.join(',') : undefined,
  };
}
