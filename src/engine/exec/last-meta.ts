/**
 * What SHOW META describes after statements other than a successful search, as searchd keeps its
 * session's m_tLastMeta: a failed search or a statement that does not parse leaves a meta with only
 * its error (searchd's FreezeLastMeta, or the failed search's own result); INSERT / REPLACE / UPDATE /
 * DELETE start an empty one (FreezeLastMeta in sphHandleMysqlInsert / Update / Delete), so SHOW META
 * after a write no longer describes the search before it. Other statements leave it as it was.
 */
import type { Statement } from '../../sql/ast.js';
import type { SearchMeta } from '../result.js';
import type { Session } from '../session.js';

const WRITES = new Set<Statement['kind']>(['insert', 'update', 'delete']);

function errorMeta(error: string): SearchMeta {
  return { total: 0, totalFound: 0, totalRelation: 'eq', timeMs: 0, keywords: [], error };
}

/** After `st` succeeded. */
export function metaAfterSuccess(st: Statement, session: Session): void {
  // only a session that has a meta holds the property: a fresh one's stays as it is (same object shape)
  if (session.lastMeta !== undefined && WRITES.has(st.kind)) session.lastMeta = undefined;
}

/** After `st` failed with `message`; `st` undefined: the text did not parse. */
export function metaAfterError(st: Statement | undefined, session: Session, message: string): void {
  if (st === undefined || st.kind === 'select' || WRITES.has(st.kind)) session.lastMeta = errorMeta(message);
}
