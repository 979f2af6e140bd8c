/** JSON request values as lossless-json parses them (numbers keep their text), and reading helpers. */
import { isLosslessNumber, stringify as losslessStringify, type LosslessNumber } from 'lossless-json';
import { SearchError } from '../../util/errors.js';
import type { Literal } from '../values/literal.js';

/** A parsed JSON value: numbers are LosslessNumber so 64-bit integers stay exact. */
export type JsonValue = null | boolean | string | LosslessNumber | JsonValue[] | JsonObject;
export interface JsonObject { [key: string]: JsonValue }

/**
 * Every pair, in order, of a request object whose text gave a key more than once (src/http/cjson-parse.ts):
 * the object holds the first value, which searchd's lookups (cJSON_GetObjectItem) find; readers that
 * walk an object's children as searchd does (an insert's `doc`: each pair is a column) take objectPairs.
 */
export const repeatedPairs = new WeakMap<object, Array<[string, JsonValue]>>();

/** The pairs of an object as searchd walks them, repeated keys included. */
export function objectPairs(o: JsonObject): Array<[string, JsonValue]> {
  return repeatedPairs.get(o) ?? Object.entries(o);
}

/** searchd's check of an INSERT's column list (searchd.cpp): the first name, in sorted order, given twice. */
export function twiceNamed(lowerNames: readonly string[]): string | undefined {
  if (new Set(lowerNames).size === lowerNames.length) return undefined;
  const sorted = [...lowerNames].sort();
  for (let i = 1; i < sorted.length; i++) if (sorted[i] === sorted[i - 1]) return sorted[i];
  return undefined;
}

/** searchd's error for a column named twice in an INSERT (EMYSQL_ERR::FIELD_SPECIFIED_TWICE). */
export function twiceError(name: string): SearchError {
  return new SearchError('UNKNOWN_COLUMN', `column '${name}' specified twice`);
}

const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

export const isJsonObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);

export const isJsonNumber = (v: unknown): v is LosslessNumber => isLosslessNumber(v);

/** True for a number written without a fraction or exponent (Manticore's IsInt/IsUint). */
export function isJsonInt(v: unknown): v is LosslessNumber {
  return isLosslessNumber(v) && /^-?\d+$/.test(v.value);
}

/** An integer as bigint; non-integers are truncated like a C cast. */
export function jsonBigInt(v: LosslessNumber): bigint {
  if (/^-?\d+$/.test(v.value)) return BigInt(v.value);
  const n = Number(v.value);
  return Number.isFinite(n) ? BigInt(Math.trunc(n)) : 0n;
}

/**
 * The value with numbers as plain JS numbers, for code that reads ordinary JSON (the full-text
 * forms: `boost`, and numbers where text belongs); never for ids or attribute values.
 */
export function plainJson(v: JsonValue): unknown {
  if (isLosslessNumber(v)) return Number(v.value);
  if (Array.isArray(v)) return v.map(plainJson);
  if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plainJson(x)]));
  return v;
}

/** Compact JSON text, integers exact. */
export function jsonText(v: JsonValue): string {
  return losslessStringify(v) ?? 'null';
}

/** Manticore's JSON type names in error texts (`unsupported value type 'null' in field 'price'`). */
export function jsonTypeName(v: JsonValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'string') return 'string';
  if (isLosslessNumber(v)) return isJsonInt(v) ? 'int' : 'double';
  return Array.isArray(v) ? 'array' : 'object';
}

/**
 * A document value as a Literal, as Manticore's JSON insert reads it: strings as quoted strings,
 * booleans as integers, an array of numbers (or an empty one) as an MVA tuple, any other array or
 * object as JSON text. `jsonColumn` keeps arrays as JSON for a JSON attribute.
 */
export function docLiteral(v: JsonValue, jsonColumn = false): Literal {
  if (v === null) return { t: 'null' };
  if (typeof v === 'string') return { t: 'string', v };
  if (typeof v === 'boolean') return { t: 'int', v: v ? 1n : 0n };
  if (isLosslessNumber(v)) {
    const text = v.value;
    if (!/^-?\d+$/.test(text)) return { t: 'float', v: Number(text) };
    // past int64 cJSON has a uint64 (cJSON_UInteger), whose IntVal() searchd's insert takes: wrapped
    const n = BigInt(text);
    return { t: 'int', v: n > I64_MAX ? n - (1n << 64n) : n };
  }
  if (Array.isArray(v) && !jsonColumn && v.every(isLosslessNumber)) {
    return { t: 'tuple', v: v.map((x) => docLiteral(x)) };
  }
  return { t: 'json', v: jsonText(v) };
}

/**
 * A value of an /insert, /replace or /bulk document as searchd's ParseJsonInsertSource reads it: as
 * docLiteral, except that an array's items are taken as MVA values while each is a signed integer or a
 * double (cJSON_Integer, cJSON_Number); the first other item (an integer past int64, which cJSON keeps
 * as cJSON_UInteger, a string, a bool, ...) ends the list and is dropped with every item after it
 * (clt http-interface/test-inserts.rec: [1234567890123456789, 9876543210987654321] stores
 * 1234567890123456789). An array whose first item is such is JSON text; the empty array an empty MVA.
 */
export function insertDocLiteral(v: JsonValue, jsonColumn: boolean): Literal {
  if (!Array.isArray(v) || jsonColumn) return docLiteral(v, jsonColumn);
  const taken: Literal[] = [];
  for (const x of v) {
    if (!isLosslessNumber(x)) break;
    if (/^-?\d+$/.test(x.value)) {
      const n = BigInt(x.value);
      if (n > I64_MAX && n <= U64_MAX) break;
      // past uint64 (negative: past int64) strtoull/strtoll overflow: a double, valueint clamped
      if (n > U64_MAX || n < -I64_MAX - 1n) { taken.push({ t: 'float', v: Number(n) }); continue; }
    }
    taken.push(docLiteral(x));
  }
  return taken.length || !v.length ? { t: 'tuple', v: taken } : { t: 'json', v: jsonText(v) };
}

/** The table name of a request: `table`, else `index` (lower-cased, as Manticore does). */
export function tableName(body: JsonObject): string {
  const t = body.table ?? body.index;
  if (t === undefined) throw new SearchError('PARSE_ERROR', '"table" property missing');
  if (typeof t !== 'string') throw new SearchError('PARSE_ERROR', '"table" property value should be a string');
  return t.toLowerCase();
}

/** The request body as an object, or the error Manticore gives for anything else. */
export function requestObject(body: JsonValue): JsonObject {
  if (!isJsonObject(body)) throw new SearchError('PARSE_ERROR', 'request body should be a JSON object');
  return body;
}

/** An optional integer property (`limit`, `size`, ...): Manticore's GetIntItem check and text. */
export function intProperty(obj: JsonObject, name: string): number | undefined {
  const v = obj[name];
  if (v === undefined) return undefined;
  if (!isJsonInt(v)) throw new SearchError('PARSE_ERROR', `"${name}" property value should be an integer`);
  return Number(v.value);
}
