/** SELECT over one table: MATCH, filters, ORDER BY, LIMIT, OPTION; then the final page's values. */
import { collation, type Collation, type CollationName } from '../../util/collation.js';
import type { Expr, OrderItem, SelectStatement } from '../../sql/ast.js';
import type { AttrValue, Filter, Ranker, SearchRequest, SearchResult, SortKey } from '../../index/types.js';
import { parseQuery } from '../../query/parse-query.js';
import { guardStack } from '../../query/stack-guard.js';
import { SearchError } from '../../util/errors.js';
import { evalCondition, resolveAliases, splitFilters } from '../filters.js';
import { normalizeTableQuery, tableExpansion, tableNormalizers } from '../../index/normalize-query.js';
import { RANKERS, tableParseOptions } from '../../index/table-query.js';
import { queryExpansionWarning, type ExpansionSettings } from '../../index/wildcard.js';
import { rows, type Cell, type RowsResult, type SearchMeta } from '../result.js';
import { selectAliases, selectColumns } from '../select-items.js';
import { sortCode } from '../expr/sort-code.js';
import { hostSortKey } from '../expr/sort-host.js';
import { randomSortKey, randSeed } from '../expr/sort-random.js';
import { readRows, readRowsAsync } from '../read-rows.js';
import { isGrouping } from '../group/exec-group.js';
import { checkHaving } from '../group/having-check.js';
import { execGrouped } from '../group/grouped-select.js';
import type { Session } from '../session.js';
import { optionMap, optionText, requireNumber } from '../values/sql-values.js';
import type { NamedValue } from '../../sql/ast.js';
import type { Table } from '../table.js';
import type { Condition } from '../../sql/ast.js';
import { TableParseCache } from '../parse-cache.js';

/** Manticore's defaults: LIMIT 20 (src/sphinx.h m_iLimit), max_matches 1000 (DEFAULT_MAX_MATCHES). */
export const DEFAULT_LIMIT = 20;
export const DEFAULT_MAX_MATCHES = 1000;
/** OPTION idf flags (Manticore's sphinxql parser: normalized/plain, tfidf_normalized/tfidf_unnormalized). */
const IDF_FLAGS = new Set(['normalized', 'plain', 'tfidf_normalized', 'tfidf_unnormalized']);

export interface GlobalFlags {
  notTermsOnlyAllowed: boolean;
  /** searchd expansion_limit (SET GLOBAL / config): expansions kept per wildcard; 0 or unset = all. */
  expansionLimit?: number;
  /** The string collation of the statement: the session's collation_connection, else searchd's collation_server. */
  collation?: CollationName;
  /** The statement's RAND() seed, when execSelect chose it for the select list too (else sortKeys does). */
  randSeed?: number;
}

function isWeight(e: Expr): boolean {
  return e.kind === 'call' && e.name === 'weight' && e.args.length === 0;
}

function sortKeys(table: Table, st: SelectStatement, coll: Collation, seed: () => number): SortKey[] {
  return (st.orderBy ?? []).map((o: OrderItem) => {
    let e = o.expr;
    if (e.kind === 'column' && !e.path.length) {
      const aliased = st.items.find((i) => i.alias && i.alias.toLowerCase() === (e as { name: string }).name.toLowerCase());
      if (aliased) e = aliased.expr;
    }
    const desc = o.direction === 'desc';
    if (isWeight(e)) return { attr: 'weight()', desc };
    // ORDER BY RAND(), or ORDER BY the alias of a select-list RAND() (which may take a direction)
    if (e.kind === 'call' && e.name === 'rand' && !e.args.length) return randomSortKey(seed(), desc);
    if (e.kind === 'column' && !e.path.length) {
      const name = e.name.toLowerCase();
      if (name === 'id') return { attr: 'id', desc };
      const col = table.column(name);
      if (col && col.type !== 'text') return { attr: col.name, desc };
    }
    if (e.kind === 'column' && !e.path.length) throw new SearchError('QUERY_ERROR', `table ${table.name}: sort-by attribute '${e.text}' not found`);
    // a computed key: the core evaluates numeric formulas per row of each segment (sort-code.ts);
    // strings, JSON values and bigint arithmetic are computed on the host (sort-host.ts)
    const aliases = selectAliases(st.items);
    const stmt = () => ({ collation: coll, randSeed: seed() });
    if (e.kind === 'column') return hostSortKey(table, e, aliases, desc, stmt());
    try {
      return { attr: e.text, desc, code: sortCode(table, e, aliases, seed) };
    } catch (err) {
      if (!(err instanceof SearchError) || err.code !== 'UNSUPPORTED') throw err;
      return hostSortKey(table, e, aliases, desc, stmt());
    }
  });
}

