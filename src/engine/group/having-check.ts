/**
 * Which names HAVING may filter on, as Manticore's QueueCreator_c::CheckHavingConstraints decides:
 * GROUPBY(), COUNT(*), or a select-list alias whose expression is an aggregate or GROUPBY(). Anything
 * else (an attribute, the group-by column itself, an alias of a plain expression, id, weight(), a JSON
 * path) is refused with searchd's "not related to GROUP BY" (test_171: `GROUP BY j.j1 HAVING j.j1 IN
 * (1,2)`). Both errors come from searchd's result merge, not from a table's search: no table prefix.
 */
import type { Condition, Expr, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { aggText, isAggregateCall } from './group-plan.js';

export const HAVING_WITHOUT_GROUP = 'can not use HAVING without GROUP BY';
export const HAVING_NOT_RELATED = 'can not use HAVING with attribute not related to GROUP BY';

const isGroupByCall = (e: Expr): boolean => e.kind === 'call' && e.name === 'groupby' && e.args.length === 0;

function related(st: SelectStatement, e: Expr): boolean {
  if (isGroupByCall(e)) return true;
  // an aggregate call is the grouper's own value: COUNT(*) is searchd's @count; any other aggregate
  // written out is quarry's extension (sphinxql.y has no aggregate calls in a filter), computed the same
  if (isAggregateCall(e)) return true;
  if (e.kind !== 'column' || e.path.length) return false;
  const name = e.name.toLowerCase();
  const item = st.items.find((i) => (i.alias ?? '').toLowerCase() === name);
  if (item) return isAggregateCall(item.expr) || isGroupByCall(item.expr);
  // an unaliased aggregate is named by its text (searchd aliases every item with its expression)
  return st.items.some((i) => !i.alias && isAggregateCall(i.expr) && aggText(i.expr as Expr & { kind: 'call' }) === name);
}

function check(st: SelectStatement, c: Condition): void {
  switch (c.kind) {
    case 'and': case 'or': c.children.forEach((x) => check(st, x)); return;
    case 'not': check(st, c.child); return;
    default: if (!related(st, c.target.expr)) throw new SearchError('QUERY_ERROR', HAVING_NOT_RELATED);
  }
}

/** HAVING needs groups: an explicit GROUP BY or the implicit group of aggregates (COUNT(*) too). */
export function havingHasGroups(st: SelectStatement): boolean {
  return !!st.groupBy || st.items.some((i) => isAggregateCall(i.expr));
}

/** Throws searchd's error when HAVING has no groups or names something the groups do not hold. */
export function checkHaving(st: SelectStatement): void {
  if (!st.having) return;
  if (!havingHasGroups(st)) throw new SearchError('QUERY_ERROR', HAVING_WITHOUT_GROUP);
  check(st, st.having);
}
