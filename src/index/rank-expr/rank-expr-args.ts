/** Constant arguments of the ranker's functions, checked against signatures as Manticore's hook does. */
import { SearchError } from '../../util/errors.js';
import type { RExpr } from './rank-expr-parse.js';

function err(msg: string): never {
  throw new SearchError('QUERY_ERROR', msg);
}

/** The value of a constant subexpression (numbers under + - * /, as Manticore folds them), else undefined. */
export function constOf(e: RExpr): number | undefined {
  if (e.k === 'num') return e.v;
  if (e.k === 'un' && e.op === '-') {
    const v = constOf(e.a);
    return v === undefined ? undefined : -v;
  }
  if (e.k !== 'bin' || !['+', '-', '*', '/'].includes(e.op)) return undefined;
  const a = constOf(e.a);
  const b = constOf(e.b);
  if (a === undefined || b === undefined) return undefined;
  return e.op === '+' ? a + b : e.op === '-' ? a - b : e.op === '*' ? a * b : a / b;
}

/**
 * Manticore's CheckArgtypes for the ranker's functions: every signature is a list of argument
 * kinds (s scalar, i integer, h map), all arguments constant; the first that fits is taken, else
 * the error of the last one tried stands (Manticore's later check overwrites the earlier text).
 */
export function checkArgs(e: Extract<RExpr, { k: 'call' }>, fn: string, sigs: string[], isFloat: (a: RExpr) => boolean): number[] {
  const values = e.args.map((a) => (a.k === 'map' ? 0 : constOf(a)));
  let error = '';
  for (const sig of sigs) {
    if (values.some((v) => v === undefined)) error = `${fn}() requires constant arguments`;
    else if (sig.length !== e.args.length) error = `${fn}() requires ${sig.length} argument(s), not ${e.args.length}`;
    else {
      const bad = e.args.findIndex((a, i) => (sig[i] === 'h') !== (a.k === 'map') || (sig[i] === 'i' && isFloat(a)));
      if (bad < 0) return values as number[];
      error = sig[bad] === 'h' ? `argument ${bad} to ${fn}() must be a map of constants`
        : sig[bad] === 'i' ? `argument ${bad} to ${fn}() must be integer` : `argument ${bad} to ${fn}() must be scalar (integer or float)`;
    }
  }
  return err(error);
}