/** OPTION rand_seed's seed, or a fresh one (sort-random.ts). */
function statementSeed(st: SelectStatement): number {
  return randSeed(optionMap(st.options).get('rand_seed'));
}

/** `idf='plain,tfidf_unnormalized'`: later flags of a pair win. */
export function idfOption(text: string): NonNullable<SearchRequest['idf']> {
  const out: NonNullable<SearchRequest['idf']> = {};
  for (const raw of text.split(',')) {
    const flag = raw.trim().toLowerCase();
    if (!IDF_FLAGS.has(flag)) throw new SearchError('QUERY_ERROR', `unknown flag ${flag} in option idf`);
    if (flag === 'plain' || flag === 'normalized') out.plain = flag === 'plain';
    else out.unnormalized = flag === 'tfidf_unnormalized';
  }
  return out;
}

/**
 * searchd's query check (CheckQuery) on max_matches, explicit or the default 1000 (a distributed master runs
 * it too), once every option is read: else the page is silently empty and a typo or a deep page reads as
 * "no matches". A negative offset comes from JSON's "offset"/"from": an error, not a page from the end.
 */
export function checkMaxMatches(maxMatches: number, offset: number): void {
  if (maxMatches < 1) throw new SearchError('QUERY_ERROR', 'max_matches can not be less than one');
  if (offset < 0 || offset >= maxMatches) throw new SearchError('QUERY_ERROR', `offset out of bounds (offset=${offset}, max_matches=${maxMatches})`);
}

/** Request options shared by SELECT, UPDATE and DELETE: ranker, field_weights, max_matches. */
function applyOptions(req: SearchRequest, st: SelectStatement): void {
  const opts = optionMap(st.options);
  const ranker = opts.get('ranker');
  if (ranker) {
    const name = ranker.kind === 'call' ? ranker.name : optionText(ranker).toLowerCase();
    if (!RANKERS.has(name)) throw new SearchError('UNSUPPORTED', `unknown ranker '${optionText(ranker)}'`);
    req.ranker = name as Ranker;
    if (name === 'expr') {
      if (ranker.kind !== 'call') throw new SearchError('QUERY_ERROR', 'ranker=expr requires an expression');
      req.rankExpr = ranker.arg;
    }
  }
  const idf = opts.get('idf');
  if (idf) req.idf = idfOption(optionText(idf));
  const iw = opts.get('index_weights');
  if (iw && iw.kind === 'list') {
    // the weight of the one table searched; tables not listed keep 1
    for (const e of iw.entries) {
      const w = requireNumber('index_weights', e.value);
      if (st.tables.some((t) => t.toLowerCase() === e.name.toLowerCase())) req.indexWeight = Math.trunc(w);
    }
  }
  const fw = opts.get('field_weights');
  if (fw && fw.kind === 'list') {
    for (const e of fw.entries) req.fieldWeights[e.name] = requireNumber('field_weights', e.value);
  }
  const mm = opts.get('max_matches');
  if (mm) req.maxMatches = requireNumber('max_matches', mm);
  const mqt = opts.get('max_query_time');
  if (mqt) req.maxQueryMs = Math.max(0, requireNumber('max_query_time', mqt));
  // Manticore: the most threads this query's pseudo-shards use; 0 = the server's
  const th = opts.get('threads');
  if (th && requireNumber('threads', th) > 0) req.threads = Math.trunc(requireNumber('threads', th));
  const cutoff = cutoffOption(st);
  if (cutoff !== undefined && cutoff > 0) req.cutoff = cutoff;
}

