/**
 * The master's merge (Manticore's MinimizeAggrResult): every shard's rows into one sorted list,
 * duplicates of an id kept once (the first in sort order), then OFFSET/LIMIT; grouped rows are merged
 * by group key first (counts and sums added, min/max kept, averages divided by the merged count,
 * GROUP_CONCAT lists joined, COUNT(DISTINCT) added per shard as Manticore's master does when it has
 * only each agent's count), HAVING applied, and the groups sorted and paged.
 */
import { collation, type Collation } from '../../util/collation.js';
import type { Cell, CellKind, ResultColumn } from '../result.js';
import { COUNT_COL, HIDDEN_PREFIX, type MergeKey, type OutSpec, type ShardPlan } from './shard-plan.js';
import type { ShardRows } from './shard-rows.js';
import { havingPasses } from './merge-having.js';
import { mergedConcat } from './merge-concat.js';

interface Ref {
  shard: ShardRows;
  row: number;
}

export interface Merged {
  columns: ResultColumn[];
  rows: Cell[][];
  weights: number[];
  totalFound: number;
}

/** Strings compare under the collation (the master's merge takes the query's, as searchd's does; default libc_ci). */
export function compareCells(a: Cell | undefined, b: Cell | undefined, coll: Collation = collation(undefined)): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (Array.isArray(a) || Array.isArray(b)) return compareCells(Array.isArray(a) ? a[0] ?? null : a, Array.isArray(b) ? b[0] ?? null : b, coll);
  if (typeof a === 'string' || typeof b === 'string') return coll.compare(String(a), String(b));
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
}

function cell(r: Ref, name: string): Cell {
  if (name === 'id' && !r.shard.index.has('id')) return r.shard.ids[r.row]!;
  const at = r.shard.index.get(name);
  return at === undefined ? null : r.shard.rows[r.row]![at]!;
}

/** The star's columns: a shard's non-hidden columns, from the first shard that has any rows. */
function starColumns(shards: ShardRows[]): { names: string[]; kinds: CellKind[] } {
  const s = shards.find((x) => x.rows.length) ?? shards[0];
  if (!s) return { names: [], kinds: [] };
  const names: string[] = [];
  const kinds: CellKind[] = [];
  s.names.forEach((n, i) => {
    if (n.startsWith(HIDDEN_PREFIX) || n === 'groupby()' || n === 'count(*)' || n === 'count(distinct)') return;
    names.push(n);
    kinds.push(s.kinds[i]!);
  });
  return { names, kinds };
}

function kindOf(shards: ShardRows[], name: string, fallback: CellKind): CellKind {
  for (const s of shards) {
    const at = s.index.get(name);
    if (at !== undefined) return s.kinds[at]!;
  }
  return fallback;
}

/** The output columns: each item's, the star expanded. */
function columnsOf(plan: ShardPlan, shards: ShardRows[]): { columns: ResultColumn[]; sources: Array<Omit<OutSpec, 'name'>> } {
  const columns: ResultColumn[] = [];
  const sources: Array<Omit<OutSpec, 'name'>> = [];
  for (const o of plan.outputs) {
    if (o.source === '*') {
      const star = starColumns(shards);
      star.names.forEach((n, i) => { columns.push({ name: n, kind: star.kinds[i]! }); sources.push({ source: n, op: 'first' }); });
      continue;
    }
    columns.push({ name: o.name, kind: o.op === 'avg' ? 'float' : kindOf(shards, o.source, 'string') });
    sources.push({ source: o.source, op: o.op, concat: o.concat });
  }
  return { columns, sources };
}

function compareBy(keys: MergeKey[], value: (x: number, k: MergeKey) => Cell, coll: Collation): (x: number, y: number) => number {
  return (x, y) => {
    for (const k of keys) {
      const c = compareCells(value(x, k), value(y, k), coll);
      if (c) return k.desc ? -c : c;
    }
    return 0;
  };
}

