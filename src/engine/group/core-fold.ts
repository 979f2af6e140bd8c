/**
 * The fold into partial groups in the WASM core (assembly/group/): a GroupPlan as a core program over
 * one segment's columns, and the program's records read back as the PartialGroups the host's own fold
 * (group-segment.ts) would have made from the same matches, so both merge alike. The core folds
 * COUNT(*), SUM/AVG/MIN/MAX over numeric attributes and over expressions the core computes
 * (exprColumn), keys of any numeric kind, strings (by rank) and MVAs (each value a group), and the
 * representative row by weight or by attribute columns. The host folds what is left: COUNT(DISTINCT),
 * GROUP_CONCAT, JSON and bucket keys, host-evaluated expressions, GROUP N BY.
 */
import { collation, type Collation } from '../../util/collation.js';
import type { AttrValue } from '../../index/types.js';
import type { Segment } from '../../index/segment/segment.js';
import { placeExprColumn } from '../../index/expr-column.js';
import { AGG, RECORD_FIXED_BYTES, V, type Program, type Source } from '../../wasm/group-format.js';
import type { GroupRecords } from '../../wasm/group-runner.js';
import { DEFAULT_WITHIN, type AggSpec, type AttrRef, type GroupPlan } from './group-plan.js';
import { groupId, type AggState, type PartialGroup, type Partials } from './group-segment.js';
import { mvaColumn } from './core-columns.js';
import { stringRanks } from '../../index/segment/string-ranks.js';

const COL_U32 = 1, COL_I64 = 2, COL_F32 = 3;
const CORE_AGGS = new Set(['count', 'sum', 'avg', 'min', 'max']);
const NUMERIC_ATTRS = new Set(['uint', 'bool', 'timestamp', 'bigint', 'float', 'id']);

/** A value of a record: the 8 bytes at `off` as the JS value the host's reader gives. */
type Decode = (view: DataView, off: number) => AttrValue;

interface Column { src: Source; decode: Decode }

const asU32: Decode = (v, off) => v.getUint32(off, true);
const asI64: Decode = (v, off) => v.getBigInt64(off, true);
const asF64: Decode = (v, off) => v.getFloat64(off, true);

/** Whether the core can read `ref` at all (segment contents may still send it to the host). */
function coreReadable(ref: AttrRef, asKey: boolean): boolean {
  if (ref.bucket) return false;
  if (ref.attr === -2) return !!ref.code && (ref.type === 'float' || ref.type === 'bigint');
  if (NUMERIC_ATTRS.has(ref.type)) return true;
  return asKey && (ref.type === 'string' || ref.type === 'mva' || ref.type === 'mva64');
}

/** Off: every grouping folds on the host (tests compare both folds on the same queries). */
export const coreFoldSwitch = { enabled: true };

/** Whether the core folds `plan` (on a segment whose string and MVA columns it can read). */
export function coreFoldable(plan: GroupPlan): boolean {
  if (!coreFoldSwitch.enabled) return false;
  if ((plan.keep ?? 1) > 1 || plan.keys.length > 8 || plan.aggs.length > 64 || (plan.within?.length ?? 0) > 8) return false;
  if (plan.keys.filter((k) => k.type === 'mva' || k.type === 'mva64').length > 1) return false;
  if (!plan.keys.every((k) => coreReadable(k, true))) return false;
  if (!plan.aggs.every((a) => CORE_AGGS.has(a.fn) && (a.fn === 'count' || (a.arg && coreReadable(a.arg, false))))) return false;
  return (plan.within ?? []).every((w) => !w.ref || (w.ref.attr >= -1 && !w.ref.reader && (NUMERIC_ATTRS.has(w.ref.type) || w.ref.type === 'string')));
}

/** `ref`'s column in `seg` for the core, or null when the host must read it there. `owned`: core memory to free after. */
function column(ref: AttrRef, seg: Segment, owned: number[], coll: Collation): Column | null {
  if (ref.attr === -1) return { src: { cls: V.i64, ptr: seg.columnPtr(0) }, decode: asI64 };
  if (ref.attr === -2) {
    const ptr = placeExprColumn(seg, ref.code!);
    owned.push(ptr);
    return ref.type === 'float' ? { src: { cls: V.f64, ptr }, decode: asF64 } : { src: { cls: V.f64Int, ptr }, decode: asI64 };
  }
  const c = ref.attr + 1;
  const ptr = seg.columnPtr(c);
  switch (ref.type) {
    case 'uint': case 'bool': case 'timestamp':
      return seg.columnType(c) === COL_U32 && ptr ? { src: { cls: V.u32, ptr }, decode: asU32 } : null;
    case 'bigint': return seg.columnType(c) === COL_I64 && ptr ? { src: { cls: V.i64, ptr }, decode: asI64 } : null;
    case 'float': return seg.columnType(c) === COL_F32 && ptr ? { src: { cls: V.f32, ptr }, decode: asF64 } : null;
    case 'string': {
      const ranks = stringRanks(seg, ref.attr, coll);
      return ranks && { src: { cls: V.u32, ptr: ranks.ptr }, decode: (v, off) => ranks.strings[v.getUint32(off, true)]! };
    }
    case 'mva': case 'mva64': {
      const mva = mvaColumn(seg, ref.attr);
      return mva && { src: { cls: V.mva, ptr: mva.offsets, ptr2: mva.values }, decode: asI64 };
    }
    default: return null;
  }
}

