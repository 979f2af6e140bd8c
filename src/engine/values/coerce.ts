/**
 * Turns a user's literal into the value a column holds, with Manticore's conversions:
 * uint and timestamp keep the low 32 bits (1591362342000 -> 2224442480), floats become float32,
 * MVA tuples are sorted, multi64 values beyond int64 clamp, JSON text is validated and kept compact.
 */
import type { Column } from '../../schema/types.js';
import type { AttrValue } from '../../index/types.js';
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { SearchError } from '../../util/errors.js';
import { lenientToStrict } from '../json/lenient-json.js';
import type { Literal } from './literal.js';
import { clampI64, floatToInt32, floatToInt64, getUtc, strtod, strtoll, strtoul } from './c-numbers.js';

const U32 = (1n << 32n) - 1n;

function toBigInt(l: Literal): bigint | undefined {
  switch (l.t) {
    case 'int': return l.v;
    case 'float': return Number.isFinite(l.v) ? BigInt(Math.trunc(l.v)) : 0n;
    case 'bool': return l.v ? 1n : 0n;
    case 'string': {
      const s = l.v.trim();
      if (/^[+-]?\d+$/.test(s)) return BigInt(s);
      if (s !== '' && Number.isFinite(Number(s))) return BigInt(Math.trunc(Number(s)));
      return undefined;
    }
    default: return undefined;
  }
}

/**
 * The 64-bit value searchd's INSERT gives an int, uint, timestamp or bool column (searchd.cpp
 * ConvertPlainAttr), before the column keeps its low bits: a quoted value through strtoul (the leading
 * digits: '1e5' is 1, '-1' is 2^64-1, 'abc' is 0), for a timestamp GetUTC (a date, or 5+ digits), for a
 * bool 'true'/'false' first; a float literal (m_fVal, a float) through int(), INT_MIN when out of
 * range; an integer literal as SqlInsert_t::GetValueInt, saturated at int64.
 */
function intAttr(l: Literal, col: Column): bigint {
  switch (l.t) {
    case 'string': case 'json':
      if (col.type === 'timestamp') return getUtc(l.v);
      if (col.type === 'bool' && (l.v === 'true' || l.v === 'false')) return l.v === 'true' ? 1n : 0n;
      return strtoul(l.v);
    case 'float': return floatToInt32(l.v);
    default: return clampI64(toNumberish(l, col));
  }
}

/** `row N, column M: ...` errors, as Manticore words them for INSERT. */
export function valueError(row: number, col: number, what: string): SearchError {
  return new SearchError('BAD_VALUE', `row ${row}, column ${col}: ${what}`);
}

function toNumberish(l: Literal, col: Column): bigint {
  const v = toBigInt(l);
  if (v === undefined) throw new SearchError('BAD_VALUE', `${col.name}: expected a number`);
  return v;
}

/**
 * MVA values from a string: `'1,2,3'`, `'(1, 2, 3)'` or `''`, as SELECT prints them and mysqldump quotes
 * them (Manticore's Buddy plugin insert-mva restores the same); anything else is not an MVA value.
 */
function mvaFromString(text: string): Literal[] {
  const body = text.trim().replace(/^\((.*)\)$/s, '$1').trim();
  if (body === '') return [];
  const parts = body.split(',').map((p) => p.trim());
  if (!parts.every((p) => /^[+-]?\d+$/.test(p))) throw new SearchError('BAD_VALUE', 'non-MVA value specified for a MVA column');
  return parts.map((p) => ({ t: 'string', v: p }));
}

function mvaValues(l: Literal, col: Column): bigint[] {
  const items = l.t === 'tuple' ? l.v : l.t === 'null' ? [] : l.t === 'string' ? mvaFromString(l.v) : [l];
  const out = items.map((x) => {
    const v = toNumberish(x, col);
    return col.type === 'mva' ? v & U32 : clampI64(v);
  });
  out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // each value once, after the conversion, as searchd's CheckMVA (tAddVals.Uniq(): (5.5,4.4,5.5) is 4,5)
  return out.filter((v, i) => i === 0 || v !== out[i - 1]);
}

