/**
 * FACET clauses: each one more result set after the main one, a grouping SELECT over the main query's
 * matches (same table, MATCH, WHERE and options; Manticore's SetupFacets): the facet items plus
 * COUNT(*) (and COUNT(DISTINCT col) before it for `DISTINCT col`), grouped by the BY list or else by
 * the items, ordered by the facet's ORDER BY and paged by its LIMIT (default 20).
 */
import type { Condition, Expr, FacetClause, SelectItem, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { DEFAULT_LIMIT, type GlobalFlags } from '../exec/exec-select.js';
import type { Cell, RowsResult } from '../result.js';
import { fromSql, optionMap, optionText } from '../values/sql-values.js';
import { literalValue } from '../values/value-compare.js';
import type { Session } from '../session.js';
import type { Table } from '../table.js';
import { execGrouped } from './grouped-select.js';

const COUNT_STAR: SelectItem = {
  expr: { kind: 'call', name: 'count', args: [{ kind: 'star', text: '*' }], text: 'count(*)' }, name: 'count(*)',
};

function distinctItem(col: string): SelectItem {
  const arg: Expr = { kind: 'column', name: col, path: [], text: col };
  const name = `count(distinct ${col.toLowerCase()})`;
  return { expr: { kind: 'call', name: 'count', args: [arg], distinct: true, text: name }, name };
}

/**
 * A facet item naming an alias of the main select list (`SELECT INTERVAL(price,200,400) AS r ... FACET r`)
 * groups by the aliased expression, as Manticore's facets see the main query's computed columns.
 */
function resolveAlias(st: SelectStatement, e: Expr): Expr {
  if (e.kind !== 'column' || e.path.length) return e;
  const aliased = st.items.find((i) => i.alias && i.alias === e.name.toLowerCase() && i.expr.text.toLowerCase() !== i.alias);
  return aliased ? aliased.expr : e;
}

function facetItem(st: SelectStatement, item: SelectItem): SelectItem {
  const expr = resolveAlias(st, item.expr);
  return expr === item.expr ? item : { expr, alias: item.alias ?? item.name.toLowerCase(), name: item.alias ?? item.name };
}

/** The message Manticore gives (facet::CopyFilters) when a facet's filter scope meets a WHERE it cannot split. */
const CONJUNCTION_ONLY = 'facet-local filter scope supports conjunction-only attribute filters';

/** A WHERE filter on one attribute (not a branch). */
type Leaf = Exclude<Condition, { kind: 'and' | 'or' | 'not' }>;

/**
 * `c` with its NOTs pushed down to the filters as Manticore's parser does (SqlParser_c::FilterNot:
 * De Morgan over AND/OR, a filter's exclude flag flipped): `NOT (a != 1)` is `a = 1`, `NOT (a NOT IN
 * (1,2))` is `a IN (1,2)`, `NOT (a = 1 OR b != 2)` is `a != 1 AND b = 2`. A negated filter with no
 * positive form (`NOT (a < 5)`, `NOT (a IS NULL)`) stays a NOT: an exclude filter.
 */
export function pushNot(c: Condition, negate = false): Condition {
  if (c.kind === 'not') return pushNot(c.child, !negate);
  if (c.kind === 'and' || c.kind === 'or') {
    const children = c.children.map((x) => pushNot(x, negate));
    return { kind: negate === (c.kind === 'and') ? 'or' : 'and', children };
  }
  if (!negate) return c;
  if (c.kind === 'compare' && (c.op === '=' || c.op === '!=')) return { ...c, op: c.op === '=' ? '!=' : '=' };
  if (c.kind === 'in' || c.kind === 'between') return { ...c, negate: !c.negate };
  return { kind: 'not', child: c };
}

/**
 * The main WHERE's filters when it is a plain conjunction of positive filters (after pushNot), else
 * undefined: an OR (Manticore builds a filter tree for it) or an exclude filter (`!=`, `NOT IN`,
 * `NOT BETWEEN`, a NOT left over) cannot be split by attribute.
 */
function conjuncts(c: Condition): Leaf[] | undefined {
  if (c.kind === 'and') {
    const out: Leaf[] = [];
    for (const child of c.children) {
      const leaves = conjuncts(child);
      if (!leaves) return undefined;
      out.push(...leaves);
    }
    return out;
  }
  if (c.kind === 'or' || c.kind === 'not') return undefined;
  if ((c.kind === 'compare' && c.op === '!=') || ((c.kind === 'in' || c.kind === 'between') && c.negate)) return undefined;
  return [c];
}

/**
 * The main WHERE as a facet with `FILTERS a, b` (only the filters on those attributes) or `EXCLUDE
 * FILTERS a, b` (all others) sees it: the main query's AND filters, each kept or dropped by the
 * attribute it tests (Manticore's facet::CopyFilters). Any other WHERE is Manticore's error, whichever
 * filters the scope would drop, rather than a scope that silently loses part of an OR.
 */
export function scopedWhere(where: Condition | undefined, filters: NonNullable<FacetClause['filters']>): Condition | undefined {
  if (!where || filters.kind === 'all') return where;
  const leaves = conjuncts(pushNot(where));
  if (!leaves) throw new SearchError('QUERY_ERROR', CONJUNCTION_ONLY);
  const listed = new Set(filters.attrs);
  const kept = leaves.filter((c) => listed.has(c.target.expr.text.toLowerCase()) === (filters.kind === 'only'));
  return kept.length === 0 ? undefined : kept.length === 1 ? kept[0] : { kind: 'and', children: kept };
}

/** The facet's filter mode: its MODE, else OPTION facet_filter_mode, else strict. */
function facetMode(st: SelectStatement, f: FacetClause): 'strict' | 'auto' | 'max' {
  const opt = optionMap(st.options).get('facet_filter_mode');
  return f.mode ?? (opt ? optionText(opt).toLowerCase() as 'strict' | 'auto' | 'max' : 'strict');
}

/** The attributes a facet groups by (its BY list, else its items), as WHERE names them. */
function ownAttrs(st: SelectStatement, f: FacetClause): string[] {
  return [...(f.by ?? f.items.map((i) => i.expr)).map((e) => e.text.toLowerCase()), ...f.items.flatMap((i) => (i.alias ? [i.alias] : []))]
    .flatMap((n) => [n, ...st.items.filter((i) => i.alias === n).map((i) => i.expr.text.toLowerCase())]);
}

/**
 * A bucket's `status` in auto and max modes (Manticore's facet::GetBucketStatus): `selected` when the
 * bucket matches every main-query `=`/`IN` filter on its attribute (`selected`, see selectedValues);
 * when there is such a filter every other bucket is `available` (choosing it widens that filter).
 * Without one, max mode marks `available` the buckets the facet has under all the main query's filters
 * (`strict`, the keys of that helper pass) and `unavailable` the others; auto mode marks them all
 * `available`.
 */
export function bucketStatus(selected: Set<string> | undefined, strict: Set<string> | undefined, key: string): string {
  if (selected?.has(key)) return 'selected';
  return selected || !strict || strict.has(key) ? 'available' : 'unavailable';
}

/** The `status` column of a FACET in auto or max mode (undefined in strict mode: no column). */
export function facetStatus(st: SelectStatement, f: FacetClause, strict?: Set<string>): ((key: Cell) => string) | undefined {
  if (facetMode(st, f) === 'strict') return undefined;
  const selected = selectedValues(st.where, ownAttrs(st, f));
  return (key) => bucketStatus(selected, strict, String(key));
}

/**
 * The values the main WHERE's top-level `=` and `IN` filters on `attrs` select (as text): undefined
 * without such a filter, else the values every one of them accepts (Manticore marks a bucket selected
 * only when it matches all of them: `color='red' AND color IN ('red','blue')` selects red alone, and
 * `color='red' AND color='blue'` none, its other buckets still `available`).
 */
export function selectedValues(where: Condition | undefined, attrs: string[]): Set<string> | undefined {
  const own = new Set(attrs);
  let selected: Set<string> | undefined;
  const top = where && pushNot(where);
  for (const c of !top ? [] : top.kind === 'and' ? top.children : [top]) {
    if ((c.kind !== 'compare' || c.op !== '=') && (c.kind !== 'in' || c.negate)) continue;
    if (!own.has(c.target.expr.text.toLowerCase())) continue;
    const values = new Set((c.kind === 'in' ? c.values : [c.value]).map((v) => String(literalValue(fromSql(v)))));
    selected = selected ? new Set([...selected].filter((v) => values.has(v))) : values;
  }
  return selected;
}

/** The SELECT one FACET clause runs. */
export function facetStatement(st: SelectStatement, f: FacetClause): SelectStatement {
  // strict (the default) applies every main-query filter; auto all but the facet's own (and adds a
  // status); max none (the broad base query: MATCH alone); a FILTERS clause overrides any mode
  const mode = facetMode(st, f);
  const filters = f.filters ?? (mode === 'auto' ? { kind: 'exclude' as const, attrs: ownAttrs(st, f) } : mode === 'max' ? { kind: 'only' as const, attrs: [] } : undefined);
  if (f.limit !== undefined && f.limit < 0) throw new SearchError('QUERY_ERROR', `limit out of bounds (limit=${f.limit})`);
  const items = f.items.map((i) => facetItem(st, i));
  if (items.some((i) => i.expr.kind === 'call' && i.expr.concat?.order)) throw new SearchError('QUERY_ERROR', 'limited GROUP_CONCAT is not supported with FACET');
  return {
    kind: 'select', text: f.text, tables: st.tables, tableAlias: st.tableAlias, match: st.match, where: filters ? scopedWhere(st.where, filters) : st.where,
    items: [...items, ...(f.distinct ? [distinctItem(f.distinct)] : []), COUNT_STAR],
    groupBy: (f.by ?? items.map((i) => i.expr)).map((e) => resolveAlias(st, e)),
    orderBy: f.orderBy, limit: f.limit ?? DEFAULT_LIMIT, offset: f.offset, options: st.options,
  };
}

/** A page that max_matches alone bounds. */
const ALL_GROUPS = Number.MAX_SAFE_INTEGER;

/**
 * A max-mode facet's helper passes (Manticore's facet::SetupHelperQuery): `strict`, the facet under all
 * the main query's filters (its keys tell available from unavailable buckets), and with ZEROES `broad`,
 * the facet without any filter (its buckets missing from the visible ones join them with zero counts).
 * With ZEROES the facet's page is taken after that merge, so the strict pass keeps every bucket.
 */
export function maxHelpers(st: SelectStatement, f: FacetClause, fst: SelectStatement): { strict?: SelectStatement; broad?: SelectStatement } {
  if (facetMode(st, f) !== 'max') return {};
  const strict = { ...fst, where: st.where, ...(f.zeroes ? { offset: 0, limit: ALL_GROUPS } : {}) };
  return { strict, broad: f.zeroes ? { ...fst, where: undefined } : undefined };
}

/**
 * The FACET result sets of a SELECT. The facets that see the main query's filters share one pass over
 * its matches (Manticore runs them as one multi-query), with the strict helpers of max-mode facets; a
 * facet with its own filter scope runs its own.
 */
export async function execFacets(table: Table, st: SelectStatement, session: Session, flags: GlobalFlags): Promise<RowsResult[]> {
  const sts = st.facets!.map((f) => facetStatement(st, f));
  const helpers = st.facets!.map((f, i) => maxHelpers(st, f, sts[i]!));
  const all = [...sts, ...helpers.flatMap((h) => (h.strict ? [h.strict] : []))];
  const out: RowsResult[] = new Array(all.length);
  const shared = all.flatMap((s, i) => (s.where === st.where && !helpers[i]?.broad ? [i] : []));
  if (shared.length) (await execGrouped(table, shared.map((i) => all[i]!), session, flags, performance.now())).forEach((r, j) => { out[shared[j]!] = r; });
  for (const [i, s] of all.entries()) if (!out[i]) out[i] = (await execGrouped(table, [s], session, flags, performance.now(), undefined, helpers[i]?.broad))[0]!;
  let strictAt = sts.length;
  return st.facets!.map((f, i) => {
    const strictRows = helpers[i]!.strict ? out[strictAt++]!.rows : undefined;
    const status = facetStatus(st, f, strictRows && new Set(strictRows.map((row) => String(row[0] ?? null))));
    const r = out[i]!;
    if (!status) return r;
    return { ...r, columns: [...r.columns, { name: 'status', kind: 'string' }], rows: r.rows.map((row) => [...row, status(row[0] ?? null)]) };
  });
}
