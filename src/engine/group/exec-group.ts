/**
 * SELECT with GROUP BY (or aggregates without it: one implicit group): every match of each segment
 * folded into partial groups (group-segment.ts), partials merged, then HAVING, the group order
 * (ORDER BY, default weight() DESC as Manticore's "@weight desc"), max_matches and LIMIT. Columns
 * that are not aggregates come from the group's representative row (best weight, then earliest).
 */
import { collation } from '../../util/collation.js';
import type { AttrValue, SearchRequest, SearchResult } from '../../index/types.js';
import type { Condition, Expr, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { readRows } from '../read-rows.js';
import { DEFAULT_LIMIT } from '../exec/exec-select.js';
import type { Cell, CellKind } from '../result.js';
import { selectColumns, type OutColumn } from '../select-items.js';
import type { Table } from '../table.js';
import { groupHaving, groupOrder, type GroupRow } from './group-order.js';
import { checkHaving } from './having-check.js';
import { aggText, collectAggs, groupKeys, isAggregateCall, keyKind, withinOrder, type AggSpec, type GroupPlan } from './group-plan.js';
import { checkLimitedConcat, concatValue } from './group-concat.js';
import { distSqlText } from './percentiles.js';
import { groupSegment, mergePartials, type AggState, type PartialGroup, type Partials } from './group-segment.js';
import { coreFoldable, coreProgram, readCoreGroups, type CoreProgram } from './core-fold.js';
import { encodeGroupSpec, MAX_PROGRAMS } from '../../wasm/group-format.js';
import type { Segment } from '../../index/segment/segment.js';
import type { SegmentFold, SegmentGrouping } from '../../index/search-groups.js';

export interface GroupOutput {
  columns: { name: string; kind: CellKind }[];
  rows: Cell[][];
  /** Groups found (SHOW META total_found). */
  groups: number;
  search: SearchResult;
}

const isGroupBy = (e: Expr): boolean => e.kind === 'call' && e.name === 'groupby' && e.args.length === 0;

/** True when the statement groups: GROUP BY, or an aggregate other than a lone COUNT(*). */
export function isGrouping(st: SelectStatement): boolean {
  if (st.groupBy) return true;
  return st.items.some((i) => isAggregateCall(i.expr) && aggText(i.expr as Expr & { kind: 'call' }) !== 'count(*)');
}

function aggValue(spec: AggSpec, st: AggState, count: number): Cell {
  switch (spec.fn) {
    case 'count': return BigInt(count);
    case 'count_distinct': return BigInt(st.distinct!.size);
    case 'concat': return concatValue(st.values!, spec.concat);
    case 'dist': return distSqlText(spec.dist!, st.values!.map(Number));
    case 'avg': return count ? Number(st.sum) / count : null;
    case 'sum': return spec.kind === 'float' || typeof st.sum === 'bigint' ? st.sum : BigInt(Math.trunc(st.sum));
    default: {
      const v = spec.fn === 'min' ? st.min : st.max;
      if (v === null) return null;
      return spec.kind === 'float' ? Number(v) : BigInt(v as number | bigint);
    }
  }
}

/**
 * Every match of `req`, segment by segment, folded into each plan's partial groups per segment and
 * merged: one core call per segment (or per range of rows, on the worker threads) however many plans
 * (a query's FACETs share its matches). The core folds the plans it can (core-fold.ts); the call also
 * returns the matches when some plan folds on the host (group-segment.ts).
 */
export function collectGroupsMany(table: Table, req: SearchRequest, plans: GroupPlan[]): { groups: GroupRow[][]; search: SearchResult } {
  const c = collector(withCollation(plans, req));
  return c.finish(table.index.groupAll(req, c.grouping));
}

/** collectGroupsMany on the query worker threads when the table is big enough. */
export async function collectGroupsManyAsync(table: Table, req: SearchRequest, plans: GroupPlan[]): Promise<{ groups: GroupRow[][]; search: SearchResult }> {
  const c = collector(withCollation(plans, req));
  return c.finish(await table.index.groupAllAsync(req, c.grouping));
}

/** The request's collation on each plan: grouping, the group order and HAVING compare strings with it. */
function withCollation(plans: GroupPlan[], req: SearchRequest): GroupPlan[] {
  const coll = collation(req.collation);
  for (const p of plans) p.coll = coll;
  return plans;
}

function collector(plans: GroupPlan[]): { grouping: SegmentGrouping; finish(search: SearchResult): { groups: GroupRow[][]; search: SearchResult } } {
  const totals: Partials[] = plans.map(() => new Map());
  const foldable = plans.map(coreFoldable);
  const grouping: SegmentGrouping = { segment: (seg, order, scale) => segmentFold(plans, foldable, totals, seg, order, scale) };
  const finish = (search: SearchResult) => {
    const groups = plans.map((plan, i) => {
      const total = totals[i]!;
      // an implicit group (aggregates without GROUP BY) exists even over no matches
      if (!plan.keys.length && total.size === 0) {
        total.set('', { key: [], count: 0, aggs: plan.aggs.map(() => ({ n: 0, sum: 0, min: null, max: null, distinct: new Set(), values: [] })), tops: [], bestWeight: 0, bestOrd: 0, bestDoc: -1n, firstOrd: 0 });
      }
      return [...total.values()].map((g: PartialGroup): GroupRow => ({ g, aggs: plan.aggs.map((a, j) => aggValue(a, g.aggs[j]!, g.count)) }));
    });
    return { groups, search };
  };
  return { grouping, finish };
}

/**
 * Whether a plan's sums come out the same however the rows are split and merged: 64-bit integer sums
 * are exact, double sums of u32 values too below 2^53 (2^21 rows of 2^32), double sums of floats not.
 */
function exactSums(plan: GroupPlan, rows: number): boolean {
  return plan.aggs.every((a) => (a.fn !== 'sum' && a.fn !== 'avg') || a.arg?.type === 'bigint' || a.arg?.type === 'id'
    || ((a.arg?.type === 'uint' || a.arg?.type === 'bool' || a.arg?.type === 'timestamp') && rows < 2 ** 21));
}

const NO_MATCHES = { rowIds: new Uint32Array(0), weights: new Int32Array(0) };

/** One segment's fold: the plans the core folds there as programs of its spec, the others on the host. */
function segmentFold(plans: GroupPlan[], foldable: boolean[], totals: Partials[], seg: Segment, order: number, scale: number): SegmentFold {
  const owned: number[] = [];
  // the core folds at most MAX_PROGRAMS groupings a call; the others (the 65th FACET on) fold on the host.
  // Before, a query of 65+ FACETs answered 'quarry wasm core: malformed query plan'.
  let room = MAX_PROGRAMS;
  const progs = plans.map((plan, i) => (scale === 1 && foldable[i] && room-- > 0 ? coreProgram(plan, seg, owned) : null));
  const core = progs.filter((p): p is CoreProgram => p !== null);
  const base = order * 2 ** 32;
  return {
    spec: encodeGroupSpec(core.map((p) => p.program), core.length < plans.length),
    splittable: plans.every((plan) => exactSums(plan, seg.rows)),
    release: () => { for (const p of owned) seg.core.free(p); },
    add: (block) => {
      let j = 0;
      plans.forEach((plan, i) => {
        const part: Partials = new Map();
        const prog = progs[i];
        const recs = prog ? block.programs[j++]! : null;
        if (prog && !block.fallback) {
          readCoreGroups(plan, prog, seg, base, recs!, part);
        } else {
          const m = block.matches ?? NO_MATCHES;
          groupSegment(plan, seg, order, m.rowIds, m.weights, part);
        }
        mergePartials(plan, totals[i]!, part);
      });
    },
  };
}

/** collectGroupsMany for one plan. */
export function collectGroups(table: Table, req: SearchRequest, plan: GroupPlan): { groups: GroupRow[]; search: SearchResult } {
  const { groups, search } = collectGroupsMany(table, req, [plan]);
  return { groups: groups[0]!, search };
}

type ColSpec = { name: string; kind: CellKind } & (
  | { from: 'agg'; agg: number } | { from: 'key' } | { from: 'mvakey' | 'keyval'; key: number } | { from: 'row'; col: OutColumn });

function keyIndex(plan: GroupPlan, e: Expr): number {
  if (e.kind !== 'column') return -1;
  // a JSON path key is named by its text (`meta.color`)
  const name = (e.path.length ? e.text : e.name).toLowerCase();
  return plan.keys.findIndex((k) => k.name.toLowerCase() === name);
}

interface Prepared { st: SelectStatement; plan: GroupPlan; specs: ColSpec[] }

function prepareGroup(table: Table, st: SelectStatement, req: SearchRequest): Prepared {
  checkHaving(st);
  // GROUP 0 BY and GROUP 1 BY are a plain GROUP BY (Manticore's N-row grouper starts at 2)
  const keep = st.groupLimit !== undefined && st.groupLimit > 1 ? st.groupLimit : undefined;
  // expression keys and aggregate arguments compare strings under the statement's collation (searchd's)
  const coll = collation(req.collation);
  const plan: GroupPlan = { keys: groupKeys(table, st, coll), aggs: [], within: withinOrder(table, st), keep };
  for (const i of st.items) collectAggs(table, i.expr, plan.aggs, st, coll);
  for (const o of st.orderBy ?? []) collectAggs(table, o.expr, plan.aggs, st, coll);
  for (const e of conditionExprs(st.having)) collectAggs(table, e, plan.aggs, st, coll);
  checkLimitedConcat(st, st.items.filter((i) => i.expr.kind === 'call' && i.expr.concat?.order).map((i) => (i.alias ?? i.name).toLowerCase()));
  // Manticore keeps one distinct column per query (SqlParser_c::AddDistinct)
  if (plan.aggs.filter((a) => a.fn === 'count_distinct').length > 1) throw new SearchError('QUERY_ERROR', 'too many COUNT(DISTINCT) clauses');
  const specs: ColSpec[] = st.items.flatMap((item): ColSpec[] => {
    const name = item.alias ?? item.name;
    if (isAggregateCall(item.expr)) {
      const agg = plan.aggs.findIndex((a) => a.text === aggText(item.expr as Expr & { kind: 'call' }));
      return [{ name, kind: plan.aggs[agg]!.kind, from: 'agg', agg }];
    }
    // a group-by column shows the group's key: for an MVA the one value the group stands for
    // a JSON path grouped by its alias (`j.s AS js ... GROUP BY js`) is that key too
    let k = keyIndex(plan, item.expr);
    if (k < 0 && item.alias && item.expr.kind === 'column' && item.expr.path.length) k = plan.keys.findIndex((x) => x.name.toLowerCase() === item.alias);
    if (k >= 0 && (plan.keys[k]!.type === 'mva' || plan.keys[k]!.type === 'mva64')) return [{ name, kind: 'mva', from: 'mvakey', key: k }];
    // any other group-by column is the group's key value (no representative row to read)
    if (k >= 0) return [{ name, kind: keyKind(plan.keys[k]!) === 'string' ? 'string' : selectColumns(table, [item])[0]!.kind, from: 'keyval', key: k }];
    if (isGroupBy(item.expr)) {
      if (!plan.keys.length) throw new SearchError('QUERY_ERROR', 'GROUPBY() is allowed only in GROUP BY queries');
      return [{ name, kind: keyKind(plan.keys[0]!), from: 'key' }];
    }
    return selectColumns(table, [item], { match: st.match, collation: coll }).map((col) => ({ name: col.name, kind: col.kind, from: 'row' as const, col }));
  });
  return { st, plan, specs };
}

/** HAVING, the group order, GROUP N BY rows, then the statement's page (max_matches caps the groups kept). */
function finishGroup(table: Table, p: Prepared, groups: GroupRow[], maxMatches: number): Omit<GroupOutput, 'search'> {
  const { st, plan, specs } = p;
  const kept = groupHaving(table, st, plan, groups);
  groupOrder(table, st, plan, kept);
  // GROUP N BY: each group gives its kept rows (best first), all with the group's aggregates
  const expanded: Array<GroupRow & { top?: PartialGroup['tops'][number] }> = (st.groupLimit ?? 1) > 1 ? kept.flatMap((r) => r.g.tops.map((top) => ({ ...r, top }))) : kept;
  const offset = st.offset ?? 0;
  // LIMIT -1 (limitless select): every group max_matches keeps
  const window = st.limit === -1 ? maxMatches : Math.min(offset + (st.limit ?? DEFAULT_LIMIT), maxMatches);
  const page = expanded.slice(offset, Math.max(offset, window));
  const rowCols = specs.filter((s): s is ColSpec & { from: 'row' } => s.from === 'row').map((s) => s.col);
  // the representative rows are read only when some column shows one
  const repRows = rowCols.length ? readRows(table, rowCols, page.map((r) => (r.top ? { docId: r.top.doc, weight: r.top.weight } : { docId: r.g.bestDoc, weight: r.g.bestWeight }))) : [];
  const rows = page.map((r, i) => {
    let c = 0;
    return specs.map((s): Cell => {
      if (s.from === 'agg') return r.aggs[s.agg]!;
      if (s.from === 'key') return keyCell(r.g.key[0] ?? null, s.kind);
      if (s.from === 'mvakey') return [BigInt(r.g.key[s.key] as bigint)];
      if (s.from === 'keyval') return (r.g.key[s.key] ?? null) as Cell;
      return r.g.bestDoc < 0n ? null : repRows[i]![c++]!;
    });
  });
  return { columns: specs.map(({ name, kind }) => ({ name, kind })), rows, groups: kept.length };
}

/**
 * Grouping statements over the same matches (a SELECT and its FACETs share MATCH, WHERE and options):
 * `req` is the request of the first, each statement pages its own groups.
 */
export async function execGroups(table: Table, sts: SelectStatement[], req: SearchRequest): Promise<GroupOutput[]> {
  const prepared = sts.map((st) => prepareGroup(table, st, req));
  const { groups, search } = await collectGroupsManyAsync(table, req, prepared.map((p) => p.plan));
  return prepared.map((p, i) => ({ ...finishGroup(table, p, groups[i]!, req.maxMatches), search }));
}

/**
 * FACET ... ZEROES (Manticore's facet::AppendMissingFacetZeroes): the groups of `broadReq` (the facet
 * without filters) that `req` does not have join its groups with COUNT(*) and COUNT(DISTINCT) zero,
 * then the statement's order and page apply to them all.
 */
export async function execGroupZeroes(table: Table, st: SelectStatement, req: SearchRequest, broadReq: SearchRequest): Promise<GroupOutput> {
  const p = prepareGroup(table, st, req);
  const { groups: [groups], search } = await collectGroupsManyAsync(table, req, [p.plan]);
  const seen = new Set(groups!.map((r) => groupId(r.g.key)));
  const zero = (r: GroupRow): GroupRow => ({ g: { ...r.g, count: 0 }, aggs: r.aggs.map((v, j) => (p.plan.aggs[j]!.fn === 'count' || p.plan.aggs[j]!.fn === 'count_distinct' ? 0n : v)) });
  const broad = (await collectGroupsManyAsync(table, broadReq, [p.plan])).groups[0]!;
  const missing = broad.filter((r) => !seen.has(groupId(r.g.key))).map(zero);
  return { ...finishGroup(table, p, [...groups!, ...missing], req.maxMatches), search };
}

function groupId(key: AttrValue[]): string {
  return key.map((v) => `${typeof v}:${String(v)}`).join('\u0000');
}

export async function execGroup(table: Table, st: SelectStatement, req: SearchRequest): Promise<GroupOutput> {
  return (await execGroups(table, [st], req))[0]!;
}

function conditionExprs(c: Condition | undefined): Expr[] {
  if (!c) return [];
  if (c.kind === 'and' || c.kind === 'or') return c.children.flatMap(conditionExprs);
  if (c.kind === 'not') return conditionExprs(c.child);
  return [c.target.expr];
}

function keyCell(v: unknown, kind: CellKind): Cell {
  if (v === null || v === undefined) return null;
  return kind === 'bigint' && typeof v === 'number' ? BigInt(v) : (v as Cell);
}
