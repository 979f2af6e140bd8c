/** Which of Manticore's command_* counters a SphinxQL statement counts in, and the table it touches. */
import type { Statement } from '../sql/ast.js';
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
