/**
 * SELECT without FROM over an expression (`SELECT 1+2`, `SELECT IF(2>1,'a','b')`, `SELECT NOW()`): the
 * expression compiled against a table with no columns and evaluated once. A column name is an error.
 */
import type { Expr } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Cell, CellKind } from '../result.js';
import type { Table } from '../table.js';
import { compileExpr } from './compile.js';
import { valueText } from './strings.js';

/** A table of no columns: what a constant expression may refer to. */
const NO_TABLE = {
  name: '', column: () => undefined, index: { schema: { attrs: [], fields: [] } },
} as unknown as Table;

/** The value and result-column kind of a constant expression. */
export function constantValue(e: Expr): { value: Cell; kind: CellKind } {
  let compiled;
  try {
    compiled = compileExpr(e, { table: NO_TABLE });
  } catch (err) {
    if (err instanceof SearchError && /unknown column/.test(err.message)) {
      throw new SearchError('PARSE_ERROR', `unsupported expression '${e.text}' without a table`);
    }
    // the expression errors name their table: there is none here
    if (err instanceof SearchError) throw new SearchError(err.code, err.message.replace(/^table : /, ''));
    throw err;
  }
  const v = compiled.eval({ docId: 0n, weight: 0, attrs: new Map() });
  if (v === null || v === undefined) return { value: null, kind: 'string' };
  switch (compiled.type) {
    case 'int': case 'bigint': return { value: BigInt(v as number | bigint), kind: 'bigint' };
    case 'float': return { value: Number(v), kind: 'float' };
    default: return { value: valueText(v, compiled.type), kind: 'string' };
  }
}
