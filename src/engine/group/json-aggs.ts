/**
 * `/search` `aggs`: `terms`, `histogram`, `range` buckets and the `min`/`max`/`sum`/`avg` metrics over
 * the request's matches, as Manticore's JSON facets (sphinxjsonquery.cpp ParseAggsNode, EncodeAggr).
 * Each runs as a grouping over every match (group-batch.ts: one pass per request, shared). Any other aggregation type or
 * key is an error naming it, never skipped.
 */
import { collation } from '../../util/collation.js';
import type { StringCompare } from '../values/value-compare.js';
import type { AttrValue, SearchRequest } from '../../index/types.js';
import { SearchError } from '../../util/errors.js';
import { cellToSourceJson, JsonFields, type JsonOut } from '../values/cell-format.js';
import { isJsonInt, isJsonNumber, isJsonObject, plainJson, type JsonObject, type JsonValue } from '../json/json-value.js';
import type { Table } from '../table.js';
import { GroupBatch } from './group-batch.js';
import { bucketStatus } from './facets.js';
import { DEFAULT_LIMIT } from '../exec/exec-select.js';
import { attrRef, jsonPathRef, keyKind, type AggFn, type AttrRef, type GroupPlan } from './group-plan.js';
import type { GroupRow } from './group-order.js';
import { bucketKey } from './aggregation-json.js';
import { dateBucket, keyAsString, offsetSeconds } from './date-buckets.js';
import { DIST_NAMES, distJson, jsonDistOptions, type DistFn, type DistOptions } from './percentiles.js';
import { addComposite, parseComposite, type CompositeRequest } from './json-composite.js';
import { parseRanges, type Range } from './json-ranges.js';

const shapeError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);
const unsupported = (what: string): SearchError => new SearchError('UNSUPPORTED', `${what} is not supported`);

const NOT_IMPLEMENTED = new Set(['significant_terms']);
const METRICS = new Set(['min', 'max', 'sum', 'avg']);
/** Keys each aggregation type reads. */
export const AGG_KEYS: Record<string, string[]> = {
  terms: ['field', 'size', 'order'], histogram: ['field', 'interval', 'offset', 'keyed', 'size'],
  range: ['field', 'ranges', 'keyed', 'size'], date_range: ['field', 'ranges', 'keyed', 'size'],
  date_histogram: ['field', 'calendar_interval', 'fixed_interval', 'time_zone', 'offset', 'keyed', 'size'], min: ['field'], max: ['field'], sum: ['field'], avg: ['field'],
  percentiles: ['field', 'values', 'keyed', 'tdigest'], percentile_ranks: ['field', 'values', 'keyed', 'tdigest'],
  median_absolute_deviation: ['field', 'tdigest'],
};


interface AggRequest {
  name: string;
  type: string;
  field: AttrRef;
  size?: number;
  order?: { by: 'count' | 'key'; desc: boolean };
  interval?: number;
  offset?: number;
  keyed?: boolean;
  ranges?: Range[];
  /** date_histogram: seconds -> bucket start. */
  dateKey?: (seconds: number) => number;
  /** date_histogram `time_zone`: key_as_string on that zone's wall clock. */
  timeZone?: string;
  composite?: CompositeRequest;
  /** percentiles, percentile_ranks, median_absolute_deviation. */
  dist?: DistOptions;
  /** Facet filter scope: `filters` / `exclude_filters` of the main query's filters, or `mode` auto (all but its own). */
  scope?: { kind: 'only' | 'exclude'; attrs: string[] };
  /** `mode` (or the top-level `facet_filter_mode`) auto or max: buckets carry a `status`. */
  auto?: boolean;
  /** Max mode: counted over the broad base query; a bucket without rows under all filters is `unavailable`. */
  max?: boolean;
  /** Max mode's `zeroes`: the broad buckets missing from the visible ones, with doc_count 0. */
  zeroes?: boolean;
  /** Auto and max modes: the values the main query selects for this field (status `selected`; undefined: no such filter), set by the caller. */
  selected?: Set<string>;
}

function numberOf(v: JsonValue | undefined, what: string): number | undefined {
  if (v === undefined) return undefined;
  if (!isJsonNumber(v)) throw shapeError(`${what} should be numeric`);
  return Number(v.value);
}

