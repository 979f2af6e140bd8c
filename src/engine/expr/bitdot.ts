/**
 * BITDOT(mask, w0, w1, ...): the sum of the weights whose bit is set in mask (bit0*w0 + bit1*w1 + ...).
 * As Manticore's Expr_Bitdot_c: the mask must be an integer; the sum is computed in the widest type of
 * all the arguments (int32 wrapping, int64, or float32); bits past the last weight are ignored.
 */
import { exprError } from './errors.js';
import { isIntType, toBig, toFloat, toInt, widest, type CompiledExpr, type ExprType } from './values.js';
import type { ExprContext } from './compile.js';

export function bitdotCall(ctx: ExprContext, args: CompiledExpr[]): CompiledExpr {
  const [mask, ...weights] = args as [CompiledExpr, ...CompiledExpr[]];
  if (!isIntType(mask.type)) throw exprError(ctx.table, 'first bitdot() argument must be integer');
  for (const w of weights) {
    if (w.type === 'string') throw exprError(ctx.table, 'bitdot() arguments can not be string');
    if (w.type === 'mva') throw exprError(ctx.table, 'bitdot() arguments can not be MVA');
  }
  const type = weights.reduce<ExprType>((t, w) => widest(t, w.type), mask.type);
  type Row = Parameters<CompiledExpr['eval']>[0];
  // folds add over the set bits of the mask, lowest first, as far as there are weights (no array per row)
  const fold = <T>(r: Row, zero: T, add: (sum: T, w: CompiledExpr) => T): T => {
    let m = BigInt.asUintN(64, toBig(mask.eval(r)));
    let sum = zero;
    for (let bit = 0; m !== 0n && bit < weights.length; bit++, m >>= 1n) if (m & 1n) sum = add(sum, weights[bit]!);
    return sum;
  };
  if (type === 'int') return { type, eval: (r) => fold(r, 0, (s, w) => (s + toInt(w.eval(r))) | 0) };
  if (type === 'bigint') return { type, eval: (r) => fold(r, 0n, (s, w) => BigInt.asIntN(64, s + toBig(w.eval(r)))) };
  return { type: 'float', eval: (r) => fold(r, 0, (s, w) => Math.fround(s + toFloat(w.eval(r)))) };
}
