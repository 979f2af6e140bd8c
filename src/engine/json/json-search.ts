/**
 * `/search`: a JSON request as the same SELECT the SQL executor runs (one path for hits, weights,
 * totals): table, query (json-query-tree.ts), limit/size, offset/from, max_matches, sort,
 * `_source`, options. `_score` is SQL weight().
 */
import { fuzzyJsonSearch } from '../suggest/fuzzy-search.js';
import { guardStack } from '../../query/stack-guard.js';
import { finishQuery } from '../../query/index.js';
import type { Expr, NamedValue, OrderItem, SelectItem, SelectStatement } from '../../sql/ast.js';
import type { SearchRequest } from '../../index/types.js';
import { SearchError } from '../../util/errors.js';
import { buildRequest, DEFAULT_LIMIT, DEFAULT_MAX_MATCHES, execSelect, queryFlags, querySettings, type GlobalFlags } from '../exec/exec-select.js';
import { parseAggs, runAggs, type AggRequest } from '../group/json-aggs.js';
import { firstMatchesOnly } from '../group/grouped-select.js';
import { scopedWhere, selectedValues } from '../group/facets.js';
import { geoDistance } from './json-geo.js';
import { checkSearchKeys, jsonOptions } from './json-search-keys.js';
import { addJsonHighlights, expressionItems, jsonMatchText, scriptFieldItems } from '../snippets/highlight-json.js';
import { splitJsonQuery } from './json-query-tree.js';
import { jsonQueryKey } from './json-query-key.js';
import { intProperty, isJsonObject, requestObject, tableName, type JsonObject, type JsonValue } from './json-value.js';
import { normalizeTableQuery, tableNormalizers } from '../../index/normalize-query.js';
import { tableParseOptions, tableQueryError } from '../../index/table-query.js';
import type { Catalog } from '../catalog.js';
import type { RowsResult } from '../result.js';
import { orderedColumns } from '../schema-text.js';
import { sourcePatternMatch } from './source-pattern.js';
import { TableParseCache } from '../parse-cache.js';
import type { Session } from '../session.js';
import type { Table } from '../table.js';
import type { DistributedDef } from '../distributed/dist-def.js';
import type { DistributedTables } from '../distributed/dist-registry.js';
import { distributedAggs, distributedTotal } from '../distributed/dist-aggs.js';
import { execDistributedSelect } from '../distributed/dist-select.js';

const shapeError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

const column = (name: string): Expr => ({ kind: 'column', name, path: [], text: name });
/** A sort key: an attribute, or a JSON attribute's path `meta.a.b` (searchd's sort-by parser reads both). */
function sortColumn(name: string): Expr {
  const [head, ...path] = name.split('.');
  return path.length && head && path.every((p) => p !== '') ? { kind: 'column', name: head, path, text: name } : column(name);
}
const WEIGHT: Expr = { kind: 'call', name: 'weight', args: [], text: 'weight()' };
const RAND: Expr = { kind: 'call', name: 'rand', args: [], text: 'rand()' };

/** Keys of a sort object searchd names as unsupported (ParseSortObj); any other but order and mode is refused too. */
const UNSUPPORTED_SORT_KEYS = new Set(['missing', 'nested_path', 'nested_filter']);

/**
 * `{"name": "asc"}` or `{"name": {"order": "asc", "mode": "min"}}` as searchd's ParseSortObj reads them:
 * `mode` (min / max) sorts an MVA by LEAST() / GREATEST() of its values (FormatSortBy's order expression).
 */
