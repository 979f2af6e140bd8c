/** Comparing attribute values with literals across number, bigint and string, as filters need. */
import type { AttrValue } from '../../index/types.js';
import type { Literal } from './literal.js';

export type Scalar = number | bigint | string;

/** A literal's plain value: ints as bigint, floats as number, strings as string. */
export function literalValue(l: Literal): Scalar {
  switch (l.t) {
    case 'int': return l.v;
    case 'float': return l.v;
    case 'string': return l.v;
    case 'bool': return l.v ? 1n : 0n;
    case 'json': return l.v;
    case 'null': return 0n;
    case 'tuple': return 0n;
  }
}

/** How two strings order: byte order unless a collation is given. */
export type StringCompare = (a: string, b: string) => number;
const binary: StringCompare = (x, y) => (x < y ? -1 : x > y ? 1 : 0);

function cmp(a: Scalar, b: Scalar, strings: StringCompare): number {
  if (typeof a === 'string' || typeof b === 'string') return strings(String(a), String(b));
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  const x = Number(a), y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export function compareValues(v: Exclude<AttrValue, bigint[] | null>, lit: Scalar, op: string, strings: StringCompare = binary): boolean {
  const c = cmp(v, lit, strings);
  switch (op) {
    case '=': return c === 0;
    case '!=': return c !== 0;
    case '<': return c < 0;
    case '<=': return c <= 0;
    case '>': return c > 0;
    case '>=': return c >= 0;
    default: return false;
  }
}
