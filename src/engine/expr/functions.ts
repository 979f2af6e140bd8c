/**
 * The built-in functions of select-list expressions: argument counts, return types and error texts
 * follow Manticore's expression parser (sphinxexpr.cpp's function table), values its evaluators.
 */
import type { Expr } from '../../sql/ast.js';
import { exprError } from './errors.js';
import { checkDateFormat, dateFormat, datePart, type DatePart } from './dates.js';
import { geodistCall } from './geodist.js';
import { BUCKET_FUNCTIONS, bucketCall } from './bucket-functions.js';
import { stringCall } from './strings.js';
import { bitdotCall } from './bitdot.js';
import { randCall } from './rand.js';
import {
  convert, isIntType, toBig, toFloat, toInt, truthy, widest,
  type CompiledExpr, type ExprType, type ExprValue,
} from './values.js';
import type { ExprContext } from './compile.js';
import { libcCiCompare } from '../../util/collation.js';

type Compile = (e: Expr, ctx: ExprContext) => CompiledExpr;
type Call = Expr & { kind: 'call' };

/** Expected argument counts: n exactly, -n at least n. */
const ARGS: Record<string, number> = {
  now: 0, abs: 1, ceil: 1, floor: 1, sin: 1, cos: 1, ln: 1, log2: 1, log10: 1, exp: 1, sqrt: 1, bigint: 1,
  integer: 1, double: 1, day: 1, month: 1, year: 1, yearmonth: 1, yearmonthday: 1, yearweek: 1, hour: 1, minute: 1,
  second: 1, dayofweek: 1, dayofyear: 1, quarter: 1, min: 2, max: 2, pow: 2, idiv: 2, if: 3, interval: -2,
  in: -1, geodist: -4, concat: -1, to_string: 1, length: 1, least: 1, greatest: 1, date_format: 2,
  substring_index: 3, regex: 2, between: 3, atan2: 2, bitdot: -1, crc32: 1, fibonacci: 1, sint: 1,
};

const FLOAT_FN: Record<string, (x: number) => number> = {
  sin: Math.sin, cos: Math.cos, exp: Math.exp,
  // Manticore answers 0 (not NaN) for a logarithm or root of a non-positive number
  ln: (x) => (x > 0 ? Math.log(x) : 0),
  log2: (x) => (x > 0 ? Math.log(x) * Math.LOG2E : 0),
  log10: (x) => (x > 0 ? Math.log(x) * Math.LOG10E : 0),
  sqrt: (x) => (x > 0 ? Math.sqrt(x) : 0),
};

const DATE_PARTS = new Set(['day', 'month', 'year', 'yearmonth', 'yearmonthday', 'yearweek', 'hour', 'minute', 'second', 'dayofweek', 'dayofyear', 'quarter']);

function checkCount(ctx: ExprContext, name: string, n: number): void {
  const want = ARGS[name]!;
  if (want === 0 && n > 0) throw exprError(ctx.table, `${name}() called with ${n} args, 0 args expected`);
  if (want > 0 && n === 0) throw exprError(ctx.table, `${name}() called without args, ${want} args expected`);
  if (want < 0 && n < -want) throw exprError(ctx.table, `${name}() called with ${n} args, at least ${-want} args expected`);
  if (want > 0 && n !== want) throw exprError(ctx.table, `${name}() called with ${n} args, ${want} args expected`);
}

function numericArgs(ctx: ExprContext, name: string, args: CompiledExpr[]): void {
  for (const a of args) {
    if (a.type === 'string') throw exprError(ctx.table, `${name}() arguments can not be string`);
    if (a.type === 'mva') throw exprError(ctx.table, `${name}() arguments can not be MVA`);
  }
}

/**
 * The i-th Fibonacci number in 32-bit arithmetic (wrapping as searchd's int), 0 below zero. Fast
 * doubling (F(2k) = F(k)(2F(k+1) - F(k)), F(2k+1) = F(k)^2 + F(k+1)^2, all mod 2^32) so that
 * FIBONACCI(2000000000) costs 31 steps per row, not a billion additions.
 */
function fibonacci(i: number): number {
  if (i <= 0) return 0;
  let a = 0, b = 1; // F(k), F(k+1) for k = the bits of i read so far
  for (let bit = 31 - Math.clz32(i); bit >= 0; bit--) {
    const c = Math.imul(a, (2 * b - a) | 0);
    const d = (Math.imul(a, a) + Math.imul(b, b)) | 0;
    if ((i >>> bit) & 1) { a = d; b = (c + d) | 0; } else { a = c; b = d; }
  }
  return a;
}