/**
 * OPTION cutoff as searchd reads it: unset or -1 is the default (the implicit cutoff of an unsorted full
 * scan), 0 no cutoff at all, N > 0 stop at the N-th match; below -1 is sphinx.cpp's error.
 */
export function cutoffOption(st: SelectStatement): number | undefined {
  const v = optionMap(st.options).get('cutoff');
  if (!v) return undefined;
  const n = Math.trunc(requireNumber('cutoff', v));
  if (n < -1) throw new SearchError('QUERY_ERROR', `cutoff out of bounds (cutoff=${n})`);
  return n === -1 ? undefined : n;
}

/** The global flags as one query sees them: OPTION not_terms_only_allowed wins over the server's. */
export function queryFlags(flags: GlobalFlags, options: NamedValue[]): GlobalFlags {
  const nt = optionMap(options).get('not_terms_only_allowed');
  return nt ? { ...flags, notTermsOnlyAllowed: requireNumber('not_terms_only_allowed', nt) !== 0 } : flags;
}

/**
 * The table's text settings as a query sees them: OPTION expand_keywords=1|0 replaces the table's
 * expand_keywords (Manticore's ExpandKeywords(): the query option wins over the table setting).
 */
export function querySettings(table: Table, options: NamedValue[] = []): Record<string, string> {
  const ek = optionMap(options).get('expand_keywords');
  if (!ek) return table.schema.settings;
  return { ...table.schema.settings, expand_keywords: requireNumber('expand_keywords', ek) !== 0 ? '1' : '0' };
}

/** The full-text part of a statement, parsed and normalized; null = full scan; 'none' = matches nothing. */
export function matchQuery(
  table: Table, match: string | undefined, flags: GlobalFlags, options: NamedValue[] = [], warnings?: string[],
): SearchRequest['query'] | 'none' {
  if (match === undefined) return null;
  flags = queryFlags(flags, options);
  const fields = table.index.schema.fields;
  const p = table.pipeline;
  const settings = querySettings(table, options);
  const key = `${flags.notTermsOnlyAllowed ? 1 : 0}${settings.expand_keywords ?? ''}\u0000${match}`;
  try {
    const parsed = MATCH_CACHE.get(table, key, () => {
      const norm = tableNormalizers(p, settings);
      return guardStack(match, () => {
        const q = parseQuery(match, tableParseOptions(p, fields, flags.notTermsOnlyAllowed, norm));
        if (q.root.kind === 'empty') return { query: null, warnings: q.warnings };
        return { query: normalizeTableQuery(q.root, norm) ?? 'none' as const, warnings: q.warnings };
      });
    });
    warnings?.push(...parsed.warnings);
    return parsed.query;
  } catch (e) {
    throw withTableName(table, e);
  }
}

/** MATCH texts parsed and normalized, per table (most applications repeat their queries). */
const MATCH_CACHE = new TableParseCache<{ query: SearchRequest['query'] | 'none'; warnings: string[] }>(1024, 1024);

/** Full-text errors name the table, as Manticore's per-table search reply: `table t: P08: ...`. */
function withTableName(table: Table, e: unknown): unknown {
  if (!(e instanceof SearchError) || e.message.startsWith(`table ${table.name}: `)) return e;
  return new SearchError(e.code, `table ${table.name}: ${e.message}`);
}

/** Manticore's warning for OPTION field_weights naming fields the table lacks (querycontext.cpp). */
function fieldWeightsWarning(table: Table, req: SearchRequest): string | undefined {
  if (!hasKeys(req.fieldWeights)) return undefined;
  const fields = new Set(table.index.schema.fields.map((f) => f.toLowerCase()));
  const missing = Object.keys(req.fieldWeights).filter((f) => !fields.has(f.toLowerCase()));
  return missing.length ? `Fields specified in field_weights option not found: [${missing.join(' ')}]` : undefined;
}

