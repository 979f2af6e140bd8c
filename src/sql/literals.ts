/** Literal values: signed numbers (bigint past 2^53), strings, NULL, `(1,2,3)` tuples. */
import type { FloatLiteral, IntLiteral, Literal, NumberLiteral, StringLiteral, TupleLiteral } from './ast.js';
import type { Cursor } from './cursor.js';
import { SearchError } from '../util/errors.js';

/** Digits of the largest safe integer: shorter runs always fit a double exactly. */
const SAFE_DIGITS = 15;

/** An integer literal from its digits; a number when it is a safe integer, a bigint beyond. */
export function makeInt(digits: string, negative: boolean): IntLiteral {
  const text = negative ? `-${digits}` : digits;
  if (digits.length <= SAFE_DIGITS) return { kind: 'int', value: Number(text), text };
  const big = BigInt(text);
  const asNumber = Number(big);
  return { kind: 'int', value: Number.isSafeInteger(asNumber) ? asNumber : big, text };
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

/**
 * Manticore's reading of an integer literal as int64 (SqlNode_t::GetValueInt): past the range it saturates,
 * or, where `strict` (filters `=`, `!=`, `id IN`), it is an error (NumIsSaturated). The lexer reads digits
 * with strtoull, so the magnitude shown in the message is capped at 2^64-1.
 */
export function i64Literal<T extends Literal>(lit: T, strict: boolean): T {
  if (lit.kind !== 'int' || typeof lit.value !== 'bigint') return lit;
  const v = lit.value;
  if (v >= I64_MIN && v <= I64_MAX) return lit;
  if (strict) {
    const mag = v < 0n ? -v : v;
    const shown = `${v < 0n ? '-' : ''}${mag > U64_MAX ? U64_MAX : mag}`;
    throw new SearchError('PARSE_ERROR', `number ${shown} is out of range [-9223372036854775808..9223372036854775807]`);
  }
  return { ...lit, value: v < 0n ? I64_MIN : I64_MAX } as T;
}

export function makeFloat(digits: string, negative: boolean): FloatLiteral {
  const text = negative ? `-${digits}` : digits;
  return { kind: 'float', value: Number(text), text };
}

/** True when the cursor is at a number, optionally signed with `-` (or `+`). */
export function atNumber(c: Cursor): boolean {
  const t = c.peek();
  if (t.kind === 'int' || t.kind === 'float') return true;
  if (!c.isPunct('-') && !c.isPunct('+')) return false;
  const k = c.peek(1).kind;
  return k === 'int' || k === 'float';
}

/** Reads `[-]int` or `[-]float`; fails with `expecting` when there is none. */
export function parseNumber(c: Cursor, expecting: string[] = []): NumberLiteral {
  const negative = c.isPunct('-');
  if (negative || c.isPunct('+')) {
    const k = c.peek(1).kind;
    if (k !== 'int' && k !== 'float') { c.next(); c.fail(expecting); }
    c.next();
  }
  const t = c.peek();
  if (t.kind === 'int') { c.next(); return makeInt(t.value, negative); }
  if (t.kind === 'float') { c.next(); return makeFloat(t.value, negative); }
  return c.fail(expecting);
}

/** Reads an integer literal (signed), failing on floats and everything else. */
export function parseInteger(c: Cursor, expecting: string[] = ['integer']): IntLiteral {
  const negative = c.isPunct('-') && c.peek(1).kind === 'int';
  if (negative) c.next();
  const t = c.peek();
  if (t.kind !== 'int') c.fail(expecting);
  c.next();
  return makeInt(t.value, negative);
}

/** Reads a quoted string. */
export function parseString(c: Cursor, expecting: string[] = ['string']): StringLiteral {
  const t = c.peek();
  if (t.kind !== 'string') c.fail(expecting);
  c.next();
  return { kind: 'string', value: t.value };
}

/** `(1, -2, 3.5)` or `()`, the cursor at `(`. */
export function parseTuple(c: Cursor): TupleLiteral {
  c.expectPunct('(');
  const items: NumberLiteral[] = [];
  if (c.acceptPunct(')')) return { kind: 'tuple', items };
  do items.push(parseNumber(c)); while (c.acceptPunct(','));
  c.expectPunct(')');
  return { kind: 'tuple', items };
}

/** A value of INSERT, UPDATE and CALL: number, string, NULL or tuple. */
export function parseValue(c: Cursor): Literal {
  const t = c.peek();
  if (t.kind === 'string') { c.next(); return { kind: 'string', value: t.value }; }
  if (t.upper === 'NULL') { c.next(); return { kind: 'null' }; }
  if (c.isPunct('(')) return parseTuple(c);
  return parseNumber(c);
}
