/**
 * JSON request bodies read as searchd reads them: its bundled cJSON (src/json/cJSON.c, called as
 * cJSON_ParseWithLen through JsonObj_c), not strict JSON. What that means, and what this keeps:
 * - the text after the first complete value is ignored (require_null_terminated is off):
 *   `{"table":"t"} trailing` is the object;
 * - a key given twice keeps both pairs in order; searchd's lookups (cJSON_GetObjectItem) find the
 *   first, so the object here holds the first value, and `repeatedPairs` has every pair for the
 *   readers that walk an object's children (an /insert `doc` is one: each pair is a column);
 * - arrays and objects nest at most CJSON_NESTING_LIMIT (1000) deep: the bracket past it is where
 *   the error points (recursion stops there, so no depth can run the stack out);
 * - whitespace is any character up to ' ' (buffer_skip_whitespace), a UTF-8 BOM is skipped, raw
 *   control characters may stand in strings;
 * - numbers are what strtod takes of the run of [0-9+-.eE] (leading zeros, `1.`, `-.5` pass); a run
 *   with `.` or `e` is a double, else an integer, which past uint64 (negative: past int64) overflows
 *   to a double as strtoull/strtoll's ERANGE sends it there.
 * Numbers are LosslessNumber, as lossless-json gave: an integer keeps its digits (64-bit exact), a
 * double its text when that is JSON's, else a JSON text of its value that still reads as a double.
 * Errors carry cJSON's error pointer (the offset it stopped at, else the last character).
 */
import { LosslessNumber } from 'lossless-json';
import { repeatedPairs, type JsonValue } from '../engine/json/json-value.js';

/** cJSON.h's CJSON_NESTING_LIMIT. */
export const NESTING_LIMIT = 1000;

/** A text cJSON refuses; `position` is its error pointer into the text (what searchd prints from). */
export class JsonSyntaxError extends Error {
  constructor(readonly position: number) {
    super(`JSON syntax error at position ${position}`);
  }
}

export { repeatedPairs };

const UINT64_MAX = (1n << 64n) - 1n;
const INT64_MIN = -(1n << 63n);
/** What strtod takes from the start of a number run. */
const STRTOD = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/;
const STRICT_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const STRICT_INT = /^-?(?:0|[1-9]\d*)$/;

/** Fails where cJSON leaves its pointer: fail returns the offset, a failure is always thrown. */
class Fail { constructor(readonly at: number) {} }

class Reader {
  off = 0;
  depth = 0;
  constructor(readonly s: string) {}

  /** buffer_skip_whitespace: stops on the last character when it runs to the end. */
  skipWs(): void {
    const s = this.s;
    while (this.off < s.length && s.charCodeAt(this.off) <= 32) this.off++;
    if (this.off === s.length) this.off--;
  }

  value(): JsonValue {
    const s = this.s;
    const at = this.off;
    if (s.startsWith('null', at)) { this.off += 4; return null; }
    if (s.startsWith('false', at)) { this.off += 5; return false; }
    if (s.startsWith('true', at)) { this.off += 4; return true; }
    const c = s.charCodeAt(at);
    if (c === 34) return this.string();
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    if (c === 91) return this.array();
    if (c === 123) return this.object();
    throw new Fail(at);
  }

  string(): string {
    const s = this.s;
    const start = this.off;
    // parse_string's pointer starts past the quote: any failure before decoding points there
    if (s.charCodeAt(start) !== 34) throw new Fail(start + 1);
    let end = start + 1;
    let plain = true;
    while (end < s.length && s.charCodeAt(end) !== 34) {
      if (s.charCodeAt(end) === 92) {
        if (end + 1 >= s.length) throw new Fail(start + 1);
        plain = false;
        end++;
      }
      end++;
    }
    if (end >= s.length) throw new Fail(start + 1);
    this.off = end + 1;
    return plain ? s.slice(start + 1, end) : unescape(s, start + 1, end);
  }

  number(): LosslessNumber {
    const s = this.s;
    const at = this.off;
    let j = at;
    // the run parse_number copies: at most 63 characters of [0-9+-.eE]
    while (j < s.length && j - at < 63 && /[0-9+\-.eE]/.test(s[j]!)) j++;
    const run = s.slice(at, j);
    const m = STRTOD.exec(run);
    if (m === null) throw new Fail(at);
    const text = m[0];
    this.off = at + text.length;
    if (!/[.eE]/.test(run)) {
      const v = BigInt(text);
      if (v <= UINT64_MAX && v >= INT64_MIN) return new LosslessNumber(STRICT_INT.test(text) ? text : v.toString());
    }
    return new LosslessNumber(doubleText(text));
  }

