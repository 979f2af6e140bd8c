/**
 * The per-segment step of grouping: one segment's matches (row ids and weights from one core call)
 * folded into partial groups keyed by the group values, then partials of all segments merged. The
 * partial state (count, sums, min/max, distinct sets, best row, first row) merges associatively, so
 * this step can move into the WASM core over the segment's attribute columns without changing the
 * merge; today it runs here, in TypeScript, reading the columns in core memory through
 * Segment.attrReader (typed-array views, no per-row objects but a new group's or a new best row's).
 */
import type { AttrValue } from '../../index/types.js';
import type { Segment } from '../../index/segment/segment.js';
import { cellToSqlText } from '../values/cell-format.js';
import { DEFAULT_WITHIN, type AggSpec, type AttrRef, type GroupPlan } from './group-plan.js';
import { binaryCompare, type Collation } from '../../util/collation.js';

export interface AggState {
  n: number; sum: number | bigint; min: AttrValue; max: AttrValue;
  distinct?: Set<string | number | bigint>;
  /** GROUP_CONCAT: the values in match order. */
  values?: string[];
}

/** A row kept for a group: its order key (WITHIN GROUP ORDER BY values), weight, id and position. */
export interface KeptRow { ord: number; doc: bigint; weight: number; vals: AttrValue[] }

export interface PartialGroup {
  /** The group's key values (for an MVA key: the one element this group stands for). */
  key: AttrValue[];
  count: number;
  aggs: AggState[];
  /** The best rows by the within-group order (GROUP N BY keeps N), best first; the first is the representative. */
  tops: KeptRow[];
  /** The representative row (tops[0]): best by the within-group order, then the earliest row. */
  bestWeight: number;
  bestOrd: number;
  bestDoc: bigint;
  /** The earliest matching row (segment order, then row): the order of groups with equal sort keys. */
  firstOrd: number;
}

/** Partial groups by group id: the key value itself for one key, a joined text for several. */
export type Partials = Map<unknown, PartialGroup>;

type Reader = (row: number) => AttrValue;

function newAgg(spec: AggSpec): AggState {
  // sums in a double unless the column is 64-bit (u32 sums stay exact in a double up to 2^21 rows of 2^32)
  const exact = spec.arg?.type === 'bigint' || spec.arg?.type === 'id';
  const state: AggState = { n: 0, sum: exact ? 0n : 0, min: null, max: null };
  if (spec.fn === 'count_distinct') state.distinct = new Set();
  // GROUP_CONCAT and the percentile aggregates keep every value (as printed text)
  if (spec.fn === 'concat' || spec.fn === 'dist') state.values = [];
  return state;
}

function less(a: AttrValue, b: AttrValue): boolean {
  return (a as number | bigint) < (b as number | bigint);
}

function addValue(spec: AggSpec, st: AggState, v: AttrValue): void {
  if (v === null || v === undefined) return;
  st.n++;
  if (st.distinct) {
    // an MVA (or a JSON array read as one) counts each element
    if (Array.isArray(v)) for (const x of v) st.distinct.add(x);
    else st.distinct.add(v as string | number | bigint);
    return;
  }
  // GROUP_CONCAT: each value as the client would print it (floats as %f, MVAs as 1,2,3)
  if (st.values) { st.values.push(cellToSqlText(v, spec.kind === 'string' && spec.arg?.type === 'float' ? 'float' : Array.isArray(v) ? 'mva' : 'string') ?? ''); return; }
  if (typeof st.sum === 'bigint') st.sum += BigInt(v as number | bigint);
  else st.sum += Number(v);
  if (st.min === null || less(v, st.min)) st.min = v;
  if (st.max === null || less(st.max, v)) st.max = v;
}

/** The key combinations of a row: one per MVA element (an empty MVA gives no group), one otherwise. */
function rowKeys(keys: AttrRef[], readers: Reader[], row: number): AttrValue[][] {
  let out: AttrValue[][] = [[]];
  keys.forEach((k, i) => {
    const v = readers[i]!(row);
    const values = k.bucket ? k.bucket(v) : Array.isArray(v) ? v : [v];
    const next: AttrValue[][] = [];
    for (const prefix of out) for (const x of values) next.push([...prefix, x]);
    out = next;
  });
  return out;
}