/** `order`/`sort` of a bucket: `{"_count": "desc"}`, `{"_key": "asc"}` or the field itself, or an array of one. */
function orderOf(v: JsonValue, field: string): AggRequest['order'] {
  const item = Array.isArray(v) && v.length === 1 ? v[0]! : v;
  if (!isJsonObject(item) || Object.keys(item).length !== 1) throw unsupported('this aggregation "order"');
  const [name, dirValue] = Object.entries(item)[0]!;
  const dir = isJsonObject(dirValue) ? dirValue.order : dirValue;
  if (dir !== 'asc' && dir !== 'desc') throw shapeError(`"order" property "${name}" order is invalid`);
  if (name === '_count' || name === 'count(*)') return { by: 'count', desc: dir === 'desc' };
  if (name === '_key' || name === field) return { by: 'key', desc: dir === 'desc' };
  throw unsupported(`aggregation order by "${name}"`);
}

function parseOne(table: Table, name: string, body: JsonValue, defaultMode: string): AggRequest {
  if (!isJsonObject(body)) throw shapeError('"aggs" property item should be an object');
  const entries = Object.entries(body);
  let agg: AggRequest | undefined;
  let sort: JsonValue | undefined;
  const scopeKeys: Record<string, JsonValue> = {};
  for (const [type, v] of entries) {
    if (type === 'sort') { sort = v; continue; }
    if (SCOPE_KEYS.has(type)) { scopeKeys[type] = v; continue; }
    // sub-aggregations, beside the type or inside it: searchd's AddSubAggregate refuses them
    if (type === 'aggs' || (isJsonObject(v) && v.aggs !== undefined)) throw shapeError('nested "aggs" is not supported');
    if (NOT_IMPLEMENTED.has(type)) throw unsupported(`"${type}" aggregation`);
    if (type === 'composite') {
      if (agg) throw unsupported(`aggregation '${name}' with several types`);
      const composite = parseComposite(v, (f) => fieldRef(table, f));
      agg = { name, type, field: composite.fields[0]!, composite };
      continue;
    }
    if (!AGG_KEYS[type]) throw unsupported(`"${type}" property of aggregation '${name}'`);
    if (agg) throw unsupported(`aggregation '${name}' with several types`);
    if (!isJsonObject(v)) throw shapeError(`"aggs" bucket '${name}' should be an object`);
    const extra = Object.keys(v).find((k) => !AGG_KEYS[type]!.includes(k));
    if (extra) throw unsupported(`"${extra}" property of "${type}" aggregation '${name}'`);
    if (typeof v.field !== 'string') throw shapeError(`"field" property missing in aggregation '${name}'`);
    agg = { name, type, field: fieldRef(table, v.field) };
    // a metric over a JSON path is SQL's SUM(j.n): searchd's SetupAggregateExpr will not guess its type
    if (METRICS.has(type) && agg.field.type === 'json') {
      throw new SearchError('QUERY_ERROR', `table ${table.name}: ambiguous attribute type '${v.field}', use INTEGER(), BIGINT() or DOUBLE() conversion functions`);
    }
    // JSON values group by `terms` only; histogram, range and metrics read numeric columns
    if (type !== 'terms' && (agg.field.type === 'json' || agg.field.type === 'mva' || agg.field.type === 'mva64' || agg.field.type === 'string')) {
      throw unsupported(`"${type}" aggregation over the ${agg.field.type} field '${v.field}'`);
    }
    if (v.size !== undefined) {
      if (!isJsonInt(v.size)) throw shapeError('"size" property should be an integer');
      agg.size = Number(v.size.value);
      // Manticore runs the bucket as a FACET with LIMIT size; a negative one must not reach slice()
      if (agg.size < 0) throw new SearchError('QUERY_ERROR', `limit out of bounds (limit=${agg.size})`);
    }
    if (v.order !== undefined) agg.order = orderOf(v.order, v.field);
    if (type === 'histogram') {
      if (v.interval === undefined) throw shapeError(`"${v.field}" interval missed`);
      agg.interval = numberOf(v.interval, `"${v.field}" interval`);
      agg.offset = numberOf(v.offset, `"${v.field}" offset`) ?? 0;
      if (!(agg.interval! > 0)) throw shapeError(`"${v.field}" interval should be positive`);
    }
    if (type === 'date_histogram') {
      if (v.time_zone !== undefined && typeof v.time_zone !== 'string') throw shapeError(`"${v.field}" time_zone should be string`);
      if (v.time_zone !== undefined) agg.timeZone = v.time_zone as string;
      const offset = v.offset === undefined ? undefined : offsetSeconds(v.field, isJsonNumber(v.offset) ? Number(v.offset.value) : v.offset);
      agg.dateKey = dateBucket(v.field, plainJson(v.calendar_interval as JsonValue), plainJson(v.fixed_interval as JsonValue), { timeZone: agg.timeZone, offset });
    }
    if (type === 'histogram' || type === 'range' || type === 'date_histogram' || type === 'date_range') {
      if (v.keyed !== undefined && typeof v.keyed !== 'boolean') throw shapeError('"keyed" property should be a boolean');
      agg.keyed = v.keyed === true;
    }
    if (type === 'range' || type === 'date_range') agg.ranges = parseRanges(v.ranges, v.field, type === 'date_range');
    if (DIST_NAMES[type]) {
      agg.dist = parseDist(DIST_NAMES[type]!, v, name);
      if (v.keyed === false) agg.keyed = false;
    }
  }
  if (!agg) throw shapeError(`bucket '${name}' without aggregate items`);
  if (sort !== undefined && agg.composite) throw unsupported(`"sort" of the "composite" aggregation '${name}'`);
  if (sort !== undefined) agg.order = orderOf(sort, agg.field.name);
  applyScope(agg, scopeKeys, defaultMode);
  return agg;
}