/** A plan as the core folds it over one segment, and how its records read back. */
export interface CoreProgram {
  program: Program;
  keys: Decode[];
  aggs: { spec: AggSpec; decode: Decode | null; exact: boolean }[];
}

/** The plan's program over `seg`, or null when some column there needs the host (it then folds the plan). */
export function coreProgram(plan: GroupPlan, seg: Segment, owned: number[]): CoreProgram | null {
  const coll = plan.coll ?? collation(undefined);
  const keys: Column[] = [];
  for (const k of plan.keys) {
    const col = column(k, seg, owned, coll);
    if (!col) return null;
    keys.push(col);
  }
  const program: Program = { keys: keys.map((k) => k.src), aggs: [], within: [] };
  const aggs: CoreProgram['aggs'] = [];
  for (const spec of plan.aggs) {
    const exact = spec.arg?.type === 'bigint' || spec.arg?.type === 'id';
    if (spec.fn === 'count') { aggs.push({ spec, decode: null, exact }); continue; }
    const col = column(spec.arg!, seg, owned, coll);
    if (!col) return null;
    const fn = spec.fn === 'min' ? AGG.min : spec.fn === 'max' ? AGG.max : AGG.sum;
    program.aggs.push({ fn, src: col.src });
    // a u32 sum is a double (the host sums those in a double too)
    const decode = fn === AGG.sum && col.src.cls === V.u32 ? asF64 : col.decode;
    aggs.push({ spec, decode, exact });
  }
  for (const w of plan.within ?? []) {
    if (!w.ref) { program.within.push({ desc: w.desc, src: { cls: V.weight, ptr: 0 } }); continue; }
    const col = column(w.ref, seg, owned, coll);
    if (!col) return null;
    program.within.push({ desc: w.desc, src: col.src });
  }
  return { program, keys: keys.map((k) => k.decode), aggs };
}

/**
 * Reads a program's records into `into` as PartialGroups of segment `seg` (`base`: its rows' order
 * offset); the representative row's id and within-order values are read from the segment per group.
 */
export function readCoreGroups(plan: GroupPlan, prog: CoreProgram, seg: Segment, base: number, recs: GroupRecords, into: Partials): void {
  const { view, n, recordBytes } = recs;
  const nk = prog.keys.length;
  const within = plan.within ?? DEFAULT_WITHIN;
  const withinReaders = within.map((w) => (w.ref ? (w.ref.reader ? w.ref.reader(seg) : seg.attrReader(w.ref.attr)) : null));
  const coll = plan.coll;
  const folds = plan.keys.map((k) => {
    if (k.type !== 'string' || k.attr < 0 || !coll || coll.exact) return null;
    const ranks = stringRanks(seg, k.attr, coll);
    return ranks && { folded: ranks.folded, host: seg.hostCols[k.attr]! };
  });
  const folding = folds.some((f) => f !== null);
  for (let r = 0, off = recs.offset; r < n; r++, off += recordBytes) {
    const fixed = off + nk * 8;
    const count = view.getUint32(fixed, true);
    const firstRow = view.getUint32(fixed + 4, true);
    const bestRow = view.getUint32(fixed + 8, true);
    // a string key shows the representative row's own string (a rank stands for all equal under the
    // collation); the group's id is the rank's folded key, not folded again
    let key: AttrValue[], id: AttrValue[] | undefined;
    if (folding) {
      key = []; id = [];
      for (let i = 0; i < nk; i++) {
        const f = folds[i];
        if (f) {
          const rank = view.getUint32(off + i * 8, true);
          key.push(rank ? f.host[bestRow]! : null);
          id.push(rank ? f.folded[rank - 1]! : null);
        } else {
          const v = prog.keys[i]!(view, off + i * 8);
          key.push(v); id.push(v);
        }
      }
    } else key = prog.keys.map((decode, i) => decode(view, off + i * 8));
    const bestWeight = view.getInt32(fixed + 12, true);
    let at = fixed + RECORD_FIXED_BYTES;
    const aggs = prog.aggs.map(({ spec, decode, exact }): AggState => {
      const st: AggState = { n: count, sum: exact ? 0n : 0, min: null, max: null };
      if (!decode) { st.n = 0; return st; }
      const v = decode(view, at);
      at += 8;
      if (spec.fn === 'min') st.min = v;
      else if (spec.fn === 'max') st.max = v;
      else st.sum = v as number | bigint;
      return st;
    });
    const doc = seg.docId(bestRow);
    const g: PartialGroup = {
      key, count, aggs, bestWeight, bestOrd: base + bestRow, bestDoc: doc, firstOrd: base + firstRow,
      tops: [{ ord: base + bestRow, doc, weight: bestWeight, vals: withinReaders.map((rd) => (rd ? rd(bestRow) : bestWeight)) }],
    };
    into.set(groupId(id ?? key), g);
  }
}