const keyString = (key: AttrValue[]): string => key.map((v) => `${typeof v}:${String(v)}`).join('\u0001');
/**
 * The Map key of a group: its one key value (number, bigint and string never collide in a Map), or a text;
 * strings as the collation folds them (searchd hashes string keys under the collation: 'ABC' and 'abc'
 * are one group under libc_ci).
 */
export const groupId = (key: AttrValue[], coll?: Collation): unknown => {
  if (coll && !coll.exact) key = key.map((v) => (typeof v === 'string' ? coll.fold(v) : v));
  return key.length === 1 ? key[0] : keyString(key);
};

/** Negative when row `a` comes first in its group (the within-group order, then the earliest row). */
export function compareKept(plan: GroupPlan, a: KeptRow, b: KeptRow): number {
  const within = plan.within ?? DEFAULT_WITHIN;
  for (let i = 0; i < within.length; i++) {
    const x = a.vals[i] ?? null, y = b.vals[i] ?? null;
    if (x === y) continue;
    const c = x === null ? -1 : y === null ? 1 : typeof x === 'string' && typeof y === 'string' ? (plan.coll?.compare ?? binaryCompare)(x, y)
      : less(x, y) ? -1 : less(y, x) ? 1 : 0;
    if (c) return within[i]!.desc ? -c : c;
  }
  return a.ord - b.ord;
}

/** Inserts `row` into a group's kept rows (sorted, at most plan.keep); keeps the representative fields in step. */
function keep(plan: GroupPlan, g: PartialGroup, row: KeptRow): void {
  const tops = g.tops;
  const n = plan.keep ?? 1;
  if (tops.length >= n && compareKept(plan, row, tops[tops.length - 1]!) >= 0) return;
  let at = tops.length;
  while (at > 0 && compareKept(plan, row, tops[at - 1]!) < 0) at--;
  tops.splice(at, 0, row);
  if (tops.length > n) tops.pop();
  const best = tops[0]!;
  g.bestWeight = best.weight; g.bestOrd = best.ord; g.bestDoc = best.doc;
}

/**
 * Folds one segment's matches into `into`; `segOrder` orders rows across segments (first rows, ties).
 * Columns are read through typed-array readers; a kept-row record (and its 64-bit id) is made only for
 * a row that enters its group's kept rows.
 */
export function groupSegment(
  plan: GroupPlan, seg: Segment, segOrder: number, rowIds: Uint32Array, weights: Int32Array, into: Partials,
): void {
  const plainKeys = plan.keys.every((k) => k.type !== 'mva' && k.type !== 'mva64' && !k.bucket);
  const within = plan.within ?? DEFAULT_WITHIN;
  const byWeight = within === DEFAULT_WITHIN && (plan.keep ?? 1) === 1;
  const read = (r: AttrRef) => (r.reader ? r.reader(seg) : seg.attrReader(r.attr));
  const keyReaders = plan.keys.map(read);
  const withinReaders = within.map((w) => (w.ref ? read(w.ref) : null));
  const aggs = plan.aggs;
  const aggReaders = aggs.map((a) => (a.arg ? read(a.arg) : null));
  const single = keyReaders.length === 1 && plainKeys ? keyReaders[0]! : null;
  const base = segOrder * 2 ** 32;
  if (single && byWeight) {
    foldSingleKey(plan, seg, base, rowIds, weights, single, aggReaders, into);
    return;
  }
  const one: AttrValue[][] = [[]];
  for (let i = 0; i < rowIds.length; i++) {
    const row = rowIds[i]!;
    const weight = weights[i]!;
    const ord = base + row;
    let keys: AttrValue[][];
    if (single) { one[0]![0] = single(row); keys = one; } else if (plainKeys) keys = [keyReaders.map((r) => r(row))]; else keys = rowKeys(plan.keys, keyReaders, row);
    let kept: KeptRow | undefined;
    for (const key of keys) {
      const id = groupId(key, plan.coll);
      let g = into.get(id);
      if (!g) {
        g = { key: [...key], count: 0, aggs: aggs.map(newAgg), tops: [], bestWeight: weight, bestOrd: ord, bestDoc: 0n, firstOrd: ord };
        into.set(id, g);
      } else if (ord < g.firstOrd) {
        g.firstOrd = ord;
      }
      // the default order (weight DESC, then earliest) decides without building the row record
      const enters = !byWeight || g.tops.length === 0 || weight > g.bestWeight || (weight === g.bestWeight && ord < g.bestOrd);
      if (enters) {
        kept ??= { ord, doc: seg.docId(row), weight, vals: withinReaders.map((r) => (r ? r(row) : weight)) };
        keep(plan, g, kept);
        // the group shows its representative's key (strings equal under the collation may differ)
        if (g.tops[0] === kept) g.key = [...key];
      }
      g.count++;
      for (let j = 0; j < aggs.length; j++) {
        const r = aggReaders[j];
        if (r) addValue(aggs[j]!, g.aggs[j]!, r(row));
      }
    }
  }
}

