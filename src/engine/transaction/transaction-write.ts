/** INSERT, REPLACE and DELETE inside a transaction: checked and prepared now, buffered until COMMIT. */
import type { DeleteStatement, InsertStatement } from '../../sql/ast.js';
import { buildRequest } from '../exec/exec-select.js';
import { existingTable, type WriteContext } from '../exec/exec-write.js';
import { ok, type OkResult } from '../result.js';
import type { Session } from '../session.js';
import { fromSql } from '../values/sql-values.js';
import { transactionFor } from './transaction.js';
import { assignIds, rowInputs, tableForInsert, whereAsSelect } from '../insert-rows.js';
import { insertWarning } from '../exec/insert-warnings.js';

/** A buffered INSERT/REPLACE: values are validated and tokenized now; ids are taken now. */
export async function execInsertInTransaction(ctx: WriteContext, st: InsertStatement, session: Session): Promise<OkResult> {
  const rowsLit = st.rows.map((r) => r.map(fromSql));
  const table = await tableForInsert(ctx, st.table, st.columns, rowsLit);
  const tx = transactionFor(session, table);
  const { inputs, colNos } = rowInputs(table, st.columns, rowsLit);
  const ids = await assignIds(ctx.ids, inputs);
  const { docs, inputs: docInputs } = table.prepare(inputs, ids, colNos);
  tx.writes.push({ kind: 'put', ids, docs, inputs: docInputs, replace: st.replace });
  // searchd converts the values when the statement runs (AddDocument), so its warning comes now, not at COMMIT
  const warning = insertWarning(table, inputs);
  return ok(ids.length, { lastInsertId: ids[ids.length - 1], insertedIds: ids, ...(warning && { warning }) });
}

/** A buffered DELETE: the matching ids are found now, in the committed data, and removed at COMMIT. */
export function execDeleteInTransaction(ctx: WriteContext, st: DeleteStatement, session: Session): OkResult {
  const table = existingTable(ctx, st.table, 'delete');
  const tx = transactionFor(session, table);
  const req = buildRequest(table, whereAsSelect(table, st), ctx.flags);
  const ids = req === 'none' ? [] : table.search(req).hits.map((h) => h.docId);
  tx.writes.push({ kind: 'delete', ids });
  return ok(ids.length);
}
