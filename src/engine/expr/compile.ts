/**
 * Compiles a SQL expression (select list item, WHERE target, ORDER BY key) into a typed evaluator over
 * one row: arithmetic, comparison, boolean and bitwise operators with Manticore's typing (int32 unless a
 * bigint/timestamp/bool operand widens to int64, float32 once a float operand or `/` appears),
 * attributes, JSON paths and the functions of functions.ts.
 *
 * This is the evaluator for values of the final page (and for the WHERE predicates the index cannot
 * take); GROUP BY code may also call it per row: `compileExpr(table, expr).eval(row)`.
 */
import { libcCiCompare, type Collation } from '../../util/collation.js';
import type { StringCompare } from '../values/value-compare.js';
import type { BinaryOp, Expr } from '../../sql/ast.js';
import type { Table } from '../table.js';
import { exprError } from './errors.js';
import { compileCall } from './functions.js';
import {
  convert, isIntType, parseJson, toBig, toFloat, toInt, truthy, widest,
  type CompiledExpr, type ExprRow, type ExprType, type ExprValue,
} from './values.js';

export type { CompiledExpr, ExprRow, ExprType, ExprValue };

export interface ExprContext {
  table: Table;
  /** Select-list aliases (lower-cased) an expression may name, as Manticore resolves `a*2` over `x AS a`. */
  aliases?: Map<string, Expr>;
  /** Aliases being expanded (a cycle is an error, not a hang). */
  expanding?: Set<string>;
  /** The loop variable of ANY()/ALL(... FOR x IN arr) and the element it holds now. */
  loop?: { name: string; value: unknown };
  /** How string comparisons (`s = 'x'`, `s < t`) compare, as searchd's Expr_StrCmp_c; unset: libc_ci, its default. */
  collation?: Collation;
  /** The statement's RAND() seed (OPTION rand_seed or its fresh one), shared with ORDER BY RAND(); unset: a fresh one. */
  randSeed?: number;
}

const COLUMN_TYPE: Record<string, ExprType> = {
  uint: 'int', bigint: 'bigint', timestamp: 'bigint', bool: 'bigint', float: 'float', string: 'string',
  json: 'json', mva: 'mva', mva64: 'mva', text: 'string',
};

function constant(type: ExprType, value: ExprValue): CompiledExpr {
  return { type, eval: () => value };
}

/** The value at `path` (keys, indexes) inside a parsed JSON value; undefined where a step is missing. */
function walkJson(value: unknown, path: readonly (string | number)[]): unknown {
  let cur = value;
  for (const step of path) cur = cur == null || typeof cur !== 'object' ? undefined : (cur as Record<string | number, unknown>)[step];
  return cur;
}

function column(ctx: ExprContext, e: Expr & { kind: 'column' }): CompiledExpr {
  const lower = e.name.toLowerCase();
  const loop = ctx.loop;
  if (loop && lower === loop.name) {
    if (!e.path.length) return { type: 'json', eval: () => loop.value };
    // `s.key` / `s['key']` / `s[0]` of an element that is an object or array (ANY(s.n > 5 FOR s IN j.subs))
    const path = e.path;
    return { type: 'json', eval: () => walkJson(loop.value, path) };
  }
  if (lower === 'id' && !e.path.length) return { type: 'bigint', eval: (r) => r.docId };
  // a table column wins over a select alias of the same name
  const alias = !e.path.length && !ctx.table.column(lower) ? ctx.aliases?.get(lower) : undefined;
  if (alias) {
    const expanding = ctx.expanding ?? new Set<string>();
    if (expanding.has(lower)) throw exprError(ctx.table, `alias '${e.name}' refers to itself`);
    expanding.add(lower);
    try { return compileExpr(alias, { ...ctx, expanding }); } finally { expanding.delete(lower); }
  }
  const col = ctx.table.column(lower);
  if (!col || (col.type === 'text' && !ctx.table.index.schema.attrs.some((a) => a.name === col.name))) {
    throw exprError(ctx.table, `unknown column: ${e.name}`);
  }
  const name = col.name;
  if (e.path.length) {
    if (col.type !== 'json') throw exprError(ctx.table, `'${e.name}' is not a JSON attribute`);
    const path = e.path;
    return {
      type: 'json',
      eval: (r) => {
        return walkJson(parseJson(r.attrs.get(name)), path);
      },
    };
  }
  const type = COLUMN_TYPE[col.type]!;
  if (type === 'json') return { type, eval: (r) => parseJson(r.attrs.get(name)) };
  if (type === 'int') return { type, eval: (r) => toInt(r.attrs.get(name) ?? 0) };
  if (type === 'bigint') return { type, eval: (r) => toBig(r.attrs.get(name) ?? 0) };
  if (type === 'float') return { type, eval: (r) => toFloat(r.attrs.get(name) ?? 0) };
  if (type === 'mva') return { type, eval: (r) => (r.attrs.get(name) as bigint[] | null) ?? [] };
  return { type, eval: (r) => String(r.attrs.get(name) ?? '') };
}

