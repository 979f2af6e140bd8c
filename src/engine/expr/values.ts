/**
 * Value types of select-list expressions and the conversions between them, as Manticore's expression
 * engine has them: INTEGER nodes run in int32 (IntEval, wrapping), BIGINT ones in int64 (Int64Eval),
 * FLOAT ones in float32 (Eval); strings, JSON values and MVAs are carried as they are.
 */
import type { AttrValue } from '../../index/types.js';

export type ExprType = 'int' | 'bigint' | 'float' | 'string' | 'json' | 'mva';

/** int: an int32 number; bigint: a bigint; float: a float32-rounded number; json: a parsed JSON value. */
export type ExprValue = number | bigint | string | bigint[] | unknown;

/** What an expression reads of one row. */
export interface ExprRow {
  docId: bigint;
  weight: number;
  attrs: Map<string, AttrValue>;
}

export interface CompiledExpr {
  type: ExprType;
  eval: (row: ExprRow) => ExprValue;
}

export const isIntType = (t: ExprType): boolean => t === 'int' || t === 'bigint';
export const isNumericType = (t: ExprType): boolean => t === 'int' || t === 'bigint' || t === 'float';

/** A JSON value as a number: numbers and numeric strings as themselves, anything else 0. */
function jsonNumber(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return 0;
}

/** Eval(): float32. */
export function toFloat(v: ExprValue): number {
  if (typeof v === 'bigint') return Math.fround(Number(v));
  if (typeof v === 'number') return Math.fround(v);
  if (typeof v === 'string') return Math.fround(jsonNumber(v));
  return Math.fround(jsonNumber(v));
}

/** C's (int64_t) cast of a float: truncation, out of range saturated (x86 gives INT64_MIN). */
function truncToBig(x: number): bigint {
  if (!Number.isFinite(x) || Math.abs(x) >= 9.2233720368547758e18) return -(2n ** 63n);
  return BigInt(Math.trunc(x));
}

/** Int64Eval(): int64 as bigint. */
export function toBig(v: ExprValue): bigint {
  if (typeof v === 'bigint') return BigInt.asIntN(64, v);
  // an integral double out of int64's range (a float product, floored) is C's out-of-range cast too, not a wrap
  if (typeof v === 'number') return Number.isInteger(v) && Math.abs(v) < 9.2233720368547758e18 ? BigInt(v) : truncToBig(v);
  return truncToBig(jsonNumber(v));
}

/** IntEval(): int32 (wrapping, as C's casts on x86). */
export function toInt(v: ExprValue): number {
  if (typeof v === 'bigint') return Number(BigInt.asIntN(32, v));
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return v | 0;
    if (!Number.isFinite(v) || Math.abs(v) >= 2147483648) return -2147483648;
    return Math.trunc(v) | 0;
  }
  return toInt(jsonNumber(v));
}

/** A value converted to a node type's representation. */
export function convert(v: ExprValue, t: ExprType): ExprValue {
  if (t === 'int') return toInt(v);
  if (t === 'bigint') return toBig(v);
  if (t === 'float') return toFloat(v);
  return v;
}

/** Whether a value is true as a condition: non-zero. */
export function truthy(v: ExprValue, t: ExprType): boolean {
  if (t === 'float' || t === 'json') return toFloat(v) !== 0;
  if (t === 'bigint') return toBig(v) !== 0n;
  if (t === 'string') return typeof v === 'string' && v.length > 0;
  return toInt(v) !== 0;
}

/** GetWidestRet: int with int stays int; other integers widen to bigint; JSON takes the other side's type. */
export function widest(a: ExprType, b: ExprType): ExprType {
  if (a === 'int' && b === 'int') return 'int';
  if (isIntType(a) && isIntType(b)) return 'bigint';
  if (a === 'json' && isNumericType(b)) return b;
  if (b === 'json' && isNumericType(a)) return a;
  return 'float';
}

/** A JSON attribute's text parsed (once per row read). */
export function parseJson(raw: AttrValue | undefined): unknown {
  if (typeof raw !== 'string') return undefined;
  try { return JSON.parse(raw); } catch { return undefined; }
}
