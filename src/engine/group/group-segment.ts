/**
 * The per-segment step of grouping: one segment's matches (row ids and weights from one core call)
 * folded into partial groups keyed by the group values, then partials of all segments merged. The
 * partial state (count, sums, min/max, distinct sets, best row, first row) merges associatively, so
 * this step can move into the WASM core over the segment's attribute columns without changing the
 * merge; today it runs here, in TypeScript, reading the columns through Segment.attr.
 */
import type { AttrValue } from '../../index/types.js';
import type { Segment } from '../../index/segment.js';
import type { AggSpec, AttrRef, GroupPlan } from './group-plan.js';

export interface AggState { n: number; sum: number | bigint; min: AttrValue; max: AttrValue; distinct?: Set<string | number | bigint> }

export interface PartialGroup {
  /** The group's key values (for an MVA key: the one element this group stands for). */
  key: AttrValue[];
  count: number;
  aggs: AggState[];
  /** The representative row: best weight, then the earliest row. */
  bestWeight: number;
  bestOrd: number;
  bestDoc: bigint;
  /** The earliest matching row (segment order, then row): the order of groups with equal sort keys. */
  firstOrd: number;
}

export type Partials = Map<string, PartialGroup>;

function read(seg: Segment, ref: AttrRef, row: number): AttrValue {
  return ref.attr < 0 ? seg.docId(row) : seg.attr(ref.attr, row);
}

function newAgg(spec: AggSpec): AggState {
  const state: AggState = { n: 0, sum: spec.kind === 'float' || spec.fn === 'avg' ? 0 : 0n, min: null, max: null };
  if (spec.fn === 'count_distinct') state.distinct = new Set();
  return state;
}

function less(a: AttrValue, b: AttrValue): boolean {
  return (a as number | bigint) < (b as number | bigint);
}

function addValue(spec: AggSpec, st: AggState, v: AttrValue): void {
  if (v === null || v === undefined) return;
  st.n++;
  if (st.distinct) { st.distinct.add(v as string | number | bigint); return; }
  if (typeof st.sum === 'bigint') st.sum += BigInt(v as number | bigint);
  else st.sum += Number(v);
  if (st.min === null || less(v, st.min)) st.min = v;
  if (st.max === null || less(st.max, v)) st.max = v;
  void spec;
}

/** The key combinations of a row: one per MVA element (an empty MVA gives no group), one otherwise. */
function rowKeys(seg: Segment, keys: AttrRef[], row: number): AttrValue[][] {
  let out: AttrValue[][] = [[]];
  for (const k of keys) {
    const v = read(seg, k, row);
    const values = k.bucket ? k.bucket(v) : Array.isArray(v) ? v : [v];
    const next: AttrValue[][] = [];
    for (const prefix of out) for (const x of values) next.push([...prefix, x]);
    out = next;
  }
  return out;
}

const keyString = (key: AttrValue[]): string => key.map((v) => `${typeof v}:${String(v)}`).join('\u0001');

/** Folds one segment's matches into `into`; `segOrder` orders rows across segments (first rows, ties). */
export function groupSegment(
  plan: GroupPlan, seg: Segment, segOrder: number, rowIds: Uint32Array, weights: Int32Array, into: Partials,
): void {
  const plainKeys = plan.keys.every((k) => k.type !== 'mva' && k.type !== 'mva64' && !k.bucket);
  for (let i = 0; i < rowIds.length; i++) {
    const row = rowIds[i]!;
    const weight = weights[i]!;
    const ord = segOrder * 2 ** 32 + row;
    const keys = plainKeys ? [plan.keys.map((k) => read(seg, k, row))] : rowKeys(seg, plan.keys, row);
    for (const key of keys) {
      const ks = keyString(key);
      let g = into.get(ks);
      if (!g) {
        g = { key, count: 0, aggs: plan.aggs.map(newAgg), bestWeight: weight, bestOrd: ord, bestDoc: seg.docId(row), firstOrd: ord };
        into.set(ks, g);
      } else {
        if (weight > g.bestWeight || (weight === g.bestWeight && ord < g.bestOrd)) {
          g.bestWeight = weight; g.bestOrd = ord; g.bestDoc = seg.docId(row);
        }
        if (ord < g.firstOrd) g.firstOrd = ord;
      }
      g.count++;
      plan.aggs.forEach((spec, j) => { if (spec.arg) addValue(spec, g!.aggs[j]!, read(seg, spec.arg, row)); });
    }
  }
}

function mergeAgg(a: AggState, b: AggState): void {
  a.n += b.n;
  if (a.distinct && b.distinct) { for (const v of b.distinct) a.distinct.add(v); return; }
  a.sum = typeof a.sum === 'bigint' ? a.sum + (b.sum as bigint) : a.sum + (b.sum as number);
  if (b.min !== null && (a.min === null || less(b.min, a.min))) a.min = b.min;
  if (b.max !== null && (a.max === null || less(a.max, b.max))) a.max = b.max;
}

/** Merges one segment's partial groups into the running total. */
export function mergePartials(total: Partials, part: Partials): void {
  for (const [ks, g] of part) {
    const t = total.get(ks);
    if (!t) { total.set(ks, g); continue; }
    t.count += g.count;
    g.aggs.forEach((s, j) => mergeAgg(t.aggs[j]!, s));
    if (g.bestWeight > t.bestWeight || (g.bestWeight === t.bestWeight && g.bestOrd < t.bestOrd)) {
      t.bestWeight = g.bestWeight; t.bestOrd = g.bestOrd; t.bestDoc = g.bestDoc;
    }
    if (g.firstOrd < t.firstOrd) t.firstOrd = g.firstOrd;
  }
}
