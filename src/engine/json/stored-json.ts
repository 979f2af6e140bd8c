/**
 * A stored JSON attribute's text read as searchd reads it (sphinxjson.cpp ParseNumber): an integer is an int64
 * when strtoll takes it, so one past 2^53 stays exact (a bigint here); past int64 it overflows to a double.
 * Only text with a 16-digit run can hold an integer past 2^53; the rest takes the native parser.
 */
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';

const INT64_MIN = -(1n << 63n);
const INT64_MAX = (1n << 63n) - 1n;

/** Whether strtoll takes this integer: searchd keeps it as an int64, else it overflows to a double. */
export const isInt64 = (b: bigint): boolean => b >= INT64_MIN && b <= INT64_MAX;

function storedNumber(s: string): number | bigint {
  if (!/^-?\d+$/.test(s)) return Number(s);
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : storedInteger(BigInt(s));
}

/** An integer as parseStoredJson holds it: a number while safe, a bigint within int64, past that a double. */
export function storedInteger(b: bigint): number | bigint {
  const n = Number(b);
  if (Number.isSafeInteger(n)) return n;
  return isInt64(b) ? b : n;
}

export function parseStoredJson(text: string): unknown {
  if (!/\d{16}/.test(text)) return JSON.parse(text);
  return losslessParse(text, null, storedNumber);
}

/** JSON text of a value parseStoredJson gave (bigints as their digits). */
export function storedJsonText(v: unknown): string {
  return losslessStringify(v) ?? 'null';
}