/** Values of IN()'s list: constants only, as Manticore's IN(expr, const-list). */
function constList(ctx: ExprContext, args: Expr[]): ExprValue[] {
  return args.map((a) => {
    if (a.kind === 'literal' && (a.value.kind === 'int' || a.value.kind === 'float' || a.value.kind === 'string')) {
      return a.value.kind === 'int' ? BigInt(a.value.value) : a.value.value;
    }
    if (a.kind === 'unary' && a.op === '-' && a.operand.kind === 'literal' && a.operand.value.kind === 'float') return -a.operand.value.value;
    throw exprError(ctx.table, `IN() list must hold constants, got '${a.text}'`);
  });
}

function inList(ctx: ExprContext, x: CompiledExpr, list: ExprValue[]): CompiledExpr {
  // strings match under the statement's collation, as searchd's Expr_StrIn_c (libc_ci unless set)
  const strEq = ctx.collation?.compare ?? libcCiCompare;
  const has = (v: unknown): boolean => list.some((c) => {
    if (typeof c === 'string') return typeof v === 'string' && (v === c || strEq(v, c) === 0);
    if (typeof v === 'string' || v == null || typeof v === 'object') return false;
    if (typeof c === 'bigint' && (typeof v === 'bigint' || Number.isInteger(v))) return BigInt(v as number | bigint) === c;
    return Math.abs(toFloat(v) - toFloat(c)) <= 1e-6;
  });
  if (x.type === 'mva') return { type: 'int', eval: (r) => ((x.eval(r) as bigint[]).some(has) ? 1 : 0) };
  if (x.type === 'json') return { type: 'int', eval: (r) => { const v = x.eval(r); return (Array.isArray(v) ? v.some(has) : has(v)) ? 1 : 0; } };
  if (x.type === 'int' || x.type === 'bigint') return { type: 'int', eval: (r) => (has(toBig(x.eval(r))) ? 1 : 0) };
  void ctx;
  return { type: 'int', eval: (r) => (has(x.eval(r)) ? 1 : 0) };
}

/** LEAST()/GREATEST() of an MVA or JSON array: its smallest/largest element. */
function extremum(ctx: ExprContext, name: string, a: CompiledExpr): CompiledExpr {
  const most = name === 'greatest';
  if (a.type === 'mva') {
    return { type: 'bigint', eval: (r) => (a.eval(r) as bigint[]).reduce<bigint | null>((m, v) => (m === null || (most ? v > m : v < m) ? v : m), null) };
  }
  if (a.type !== 'json') throw exprError(ctx.table, `${name}() argument must be MVA or JSON array`);
  return {
    type: 'json',
    eval: (r) => {
      const v = a.eval(r);
      if (!Array.isArray(v)) return null;
      const nums = v.filter((x): x is number => typeof x === 'number');
      return nums.length ? (most ? Math.max(...nums) : Math.min(...nums)) : null;
    },
  };
}

/** ANY(cond FOR x IN arr) / ALL(...): cond over each element of a JSON array or MVA (ALL of none is 0). */
function loopCall(e: Call, ctx: ExprContext, compile: Compile): CompiledExpr {
  const source = compile(e.args[1]!, ctx);
  if (source.type !== 'json' && source.type !== 'mva') throw exprError(ctx.table, `${e.name}() FOR source must be a JSON array or MVA`);
  const loop = { name: e.loopVar!, value: undefined as unknown };
  const cond = compile(e.args[0]!, { ...ctx, loop });
  const all = e.name === 'all';
  return {
    type: 'int',
    eval: (r) => {
      const arr = source.eval(r);
      if (!Array.isArray(arr) || !arr.length) return 0;
      for (const v of arr) {
        loop.value = typeof v === 'bigint' ? Number(v) : v;
        if (truthy(cond.eval(r), cond.type) !== all) return all ? 0 : 1;
      }
      return all ? 1 : 0;
    },
  };
}