const CMP: Partial<Record<BinaryOp, (c: number) => boolean>> = {
  '=': (c) => c === 0, '!=': (c) => c !== 0, '<': (c) => c < 0, '<=': (c) => c <= 0, '>': (c) => c > 0, '>=': (c) => c >= 0,
};

/** Comparison of two values of one type; floats are equal within 1e-6, as Manticore's Expr_Eq. */
export function compareAs(t: ExprType, a: ExprValue, b: ExprValue, op: BinaryOp, strings: StringCompare = libcCiCompare): boolean {
  if (t === 'string') return CMP[op]!(strings(String(a), String(b)));
  if (t === 'float') {
    const x = toFloat(a); const y = toFloat(b);
    if (op === '=') return Math.abs(x - y) <= 1e-6;
    if (op === '!=') return Math.abs(x - y) > 1e-6;
    return CMP[op]!(x < y ? -1 : x > y ? 1 : 0);
  }
  if (t === 'bigint') { const x = toBig(a); const y = toBig(b); return CMP[op]!(x < y ? -1 : x > y ? 1 : 0); }
  const x = toInt(a); const y = toInt(b);
  return CMP[op]!(x - y);
}

function arith(op: BinaryOp, t: ExprType, a: ExprValue, b: ExprValue): ExprValue {
  if (t === 'float') {
    const x = toFloat(a); const y = toFloat(b);
    switch (op) {
      case '+': return Math.fround(x + y);
      case '-': return Math.fround(x - y);
      case '*': return Math.fround(x * y);
      default: return 0;
    }
  }
  if (t === 'bigint') {
    const x = toBig(a); const y = toBig(b);
    switch (op) {
      case '+': return BigInt.asIntN(64, x + y);
      case '-': return BigInt.asIntN(64, x - y);
      case '*': return BigInt.asIntN(64, x * y);
      case '%': case 'mod': return y === 0n ? 0n : x % y;
      case 'div': return y === 0n ? 0n : BigInt.asIntN(64, x / y);
      case '&': return x & y;
      case '|': return x | y;
      default: return 0n;
    }
  }
  const x = toInt(a); const y = toInt(b);
  switch (op) {
    case '+': return (x + y) | 0;
    case '-': return (x - y) | 0;
    case '*': return Math.imul(x, y);
    case '%': case 'mod': return y === 0 ? 0 : (x % y) | 0;
    case 'div': return y === 0 ? 0 : (x / y) | 0;
    case '&': return x & y;
    case '|': return x | y;
    default: return 0;
  }
}

