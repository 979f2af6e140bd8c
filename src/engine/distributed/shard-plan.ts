/**
 * How one SELECT over a distributed table runs on its shards and is put back together. Every shard
 * (local table or remote agent) runs the same rewritten statement: each select item under an alias
 * (`__cN`) so a column is found by name whatever the shard, hidden items for the sort keys (`__oN`),
 * the group keys (`__gN`) and the group count (`__cnt`), AVG sent as SUM (the master divides by the
 * merged count, as Manticore's agents leave averages unfinalized), offset 0 and a limit that keeps
 * enough rows for the merge: offset+limit plain rows (the top of a union is within the tops of its
 * parts), max_matches groups (a group's count needs every shard's part of it).
 */
import type { Condition, Expr, OrderItem, SelectItem, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { checkMaxMatches, DEFAULT_LIMIT, DEFAULT_MAX_MATCHES } from '../exec/exec-select.js';
import { isAggregateCall } from '../group/group-plan.js';
import { optionMap, requireNumber } from '../values/sql-values.js';
import { concatShardItems, type ConcatMerge } from './merge-concat.js';

/** How the master combines one output column's values from the shards' rows of one group. */
export type MergeOp = 'first' | 'sum' | 'min' | 'max' | 'avg' | 'concat' | 'key';

export interface OutSpec {
  /** The column name the user sees. */
  name: string;
  /** The shard column holding it; '*' for the star's columns (all non-hidden ones). */
  source: string;
  op: MergeOp;
  /** GROUP_CONCAT: its separator, and for the limited form its order keys and limit. */
  concat?: ConcatMerge;
}

/** A sort key: weight, id, or a (possibly hidden) column of the merged rows. */
export interface MergeKey {
  source: 'weight' | 'id' | string;
  desc: boolean;
}

export interface ShardPlan {
  shard: SelectStatement;
  outputs: OutSpec[];
  order: MergeKey[];
  grouped: boolean;
  /** Hidden group-key columns (empty for the one implicit group of aggregates without GROUP BY). */
  groupKeys: string[];
  offset: number;
  limit: number;
  maxMatches: number;
  having?: Condition;
  /** GROUP N BY: the rows kept per group (undefined: one, the group's representative). */
  groupLimit?: number;
  /** The order within a group (WITHIN GROUP ORDER BY; default weight desc, then id asc). */
  within: MergeKey[];
}

export const HIDDEN_PREFIX = '__';
const COUNT_COL = '__cnt';
export const ID_COL = '__id';

const call = (name: string, args: Expr[], text: string, distinct?: boolean): Expr => ({ kind: 'call', name, args, text, ...(distinct ? { distinct } : {}) });
const COUNT_STAR = call('count', [{ kind: 'star', text: '*' }], 'count(*)');
const isCall = (e: Expr, name: string) => e.kind === 'call' && e.name === name && e.args.length === 0;
const item = (expr: Expr, alias: string): SelectItem => ({ expr, alias, name: alias });

function mergeOpOf(e: Expr): MergeOp {
  if (isCall(e, 'groupby')) return 'key';
  if (!isAggregateCall(e) || e.kind !== 'call') return 'first';
  switch (e.name) {
    case 'count': case 'sum': return 'sum';
    case 'min': return 'min';
    case 'max': return 'max';
    case 'avg': return 'avg';
    case 'group_concat': return 'concat';
    default: throw new SearchError('UNSUPPORTED', `${e.name}() over a distributed table is not supported`);
  }
}

/** The item a shard runs for a user item: AVG(x) becomes SUM(x). */
function shardExpr(e: Expr): Expr {
  if (e.kind === 'call' && e.name === 'avg' && isAggregateCall(e)) return call('sum', e.args, `sum(${e.args[0]!.text})`);
  return e;
}

/** The output column an ORDER BY item names (by alias, name or same text), if any. */
function outputFor(st: SelectStatement, o: OrderItem, outputs: OutSpec[]): OutSpec | undefined {
  const text = o.expr.text.toLowerCase();
  const i = st.items.findIndex((it) => it.expr.kind !== 'star' && (it.alias?.toLowerCase() === text || it.name.toLowerCase() === text || it.expr.text.toLowerCase() === text));
  return i < 0 ? undefined : outputs.find((out) => out.source === `__c${i}`);
}

/** An ungrouped ORDER BY naming a select item's alias (`WEIGHT() AS w ... ORDER BY w`): that item's output. */
function aliasOutput(st: SelectStatement, o: OrderItem, outputs: OutSpec[]): OutSpec | undefined {
  if (o.expr.kind !== 'column' || o.expr.path.length) return undefined;
  const name = o.expr.name.toLowerCase();
  const i = st.items.findIndex((it) => it.expr.kind !== 'star' && it.alias?.toLowerCase() === name);
  return i < 0 ? undefined : outputs.find((out) => out.source === `__c${i}`);
}

export function planShards(st: SelectStatement): ShardPlan {
  const grouped = !!st.groupBy || st.items.some((i) => isAggregateCall(i.expr));
  const opts = optionMap(st.options);
  const mm = opts.get('max_matches');
  const maxMatches = mm ? requireNumber('max_matches', mm) : DEFAULT_MAX_MATCHES;
  const offset = st.offset ?? 0;
  const limit = st.limit ?? DEFAULT_LIMIT;
  // searchd streams LIMIT -1 (every row) from one local table only
  if (limit === -1) throw new SearchError('QUERY_ERROR', 'only one local table allowed in streaming select');
  if (limit < 0) throw new SearchError('QUERY_ERROR', `limit out of bounds (limit=${limit})`);
  checkMaxMatches(maxMatches, offset);
  const items: SelectItem[] = [];
  const outputs: OutSpec[] = [];
  st.items.forEach((it, i) => {
    if (it.expr.kind === 'star') {
      items.push(it);
      outputs.push({ name: '*', source: '*', op: 'first' });
      return;
    }
    const op = grouped ? mergeOpOf(it.expr) : 'first';
    if (op === 'concat' && it.expr.kind === 'call') {
      const { items: parts, merge } = concatShardItems(it.expr, `__c${i}`);
      items.push(...parts);
      outputs.push({ name: it.name, source: `__c${i}`, op, concat: merge });
      return;
    }
    items.push(item(shardExpr(it.expr), `__c${i}`));
    outputs.push({ name: it.name, source: `__c${i}`, op });
  });
  const groupKeys: string[] = [];
  // an alias of an expression names the expression (the shard renames every item to __cN)
  const groupBy = st.groupBy?.map((e) => {
    if (e.kind !== 'column' || e.path.length) return e;
    const aliased = st.items.find((it) => it.alias?.toLowerCase() === e.name.toLowerCase());
    return aliased && !(aliased.expr.kind === 'column' && aliased.expr.name.toLowerCase() === e.name.toLowerCase()) ? aliased.expr : e;
  });
  // every row's document id, whatever the select list holds: the merge drops duplicates by it (a
  // group's rows too: GROUP N BY keeps N distinct documents, and ties within a group go by id)
  items.push(item({ kind: 'column', name: 'id', path: [], text: 'id' }, ID_COL));
  if (grouped) {
    items.push(item(COUNT_STAR, COUNT_COL));
    const by = groupBy ?? [];
    // one key: groupby() is the group's value (an MVA or JSON array groups by each element)
    if (by.length === 1) { items.push(item(call('groupby', [], 'groupby()'), '__g0')); groupKeys.push('__g0'); }
    else by.forEach((e, i) => { items.push(item(e, `__g${i}`)); groupKeys.push(`__g${i}`); });
  }
  // the order within a group, read on the master from the rows (hidden items for expressions)
  const within: MergeKey[] = (st.withinGroupOrderBy ?? []).map((o, i) => {
    const desc = o.direction === 'desc';
    if (isCall(o.expr, 'weight')) return { source: 'weight', desc };
    if (o.expr.kind === 'column' && !o.expr.path.length && o.expr.name.toLowerCase() === 'id') return { source: 'id', desc };
    items.push(item(o.expr, `__i${i}`));
    return { source: `__i${i}`, desc };
  });
  if (!within.length) within.push({ source: 'weight', desc: true });
  within.push({ source: 'id', desc: false });
  const order: MergeKey[] = [];
  (st.orderBy ?? []).forEach((o, i) => {
    const desc = o.direction === 'desc';
    if (isCall(o.expr, 'weight')) { order.push({ source: 'weight', desc }); return; }
    if (o.expr.kind === 'column' && !o.expr.path.length && o.expr.name.toLowerCase() === 'id' && !st.items.some((it) => it.alias === 'id')) { order.push({ source: 'id', desc }); return; }
    // a select alias (or, grouped, an item's text) sorts by that item's shard column: the shard
    // renames every item to __cN, so the alias itself names nothing there
    const out = grouped ? outputFor(st, o, outputs) : aliasOutput(st, o, outputs);
    if (out) { order.push({ source: out.source, desc }); return; }
    if (grouped && o.expr.kind === 'call' && o.expr.name === 'count' && o.expr.args[0]?.kind === 'star') { order.push({ source: COUNT_COL, desc }); return; }
    if (grouped && isCall(o.expr, 'groupby') && groupKeys.length === 1) { order.push({ source: groupKeys[0]!, desc }); return; }
    if (grouped && isAggregateCall(o.expr)) throw new SearchError('UNSUPPORTED', `ORDER BY ${o.expr.text} over a distributed table: select it in the select list`);
    items.push(item(o.expr, `__o${i}`));
    order.push({ source: `__o${i}`, desc });
  });
  // Manticore's default order: weight desc (groups too: the best group first), then id asc
  if (!st.orderBy?.length) order.push({ source: 'weight', desc: true });
  if (!grouped) order.push({ source: 'id', desc: false });
  const shard: SelectStatement = {
    ...st, items, offset: 0, limit: grouped ? maxMatches : Math.min(offset + limit, maxMatches),
    groupBy, having: undefined, facets: undefined,
    orderBy: st.orderBy?.map((o, i) => ({ ...o, expr: order[i]!.source.startsWith(HIDDEN_PREFIX) ? { kind: 'column', name: order[i]!.source, path: [], text: order[i]!.source } : o.expr })),
  };
  return { shard, outputs, order, grouped, groupKeys, offset, limit, maxMatches, having: st.having, groupLimit: st.groupLimit, within };
}

export { COUNT_COL };
