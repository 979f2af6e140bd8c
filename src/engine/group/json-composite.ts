/**
 * `composite` aggregation of `/search` `aggs`: buckets over the combinations of several `terms`
 * sources, paged by `size` (default 1000, Manticore's DEFAULT_MAX_MATCHES) and `after` (the buckets
 * that follow the one whose key equals it, in the group order; from the start when none does), with
 * `after_key` the last bucket's key (sphinxjsonquery.cpp ParseAggrComposite, GetResultMatches).
 */
import type { SearchRequest } from '../../index/types.js';
import { SearchError } from '../../util/errors.js';
import { cellToSourceJson, JsonFields, type JsonOut } from '../values/cell-format.js';
import { isJsonInt, isJsonNumber, isJsonObject, type JsonValue } from '../json/json-value.js';
import type { GroupBatch } from './group-batch.js';
import { keyKind, type AttrRef } from './group-plan.js';
import type { GroupRow } from './group-order.js';

export interface CompositeRequest { names: string[]; fields: AttrRef[]; size: number; after?: Record<string, JsonValue> }

const shapeError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);
const unsupported = (what: string): SearchError => new SearchError('UNSUPPORTED', `${what} is not supported`);

export function parseComposite(v: JsonValue, fieldRef: (field: string) => AttrRef): CompositeRequest {
  if (!isJsonObject(v)) throw shapeError('"composite" property should be an object');
  const extra = Object.keys(v).find((k) => k !== 'sources' && k !== 'size' && k !== 'after');
  if (extra) throw unsupported(`"${extra}" property of "composite" aggregation`);
  if (!Array.isArray(v.sources)) throw shapeError('"sources" property item should be an array');
  const names: string[] = [];
  const fields: AttrRef[] = [];
  for (const item of v.sources) {
    if (!isJsonObject(item) || Object.keys(item).length !== 1) throw shapeError('"sources" items should be an object');
    const [name, source] = Object.entries(item)[0]!;
    if (!isJsonObject(source) || Object.keys(source).length !== 1 || !isJsonObject(source.terms)) {
      throw unsupported(`"composite" source '${name}' other than "terms"`);
    }
    const terms = source.terms;
    const other = Object.keys(terms).find((k) => k !== 'field');
    if (other) throw unsupported(`"${other}" property of "composite" source '${name}'`);
    if (typeof terms.field !== 'string') throw shapeError('"field" property missing');
    if (names.includes(name)) throw shapeError(`"composite" has multiple "${name}" aggregates`);
    names.push(name);
    fields.push(fieldRef(terms.field));
  }
  if (!names.length) throw shapeError('empty "composite" aggregate');
  let size = 1000;
  if (v.size !== undefined) {
    if (!isJsonInt(v.size)) throw shapeError('"size" property should be an integer');
    size = Number(v.size.value);
    // the grouped query's LIMIT: a negative one must not reach slice() (it cut buckets off the end)
    if (size < 0) throw new SearchError('QUERY_ERROR', `limit out of bounds (limit=${size})`);
  }
  let after: Record<string, JsonValue> | undefined;
  if (v.after !== undefined) {
    if (!isJsonObject(v.after)) throw shapeError('"after" property should be an object');
    for (const k of Object.keys(v.after)) if (!names.includes(k)) throw shapeError(`"after" missed "${k}" aggregate`);
    after = v.after;
  }
  return { names, fields, size, after };
}

/** A key value and an `after` value are the same key (numbers by value, strings by text). */
function sameKey(key: unknown, v: JsonValue): boolean {
  if (isJsonNumber(v)) return typeof key !== 'string' && Number(key) === Number(v.value);
  return typeof v === 'string' ? key === v : typeof v === 'boolean' ? Number(key) === (v ? 1 : 0) : false;
}

/** Adds the composite's grouping to `batch`; the returned function renders it once the batch has run. */
export function addComposite(batch: GroupBatch, c: CompositeRequest, req: SearchRequest): () => JsonOut {
  const read = batch.add(req, { keys: c.fields, aggs: [] });
  return () => compositeJson(c, read().groups, req);
}

/** The composite's entry over its groups (a local pass's, or a distributed table's merged ones in their order). */
export function compositeJson(c: CompositeRequest, groups: GroupRow[], req: Pick<SearchRequest, 'maxMatches'>): JsonOut {
  // Manticore's default group order: weight desc, ties in match order
  groups.sort((x: GroupRow, y: GroupRow) => y.g.bestWeight - x.g.bestWeight || x.g.firstOrd - y.g.firstOrd);
  let start = 0;
  if (c.after) {
    const after = c.after;
    const found = groups.findIndex((r) => c.names.every((n, i) => after[n] === undefined || sameKey(r.g.key[i], after[n]!)));
    start = found + 1;
  }
  const page = groups.slice(start, start + Math.min(c.size, req.maxMatches));
  const keyOf = (r: GroupRow): JsonFields => new JsonFields(c.names.map((n, i) => [n, cellToSourceJson(r.g.key[i] as never, keyKind(c.fields[i]!))]));
  const entries: Array<[string, JsonOut]> = [];
  if (page.length) entries.push(['after_key', keyOf(page[page.length - 1]!)]);
  entries.push(['buckets', page.map((r) => new JsonFields([['key', keyOf(r)], ['doc_count', r.g.count]]))]);
  return new JsonFields(entries);
}