function binary(ctx: ExprContext, e: Expr & { kind: 'binary' }): CompiledExpr {
  const l = compileExpr(e.left, ctx);
  const r = compileExpr(e.right, ctx);
  const op = e.op;
  if (op === '/') {
    return {
      type: 'float',
      eval: (row) => { const y = toFloat(r.eval(row)); return y !== 0 ? Math.fround(toFloat(l.eval(row)) / y) : 0; },
    };
  }
  if (op in CMP) {
    const t = l.type === 'string' || r.type === 'string' ? 'string' : widest(l.type, r.type);
    const strings = ctx.collation?.compare ?? libcCiCompare;
    return { type: 'int', eval: (row) => (compareAs(t, l.eval(row), r.eval(row), op, strings) ? 1 : 0) };
  }
  if (op === 'and' || op === 'or') {
    const t = widest(l.type, r.type);
    if (!isIntType(t)) throw exprError(ctx.table, `${op.toUpperCase()} arguments must be integer`);
    return op === 'and'
      ? { type: 'int', eval: (row) => (truthy(l.eval(row), l.type) && truthy(r.eval(row), r.type) ? 1 : 0) }
      : { type: 'int', eval: (row) => (truthy(l.eval(row), l.type) || truthy(r.eval(row), r.type) ? 1 : 0) };
  }
  if (l.type === 'string' || r.type === 'string' || l.type === 'mva' || r.type === 'mva') {
    throw exprError(ctx.table, `operator '${op}' over a ${l.type === 'string' || r.type === 'string' ? 'string' : 'MVA'} is not supported`);
  }
  if (op === 'div') {
    // integer division: IDIV, int32 of both sides unless both are integers of a wider type
    const t = isIntType(l.type) && isIntType(r.type) ? widest(l.type, r.type) : 'int';
    return { type: t, eval: (row) => arith('div', t, l.eval(row), r.eval(row)) };
  }
  const t = widest(l.type, r.type);
  if ((op === '%' || op === 'mod') && !isIntType(t)) throw exprError(ctx.table, 'MOD arguments must be integer');
  if ((op === '&' || op === '|') && !isIntType(t)) throw exprError(ctx.table, `${op} arguments must be integer`);
  return { type: t, eval: (row) => arith(op, t, l.eval(row), r.eval(row)) };
}

function unary(ctx: ExprContext, e: Expr & { kind: 'unary' }): CompiledExpr {
  const a = compileExpr(e.operand, ctx);
  if (e.op === 'not') {
    if (!isIntType(a.type)) throw exprError(ctx.table, 'NOT argument must be integer');
    return { type: 'int', eval: (row) => (truthy(a.eval(row), a.type) ? 0 : 1) };
  }
  const t = a.type === 'json' ? 'float' : a.type;
  if (t === 'string' || t === 'mva') throw exprError(ctx.table, `unary minus over a ${t === 'string' ? 'string' : 'MVA'} is not supported`);
  if (t === 'float') return { type: t, eval: (row) => Math.fround(-toFloat(a.eval(row))) };
  if (t === 'bigint') return { type: t, eval: (row) => BigInt.asIntN(64, -toBig(a.eval(row))) };
  return { type: t, eval: (row) => (-toInt(a.eval(row))) | 0 };
}

/** Compiles one expression; errors are Manticore's parse errors for the table. */
export function compileExpr(e: Expr, ctx: ExprContext): CompiledExpr {
  switch (e.kind) {
    case 'literal': {
      const v = e.value;
      if (v.kind === 'int') {
        const big = BigInt(v.value);
        return big >= -(2n ** 31n) && big < 2n ** 31n ? constant('int', Number(big)) : constant('bigint', BigInt.asIntN(64, big));
      }
      if (v.kind === 'float') return constant('float', Math.fround(v.value));
      if (v.kind === 'string') return constant('string', v.value);
      break;
    }
    case 'column': return column(ctx, e);
    case 'binary': return binary(ctx, e);
    case 'unary': return unary(ctx, e);
    case 'call': return compileCall(e, ctx, compileExpr);
    case 'is_null': {
      const a = compileExpr(e.operand, ctx);
      return { type: 'int', eval: (row) => ((a.eval(row) == null) !== e.negate ? 1 : 0) };
    }
    default: break;
  }
  throw exprError(ctx.table, `unsupported expression '${e.text}'`, 'UNSUPPORTED');
}

export { convert };
