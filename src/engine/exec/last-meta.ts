/**
 * What SHOW META describes after statements other than a successful search, as searchd keeps its
 * session's m_tLastMeta: a failed search or a statement that does not parse leaves a meta with only
 * its error (searchd's FreezeLastMeta, or the failed search's own result); INSERT / REPLACE / UPDATE /
 * DELETE start an empty one (FreezeLastMeta in sphHandleMysqlInsert / Update / Delete), so SHOW META
 * after a write no longer describes the search before it. FreezeLastMeta empties the warning too, so
 * SHOW WARNINGS after a write or an error is empty. Other statements leave both as they were.
 */
import type { Statement } from '../../sql/ast.js';
import type { SearchMeta } from '../result.js';
import type { Session } from '../session.js';

const WRITES = new Set<Statement['kind']>(['insert', 'update', 'delete']);

function errorMeta(error: string): SearchMeta {
  return { total: 0, totalFound: 0, totalRelation: 'eq', timeMs: 0, keywords: [], error };
}

/** Before `st` runs: a write starts from the empty meta and no warning (its own warnings come after). */
export function metaBeforeStatement(st: Statement, session: Session): void {
  if (!WRITES.has(st.kind)) return;
  // only a session that holds the property is written: a fresh one keeps its object shape (the INSERT path)
  if (session.lastMeta !== undefined) session.lastMeta = undefined;
  if (session.lastWarning !== undefined) session.lastWarning = undefined;
}

/** After `st` failed with `message`; `st` undefined: the text did not parse. */
export function metaAfterError(st: Statement | undefined, session: Session, message: string): void {
  if (st !== undefined && st.kind !== 'select' && !WRITES.has(st.kind)) return;
  session.lastMeta = errorMeta(message);
  session.lastWarning = undefined;
}

/**
 * After a JSON write (`/insert`, `/replace`, `/update`, `/delete`, a `/bulk` line) on an HTTP connection:
 * searchd runs it through the same sphHandleMysqlInsert / Update / Delete, so the connection's session
 * starts an empty meta and keeps an insert's warning, as an SQL INSERT's (executor.ts).
 */
export function metaAfterJsonWrite(session: Session, warning: string | undefined): void {
  if (warning === undefined) {
    if (session.lastMeta !== undefined) session.lastMeta = undefined;
    if (session.lastWarning !== undefined) session.lastWarning = undefined;
    return;
  }
  session.lastWarning = warning;
  session.lastMeta = { total: 0, totalFound: 0, totalRelation: 'eq', timeMs: 0, keywords: [], warning };
}