/** The facet-scope keys of one aggregation (Manticore's facet filter modes). */
const SCOPE_KEYS = new Set(['mode', 'filters', 'exclude_filters', 'zeroes']);
/** The aggregations whose buckets carry a status in auto and max modes (facet::IsJsonFacetStatusBucket). */
const STATUS_TYPES = new Set(['terms', 'histogram', 'date_histogram', 'range', 'date_range']);

function attrList(v: JsonValue, key: string): string[] {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) throw shapeError(`"${key}" property should be an array of attribute names`);
  return (v as string[]).map((x) => x.toLowerCase());
}

/**
 * strict: every main-query filter; auto: all but the aggregation's own; max: none (the broad base
 * query); `filters` / `exclude_filters` override the mode's scope. `zeroes` acts in max mode only.
 */
function applyScope(agg: AggRequest, keys: Record<string, JsonValue>, defaultMode: string): void {
  if (keys.zeroes !== undefined && typeof keys.zeroes !== 'boolean') throw shapeError('"zeroes" property should be a boolean');
  const mode = keys.mode ?? defaultMode;
  if (mode !== 'strict' && mode !== 'auto' && mode !== 'max') throw shapeError(`unknown facet mode '${String(mode)}' (supported: strict, auto, max)`);
  if (keys.filters !== undefined && keys.exclude_filters !== undefined) throw shapeError(`aggregation '${agg.name}' cannot contain both "filters" and "exclude_filters"`);
  if (agg.composite && (mode !== 'strict' || keys.filters !== undefined || keys.exclude_filters !== undefined)) throw unsupported('a filter scope of the "composite" aggregation');
  const own = agg.field.name.toLowerCase();
  if (keys.filters !== undefined) agg.scope = { kind: 'only', attrs: attrList(keys.filters, 'filters') };
  else if (keys.exclude_filters !== undefined) agg.scope = { kind: 'exclude', attrs: attrList(keys.exclude_filters, 'exclude_filters') };
  else if (mode === 'auto') agg.scope = { kind: 'exclude', attrs: [own] };
  else if (mode === 'max') agg.scope = { kind: 'only', attrs: [] };
  if (mode !== 'strict' && STATUS_TYPES.has(agg.type)) agg.auto = true;
  if (mode === 'max' && STATUS_TYPES.has(agg.type)) {
    agg.max = true;
    agg.zeroes = keys.zeroes === true;
  }
}

