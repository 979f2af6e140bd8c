/**
 * A straightforward evaluator of numeric SQL expressions over one row, written from Manticore's rules
 * (not from src/engine/expr): every value carries its type; int32 arithmetic wraps (as a 32-bit
 * register), int64 wraps at 64 bits, floats are float32; `/` is always float and 0 when the divisor is 0.
 */
export type RefType = 'int' | 'bigint' | 'float';
export interface RefValue { t: RefType; v: bigint | number }

export type RefExpr =
  | { k: 'num'; text: string }
  | { k: 'col'; name: string }
  | { k: 'bin'; op: string; a: RefExpr; b: RefExpr }
  | { k: 'fn'; name: string; args: RefExpr[] };

export type RefRow = Record<string, RefValue>;

const I32 = (x: bigint): bigint => BigInt.asIntN(32, x);
const I64 = (x: bigint): bigint => BigInt.asIntN(64, x);

function asFloat(x: RefValue): number {
  return Math.fround(typeof x.v === 'bigint' ? Number(x.v) : x.v);
}

function asInt(x: RefValue, t: 'int' | 'bigint'): bigint {
  if (typeof x.v === 'bigint') return t === 'int' ? I32(x.v) : I64(x.v);
  const n = Math.trunc(x.v);
  const lim = t === 'int' ? 2 ** 31 : 2 ** 63;
  if (!Number.isFinite(n) || n >= lim || n < -lim) return t === 'int' ? -(2n ** 31n) : -(2n ** 63n);
  return BigInt(n);
}

function wide(a: RefType, b: RefType): RefType {
  if (a === 'int' && b === 'int') return 'int';
  if (a !== 'float' && b !== 'float') return 'bigint';
  return 'float';
}

function num(t: RefType, v: bigint | number): RefValue {
  if (t === 'float') return { t, v: Math.fround(Number(v)) };
  return { t, v: t === 'int' ? I32(BigInt(v)) : I64(BigInt(v)) };
}

function cmp(op: string, a: RefValue, b: RefValue): boolean {
  const t = wide(a.t, b.t);
  if (t === 'float') {
    const x = asFloat(a); const y = asFloat(b);
    return op === '=' ? Math.abs(x - y) <= 1e-6 : op === '!=' ? Math.abs(x - y) > 1e-6 : op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
  }
  const x = asInt(a, t); const y = asInt(b, t);
  return op === '=' ? x === y : op === '!=' ? x !== y : op === '<' ? x < y : op === '>' ? x > y : op === '<=' ? x <= y : x >= y;
}

function isTrue(x: RefValue): boolean {
  return x.t === 'float' ? asFloat(x) !== 0 : x.v !== 0n;
}

export function refEval(e: RefExpr, row: RefRow): RefValue {
  switch (e.k) {
    case 'num': {
      if (e.text.includes('.')) return num('float', Number(e.text));
      const v = BigInt(e.text);
      return v >= -(2n ** 31n) && v < 2n ** 31n ? num('int', v) : num('bigint', v);
    }
    case 'col': return row[e.name]!;
    case 'bin': {
      const a = refEval(e.a, row); const b = refEval(e.b, row);
      if (['=', '!=', '<', '>', '<=', '>='].includes(e.op)) return num('int', cmp(e.op, a, b) ? 1n : 0n);
      if (e.op === 'and') return num('int', isTrue(a) && isTrue(b) ? 1n : 0n);
      if (e.op === 'or') return num('int', isTrue(a) || isTrue(b) ? 1n : 0n);
      if (e.op === '/') { const y = asFloat(b); return num('float', y === 0 ? 0 : asFloat(a) / y); }
      const t = wide(a.t, b.t);
      if (t === 'float') {
        const x = asFloat(a); const y = asFloat(b);
        return num('float', e.op === '+' ? x + y : e.op === '-' ? x - y : x * y);
      }
      const x = asInt(a, t); const y = asInt(b, t);
      switch (e.op) {
        case '+': return num(t, x + y);
        case '-': return num(t, x - y);
        case '*': return num(t, x * y);
        case '%': return num(t, y === 0n ? 0n : x % y);
        case 'div': return num(t, y === 0n ? 0n : x / y);
      }
      throw new Error(`op ${e.op}`);
    }
    case 'fn': {
      const args = e.args.map((a) => refEval(a, row));
      const [a, b, c] = args as [RefValue, RefValue, RefValue];
      switch (e.name) {
        case 'abs': return a.t === 'float' ? num('float', Math.abs(asFloat(a))) : num(a.t, asInt(a, a.t) < 0n ? -asInt(a, a.t) : asInt(a, a.t));
        case 'ceil': return num('bigint', asInt({ t: 'float', v: Math.ceil(asFloat(a)) }, 'bigint'));
        case 'floor': return num('bigint', asInt({ t: 'float', v: Math.floor(asFloat(a)) }, 'bigint'));
        case 'sqrt': return num('float', asFloat(a) > 0 ? Math.sqrt(asFloat(a)) : 0);
        case 'ln': return num('float', asFloat(a) > 0 ? Math.log(asFloat(a)) : 0);
        case 'min': case 'max': {
          const t = wide(a.t, b.t);
          const x = t === 'float' ? asFloat(a) : asInt(a, t); const y = t === 'float' ? asFloat(b) : asInt(b, t);
          return num(t, e.name === 'min' ? (y < x ? y : x) : (y > x ? y : x));
        }
        case 'if': {
          const t = wide(b.t, c.t);
          const pick = isTrue(a) ? b : c;
          return t === 'float' ? num(t, asFloat(pick)) : num(t, asInt(pick, t));
        }
      }
      throw new Error(`fn ${e.name}`);
    }
  }
}

/** The expression as SQL text, fully parenthesized. */
export function refText(e: RefExpr): string {
  switch (e.k) {
    case 'num': return e.text;
    case 'col': return e.name;
    case 'bin': return `(${refText(e.a)} ${e.op} ${refText(e.b)})`;
    case 'fn': return `${e.name}(${e.args.map(refText).join(', ')})`;
  }
}
