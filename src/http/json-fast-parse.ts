/**
 * JSON text to the value searchd's cJSON reads (numbers as LosslessNumber with their exact text),
 * through the native JSON.parse whenever that provably gives the same value: about 35x faster on a
 * 1000-line `/bulk` body (0.9 vs 34 ms, against lossless-json). Where JSON.parse takes a text it differs
 * from cJSON in three ways, all checked: a number whose text is not the shortest form of its double
 * (64-bit integers, `1.50`, `1e5`, `-0`) would lose its text, a repeated key would keep the last value
 * where cJSON's lookups find the first, and a lone surrogate escape (`\udc00`) cJSON refuses. Anything
 * doubtful, and every text JSON.parse refuses (cJSON takes some: trailing text), goes to parseCJson.
 */
import { LosslessNumber } from 'lossless-json';
import type { JsonValue } from '../engine/json/json-value.js';
import { parseCJson } from './cjson-parse.js';

/**
 * A digit run that may be a number token JSON.parse cannot keep: 16+ digits, a fraction, an exponent, -0.
 * The leading digit is shared by the first three (as `\d{16}|\d\.\d|\d[eE][-+]?\d`, the same set):
 * measured on 1000-line gcide `/bulk` bodies, tested per line, 1.11 -> 0.47 ms per body.
 */
const DOUBTFUL = /\d(?:\d{15}|\.\d|[eE][-+]?\d)|-0(?!\d)/;
/** Every number-like token, inside strings or not (being strict there only costs the fast path). */
const NUMBER_TOKENS = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
/** The number-like token at lastIndex. */
const NUMBER_TOKEN_AT = /-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y;
/** `\u003a`: an escaped colon, which the colon count below would not see in the text. */
const ESCAPED_COLON = /\\u003a/i;

/** True when every number token's text is what String() gives for its double. */
function numbersKeepText(text: string): boolean {
  if (!DOUBTFUL.test(text)) return true;
  for (const m of text.matchAll(NUMBER_TOKENS)) {
    if (String(Number(m[0])) !== m[0]) return false;
  }
  return true;
}

/** Whether the number-like token at `start` (a digit or `-`) keeps its text through its double. */
function tokenKeepsText(text: string, start: number): boolean {
  let j = start;
  if (text.charCodeAt(j) === 45) j++; // -
  const digits = j;
  let c = text.charCodeAt(j);
  while (c >= 48 && c <= 57) c = text.charCodeAt(++j);
  // DOUBTFUL's set for one token: 16+ digits, a fraction (.), an exponent (e, E), -0
  const doubtful = j - digits >= 16 || c === 46 || c === 101 || c === 69 || (digits > start && text.charCodeAt(digits) === 48);
  if (!doubtful) return true;
  NUMBER_TOKEN_AT.lastIndex = start;
  const m = NUMBER_TOKEN_AT.exec(text);
  return m === null || String(Number(m[0])) === m[0];
}

/**
 * The colons of the text, or -1 when a number-like token right after one (and JSON's whitespace) does
 * not keep its text. Every number that is an object's value follows its key's colon, so this checks
 * them all in the same pass as the count, without DOUBTFUL's scan of every character (which cost more
 * than JSON.parse on gcide lines); a colon inside a string is checked too, which at worst sends the
 * text to parseCJson. Numbers elsewhere (top level, array elements) are convert()'s `loose`.
 */
function colonsKeepingNumbers(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    n++;
    let j = i + 1;
    let c = text.charCodeAt(j);
    while (c === 32 || c === 9 || c === 10 || c === 13) c = text.charCodeAt(++j);
    if ((c === 45 || (c >= 48 && c <= 57)) && !tokenKeepsText(text, j)) return -1;
  }
  return n;
}

function countChar(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

/** Nesting deeper than this goes to parseCJson, which refuses past cJSON's limit (1000). */
const MAX_NATIVE_DEPTH = 256;

/** The value is not cJSON's: too deep, or a number that is not finite. */
class NotNative extends Error {}

/** What convert() saw: object keys, and whether a number stands outside an object (top level, array). */
interface Walk { keys: number; loose: boolean }

/** Numbers to LosslessNumber in place; returns the value and adds its object keys to `walk.keys`. */
function convert(v: unknown, walk: Walk, depth: number, inObject: boolean): unknown {
  if (typeof v === 'number') {
    if (!inObject) walk.loose = true;
    // 1e400 parses to Infinity, which has no number text (checked before for object values)
    if (!Number.isFinite(v)) throw new NotNative();
    return new LosslessNumber(String(v));
  }
  if (v === null || typeof v !== 'object') return v;
  if (depth > MAX_NATIVE_DEPTH) throw new NotNative();
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = convert(v[i], walk, depth + 1, false);
    return v;
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    walk.keys++;
    const x = o[k];
    if (typeof x !== 'object' && typeof x !== 'number') continue;
    const y = convert(x, walk, depth + 1, true);
    if (y === x) continue;
    // `__proto__` is an own data property here, as JSON.parse made it: assignment would hit the setter.
    // Any other key is assigned: defineProperty costs a slow path on every number of every request
    if (k === '__proto__') Object.defineProperty(o, k, { value: y, writable: true, enumerable: true, configurable: true });
    else o[k] = y;
  }
  return o;
}

/** Colons inside the strings and keys of a converted value. */
function colonsInStrings(v: unknown): number {
  if (typeof v === 'string') return countChar(v, ':');
  if (v === null || typeof v !== 'object' || v instanceof LosslessNumber) return 0;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + colonsInStrings(x), 0);
  let n = 0;
  for (const [k, x] of Object.entries(v)) n += countChar(k, ':') + colonsInStrings(x);
  return n;
}

/** A surrogate escape, which cJSON takes only as a valid pair (JSON.parse takes a lone one). */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** JSON.parse's value when it is cJSON's, else undefined (the caller uses parseCJson). */
function nativeParse(text: string): JsonValue | undefined {
  // includes() first: a plain substring search, cheaper than the pattern over a text without escapes
  if (text.includes('\\u') && SURROGATE_ESCAPE.test(text)) return undefined;
  const colons = colonsKeepingNumbers(text);
  if (colons < 0) return undefined;
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return undefined;
  }
  const walk: Walk = { keys: 0, loose: false };
  try {
    v = convert(v, walk, 0, false);
  } catch (e) {
    if (e instanceof NotNative) return undefined;
    throw e;
  }
  if (walk.loose && !numbersKeepText(text)) return undefined;
  // Each key/value pair of the text has one colon outside strings: as many pairs as keys parsed
  // means no key was repeated. Colons inside strings are counted only when the totals differ.
  if (colons === walk.keys) return v as JsonValue;
  if (ESCAPED_COLON.test(text)) return undefined;
  return colons - colonsInStrings(v) === walk.keys ? (v as JsonValue) : undefined;
}

/**
 * The body as searchd's cJSON reads it (cjson-parse.ts), through JSON.parse where that is provably
 * the same value: a text JSON.parse takes has no trailing text; a repeated key, a number JSON.parse
 * would not keep, and nesting past MAX_NATIVE_DEPTH (where cJSON's limit lies beyond) go to
 * parseCJson. Throws parseCJson's JsonSyntaxError.
 */
export function parseJsonExact(text: string): JsonValue {
  return nativeParse(text) ?? parseCJson(text);
}