function hasKeys(o: object): boolean {
  for (const _ in o) return true;
  return false;
}

/** Documents accepted by the predicates the index cannot evaluate, as an `id IN` filter. */
function predicateFilter(table: Table, predicates: Condition[], coll: Collation): Filter | undefined {
  if (!predicates.length) return undefined;
  const all = table.index.search({
    query: null, ranker: 'none', fieldWeights: {}, filters: [], sort: [], offset: 0,
    limit: table.index.count(), maxMatches: table.index.count(),
  });
  const names = table.index.schema.attrs.map((a) => a.name);
  const ids: bigint[] = [];
  for (const h of all.hits) {
    const values = table.index.getAttrs(h.docId) ?? [];
    const attrs = new Map(names.map((n, i) => [n, values[i]]));
    if (predicates.every((p) => evalCondition(table, p, h.docId, attrs, coll))) ids.push(h.docId);
  }
  return { attr: 'id', op: 'in', values: ids };
}

/**
 * Builds the index request of a SELECT-like statement (also used by UPDATE/DELETE ... WHERE).
 * `fullText`, when given, replaces `st.match`: the JSON API's query tree, already normalized.
 */
export function buildRequest(
  table: Table, st: SelectStatement, flags: GlobalFlags, fullText?: SearchRequest['query'] | 'none', warnings?: string[],
): SearchRequest | 'none' {
  const query = fullText !== undefined ? fullText : matchQuery(table, st.match, flags, st.options, warnings);
  if (query === 'none') return 'none';
  const where = st.where && resolveAliases(table, st.where, selectAliases(st.items));
  const { filters, predicates } = splitFilters(table, where);
  const pf = predicateFilter(table, predicates, collation(flags.collation));
  if (pf) filters.push(pf);
  // SQL_NO_CACHE (mysqldump): every row, past the default limit and max_matches
  const all = st.allRows ? Math.max(1, table.index.count()) : undefined;
  // LIMIT -1: searchd's limitless ("streaming") select of one local table: every row from the offset on
  const limitless = !all && st.limit === -1 ? Math.max(1, table.index.count()) : undefined;
  const limit = all ?? limitless ?? st.limit ?? DEFAULT_LIMIT;
  if (limit < 0) throw new SearchError('QUERY_ERROR', `limit out of bounds (limit=${limit})`);
  let seed: number | undefined;
  const req: SearchRequest = {
    query, ranker: 'proximity_bm25', fieldWeights: {}, filters, sort: sortKeys(table, st, collation(flags.collation), () => (seed ??= flags.randSeed ?? statementSeed(st))),
    offset: all ? 0 : st.offset ?? 0, limit, maxMatches: all ?? (limitless ? limitless + (st.offset ?? 0) : DEFAULT_MAX_MATCHES),
    expansion: expansionSettings(table, st, flags),
    ...(flags.collation ? { collation: flags.collation } : {}),
  };
  applyOptions(req, st);
  // searchd's CheckQuery runs on every query, default max_matches too: LIMIT 1000,10 is an error, not an empty page
  checkMaxMatches(req.maxMatches, req.offset);
  return req;
}

/** How the request's wildcards expand: the table's lengths, OPTION expansion_limit over searchd's. */
function expansionSettings(table: Table, st: SelectStatement, flags: GlobalFlags): ExpansionSettings {
  const el = optionMap(st.options).get('expansion_limit');
  const limit = el ? requireNumber('expansion_limit', el) : flags.expansionLimit ?? 0;
  return { ...tableExpansion(table.pipeline, table.schema.settings), limit: Math.max(0, limit) };
}

/** HAVING needs groups: an explicit GROUP BY or the implicit group of aggregates (COUNT(*) too), as
 * Manticore's QueueCreator_c::CheckHavingConstraints; a plain row list refuses it. */
