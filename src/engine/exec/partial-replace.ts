/**
 * REPLACE INTO t SET col=value, ... WHERE id=N: Manticore's partial replace. searchd hands it to Buddy's
 * Replace plugin, which DESCribes the table, refuses a table with a text field that is not stored, reads
 * the document (SELECT * ... WHERE id=N), lays the SET values over it and sends a whole-row REPLACE; a
 * missing document becomes one with the SET values alone. Here the same, on the stored document.
 */
import type { InsertStatement, Literal, NumberLiteral } from '../../sql/ast.js';
import type { AttrValue } from '../../index/types.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import type { Column } from '../../schema/types.js';

/** A stored value back as the SQL literal that writes it again. */
function literalOf(v: AttrValue | undefined, col: Column): Literal {
  if (v === null || v === undefined) return { kind: 'null' };
  if (Array.isArray(v)) return { kind: 'tuple', items: v.map((x): NumberLiteral => ({ kind: 'int', value: x, text: String(x) })) };
  if (typeof v === 'bigint') return { kind: 'int', value: v, text: String(v) };
  if (typeof v === 'number') {
    return col.type === 'float' ? { kind: 'float', value: v, text: String(v) } : { kind: 'int', value: v, text: String(v) };
  }
  return { kind: 'string', value: v };
}

/** The whole-row REPLACE a partial one stands for: every column, the stored values under the SET ones. */
export function wholeRowReplace(catalog: Catalog, st: InsertStatement & { partialId: bigint }): InsertStatement {
  const table = catalog.get(st.table);
  // Buddy's first step is DESC t, whose error it passes on
  if (!table) throw new SearchError('UNKNOWN_TABLE', `no such table '${st.table.toLowerCase()}'`);
  const lost = table.schema.columns.find((c) => c.type === 'text' && !c.stored);
  if (lost) throw new SearchError('QUERY_ERROR', `Field ${lost.name} doesn't have stored property. Replace query can't be performed`);
  const id = st.partialId;
  const doc = table.index.has(id) ? table.fetch([id])[0] : undefined;
  const columns = ['id'];
  const row: Literal[] = [{ kind: 'int', value: id, text: String(id) }];
  if (doc) {
    // index_field_lengths' counts are the fields' own, recomputed by the write
    for (const col of table.schema.columns) {
      if (col.tokenCount) continue;
      columns.push(col.name);
      row.push(literalOf(doc[col.name], col));
    }
  }
  st.columns!.forEach((name, i) => {
    const at = columns.findIndex((c) => c.toLowerCase() === name.toLowerCase());
    if (at < 0) { columns.push(name); row.push(st.rows[0]![i]!); } else row[at] = st.rows[0]![i]!;
  });
  const { partialId: _, ...rest } = st;
  return { ...rest, columns, rows: [row] };
}
