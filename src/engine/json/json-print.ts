/**
 * JSON attribute text as searchd prints it (sphinxjson.cpp sphJsonFieldFormat, Manticore 29): a double (a number
 * written with `.` or an exponent, or an integer past int64) as C's `%lf`, six decimals (`0.1` -> `0.100000`,
 * `1e21` -> `1000000000000000000000.000000`), or `%lg` when that passes its 32-byte buffer; integers as written;
 * no whitespace. The stored text keeps the document as written (filters read exact values from it); this is
 * applied only to what is shown: SELECT j, SELECT j.k, /search `_source`.
 */
import { printfFixed } from '../values/printf-fixed.js';
import { isInt64 } from './stored-json.js';

/** PrintDouble's buffer: `%lf` longer than this falls back to `%lg`. */
const DOUBLE_BUFFER = 32;

/**
 * `%lg` (six significant digits, trailing zeros dropped, exponent of two digits at least), only ever reached for
 * |x| >= 1e24, whose `%lf` passes the buffer: always the exponent form there.
 */
function general6(x: number): string {
  const [m, p] = x.toExponential(5).split('e') as [string, string];
  const n = Number(p);
  return `${m.replace(/\.?0+$/, '')}e${n < 0 ? '-' : '+'}${String(Math.abs(n)).padStart(2, '0')}`;
}

/** A JSON double as searchd prints it. */
export function formatJsonDouble(x: number): string {
  // searchd prints inf / -inf / nan, which no JSON reader takes: null, as an infinite float given to a
  // JSON column is stored (README) — a JSON body's -1e999 inside an object reaches here as its number text
  if (!Number.isFinite(x)) return 'null';
  // toFixed is exact too, and differs from glibc only on a tie (JS rounds it up), which needs x * 10^6 to end in
  // exactly .5, so x a multiple of 2^-7 (whose toFixed(7) is exact) ending in 5 at the 7th decimal: those, -0
  // (toFixed drops its sign) and |x| >= 1e21 take the exact path. Measured: 4 doubles in a 92-byte document,
  // 3.6-4.0 us a printedJson call with printfFixed for all, 0.94 us so; 0.5 us without doubles.
  if (Math.abs(x) < 1e21 && !Object.is(x, -0) && (!Number.isInteger(x * 128) || !x.toFixed(7).endsWith('5'))) return x.toFixed(6);
  const s = printfFixed(x, 6);
  return s.length > DOUBLE_BUFFER ? general6(x) : s;
}

/** One number token of stored JSON as searchd prints it (sphinxjson.l: digits alone are an int64 if strtoll takes them). */
export function printedJsonNumber(tok: string): string {
  if (/^-?\d+$/.test(tok)) {
    if (tok.length < 18 && !/^-?0\d|^-0$/.test(tok)) return tok;
    const b = BigInt(tok);
    return isInt64(b) ? b.toString() : formatJsonDouble(Number(tok));
  }
  return formatJsonDouble(Number(tok));
}

const isDigitOrMinus = (c: number) => c === 0x2d || (c >= 0x30 && c <= 0x39);
const isNumberChar = (c: number) => isDigitOrMinus(c) || c === 0x2b || c === 0x2e || c === 0x45 || c === 0x65;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/**
 * Stored JSON text (an object or array) as searchd prints it: each double reformatted, whitespace outside strings dropped,
 * everything else (key order, strings, integers) as stored. One scan; text without doubles or spaces is returned as is.
 */
export function printedJson(text: string): string {
  const first = text.charCodeAt(0);
  // a scalar cell (SELECT j.k of a string, shown unquoted) is not JSON text: only objects and arrays are scanned
  if (first !== 0x7b && first !== 0x5b) return text;
  let out = '';
  let last = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i += text.charCodeAt(i) === 0x5c ? 2 : 1);
      i++;
    } else if (isDigitOrMinus(c)) {
      let j = i + 1;
      while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
      const tok = text.slice(i, j);
      const shown = printedJsonNumber(tok);
      if (shown !== tok) { out += text.slice(last, i) + shown; last = j; }
      i = j;
    } else if (isSpace(c)) {
      out += text.slice(last, i);
      while (i < text.length && isSpace(text.charCodeAt(i))) i++;
      last = i;
    } else i++;
  }
  return last === 0 ? text : out + text.slice(last);
}
