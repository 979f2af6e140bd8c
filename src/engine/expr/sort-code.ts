/**
 * ORDER BY a numeric expression: the expression (aliases resolved) rewritten as a formula of the
 * core's expression bytecode (the ranker's, attributes only: src/index/rank-expr/rank-expr-compile.ts), which
 * the core evaluates per row of each segment as a sort key. What that bytecode cannot compute
 * (strings, JSON, dates, bigint arithmetic, ...) is rejected by name.
 */
import type { Expr } from '../../sql/ast.js';
import { compileRankExpr } from '../../index/rank-expr/rank-expr-compile.js';
import { SearchError } from '../../util/errors.js';
import type { Table } from '../table.js';

const NUMERIC_COLUMNS = new Set(['uint', 'bigint', 'bool', 'timestamp', 'float']);
const OPS = new Set(['+', '-', '*', '/', '%', '=', '!=', '<', '>', '<=', '>=', 'and', 'or']);
const FUNCTIONS = new Set(['abs', 'min', 'max', 'if', 'ln', 'log2', 'log10', 'sqrt', 'exp', 'pow']);

function unsupported(table: Table, e: Expr, why: string): never {
  throw new SearchError('UNSUPPORTED', `table ${table.name}: ORDER BY an expression ('${e.text}') is not supported yet: ${why}`);
}

function formula(table: Table, e: Expr, aliases: Map<string, Expr>, seen: Set<string>): string {
  switch (e.kind) {
    case 'literal':
      if (e.value.kind === 'int' || e.value.kind === 'float') return `(${e.value.text})`;
      return unsupported(table, e, 'a string constant');
    case 'column': {
      const lower = e.name.toLowerCase();
      if (e.path.length) return unsupported(table, e, 'a JSON path');
      const col = table.column(lower);
      const alias = aliases.get(lower);
      if (!col && alias && lower !== 'id') {
        if (seen.has(lower)) unsupported(table, e, 'an alias that refers to itself');
        return formula(table, alias, aliases, new Set([...seen, lower]));
      }
      if (lower === 'id') return 'id';
      if (!col) throw new SearchError('QUERY_ERROR', `table ${table.name}: sort-by attribute '${e.name}' not found`);
      if (!NUMERIC_COLUMNS.has(col.type)) return unsupported(table, e, `a ${col.type} attribute`);
      return col.name.toLowerCase();
    }
    case 'unary':
      return e.op === '-' ? `(-${formula(table, e.operand, aliases, seen)})` : `(not ${formula(table, e.operand, aliases, seen)})`;
    case 'binary':
      if (!OPS.has(e.op)) return unsupported(table, e, `operator ${e.op.toUpperCase()}`);
      return `(${formula(table, e.left, aliases, seen)} ${e.op} ${formula(table, e.right, aliases, seen)})`;
    case 'call':
      if (!FUNCTIONS.has(e.name) || e.loopVar) return unsupported(table, e, `${e.name.toUpperCase()}()`);
      return `${e.name}(${e.args.map((a) => formula(table, a, aliases, seen)).join(', ')})`;
    default:
      return unsupported(table, e, 'this kind of expression');
  }
}

/** The core bytecode of an ORDER BY expression. */
export function sortCode(table: Table, e: Expr, aliases: Map<string, Expr>): number[] {
  const text = formula(table, e, aliases, new Set());
  const attrs = table.index.schema.attrs.map((a) => ({ name: a.name, type: a.type }));
  try {
    return compileRankExpr(text, { fields: [], attrs }).code;
  } catch (err) {
    return unsupported(table, e, err instanceof Error ? err.message : String(err));
  }
}