export function compileCall(e: Call, ctx: ExprContext, compile: Compile): CompiledExpr {
  const name = e.name;
  if (BUCKET_FUNCTIONS.has(name)) return bucketCall(e, ctx, compile);
  if (name === 'rand' && !e.loopVar) return randCall(e, ctx, compile);
  if (!(name in ARGS) && !e.loopVar) throw exprError(ctx.table, `unsupported function ${name.toUpperCase()}() in expression '${e.text}'`, 'UNSUPPORTED');
  checkCount(ctx, name, e.args.length);
  if (e.loopVar) return loopCall(e, ctx, compile);
  if (name === 'in') return inList(ctx, compile(e.args[0]!, ctx), constList(ctx, e.args.slice(1)));
  if (name === 'geodist') return geodistCall(ctx, e, e.args.slice(0, 4).map((a) => compile(a, ctx)));
  const args = e.args.map((a) => compile(a, ctx));
  if (name === 'bitdot') return bitdotCall(ctx, args);
  const strings = stringCall(ctx, name, args, e);
  if (strings) return strings;
  const [a, b, c] = args as [CompiledExpr, CompiledExpr, CompiledExpr];
  if (name === 'if') {
    if (b.type === 'string' && c.type === 'string') return { type: 'string', eval: (r) => (truthy(a.eval(r), a.type) ? b.eval(r) : c.eval(r)) };
    numericArgs(ctx, name, args);
    const t = widest(b.type, c.type);
    return { type: t, eval: (r) => convert(truthy(a.eval(r), a.type) ? b.eval(r) : c.eval(r), t) };
  }
  if (name === 'least' || name === 'greatest') return extremum(ctx, name, a);
  if (name === 'date_format') {
    const fmt = e.args[1];
    if (fmt?.kind !== 'literal' || fmt.value.kind !== 'string') throw exprError(ctx.table, 'date_format() arguments 2 must be string');
    const pattern = fmt.value.value;
    checkDateFormat(pattern);
    return { type: 'string', eval: (r) => dateFormat(Number(toBig(a.eval(r))), pattern) };
  }
  numericArgs(ctx, name, args);
  if (name === 'now') { const now = Math.floor(Date.now() / 1000); return { type: 'int', eval: () => now }; }
  if (DATE_PARTS.has(name)) return { type: 'int', eval: (r) => datePart(name as DatePart, Number(toBig(a.eval(r)))) };
  if (name in FLOAT_FN) { const f = FLOAT_FN[name]!; return { type: 'float', eval: (r) => Math.fround(f(toFloat(a.eval(r)))) }; }
  switch (name) {
    case 'abs': {
      const t: ExprType = a.type === 'json' ? 'float' : a.type;
      if (t === 'float') return { type: t, eval: (r) => Math.abs(toFloat(a.eval(r))) };
      if (t === 'bigint') return { type: t, eval: (r) => { const v = toBig(a.eval(r)); return v < 0n ? BigInt.asIntN(64, -v) : v; } };
      return { type: t, eval: (r) => Math.abs(toInt(a.eval(r))) | 0 };
    }
    case 'ceil': return { type: 'bigint', eval: (r) => toBig(Math.ceil(toFloat(a.eval(r)))) };
    case 'floor': return { type: 'bigint', eval: (r) => toBig(Math.floor(toFloat(a.eval(r)))) };
    // SINT(): the low 32 bits read as a signed integer (Manticore's Expr_Sint_c: a uint attribute's value back to its sign)
    case 'sint': return { type: 'bigint', eval: (r) => BigInt.asIntN(32, toBig(a.eval(r))) };
    case 'fibonacci': return { type: 'int', eval: (r) => fibonacci(toInt(a.eval(r))) };
    case 'bigint': case 'integer': return { type: 'bigint', eval: (r) => toBig(a.eval(r)) };
    case 'double': return { type: 'float', eval: (r) => toFloat(a.eval(r)) };
    case 'pow': return { type: 'float', eval: (r) => Math.fround(Math.pow(toFloat(a.eval(r)), toFloat(b.eval(r)))) };
    case 'atan2': return { type: 'float', eval: (r) => Math.fround(Math.atan2(toFloat(a.eval(r)), toFloat(b.eval(r)))) };
    case 'min': case 'max': {
      const t = widest(a.type, b.type);
      const most = name === 'max';
      return {
        type: t,
        eval: (r) => {
          const x = convert(a.eval(r), t) as number | bigint; const y = convert(b.eval(r), t) as number | bigint;
          return most ? (y > x ? y : x) : (y < x ? y : x);
        },
      };
    }
    case 'idiv': {
      const t = isIntType(a.type) && isIntType(b.type) ? widest(a.type, b.type) : 'int';
      if (t === 'bigint') return { type: t, eval: (r) => { const y = toBig(b.eval(r)); return y === 0n ? 0n : BigInt.asIntN(64, toBig(a.eval(r)) / y); } };
      return { type: t, eval: (r) => { const y = toInt(b.eval(r)); return y === 0 ? 0 : (toInt(a.eval(r)) / y) | 0; } };
    }
    case 'between': {
      // x BETWEEN lo AND hi, compared in the widest type of the three
      const t = widest(widest(a.type, b.type), c.type);
      return {
        type: 'int',
        eval: (r) => {
          const x = convert(a.eval(r), t) as number | bigint;
          return x >= (convert(b.eval(r), t) as number | bigint) && x <= (convert(c.eval(r), t) as number | bigint) ? 1 : 0;
        },
      };
    }
    case 'interval': {
      // the number of turn points <= x (turn points given in ascending order)
      const t = args.reduce<ExprType>((w, x) => widest(w, x.type), 'int');
      const points = args.slice(1);
      return {
        type: 'int',
        eval: (r) => {
          const x = convert(a.eval(r), t) as number | bigint;
          let i = 0;
          while (i < points.length && (convert(points[i]!.eval(r), t) as number | bigint) <= x) i++;
          return i;
        },
      };
    }
  }
  throw exprError(ctx.table, `unsupported function ${name.toUpperCase()}()`, 'UNSUPPORTED');
}
