/**
 * ORDER BY a key the core's formula bytecode cannot compute (a string or JSON value, a bigint
 * expression, CONCAT(), ...): the expression is evaluated here per row of each segment, once per query
 * (src/index/sort-plan.ts turns the values into the core's rank column and the merge compares them).
 * JSON numbers sort as numbers, JSON strings as strings, other JSON values by their text; a row
 * without a value sorts first (ascending), as Manticore puts NULL before every value.
 */
import type { Expr } from '../../sql/ast.js';
import type { AttrValue, SortKey } from '../../index/types.js';
import type { Table } from '../table.js';
import type { ExprContext } from './compile.js';
import { compileExpr } from './compile.js';
import { valueText } from './strings.js';

function sortValue(v: unknown, type: string): AttrValue {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  return valueText(v as never, type as never);
}

/**
 * A sort key whose per-row values are computed on the host (`rowValues`). String comparisons inside it
 * (`IF(s = 'x', ...)`, `s IN (...)`) take the statement's collation, as searchd's queuecreator passes
 * the query's to every expression it parses, sort keys too; RAND() takes the statement's seed (`stmt`).
 */
export function hostSortKey(
  table: Table, e: Expr, aliases: Map<string, Expr>, desc: boolean, stmt: Pick<ExprContext, 'collation' | 'randSeed'> = {},
): SortKey {
  const compiled = compileExpr(e, { table, aliases, ...stmt });
  const attrs = table.index.schema.attrs;
  return {
    attr: e.text, desc,
    rowValues: (seg) => {
      const cols = attrs.map((_, i) => seg.attrReader(i));
      const out: AttrValue[] = new Array(seg.rows);
      for (let row = 0; row < seg.rows; row++) {
        const values = new Map<string, AttrValue>(attrs.map((a, i) => [a.name, cols[i]!(row)]));
        out[row] = sortValue(compiled.eval({ docId: seg.docId(row), weight: 0, attrs: values }), compiled.type);
      }
      return out;
    },
  };
}
