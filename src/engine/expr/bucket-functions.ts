/**
 * The bucket functions of grouping and FACET (Manticore's aggrexpr.cpp): HISTOGRAM(x, {hist_interval=N,
 * hist_offset=M}) is the bucket start offset + interval * floor((x - offset) / interval); RANGE(x,
 * {range_from=a, range_to=b}, ...) and DATE_RANGE (bounds in date math) the index of the first range
 * holding x (from inclusive, to exclusive), or the number of ranges when none does;
 * DATE_HISTOGRAM(x, {calendar_interval='month'} | {fixed_interval='3h'}) the start of x's bucket.
 */
import type { Expr, NamedValue } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { dateBucket, dateMath } from '../group/date-buckets.js';
import { exprError } from './errors.js';
import type { ExprContext } from './compile.js';
import { toFloat, type CompiledExpr } from './values.js';

type Call = Expr & { kind: 'call' };
type Compile = (e: Expr, ctx: ExprContext) => CompiledExpr;

export const BUCKET_FUNCTIONS = new Set(['histogram', 'range', 'date_histogram', 'date_range']);

function mapArgs(ctx: ExprContext, e: Call): { value: Expr; maps: NamedValue[][] } {
  const value = e.args.find((a) => a.kind !== 'map');
  const maps = e.args.filter((a): a is Expr & { kind: 'map' } => a.kind === 'map').map((m) => m.entries);
  if (!value || e.args.indexOf(value) !== 0) throw exprError(ctx.table, `${e.name}() needs a value expression first`);
  if (!maps.length) throw exprError(ctx.table, e.name.endsWith('range') ? 'at least 1 range expected' : `${e.name}() needs its settings map`);
  return { value, maps };
}

function num(ctx: ExprContext, fn: string, v: NamedValue): number {
  if (v.value.kind === 'int' || v.value.kind === 'float') return Number(v.value.value);
  throw exprError(ctx.table, `${fn} invalid value '${v.name}'`);
}

function histogram(ctx: ExprContext, x: CompiledExpr, map: NamedValue[]): CompiledExpr {
  let interval = 0, offset = 0;
  for (const v of map) {
    if (v.name === 'hist_interval') interval = num(ctx, 'histogram', v);
    else if (v.name === 'hist_offset') offset = num(ctx, 'histogram', v);
    else throw exprError(ctx.table, `unknow value '${v.name}'`);
  }
  if (!(interval > 0)) throw exprError(ctx.table, 'histogram interval should be greater than 0');
  return { type: 'int', eval: (r) => Math.trunc(Math.floor((toFloat(x.eval(r)) - offset) / interval) * interval + offset) };
}

function bound(ctx: ExprContext, v: NamedValue, dates: boolean): number {
  if (v.value.kind === 'string') {
    try { return dateMath(v.value.value); } catch { throw exprError(ctx.table, `date_range invalid ${v.name === 'range_from' ? 'from' : 'to'} value '${v.value.value}'`); }
  }
  return num(ctx, dates ? 'date_range' : 'range', v);
}

function ranges(ctx: ExprContext, x: CompiledExpr, maps: NamedValue[][], dates: boolean): CompiledExpr {
  const rs = maps.map((map, i) => {
    if (!map.length) throw exprError(ctx.table, `empty range ${i}`);
    let lo = -Infinity, hi = Infinity;
    for (const v of map) {
      if (v.name === 'range_from') lo = bound(ctx, v, dates);
      else if (v.name === 'range_to') hi = bound(ctx, v, dates);
      else throw exprError(ctx.table, `unknow value '${v.name}'`);
    }
    return { lo, hi };
  });
  return {
    type: 'int',
    eval: (r) => {
      const v = toFloat(x.eval(r));
      const i = rs.findIndex((b) => b.lo <= v && v < b.hi);
      return i < 0 ? rs.length : i;
    },
  };
}

function dateHistogram(ctx: ExprContext, x: CompiledExpr, map: NamedValue[]): CompiledExpr {
  const opts: Record<string, unknown> = {};
  for (const v of map) {
    if (v.name !== 'calendar_interval' && v.name !== 'fixed_interval') throw exprError(ctx.table, `unknow value '${v.name}'`);
    opts[v.name] = v.value.kind === 'string' ? v.value.value : v.value.kind === 'ident' ? v.value.name : undefined;
  }
  let key: (s: number) => number;
  try { key = dateBucket('date_histogram', opts.calendar_interval, opts.fixed_interval); } catch (err) {
    throw exprError(ctx.table, err instanceof SearchError ? err.message : String(err));
  }
  return { type: 'bigint', eval: (r) => BigInt(key(Math.trunc(toFloat(x.eval(r))))) };
}

/** One of BUCKET_FUNCTIONS compiled. */
export function bucketCall(e: Call, ctx: ExprContext, compile: Compile): CompiledExpr {
  const { value, maps } = mapArgs(ctx, e);
  const x = compile(value, ctx);
  if (x.type === 'string' || x.type === 'mva') throw exprError(ctx.table, `${e.name}() argument must be numeric`);
  if (e.name === 'histogram' || e.name === 'date_histogram') {
    if (maps.length !== 1 || e.args.length !== 2) throw exprError(ctx.table, `${e.name}() called with ${e.args.length} args, 2 args expected`);
    return e.name === 'histogram' ? histogram(ctx, x, maps[0]!) : dateHistogram(ctx, x, maps[0]!);
  }
  return ranges(ctx, x, maps, e.name === 'date_range');
}