function sortItem(name: string, order: JsonValue | undefined): OrderItem {
  if (order !== undefined && typeof order !== 'string' && !isJsonObject(order)) throw shapeError(`"sort" property 0("${name}") should be an object`);
  let dir: JsonValue | undefined = order;
  let fn: 'least' | 'greatest' | undefined;
  if (isJsonObject(order)) {
    dir = order.order;
    if (dir !== undefined && typeof dir !== 'string') throw shapeError('"sort" property "order" order is invalid');
    if (order.mode !== undefined) {
      if (dir !== undefined && typeof order.mode !== 'string') throw shapeError('"mode" property "order" order is invalid');
      const mode = typeof order.mode === 'string' ? order.mode : '';
      if (mode !== 'min' && mode !== 'max') throw shapeError(`"mode" supported are "min" and "max", got "${mode}", not supported`);
      fn = mode === 'min' ? 'least' : 'greatest';
    }
    for (const key of Object.keys(order)) {
      if (UNSUPPORTED_SORT_KEYS.has(key)) throw new SearchError('UNSUPPORTED', `"${key}" property not supported`);
      // searchd skips other keys; a skipped key is a silently different order (issue 13)
      if (key !== 'order' && key !== 'mode') throw shapeError(`unknown property "${key}" in "sort" property "${name}"`);
    }
  }
  const direction = dir === undefined ? (name === '_score' ? 'desc' : 'asc') : dir;
  if (direction !== 'asc' && direction !== 'desc') {
    throw shapeError(`"sort" property "${name}" order is invalid ${typeof direction === 'string' ? direction : ''}`.trimEnd());
  }
  if (fn) return { expr: { kind: 'call', name: fn, args: [sortColumn(name)], text: `${fn}(${name})` }, direction };
  return { expr: name === '_score' ? WEIGHT : sortColumn(name), direction };
}

/**
 * `{"_geo_distance": {"location_anchor": {...}, "location_source": [...], "order": "asc"}}`: the GEODIST()
 * of the geo_distance filter as the key (metres), ascending unless told (Manticore's ParseSortObj).
 */
function geoSortItem(v: JsonValue): OrderItem {
  if (!isJsonObject(v)) throw shapeError('"_geo_distance" property value should be an object');
  if (v.mode !== undefined) throw shapeError('"mode" property not supported with "_geo_distance"');
  if (v.unit !== undefined) throw shapeError('"unit" property not supported with "_geo_distance"');
  const extra = Object.keys(v).find((k) => !['location_anchor', 'location_source', 'distance_type', 'order'].includes(k));
  if (extra) throw new SearchError('UNSUPPORTED', `"${extra}" property not supported`);
  const dir = v.order ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') throw shapeError('"sort" property "order" order is invalid');
  return { expr: geoDistance(v).expr, direction: dir };
}

/** `sort`: `["a", {"b": "desc"}, {"c": {"order": "asc"}}]` or one object; `_score` means weight(), `"_random"` RAND(). */
export function sortItems(sort: JsonValue | undefined): OrderItem[] {
  if (sort === undefined) return [];
  if (!Array.isArray(sort) && !isJsonObject(sort)) throw shapeError('"sort" property value should be an array or an object');
  if (isJsonObject(sort) && sort._script !== undefined) throw new SearchError('UNSUPPORTED', '"_script" property not supported');
  if (isJsonObject(sort) && !Object.keys(sort).length) throw shapeError('"sort" property 0("") should be an object');
  const out: OrderItem[] = [];
  const items = Array.isArray(sort) ? sort : [sort];
  for (const item of items) {
    if (item === '_random') {
      // Manticore's "_random" (a string item) is ORDER BY RAND() when it comes first; anywhere else it is
      // the attribute '@random', not found. searchd drops the keys after it; here they are an error
      if (out.length) { out.push({ expr: column('@random'), direction: 'asc' }); continue; }
      if (items.length > 1) throw shapeError('"_random" sorts alone: the "sort" keys after it would be ignored');
      out.push({ expr: RAND, direction: 'asc' });
      continue;
    }
    if (typeof item === 'string') { out.push(sortItem(item, undefined)); continue; }
    // searchd's texts: an array item has no name ("")
    if (!isJsonObject(item)) throw shapeError('"sort" property "" should be a string or an object');
    if (Object.keys(item).length !== 1) throw shapeError(Array.isArray(sort) ? '"sort" property "" should be an object' : 'invalid "sort" property item');
    const [name, order] = Object.entries(item)[0]!;
    out.push(name === '_geo_distance' ? geoSortItem(order) : sortItem(name, order));
  }
  return out;
}

/** `_source` as include and exclude patterns (source-pattern.ts); empty includes = everything. */
export interface SourceFilter { includes: string[]; excludes: string[] }

function stringList(v: JsonValue, what: string, key = what): string[] {
  // searchd's GetArrayItem names the key alone; ParseStringArray the whole path
  if (!Array.isArray(v)) throw shapeError(`"${key}" property value should be an array`);
  if (v.some((x) => typeof x !== 'string')) throw shapeError(`"${what}" property should be a string`);
  return v as string[];
}

