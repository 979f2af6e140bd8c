/**
 * FACET clauses: each one more result set after the main one, a grouping SELECT over the main query's
 * matches (same table, MATCH, WHERE and options; Manticore's SetupFacets): the facet items plus
 * COUNT(*) (and COUNT(DISTINCT col) before it for `DISTINCT col`), grouped by the BY list or else by
 * the items, ordered by the facet's ORDER BY and paged by its LIMIT (default 20).
 */
import type { Expr, FacetClause, SelectItem, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { DEFAULT_LIMIT } from '../exec/exec-select.js';

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

/** The SELECT one FACET clause runs. */
export function facetStatement(st: SelectStatement, f: FacetClause): SelectStatement {
  // in Manticore's default (strict) filter mode ALL FILTERS is what a facet does anyway
  if (f.scope && f.scope !== 'ALL FILTERS') throw new SearchError('UNSUPPORTED', `FACET ... ${f.scope} is not supported yet`);
  if (f.limit !== undefined && f.limit < 0) throw new SearchError('QUERY_ERROR', `limit out of bounds (limit=${f.limit})`);
  const items = f.items.map((i) => facetItem(st, i));
  if (items.some((i) => i.expr.kind === 'call' && i.expr.concat?.order)) throw new SearchError('QUERY_ERROR', 'limited GROUP_CONCAT is not supported with FACET');
  return {
    kind: 'select', text: f.text, tables: st.tables, tableAlias: st.tableAlias, match: st.match, where: st.where,
    items: [...items, ...(f.distinct ? [distinctItem(f.distinct)] : []), COUNT_STAR],
    groupBy: (f.by ?? items.map((i) => i.expr)).map((e) => resolveAlias(st, e)),
    orderBy: f.orderBy, limit: f.limit ?? DEFAULT_LIMIT, offset: f.offset, options: st.options,
  };
}