/** The keys of percentiles, percentile_ranks and median_absolute_deviation (the t-digest compression is checked, then moot: answers are exact). */
function parseDist(fn: DistFn, v: JsonObject, name: string): DistOptions {
  let values: number[] | undefined;
  if (v.values !== undefined) {
    if (!Array.isArray(v.values) || !v.values.every(isJsonNumber)) throw shapeError(`"values" property of aggregation '${name}' should be an array of numbers`);
    values = (v.values as { value: string }[]).map((x) => Number(x.value));
  }
  if (v.tdigest !== undefined) {
    if (!isJsonObject(v.tdigest)) throw shapeError(`"${name}" "tdigest" property should be an object`);
    const extra = Object.keys(v.tdigest).find((k) => k !== 'compression');
    if (extra) throw unsupported(`"${extra}" property of "tdigest"`);
    if (v.tdigest.compression !== undefined && !(isJsonNumber(v.tdigest.compression) && Number(v.tdigest.compression.value) > 0)) {
      throw shapeError(`"${name}" "compression" should be a positive number`);
    }
  }
  if (v.keyed !== undefined && typeof v.keyed !== 'boolean') throw shapeError('"keyed" property should be a boolean');
  return jsonDistOptions(fn, values);
}

/** `price` or a JSON path `meta.color` (terms over JSON values). */
function fieldRef(table: Table, field: string): AttrRef {
  const dot = field.indexOf('.');
  if (dot < 0) return attrRef(table, field);
  return jsonPathRef(table, attrRef(table, field.slice(0, dot)), field.slice(dot + 1).split('.'), field);
}

/** The request's `aggs`, checked; [] when absent. `facetMode`: the top-level `facet_filter_mode`. */
export function parseAggs(table: Table, aggs: JsonValue | undefined, facetMode: JsonValue = 'strict'): AggRequest[] {
  if (aggs === undefined) return [];
  if (!isJsonObject(aggs)) throw shapeError('"aggs" property value should be an object');
  if (typeof facetMode !== 'string') throw shapeError('"facet_filter_mode" property should be a string');
  return Object.entries(aggs).map(([name, body]) => parseOne(table, name, body, facetMode.toLowerCase()));
}

/** The key function of histogram and range buckets (Manticore: floor((v - offset) / interval) * interval + offset; from <= v < to). */
function bucketFn(a: AggRequest): AttrRef['bucket'] {
  const numeric = (v: AttrValue): number | undefined => (typeof v === 'number' || typeof v === 'bigint' ? Number(v) : undefined);
  if (a.type === 'histogram') {
    const { interval, offset } = a as Required<Pick<AggRequest, 'interval' | 'offset'>>;
    return (v) => { const n = numeric(v); return n === undefined ? [] : [Math.floor((n - offset) / interval) * interval + offset]; };
  }
  if (a.type === 'date_histogram') {
    const dateKey = a.dateKey!;
    return (v) => { const n = numeric(v); return n === undefined ? [] : [dateKey(n)]; };
  }
  if (a.ranges) {
    const ranges = a.ranges;
    return (v) => { const n = numeric(v); return n === undefined ? [] : ranges.flatMap((r, i) => (n >= r.lo && n < r.hi ? [i] : [])); };
  }
  return undefined;
}

function sortBuckets(a: AggRequest, rows: GroupRow[], strings: StringCompare): void {
  // terms: Manticore's default group order (weight desc; ties: the earliest match); buckets: by key asc
  const order = a.order ?? (a.type === 'terms' ? undefined : { by: 'key' as const, desc: false });
  const cmp = (x: GroupRow, y: GroupRow): number => {
    if (!order) return y.g.bestWeight - x.g.bestWeight || x.g.firstOrd - y.g.firstOrd;
    const [p, q] = order.by === 'count' ? [x.g.count, y.g.count] : [x.g.key[0], y.g.key[0]];
    // string keys order by the query's collation, as searchd's group sorter compares them
    const c = typeof p === 'string' && typeof q === 'string' ? strings(p, q)
      : (p as number | bigint | string) < (q as number | bigint | string) ? -1 : (p as number) > (q as number) ? 1 : 0;
    return (order.desc ? -c : c) || x.g.firstOrd - y.g.firstOrd;
  };
  rows.sort(cmp);
}

