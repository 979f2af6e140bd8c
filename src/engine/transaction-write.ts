/** INSERT, REPLACE and DELETE inside a transaction: checked and prepared now, buffered until COMMIT. */
import type { DeleteStatement, InsertStatement, SelectStatement } from '../sql/ast.js';
import { SearchError } from '../util/errors.js';
import { inferSchema } from './auto-schema.js';
import { buildRequest } from './exec-select.js';
import type { WriteContext } from './exec-write.js';
import type { Literal } from './literal.js';
import { ok, type OkResult } from './result.js';
import { orderedColumns } from './schema-text.js';
import type { Session } from './session.js';
import { fromSql } from './sql-values.js';
import type { RowInput, Table } from './table.js';
import { transactionFor } from './transaction.js';

async function insertTable(ctx: WriteContext, st: InsertStatement, rowsLit: Literal[][]): Promise<Table> {
  const existing = ctx.catalog.get(st.table);
  if (existing) return existing;
  const name = st.table.toLowerCase();
  if (!ctx.autoSchema || !st.columns) throw new SearchError('UNKNOWN_TABLE', `table '${name}' absent`);
  // Creating the table is not part of the transaction (DDL is never transactional).
  try {
    return await ctx.catalog.create(inferSchema(name, st.columns, rowsLit));
  } catch (e) {
    const t = ctx.catalog.get(name);
    if (t) return t;
    throw e;
  }
}

function idOf(l: Literal | undefined): bigint | undefined {
  if (!l || l.t === 'null') return undefined;
  if (l.t === 'int') return l.v === 0n ? undefined : l.v;
  if (l.t === 'string' && /^-?\d+$/.test(l.v.trim())) return BigInt(l.v.trim()) || undefined;
  throw new SearchError('BAD_VALUE', 'id must be an integer');
}

function rowInputs(table: Table, st: InsertStatement, rowsLit: Literal[][]): { inputs: RowInput[]; colNos: Map<string, number> } {
  const names = st.columns ?? ['id', ...orderedColumns(table.schema).map((c) => c.name)];
  const colNos = new Map<string, number>();
  names.forEach((n, i) => {
    const key = n.toLowerCase();
    if (key !== 'id' && !table.column(key)) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${n}'`);
    colNos.set(key, i + 1);
  });
  const inputs = rowsLit.map((r) => {
    if (r.length !== names.length) {
      throw new SearchError('PARSE_ERROR', `column count does not match value count (expected ${names.length}, got ${r.length})`);
    }
    const values = new Map<string, Literal>();
    names.forEach((n, i) => values.set(n.toLowerCase(), r[i]!));
    return { id: idOf(values.get('id')), values };
  });
  return { inputs, colNos };
}

/** A buffered INSERT/REPLACE: values are validated and tokenized now; ids are taken now. */
export async function execInsertInTransaction(ctx: WriteContext, st: InsertStatement, session: Session): Promise<OkResult> {
  const rowsLit = st.rows.map((r) => r.map(fromSql));
  const table = await insertTable(ctx, st, rowsLit);
  const tx = transactionFor(session, table);
  const { inputs, colNos } = rowInputs(table, st, rowsLit);
  const missing = inputs.filter((r) => r.id === undefined).length;
  const fresh = missing ? await ctx.ids.take(missing) : [];
  let k = 0;
  const ids = inputs.map((r) => r.id ?? fresh[k++]!);
  const { docs, inputs: docInputs } = table.prepare(inputs, ids, colNos);
  tx.writes.push({ kind: 'put', ids, docs, inputs: docInputs, replace: st.replace });
  return ok(ids.length, { lastInsertId: ids[ids.length - 1] });
}

function whereAsSelect(table: Table, st: DeleteStatement): SelectStatement {
  const all = Math.max(1, table.index.count());
  return {
    kind: 'select', text: st.text, items: [], tables: [table.name], match: st.match, where: st.where,
    options: [...st.options, { name: 'max_matches', value: { kind: 'int', value: all, text: String(all) } }],
    limit: all, offset: 0,
  };
}

/** A buffered DELETE: the matching ids are found now, in the committed data, and removed at COMMIT. */
export function execDeleteInTransaction(ctx: WriteContext, st: DeleteStatement, session: Session): OkResult {
  const table = ctx.catalog.get(st.table);
  if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown local table(s) '${st.table.toLowerCase()}' in search request`);
  const tx = transactionFor(session, table);
  const req = buildRequest(table, whereAsSelect(table, st), ctx.flags);
  const ids = req === 'none' ? [] : table.search(req).hits.map((h) => h.docId);
  tx.writes.push({ kind: 'delete', ids });
  return ok(ids.length);
}
