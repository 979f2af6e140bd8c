/**
 * The attribute filters of a JSON query (`equals`, `range`, `in`, `exists`, and how `bool` combines
 * them) as the WHERE condition tree the SQL executor already evaluates (spec section 10; Manticore's
 * src/jsonqueryfilter.cpp): must and filter AND-ed, must_not negated, should OR-ed and used only
 * when there is no must part.
 */
import type { Condition, FilterTarget, Literal as SqlLiteral } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { geoDistanceFilter } from './json-geo.js';
import { isJsonInt, isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from './json-value.js';

/** Filter property names (Manticore's IsFilter). */
export const FILTER_PROPERTIES = ['equals', 'range', 'in', 'geo_distance', 'exists'] as const;

export const isFilterProperty = (name: string): boolean => (FILTER_PROPERTIES as readonly string[]).includes(name);

const filterError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** `col` or `col.json.path`, lower-cased as Manticore does (sphColumnToLowercase). */
function target(name: string): FilterTarget {
  const [col, ...path] = name.toLowerCase().split('.');
  return { expr: { kind: 'column', name: col!, path, text: name } };
}

/**
 * `equals` and `in` also take `any(col)` / `all(col)` (jsonqueryfilter.cpp SetMvaFilterFunc: the name lower-cased,
 * four characters cut from the front and one from the end, no further check): the MVA quantifier, and over a JSON
 * array `any()` matches when an element does (sphinxfilter.cpp SetupJsonExpr: ExprJsonIn).
 */
function quantifiedTarget(name: string): FilterTarget {
  const lower = name.toLowerCase();
  const quantifier = lower.startsWith('any(') ? 'any' : lower.startsWith('all(') ? 'all' : undefined;
  if (!quantifier || lower.length < 5) return target(name);
  return { ...target(name.slice(4, -1)), quantifier };
}

const I64_MIN = -(1n << 63n);
const U64_MAX = (1n << 64n) - 1n;

/**
 * A filter value as Manticore's cJSON reads it (src/json/cJSON.c parse_number): an integer up to 2^64-1 is an
 * int64, one in 2^63..2^64-1 a "uint" whose IntVal() is the same 64 bits as int64 (18446744073709551615 is -1);
 * past that (or below -2^63) strtoull/strtoll overflow and it is a double, so the filter is a float one
 * (jsonqueryfilter.cpp). No out-of-range error as SQL's literals give.
 */
function literalOf(v: JsonValue): SqlLiteral {
  if (isJsonInt(v)) {
    const n = BigInt(v.value);
    if (n < I64_MIN || n > U64_MAX) return { kind: 'float', value: Number(v.value), text: v.value };
    return { kind: 'int', value: BigInt.asIntN(64, n), text: v.value };
  }
  if (isJsonNumber(v)) return { kind: 'float', value: Number(v.value), text: v.value };
  if (typeof v === 'boolean') return { kind: 'int', value: v ? 1 : 0, text: v ? '1' : '0' };
  if (typeof v === 'string') return { kind: 'string', value: v };
  throw filterError('"equals" filter expects numeric or string values');
}

/** The one `{column: value}` entry of a filter (Manticore's GetFilterColumn). */
function filterColumn(value: JsonValue): [string, JsonValue] {
  if (!isJsonObject(value)) throw filterError('filter should be an object');
  const entries = Object.entries(value);
  if (entries.length !== 1) throw filterError('filter should have only one element');
  return entries[0]!;
}

function equalsFilter(value: JsonValue): Condition {
  const [name, v] = filterColumn(value);
  if (Array.isArray(v)) return { kind: 'in', target: quantifiedTarget(name), values: v.map(literalOf), negate: false };
  if (!isJsonNumber(v) && typeof v !== 'string') throw filterError('"equals" filter expects numeric or string values');
  return { kind: 'compare', op: '=', target: quantifiedTarget(name), value: literalOf(v) };
}

function inFilter(value: JsonValue): Condition {
  const [name, v] = filterColumn(value);
  if (!Array.isArray(v)) throw filterError('"in" filter should contain an array of values');
  const kindOf = (x: JsonValue) => (typeof x === 'string' ? 'string' : isJsonInt(x) || typeof x === 'boolean' ? 'int' : 'other');
  if (v.some((x) => kindOf(x) === 'other')) throw filterError('"in" supports only integer, bool and string values');
  if (v.some((x) => kindOf(x) !== kindOf(v[0]!))) throw filterError('all values in the "in" filter should have one type');
  return { kind: 'in', target: quantifiedTarget(name), values: v.map(literalOf), negate: false };
}

const RANGE_OPS = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

function rangeFilter(value: JsonValue): Condition {
  const [name, v] = filterColumn(value);
  if (!isJsonObject(v)) throw filterError('empty filter found');
  const extra = Object.keys(v).filter((k) => !Object.hasOwn(RANGE_OPS, k));
  if (extra.length) throw new SearchError('UNSUPPORTED', `"range" filter property "${extra[0]}" is not supported`);
  // Manticore reads lt before lte (gt before gte) and drops the other; every bound given applies here
  const parts: Condition[] = [];
  for (const key of ['gt', 'gte', 'lt', 'lte'] as const) {
    if (v[key] === undefined) continue;
    const bound = v[key]!;
    if (!isJsonNumber(bound) && typeof bound !== 'string') throw filterError('range filter expects numeric values');
    parts.push({ kind: 'compare', op: RANGE_OPS[key], target: target(name), value: literalOf(bound) });
  }
  if (!parts.length) throw filterError('empty filter found');
  return parts.length === 1 ? parts[0]! : { kind: 'and', children: parts };
}

function existsFilter(value: JsonValue): Condition {
  if (!isJsonObject(value) || Object.keys(value).length !== 1) throw filterError('filter should have only one element');
  const field = value.field;
  if (field === undefined) throw filterError('exists filter should have only one field element');
  if (typeof field !== 'string') throw filterError('exists filter expects string value');
  return { kind: 'is_null', target: target(field), negate: true };
}

/** One filter property as a condition. */
export function filterCondition(name: string, value: JsonValue): Condition {
  switch (name) {
    case 'equals': return equalsFilter(value);
    case 'range': return rangeFilter(value);
    case 'in': return inFilter(value);
    case 'exists': return existsFilter(value);
    case 'geo_distance': return geoDistanceFilter(value);
    default: throw filterError(`unknown filter type: ${name}`);
  }
}

const andOf = (c: Condition[]): Condition | undefined =>
  c.length === 0 ? undefined : c.length === 1 ? c[0] : { kind: 'and', children: c };
const orOf = (c: Condition[]): Condition | undefined =>
  c.length === 0 ? undefined : c.length === 1 ? c[0] : { kind: 'or', children: c };

/** The filter items of one bool clause (an object or an array of objects); nested bools recurse. */
function clauseFilters(clause: string, value: JsonValue, or: boolean): Condition | undefined {
  const items = Array.isArray(value) ? value : isJsonObject(value) ? [value] : undefined;
  if (!items) throw filterError(`"${clause}" value should be an object or an array`);
  const out: Condition[] = [];
  for (const item of items) {
    if (!isJsonObject(item)) throw filterError(`"${clause}" array value should be an object`);
    const first = Object.entries(item)[0];
    if (!first) continue;
    const [name, v] = first;
    const c = name === 'bool' ? boolFilters(v) : isFilterProperty(name) ? filterCondition(name, v) : undefined;
    if (c) out.push(c);
  }
  return or ? orOf(out) : andOf(out);
}

/** The filters of a `bool` node: must/filter AND-ed with NOT(each must_not); otherwise should OR-ed. */
export function boolFilters(value: JsonValue): Condition | undefined {
  if (!isJsonObject(value)) throw filterError('"bool" value should be an object');
  const must: Condition[] = [];
  let should: Condition | undefined;
  for (const [clause, v] of Object.entries(value)) {
    if (clause === 'minimum_should_match') continue;
    if (clause !== 'must' && clause !== 'filter' && clause !== 'should' && clause !== 'must_not') {
      throw filterError(`unknown bool query type: "${clause}"`);
    }
    const c = clauseFilters(clause, v, clause === 'should' || clause === 'must_not');
    if (!c) continue;
    if (clause === 'should') should = c;
    else must.push(clause === 'must_not' ? { kind: 'not', child: c } : c);
  }
  return must.length ? andOf(must) : should;
}

/** The filters of a whole `query` object: its bool, else its first filter property. */
export function queryFilters(query: JsonObject): Condition | undefined {
  if (query.bool !== undefined) return boolFilters(query.bool);
  const first = Object.entries(query).find(([name]) => isFilterProperty(name));
  return first ? filterCondition(first[0], first[1]) : undefined;
}