export function mergePlain(plan: ShardPlan, shards: ShardRows[], coll: Collation = collation(undefined)): Merged {
  const refs: Ref[] = shards.flatMap((shard) => shard.rows.map((_, row) => ({ shard, row })));
  const value = (i: number, k: MergeKey): Cell => {
    const r = refs[i]!;
    if (k.source === 'weight') return r.shard.weights[r.row]!;
    if (k.source === 'id') return r.shard.ids[r.row]!;
    return cell(r, k.source);
  };
  const order = refs.map((_, i) => i).sort(compareBy(plan.order, value, coll));
  const seen = new Set<bigint>();
  const unique = order.filter((i) => {
    const id = refs[i]!.shard.ids[refs[i]!.row]!;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const page = unique.slice(plan.offset, plan.offset + plan.limit);
  const { columns, sources } = columnsOf(plan, shards);
  return {
    columns,
    rows: page.map((i) => sources.map((s) => cell(refs[i]!, s.source))),
    weights: page.map((i) => refs[i]!.shard.weights[refs[i]!.row]!),
    totalFound: shards.reduce((n, s) => n + s.totalFound, 0),
  };
}

function add(a: Cell, b: Cell): Cell {
  if (a === null) return b;
  if (b === null) return a;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a + b;
  return Number(a) + Number(b);
}

interface Group {
  /** Every shard row of the group, best first by the within-group order. */
  refs: Ref[];
  /** One row per shard: a shard's aggregates are the same on each of its rows (GROUP N BY sends several). */
  heads: Ref[];
  count: number;
}

/** A group's key across shards: string values as the collation folds them (the shards grouped them so). */
function keyOf(r: Ref, keys: string[], coll: Collation): string {
  return JSON.stringify(keys.map((k) => cell(r, k)), (_, v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? coll.fold(v) : v));
}

function refValue(r: Ref, k: MergeKey): Cell {
  if (k.source === 'weight') return r.shard.weights[r.row]!;
  if (k.source === 'id') return r.shard.ids[r.row]!;
  return cell(r, k.source);
}

/** One merged group's value of one column: aggregates over the shards' heads, else the best row's. */
function mergedValue(g: Group, { source, op, concat }: Omit<OutSpec, 'name'>): Cell {
  const values = g.heads.map((r) => cell(r, source));
  if (concat) return mergedConcat(concat, g.heads.length, (h, col) => cell(g.heads[h]!, col), (h) => Number(cell(g.heads[h]!, COUNT_COL) ?? 0), source);
  switch (op) {
    case 'sum': return values.reduce(add, null);
    case 'min': return values.reduce((m, v) => (m === null || (v !== null && compareCells(v, m) < 0) ? v : m), null as Cell);
    case 'max': return values.reduce((m, v) => (m === null || (v !== null && compareCells(v, m) > 0) ? v : m), null as Cell);
    case 'avg': { const s = values.reduce(add, null); return s === null || !g.count ? null : Number(s) / g.count; }
    default: return cell(g.refs[0]!, source);
  }
}

/** The rows a group shows: its best row, or under GROUP N BY its N best distinct documents. */
function groupRows(g: Group, n: number | undefined): Ref[] {
  if (n === undefined) return [g.refs[0]!];
  const seen = new Set<bigint>();
  return g.refs.filter((r) => {
    const id = r.shard.ids[r.row]!;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  }).slice(0, n);
}

export function mergeGrouped(plan: ShardPlan, shards: ShardRows[], coll: Collation = collation(undefined)): Merged {
  const groups = new Map<string, Group>();
  for (const shard of shards) {
    shard.rows.forEach((_, row) => {
      const r = { shard, row };
      const key = keyOf(r, plan.groupKeys, coll);
      let g = groups.get(key);
      if (!g) groups.set(key, (g = { refs: [], heads: [], count: 0 }));
      g.refs.push(r);
      if (g.heads.some((h) => h.shard === shard)) return;
      g.heads.push(r);
      g.count += Number(cell(r, COUNT_COL) ?? 0);
    });
  }
  // the representative row is the best by the within-group order, as each shard's own is
  const byWithin = (x: Ref, y: Ref): number => {
    for (const k of plan.within) {
      const c = compareCells(refValue(x, k), refValue(y, k), coll);
      if (c) return k.desc ? -c : c;
    }
    return 0;
  };
  const list = [...groups.values()].map((g) => ({ ...g, refs: [...g.refs].sort(byWithin) }));
  const { columns, sources } = columnsOf(plan, shards);
  const byOut = new Map(sources.map((s, i) => [s.source, i]));
  let out = list.map((g) => ({ g, row: sources.map((s) => mergedValue(g, s)) }));
  if (plan.having) {
    const names = columns.map((c) => c.name.toLowerCase());
    out = out.filter((x) => havingPasses(plan.having!, names, x.row));
  }
  const value = (i: number, k: MergeKey): Cell => {
    const { g, row } = out[i]!;
    if (k.source === COUNT_COL) return g.count;
    if (k.source === 'weight' || k.source === 'id') return refValue(g.refs[0]!, k);
    const at = byOut.get(k.source);
    return at !== undefined ? row[at]! : cell(g.refs[0]!, k.source);
  };
  const order = out.map((_, i) => i).sort(compareBy(plan.order, value, coll)).slice(0, plan.maxMatches);
  // each group's rows: the merged aggregates, and the row's own values of everything else
  const shown = order.flatMap((i) => groupRows(out[i]!.g, plan.groupLimit).map((r) => ({
    ref: r, row: sources.map((s, c) => (s.op === 'first' ? cell(r, s.source) : out[i]!.row[c]!)),
  })));
  const page = shown.slice(plan.offset, plan.offset + plan.limit);
  return {
    columns,
    rows: page.map((x) => x.row),
    weights: page.map((x) => x.ref.shard.weights[x.ref.row]!),
    totalFound: order.length,
  };
}