function jsonValue(l: Literal): string | null {
  switch (l.t) {
    case 'null': return null;
    case 'json': return l.v;
    case 'string': {
      if (l.v.trim() === '') return null;
      return compactJson(l.v);
    }
    case 'int': return l.v.toString();
    case 'float': return Number.isFinite(l.v) ? String(l.v) : 'null'; // JSON has no inf (as JSON.stringify)
    case 'bool': return String(l.v);
    case 'tuple': throw new SearchError('BAD_VALUE', 'non-JSON value specified for a JSON column');
  }
}

/** JSON text re-printed compact, 64-bit integers kept exact (never through a double); searchd's
 * lenient forms (single quotes, bare keys, comments: json/lenient-json.ts) are read too. As searchd's
 * grammar (sphinxjson.y: the root is an object or an array), a bare scalar ('5', '+5', 'true', '"s"')
 * is an error, not a value: strict JSON would take '5' and refuse '+5', searchd refuses both. */
export function compactJson(text: string): string {
  const root = text.trimStart()[0];
  if (root !== '{' && root !== '[' && root !== '#' && root !== '/') throw new SearchError('BAD_VALUE', `JSON error: ${text}`);
  try {
    return losslessStringify(losslessParse(text)) ?? 'null';
  } catch {
    const strict = lenientToStrict(text);
    try {
      if (strict !== undefined && strict !== '') return losslessStringify(losslessParse(strict)) ?? 'null';
    } catch { /* the error below */ }
    throw new SearchError('BAD_VALUE', `JSON error: ${text}`);
  }
}

/** The text of a full-text field from any literal (numbers as written). */
export function textValue(l: Literal): string {
  switch (l.t) {
    case 'string': return l.v;
    case 'null': return '';
    case 'int': return l.v.toString();
    case 'float': return String(l.v);
    case 'bool': return l.v ? '1' : '0';
    case 'json': return l.v;
    case 'tuple': throw new SearchError('BAD_VALUE', 'a tuple value specified for a text field');
  }
}

/** An attribute value for `col` from a literal; throws SearchError('BAD_VALUE') when it cannot convert. */
export function attrValue(l: Literal, col: Column): AttrValue {
  if (l.t === 'tuple' && col.type !== 'mva' && col.type !== 'mva64') {
    throw new SearchError('BAD_VALUE', 'MVA value specified for a non-MVA column');
  }
  switch (col.type) {
    case 'uint': case 'timestamp': case 'bool': {
      if (l.t === 'null') return 0;
      let v = Number(intAttr(l, col) & U32);
      // a bool is one bit of the row (schema/helper.cpp: iBits = 1): SetAttr keeps the value's low bit
      if (col.type === 'bool') v &= 1;
      if (col.bits && col.bits < 32) v = v % 2 ** col.bits;
      return v;
    }
    case 'bigint': {
      switch (l.t) {
        case 'null': return 0n;
        case 'string': case 'json': return strtoll(l.v);
        case 'float': return floatToInt64(l.v);
        default: return clampI64(toNumberish(l, col));
      }
    }
    case 'float': {
      switch (l.t) {
        case 'null': return 0;
        case 'string': case 'json': return Math.fround(strtod(l.v));
        case 'float': return Math.fround(l.v);
        default: return Math.fround(Number(clampI64(toNumberish(l, col))));
      }
    }
    case 'string': return l.t === 'null' ? '' : textValue(l);
    case 'json': return jsonValue(l);
    case 'mva': case 'mva64': {
      if (l.t !== 'tuple' && l.t !== 'null' && l.t !== 'int' && l.t !== 'string') {
        throw new SearchError('BAD_VALUE', 'non-MVA value specified for a MVA column');
      }
      return mvaValues(l, col);
    }
    case 'text': return textValue(l);
  }
}

/** The default value of a column a statement did not name. */
export function defaultAttr(col: Column): AttrValue {
  switch (col.type) {
    case 'bigint': return 0n;
    case 'string': case 'text': return '';
    case 'json': return null;
    case 'mva': case 'mva64': return [];
    default: return 0;
  }
}