export type PageOf = Pick<SearchRequest, 'limit' | 'offset' | 'maxMatches' | 'collation'>;

/** The buckets shown: sorted, then Manticore's sizes (histogram at least 1000, range at least ranges+1, terms size or the main query's page). */
function pageBuckets(a: AggRequest, rows: GroupRow[], req: PageOf): GroupRow[] {
  sortBuckets(a, rows, collation(req.collation).compare);
  const size = a.type === 'histogram' || a.type === 'date_histogram' ? Math.max(a.size ?? 0, 1000) : a.ranges ? Math.max(a.size ?? 0, a.ranges.length + 1) : a.size || req.limit || DEFAULT_LIMIT;
  const offset = a.type === 'terms' && !a.size ? req.offset : 0;
  return rows.slice(offset, offset + Math.min(size, req.maxMatches));
}

/**
 * A bucket aggregation's groups from a field's distinct values and their counts (what a distributed
 * table's shards give, merged): each value is put in its buckets exactly as a local table's pass does.
 */
export function foldedGroups(a: AggRequest, values: Array<{ value: AttrValue; count: number }>): GroupRow[] {
  const bucket = bucketFn(a);
  if (!bucket) throw new SearchError('UNSUPPORTED', `"${a.type}" aggregation '${a.name}' over folded values`);
  const groups = new Map<string, GroupRow>();
  for (const v of values) {
    for (const key of bucket(v.value)) {
      const id = String(key);
      const g = groups.get(id);
      if (g) g.g.count += v.count;
      else groups.set(id, { g: { key: [key], count: v.count, aggs: [], tops: [], bestWeight: 0, bestOrd: groups.size, bestDoc: 0n, firstOrd: groups.size }, aggs: [] });
    }
  }
  return [...groups.values()];
}

/** A distribution aggregation over a field's distinct values and their counts, each value repeated as a local pass sees it. */
export function foldedDistJson(a: AggRequest, values: Array<{ value: AttrValue; count: number }>): JsonOut {
  return distJson(a.dist!, values.flatMap((v) => Array<number>(v.count).fill(Number(v.value))), a.keyed !== false);
}

/**
 * A bucket aggregation's `buckets`: `groups` under its own scope, paged. In max mode `strict` are its
 * groups under all the main query's filters (facet::SetupHelperQuery: they tell available from
 * unavailable buckets; the page of them, or all with zeroes, whose page is taken after the merge), and
 * with zeroes `broad` its groups without any filter, whose buckets missing from `groups` join with
 * doc_count 0. Local passes and a distributed table's merged groups both end here.
 */
export function bucketAggJson(a: AggRequest, groups: GroupRow[], req: PageOf, strictRows?: GroupRow[], broadRows?: GroupRow[]): JsonOut {
  const pageOf = (rows: GroupRow[]): GroupRow[] => pageBuckets(a, rows, req);
  if (!a.max || !strictRows) return new JsonFields([['buckets', bucketsJson(a, pageOf(groups))]]);
  const strict = new Set((a.zeroes ? strictRows : pageOf(strictRows)).map((r) => String(r.g.key[0])));
  if (broadRows) {
    const seen = new Set(groups.map((r) => String(r.g.key[0])));
    for (const r of broadRows) if (!seen.has(String(r.g.key[0]))) groups.push({ ...r, g: { ...r.g, count: 0 } });
  }
  return new JsonFields([['buckets', bucketsJson(a, pageOf(groups), strict)]]);
}