export function sourceFilter(v: JsonValue | undefined): SourceFilter {
  if (v === undefined) return { includes: [], excludes: [] };
  if (typeof v === 'string') return { includes: v === '' || v === '*' ? [] : [v], excludes: [] };
  if (Array.isArray(v)) return { includes: stringList(v, '_source'), excludes: [] };
  if (!isJsonObject(v)) throw shapeError('"_source" property should be a string or an array or an object');
  let includes = v.includes === undefined ? [] : stringList(v.includes, '_source" "includes', 'includes');
  if (includes.length === 1 && includes[0] === '*') includes = [];
  const excludes = v.excludes === undefined ? [] : stringList(v.excludes, '_source" "excludes', 'excludes');
  return { includes, excludes };
}

/** Whether `_source` shows a select-list item (Manticore's IsHiddenByJsonSource, for columns and script fields alike). */
function shown(source: SourceFilter, name: string): boolean {
  if (source.includes.length && !source.includes.some((p) => sourcePatternMatch(p, name))) return false;
  return !source.excludes.some((p) => sourcePatternMatch(p, name));
}

/** The select list: `id` (it becomes `_id`), then the `_source` columns in schema order. */
function selectItems(table: Table, source: SourceFilter): SelectItem[] {
  const items: SelectItem[] = [{ expr: column('id'), name: 'id' }];
  for (const c of orderedColumns(table.schema)) {
    if (c.type === 'text' && !c.stored) continue;
    if (shown(source, c.name)) items.push({ expr: column(c.name), name: c.name });
  }
  return items;
}

/** The result without the script fields `_source` leaves out (they were computed for filters and sorting). */
function withoutHidden(result: RowsResult, hidden: Set<string>): RowsResult {
  if (!hidden.size) return result;
  const keep = result.columns.map((c, i) => (hidden.has(c.name) ? -1 : i)).filter((i) => i >= 0);
  return { ...result, columns: keep.map((i) => result.columns[i]!), rows: result.rows.map((r) => keep.map((i) => r[i]!)) };
}

/** `options` and the top-level keys that are SQL options (max_matches; ranker none when sorting without _score). */
function options(obj: JsonObject, sorted: OrderItem[]): NamedValue[] {
  const out: NamedValue[] = [];
  const mm = intProperty(obj, 'max_matches');
  if (mm !== undefined) out.push({ name: 'max_matches', value: { kind: 'int', value: mm, text: String(mm) } });
  // the top-level "cutoff" is OPTION cutoff (sphinxjsonquery.cpp)
  const cutoff = intProperty(obj, 'cutoff');
  if (cutoff !== undefined) out.push({ name: 'cutoff', value: { kind: 'int', value: cutoff, text: String(cutoff) } });
  // Sorting without _score and without track_scores skips ranking (Manticore sets ranker none).
  const trackScores = obj.track_scores === true;
  if (sorted.length && !trackScores && !sorted.some((o) => o.expr === WEIGHT)) out.push({ name: 'ranker', value: { kind: 'ident', name: 'none' } });
  return [...out, ...jsonOptions(obj.options)];
}

/** The full-text tree in dictionary form: null = full scan, 'none' = matches nothing. */
export function jsonFullText(table: Table, query: JsonValue | undefined, flags: GlobalFlags, options: NamedValue[] = []) {
  // a nesting deeper than the stack allows gets Manticore's `query too complex` error
  const tree = () => guardStack(() => JSON.stringify(query ?? null), () => jsonFullTextTree(table, query, flags, options));
  const text = jsonQueryKey(query, QUERY_CACHE.maxKeyLength);
  if (text === undefined) return tree();
  const ek = querySettings(table, options).expand_keywords ?? '';
  return QUERY_CACHE.get(table, `${queryFlags(flags, options).notTermsOnlyAllowed ? 1 : 0}${ek}\u0000${text}`, tree);
}

/** /search query trees, per table (most applications repeat their queries). */
const QUERY_CACHE = new TableParseCache<ReturnType<typeof jsonFullTextTree>>(1024, 2048);