/** The common case in one tight loop: one plain key, the representative by weight (no row records but the best). */
function foldSingleKey(
  plan: GroupPlan, seg: Segment, base: number, rowIds: Uint32Array, weights: Int32Array, key: Reader,
  aggReaders: (Reader | null)[], into: Partials,
): void {
  const aggs = plan.aggs;
  const fold = plan.coll && !plan.coll.exact ? plan.coll.fold : null;
  for (let i = 0; i < rowIds.length; i++) {
    const row = rowIds[i]!;
    const weight = weights[i]!;
    const ord = base + row;
    const v = key(row);
    const id = fold && typeof v === 'string' ? fold(v) : v;
    let g = into.get(id);
    if (!g) {
      g = { key: [v], count: 0, aggs: aggs.map(newAgg), tops: [], bestWeight: weight, bestOrd: ord, bestDoc: 0n, firstOrd: ord };
      into.set(id, g);
      keep(plan, g, { ord, doc: seg.docId(row), weight, vals: [weight] });
    } else {
      if (ord < g.firstOrd) g.firstOrd = ord;
      if (weight > g.bestWeight || (weight === g.bestWeight && ord < g.bestOrd)) {
        keep(plan, g, { ord, doc: seg.docId(row), weight, vals: [weight] });
        g.key[0] = v;
      }
    }
    g.count++;
    for (let j = 0; j < aggs.length; j++) {
      const r = aggReaders[j];
      if (r) addValue(aggs[j]!, g.aggs[j]!, r(row));
    }
  }
}

function mergeAgg(a: AggState, b: AggState): void {
  a.n += b.n;
  if (a.distinct && b.distinct) { for (const v of b.distinct) a.distinct.add(v); return; }
  if (a.values && b.values) { a.values.push(...b.values); return; }
  a.sum = typeof a.sum === 'bigint' ? a.sum + (b.sum as bigint) : a.sum + (b.sum as number);
  if (b.min !== null && (a.min === null || less(b.min, a.min))) a.min = b.min;
  if (b.max !== null && (a.max === null || less(a.max, b.max))) a.max = b.max;
}

/** Merges one segment's partial groups into the running total. */
export function mergePartials(plan: GroupPlan, total: Partials, part: Partials): void {
  for (const [ks, g] of part) {
    const t = total.get(ks);
    if (!t) { total.set(ks, g); continue; }
    t.count += g.count;
    g.aggs.forEach((s, j) => mergeAgg(t.aggs[j]!, s));
    for (const row of g.tops) keep(plan, t, row);
    // the representative came from this part: so does the key it shows
    if (g.tops.length && t.tops[0] === g.tops[0]) t.key = g.key;
    if (g.firstOrd < t.firstOrd) t.firstOrd = g.firstOrd;
  }
}