function bucketsJson(a: AggRequest, rows: GroupRow[], strict?: Set<string>): JsonOut {
  const kind = keyKind(a.field);
  const one = (r: GroupRow): [string, JsonFields] => {
    const fields: Array<[string, JsonOut]> = [];
    let key: string;
    if (a.ranges) {
      const range = a.ranges[r.g.key[0] as number]!;
      key = range.key;
      if (!a.keyed) fields.push(['key', key]);
      if (range.from !== undefined) fields.push(['from', range.from]);
      if (range.to !== undefined) fields.push(['to', range.to]);
    } else if (a.type === 'date_histogram') {
      const value = r.g.key[0] as number;
      key = keyAsString(value, a.timeZone);
      fields.push(['key', value], ['key_as_string', key]);
    } else {
      const value = r.g.key[0] ?? null;
      const out = a.type === 'histogram' ? cellToSourceJson(value as number, a.field.type === 'float' || !Number.isInteger(value) ? 'float' : 'bigint') : bucketKey(value as never, kind);
      key = String(value);
      fields.push(['key', a.type === 'histogram' && Number.isInteger(value) ? Number(value) : out]);
    }
    fields.push(['doc_count', r.g.count]);
    if (a.auto) fields.push(['status', bucketStatus(a.selected, strict, String(r.g.key[0]))]);
    return [key, new JsonFields(fields)];
  };
  return a.keyed ? new JsonFields(rows.map(one)) : rows.map((r) => one(r)[1]);
}

/**
 * The `aggregations` entries for the request's `aggs`. `main` is the main query's request (its limit
 * and offset are what a `terms` without `size` inherits); `scoped` the request of a filter scope.
 * Every grouping is registered first and then run as one pass per request (GroupBatch): the
 * aggregations over the main query's matches share one pass, as a SELECT's FACETs do, and each filter
 * scope gets one. `totalFound`: the main query's matches as the aggregations counted them.
 */
export async function runAggs(
  table: Table, aggs: AggRequest[], main: SearchRequest, scoped?: (scope: NonNullable<AggRequest['scope']>) => SearchRequest,
): Promise<{ entries: Array<[string, JsonOut]>; totalFound: number }> {
  const batch = new GroupBatch(table);
  // one request per distinct scope, so that aggregations of the same scope share its pass
  const scopes = new Map<string, SearchRequest>();
  const requestOf = (scope: AggRequest['scope']): SearchRequest => {
    if (!scope || !scoped) return main;
    const id = `${scope.kind}:${scope.attrs.join(',')}`;
    if (!scopes.has(id)) scopes.set(id, scoped(scope));
    return scopes.get(id)!;
  };
  const renders = aggs.map((a) => addAgg(batch, a, requestOf(a.scope), main, scoped && (() => requestOf({ kind: 'only', attrs: [] }))));
  // the main query's match count (its own pass only when every aggregation ran on another scope)
  const mainPass = batch.add(main, { keys: [], aggs: [] });
  await batch.run();
  return { entries: aggs.map((a, i) => [a.name, renders[i]!()]), totalFound: mainPass().search.totalFound };
}

/** Registers one aggregation's groupings in `batch`; the returned function renders its entry after the batch has run. */
function addAgg(batch: GroupBatch, a: AggRequest, req: SearchRequest, main: SearchRequest, broadReq?: () => SearchRequest): () => JsonOut {
  if (a.composite) return addComposite(batch, a.composite, req);
  if (a.dist) {
    const dist = a.dist;
    const read = batch.add(req, { keys: [], aggs: [{ fn: 'dist', arg: a.field, text: a.type, kind: 'string', dist }] });
    return () => distJson(dist, (read().groups[0]?.g.aggs[0]?.values ?? []).map(Number), a.keyed !== false);
  }
  if (METRICS.has(a.type)) {
    const plan: GroupPlan = { keys: [], aggs: [{ fn: a.type as AggFn, arg: a.field, text: a.type, kind: a.field.type === 'float' || a.type === 'avg' ? 'float' : 'bigint' }] };
    const read = batch.add(req, plan);
    return () => {
      const g = read().groups[0]!;
      return new JsonFields([['value', cellToSourceJson(g.g.count ? g.aggs[0]! : null, plan.aggs[0]!.kind)]]);
    };
  }
  const plan: GroupPlan = { keys: [{ ...a.field, bucket: bucketFn(a) ?? a.field.bucket }], aggs: [] };
  const read = batch.add(req, plan);
  if (!a.max) return () => bucketAggJson(a, read().groups, req);
  // max mode's helper passes: the strict one under all the main query's filters, with zeroes the broad one
  const readStrict = batch.add(main, plan);
  const readBroad = a.zeroes && broadReq ? batch.add(broadReq(), plan) : undefined;
  return () => bucketAggJson(a, read().groups, req, readStrict().groups, readBroad?.().groups);
}

export type { AggRequest };