  array(): JsonValue[] {
    if (this.depth >= NESTING_LIMIT) throw new Fail(this.off);
    this.depth++;
    const out: JsonValue[] = [];
    const s = this.s;
    this.off++;
    this.skipWs();
    if (this.off < s.length && s.charCodeAt(this.off) === 93) return this.close(out);
    // back to the character before the first element: the loop steps over it (and over each comma)
    this.off--;
    do {
      this.off++;
      this.skipWs();
      out.push(this.value());
      this.skipWs();
    } while (this.off < s.length && s.charCodeAt(this.off) === 44);
    if (this.off >= s.length || s.charCodeAt(this.off) !== 93) throw new Fail(this.off);
    return this.close(out);
  }

  object(): { [key: string]: JsonValue } {
    if (this.depth >= NESTING_LIMIT) throw new Fail(this.off);
    this.depth++;
    const out: { [key: string]: JsonValue } = {};
    let pairs: Array<[string, JsonValue]> | undefined;
    const s = this.s;
    this.off++;
    this.skipWs();
    if (this.off < s.length && s.charCodeAt(this.off) === 125) return this.close(out);
    this.off--;
    do {
      this.off++;
      this.skipWs();
      const key = this.string();
      this.skipWs();
      if (this.off >= s.length || s.charCodeAt(this.off) !== 58) throw new Fail(this.off);
      this.off++;
      this.skipWs();
      const v = this.value();
      if (Object.prototype.hasOwnProperty.call(out, key)) {
        // the first value stays (cJSON_GetObjectItem finds it); every pair is kept for walkers
        pairs ??= Object.entries(out);
        pairs.push([key, v]);
      } else {
        // `__proto__` as an own data property, as JSON.parse makes it (assignment would hit the setter)
        if (key === '__proto__') Object.defineProperty(out, key, { value: v, writable: true, enumerable: true, configurable: true });
        else out[key] = v;
        pairs?.push([key, v]);
      }
      this.skipWs();
    } while (this.off < s.length && s.charCodeAt(this.off) === 44);
    if (this.off >= s.length || s.charCodeAt(this.off) !== 125) throw new Fail(this.off);
    if (pairs) repeatedPairs.set(out, pairs);
    return this.close(out);
  }

  private close<T>(v: T): T {
    this.depth--;
    this.off++;
    return v;
  }
}

/** A double's number text that reads back as a double: JSON's own text kept, else its value's. */
function doubleText(text: string): string {
  if (STRICT_NUMBER.test(text) && /[.eE]/.test(text)) return text;
  const n = Number(text);
  if (!Number.isFinite(n)) return n > 0 ? '1e999' : '-1e999';
  const t = String(n);
  return /[.e]/.test(t) ? t : `${t}.0`;
}

function hex4(s: string, at: number): number {
  const h = s.slice(at, at + 4);
  // parse_hex4 gives 0 for a non-hex digit
  return /^[0-9a-fA-F]{4}$/.test(h) ? parseInt(h, 16) : 0;
}

/** parse_string's decoding of s[from, end); fails on the backslash of a bad escape. */
function unescape(s: string, from: number, end: number): string {
  let out = '';
  let i = from;
  while (i < end) {
    const bs = s.indexOf('\\', i);
    if (bs < 0 || bs >= end) { out += s.slice(i, end); break; }
    out += s.slice(i, bs);
    const e = s[bs + 1];
    i = bs + 2;
    switch (e) {
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case '"': case '\\': case '/': out += e; break;
      case 'u': {
        if (end - bs < 6) throw new Fail(bs);
        const first = hex4(s, bs + 2);
        if (first >= 0xdc00 && first <= 0xdfff) throw new Fail(bs);
        if (first >= 0xd800 && first <= 0xdbff) {
          const second = bs + 6;
          if (end - second < 6 || s[second] !== '\\' || s[second + 1] !== 'u') throw new Fail(bs);
          const low = hex4(s, second + 2);
          if (low < 0xdc00 || low > 0xdfff) throw new Fail(bs);
          out += String.fromCharCode(first, low);
          i = bs + 12;
        } else {
          out += String.fromCharCode(first);
          i = bs + 6;
        }
        break;
      }
      default: throw new Fail(bs);
    }
  }
  return out;
}

/** The first JSON value of the text as cJSON_ParseWithLen reads it; the rest of the text is ignored. */
export function parseCJson(text: string): JsonValue {
  const r = new Reader(text);
  try {
    if (text.charCodeAt(0) === 0xfeff) r.off = 1;
    r.skipWs();
    if (r.off < 0) throw new Fail(0);
    return r.value();
  } catch (e) {
    if (!(e instanceof Fail)) throw e;
    // cJSON_ParseWithOpts: the offset it stopped at, else (past the end) the last character
    const at = e.at < text.length ? e.at : Math.max(0, text.length - 1);
    throw new JsonSyntaxError(Math.max(0, at));
  }
}