function havingGroups(st: SelectStatement): boolean {
  if (!st.having || st.groupBy) return false;
  checkHaving(st);
  return true;
}

export async function execSelect(
  table: Table, st: SelectStatement, session: Session, flags: GlobalFlags, fullText?: SearchRequest['query'] | 'none',
): Promise<RowsResult> {
  const started = performance.now();
  if (havingGroups(st) || isGrouping(st)) return (await execGrouped(table, [st], session, flags, started, fullText))[0]!;
  // one RAND() seed for the select list and ORDER BY, so that both see the same values (a statement's
  // seed is an option read and at most one Math.random: cheaper than finding out whether RAND() is used)
  flags = { ...flags, randSeed: flags.randSeed ?? statementSeed(st) };
  const cols = selectColumns(table, st.items, { match: st.match, collation: collation(flags.collation), randSeed: flags.randSeed });
  const parseWarnings: string[] = [];
  const req = buildRequest(table, st, flags, fullText, parseWarnings);
  const counting = cols.some((c) => c.aggregate);
  // COUNT(*) of a plain full scan is precalculated: searchd's cutoff (ApplyImplicitCutoff) does not apply
  if (req !== 'none' && counting && req.query === null && !req.filters.length) delete req.cutoff;
  const result: SearchResult = req === 'none' ? { hits: [], totalFound: 0, keywords: [] } : await table.searchAsync(req);
  const fullScan = req === 'none' || req.query === null;
  let data: Cell[][];
  const sources: (object | undefined)[] = [];
  if (counting) {
    // COUNT(*) without GROUP BY: one row over every match, the other columns from the first hit.
    const first = readRows(table, cols, result.hits.slice(0, 1))[0];
    data = [cols.map((c, i) => (c.aggregate ? BigInt(result.totalFound) : first ? first[i] : null))];
  } else {
    data = await readRowsAsync(table, cols, result.hits, sources);
  }
  // A full scan without sorting stops at offset+limit matches (Manticore's implicit cutoff), so its
  // total is a lower bound; COUNT(*) over a plain full scan is precalculated, also reported as 'gte'.
  let totalFound = result.totalFound;
  let totalRelation: 'eq' | 'gte' = 'eq';
  // OPTION cutoff=N: a full scan that stopped at its N-th match is a lower bound (a full-text one is not:
  // searchd sets bTotalMatchesApprox in its full scans only); cutoff=0 turns the implicit cutoff off.
  const explicitCutoff = cutoffOption(st);
  if (req !== 'none' && fullScan) {
    const cutoff = req.offset + req.limit;
    if (counting) totalRelation = req.filters.length && !result.cutoffHit ? 'eq' : 'gte';
    else if (result.cutoffHit) totalRelation = 'gte';
    else if (explicitCutoff === undefined && !req.sort.length && totalFound >= cutoff) { totalFound = cutoff; totalRelation = 'gte'; }
  }
  const meta: SearchMeta = {
    total: data.length, totalFound, totalRelation,
    timeMs: performance.now() - started, keywords: result.keywords,
  };
  // a wildcard too short to expand matched nothing; Manticore says so in the meta and as a warning
  // Manticore keeps one warning per query: the last one raised
  const warning = (req === 'none' || !req.expansion ? undefined : queryExpansionWarning(req.query, req.expansion))
    || (result.timedOut ? 'query time exceeded max_query_time' : undefined)
    || parseWarnings.at(-1)
    || (req === 'none' ? undefined : fieldWeightsWarning(table, req))
    || undefined;
  if (warning) meta.warning = warning;
  session.lastMeta = meta;
  session.lastWarning = warning;
  return rows(cols.map(({ name, kind }) => ({ name, kind })), data, {
    meta, weights: fullScan ? undefined : result.hits.map((h) => h.weight), ...(warning ? { warning } : {}),
    ...(st.allRows ? { exactFloats: true } : {}), ...(sources.length ? { sources } : {}),
  });
}