function jsonFullTextTree(table: Table, query: JsonValue | undefined, flags: GlobalFlags, options: NamedValue[]) {
  const fields = table.index.schema.fields;
  const p = table.pipeline;
  const norm = tableNormalizers(p, querySettings(table, options));
  // The same lexer settings as SQL MATCH(): the table's charset and its null words (stopwords).
  const opts = tableParseOptions(p, fields, queryFlags(flags, options).notTermsOnlyAllowed, norm);
  const parts = splitJsonQuery(query, opts);
  let fullText: SearchRequest['query'] | 'none' = null;
  const warnings = [...parts.warnings];
  try {
    const parsed = finishQuery(parts.fullText, opts);
    warnings.push(...parsed.warnings);
    if (parsed.root.kind !== 'empty') fullText = normalizeTableQuery(parsed.root, norm) ?? 'none';
  } catch (e) {
    if (e instanceof SearchError && e.code === 'PARSE_ERROR') throw new SearchError('QUERY_ERROR', e.message);
    throw e;
  }
  return { fullText, where: parts.where, warnings };
}

function lookupTable(catalog: Catalog, name: string): Table {
  const table = catalog.get(name);
  if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown local table(s) '${name}' in search request`);
  return table;
}

/** The matches `aggs` run over: the main query's, without its sort (none when nothing can match). */
function aggsRequest(table: Table, st: SelectStatement, flags: GlobalFlags, fullText: SearchRequest['query'] | 'none'): SearchRequest {
  const req = buildRequest(table, { ...st, orderBy: undefined }, flags, fullText);
  if (req !== 'none') return req;
  return {
    query: null, ranker: 'none', fieldWeights: {}, filters: [{ attr: 'id', op: 'in', values: [] }], sort: [],
    offset: st.offset ?? 0, limit: st.limit ?? DEFAULT_LIMIT, maxMatches: DEFAULT_MAX_MATCHES,
  };
}

/** Runs a `/search` body; throws SearchError (PARSE_ERROR: request shape; others: execution). */
export async function execJsonSearch(
  catalog: Catalog, body: JsonValue, session: Session, flags: GlobalFlags, dist?: DistributedTables,
): Promise<RowsResult> {
  // options.fuzzy (Buddy's plugin in Manticore): the query rewritten before the keys are checked
  const obj = fuzzyJsonSearch(catalog, dist, requestObject(body));
  checkSearchKeys(obj);
  const def = dist?.get(tableName(obj));
  if (def) return execJsonSearchDistributed(catalog, def, obj, session, flags);
  const table = lookupTable(catalog, tableName(obj));
  const source = sourceFilter(obj._source);
  const scripts = [...scriptFieldItems(obj.script_fields), ...expressionItems(obj.expressions)];
  const { st, parts } = selectOf(table, table.name, obj, [...selectItems(table, source), ...scripts], flags);
  // HIGHLIGHT() in script_fields highlights by the request's query: give it as MATCH text (the search
  // itself runs on parts.fullText)
  if (obj.script_fields !== undefined || obj.expressions !== undefined) st.match = jsonMatchText(table, obj.query, flags);
  const aggs = parseAggs(table, obj.aggs, obj.facet_filter_mode);
  const result = await execSelect(table, st, session, flags, parts.fullText);
  if (aggs.length) {
    for (const a of aggs) if (a.auto) a.selected = selectedValues(st.where, [a.field.name.toLowerCase()]);
    type Scope = NonNullable<AggRequest['scope']>;
    let scoped = (scope: Scope) => aggsRequest(table, { ...st, where: scopedWhere(st.where, scope) }, flags, parts.fullText);
    const main = aggsRequest(table, st, flags, parts.fullText);
    if (main.cutoff) {
      // cutoff=N: each aggregation groups the first N matches of its scope's query, as searchd's FACETs do
      // (grouped-select.ts); those are found before the batch, which asks for its scopes synchronously
      const key = (scope: Scope) => `${scope.kind}:${scope.attrs.join(',')}`;
      const cut = new Map<string, SearchRequest>();
      for (const scope of [...aggs.map((a) => a.scope), { kind: 'only' as const, attrs: [] }]) {
        if (scope && !cut.has(key(scope))) cut.set(key(scope), await firstMatchesOnly(table, scoped(scope)));
      }
      scoped = (scope) => cut.get(key(scope))!;
    }
    const out = await runAggs(table, aggs, await firstMatchesOnly(table, main), scoped);
    result.aggregations = out.entries;
    // the aggregations saw every match: the total is exact, not the full scan's early-stop bound (with
    // cutoff they saw only the first N: the hits query's own total stands)
    if (result.meta && out.totalFound >= 0 && !main.cutoff) Object.assign(result.meta, { totalFound: out.totalFound, totalRelation: 'eq' });
  }
  await addJsonHighlights(table, result, obj, flags);
  // Query warnings (`ignoring fields ...`) reach the reply as `"warning":{"reason":...}`.
  if (parts.warnings.length && !result.warning) result.warning = parts.warnings.join('; ');
  return withoutHidden(result, new Set(scripts.filter((i) => !shown(source, i.name)).map((i) => i.name)));
}

/**
 * The SELECT a /search request stands for over table `name` (the request read against `table`'s schema
 * and text settings): items, sort, limit/offset, options and the WHERE of its query; a query error
 * carries `name`.
 */
function selectOf(table: Table, name: string, obj: JsonObject, items: SelectStatement['items'], flags: GlobalFlags) {
  const orderBy = sortItems(obj.sort);
  const st: SelectStatement = {
    kind: 'select', text: '', items, tables: [name], orderBy,
    limit: intProperty(obj, 'limit') ?? intProperty(obj, 'size'), offset: intProperty(obj, 'offset') ?? intProperty(obj, 'from'),
    options: options(obj, orderBy),
  };
  let parts: ReturnType<typeof jsonFullText>;
  try {
    parts = jsonFullText(table, obj.query, flags, st.options);
  } catch (e) {
    throw tableQueryError(name, e);
  }
  st.where = parts.where;
  return { st, parts };
}

/**
 * `/search` over a distributed table: the request read against its first local table's schema and
 * text settings (a query needs a tokenizer), then run as the SELECT over every shard, with MATCH in
 * text form so remote agents get it. `aggs` run as FACETs and aggregate SELECTs over the shards
 * (dist-aggs.ts); `highlight` marks the merged rows' texts on the master.
 */
async function execJsonSearchDistributed(catalog: Catalog, def: DistributedDef, obj: JsonObject, session: Session, flags: GlobalFlags): Promise<RowsResult> {
  const schemaTable = def.locals.length ? catalog.get(def.locals[0]!) : undefined;
  if (!schemaTable) throw new SearchError('UNSUPPORTED', `/search over distributed table '${def.name}' needs a local table to read the request against`);
  for (const key of ['script_fields', 'expressions']) {
    if (obj[key] !== undefined) throw new SearchError('UNSUPPORTED', `"${key}" over a distributed table is not supported`);
  }
  const aggs = parseAggs(schemaTable, obj.aggs, obj.facet_filter_mode);
  const wanted = selectItems(schemaTable, sourceFilter(obj._source));
  // highlight: the shards return every stored text, highlighted here, then _source is applied
  const highlight = obj.highlight !== undefined;
  const items = highlight ? selectItems(schemaTable, { includes: [], excludes: [] }) : wanted;
  const { st, parts } = selectOf(schemaTable, def.name, obj, items, flags);
  if (parts.fullText !== null) st.match = jsonMatchText(schemaTable, obj.query, flags);
  const [result, aggregations] = await Promise.all([
    execDistributedSelect(catalog, def, st, session, flags),
    aggs.length ? distributedAggs(catalog, def, st, aggs, flags) : undefined,
  ]);
  if (aggregations) result.aggregations = aggregations;
  // as over a local table, aggs report every match: a full scan's hits query stopped at its page
  if (aggregations && result.meta?.totalRelation === 'gte') {
    Object.assign(result.meta, { totalFound: await distributedTotal(catalog, def, st, flags), totalRelation: 'eq' });
  }
  if (highlight) {
    await addJsonHighlights(schemaTable, result, obj, flags, true);
    keepColumns(result, new Set(wanted.map((i) => i.name)));
  }
  if (parts.warnings.length && !result.warning) result.warning = parts.warnings.join('; ');
  return result;
}

/** Drops the columns not named in `names` (the _source filter after highlighting). */
function keepColumns(result: RowsResult, names: Set<string>): void {
  const keep = result.columns.map((c, i) => (names.has(c.name) ? i : -1)).filter((i) => i >= 0);
  if (keep.length === result.columns.length) return;
  result.columns = keep.map((i) => result.columns[i]!);
  result.rows = result.rows.map((r) => keep.map((i) => r[i]!));
}
