/**
 * ORDER BY a numeric expression: the expression (aliases resolved) rewritten as a formula of the
 * core's expression bytecode (the ranker's, attributes only: src/index/rank-expr/rank-expr-compile.ts), which
 * the core evaluates per row of each segment as a sort key. What that bytecode cannot compute
 * (strings, JSON, dates, bigint arithmetic, RAND(attribute), ...) is rejected by name.
 * RAND() and RAND(constant) are the core's RAND_ID with the seed resolved here (the statement's, or the
 * constant's low 32 bits as the host's rand.ts takes it): ORDER BY RAND() alone and a formula holding it are one
 * mechanism, and a select-list RAND() of the same statement computes the same values on the host.
 */
import type { Expr } from '../../sql/ast.js';
import { compileRankExpr } from '../../index/rank-expr/rank-expr-compile.js';
import { SearchError } from '../../util/errors.js';
import type { Table } from '../table.js';
import { compileExpr } from './compile.js';
import { constantSeed } from './rand.js';

const NUMERIC_COLUMNS = new Set(['uint', 'bigint', 'bool', 'timestamp', 'float']);
const OPS = new Set(['+', '-', '*', '/', '%', '=', '!=', '<', '>', '<=', '>=', 'and', 'or']);
const FUNCTIONS = new Set(['abs', 'min', 'max', 'if', 'ln', 'log2', 'log10', 'sqrt', 'exp', 'pow']);

function unsupported(table: Table, e: Expr, why: string): never {
  throw new SearchError('UNSUPPORTED', `table ${table.name}: ORDER BY an expression ('${e.text}') is not supported yet: ${why}`);
}

/** The statement's RAND() seed, taken only when the formula holds RAND(). */
type Seed = () => number;

/**
 * RAND()'s seed in the formula: the statement's, or a numeric constant's; RAND(attribute) is the host's, and so is
 * any RAND() of a caller with no statement seed (a WHERE formula, a grouping key: filters.ts, segment-reader.ts).
 */
function randSeedOf(table: Table, e: Expr & { kind: 'call' }, seed: Seed | undefined): number {
  if (!seed) return unsupported(table, e, 'RAND() outside ORDER BY');
  if (!e.args.length) return seed() >>> 0;
  const lit = e.args[0]!;
  if (e.args.length > 1 || lit.kind !== 'literal' || (lit.value.kind !== 'int' && lit.value.kind !== 'float')) {
    return unsupported(table, e, 'RAND() of an attribute or expression');
  }
  return constantSeed(compileExpr(lit, { table }));
}

function formula(table: Table, e: Expr, aliases: Map<string, Expr>, seen: Set<string>, seed: Seed | undefined): string {
  const f = (x: Expr, s = seen) => formula(table, x, aliases, s, seed);
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
        return f(alias, new Set([...seen, lower]));
      }
      if (lower === 'id') return 'id';
      if (!col) throw new SearchError('QUERY_ERROR', `table ${table.name}: sort-by attribute '${e.name}' not found`);
      if (!NUMERIC_COLUMNS.has(col.type)) return unsupported(table, e, `a ${col.type} attribute`);
      return col.name.toLowerCase();
    }
    case 'unary':
      return e.op === '-' ? `(-${f(e.operand)})` : `(not ${f(e.operand)})`;
    case 'binary':
      if (!OPS.has(e.op)) return unsupported(table, e, `operator ${e.op.toUpperCase()}`);
      return `(${f(e.left)} ${e.op} ${f(e.right)})`;
    case 'call':
      if (e.name === 'rand' && !e.loopVar) return `rand(${randSeedOf(table, e, seed)})`;
      if (!FUNCTIONS.has(e.name) || e.loopVar) return unsupported(table, e, `${e.name.toUpperCase()}()`);
      return `${e.name}(${e.args.map((a) => f(a)).join(', ')})`;
    default:
      return unsupported(table, e, 'this kind of expression');
  }
}

/** The core bytecode of an ORDER BY expression; `seed` gives the statement's RAND() seed (ORDER BY's callers). */
export function sortCode(table: Table, e: Expr, aliases: Map<string, Expr>, seed?: Seed): number[] {
  const text = formula(table, e, aliases, new Set(), seed);
  const attrs = table.index.schema.attrs.map((a) => ({ name: a.name, type: a.type }));
  try {
    return compileRankExpr(text, { fields: [], attrs, rand: true }).code;
  } catch (err) {
    return unsupported(table, e, err instanceof Error ? err.message : String(err));
  }
}
