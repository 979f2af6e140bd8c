/** Literal values: signed numbers (bigint past 2^53), strings, NULL, `(1,2,3)` tuples. */
import type { FloatLiteral, IntLiteral, Literal, NumberLiteral, StringLiteral, TupleLiteral } from './ast.js';
import type { Cursor } from './cursor.js';

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
