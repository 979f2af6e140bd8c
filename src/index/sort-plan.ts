/**
 * ORDER BY for the core and for the merge of per-segment top-Ks: weight(), id and numeric
 * attributes are read in place by the core; string/json/mva attributes get a per-segment u32
 * rank array; the host compares the real values when it merges segments. Strings order by the request's
 * collation (libc_ci unless set): the ranks sort the collation's folded keys, the merge compares with it.
 */
import type { AttrValue, IndexSchema, SortKey } from './types.js';
import type { Segment } from './segment/segment.js';
import { MAX_SORT_KEYS, SK_COLUMN, SK_F64, SK_RANK_U32, SK_WEIGHT, type PlanSortKey } from '../wasm/plan-format.js';
import { COL_NONE, coreColumnType } from './segment/segment-layout.js';
import { columnOf } from './attr-filters.js';
import { SearchError } from '../util/errors.js';
import { placeExprColumn } from './expr-column.js';
import { binaryCompare, collation, type Collation, type CollationName } from '../util/collation.js';
import { stringRanks } from './segment/string-ranks.js';

export interface ResolvedKey {
  kind: 'weight' | 'column' | 'expr' | 'host';
  column: number;
  host: boolean;
  desc: boolean;
  code?: number[];
  rowValues?: SortKey['rowValues'];
  /** How the key's strings compare (host keys). */
  coll: Collation;
  /** A STRING attribute column (its ranks are kept per segment). */
  str?: boolean;
}

/**
 * Per-segment values of expression keys for the merge (key index -> value of a row): read from the core's
 * column in place (numeric formulas; the merge runs before releaseSearch frees it) or computed on the host
 * (rowValues keys).
 */
export type ExprValues = Map<number, (row: number) => AttrValue>;

/**
 * A row's value in an expression column the core placed at `ptr`: only the merge's candidates are read,
 * not a copy of the whole column a query. A grow of a non-shared memory detaches the view (its length
 * drops to 0) and it is taken anew; a shared memory's older buffers stay valid over what they cover. The
 * length and not the core's buffer is checked: that getter costs ~45 ns, and the merge's comparator
 * reads a key twice a comparison.
 */
function coreColumnReader(seg: Segment, ptr: number, rows: number): (row: number) => number {
  let view = new Float64Array(seg.core.buffer, ptr, rows);
  return (row) => {
    if (view.length === 0) view = new Float64Array(seg.core.buffer, ptr, rows);
    return view[row]!;
  };
}

export function resolveSort(schema: IndexSchema, sort: SortKey[], collationName?: CollationName): ResolvedKey[] {
  if (sort.length > MAX_SORT_KEYS) throw new SearchError('QUERY_ERROR', `too many sort-by attributes; maximum count is ${MAX_SORT_KEYS - 1}`);
  const coll = collation(collationName);
  return sort.map((k) => {
    if (k.code) return { kind: 'expr', column: -1, host: false, desc: k.desc, code: k.code, coll };
    if (k.rowValues) return { kind: 'host', column: -1, host: true, desc: k.desc, rowValues: k.rowValues, coll };
    if (k.attr.toLowerCase() === 'weight()' || k.attr.toLowerCase() === 'weight') return { kind: 'weight', column: -1, host: false, desc: k.desc, coll };
    const column = columnOf(schema, k.attr);
    if (column < 0) throw new SearchError('QUERY_ERROR', `sort-by attribute '${k.attr}' not found`);
    const host = column > 0 && coreColumnType(schema.attrs[column - 1].type) === COL_NONE;
    return { kind: 'column', column, host, desc: k.desc, coll, str: column > 0 && schema.attrs[column - 1].type === 'string' };
  });
}

/** Total order of host values: null/empty first, numbers, then strings (`strings`: byte order unless given), arrays by elements. */
export function compareValues(a: AttrValue, b: AttrValue, strings: (x: string, y: string) => number = binaryCompare): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (Array.isArray(a) || Array.isArray(b)) {
    const x = Array.isArray(a) ? a : [a as bigint];
    const y = Array.isArray(b) ? b : [b as bigint];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = compareValues(x[i], y[i]);
      if (c) return c;
    }
    return x.length - y.length;
  }
  if (typeof a === 'string' || typeof b === 'string') return strings(String(a), String(b));
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Per-segment core sort keys; rank arrays and expression values are placed in core memory and listed
 * in `owned`; `exprValues` gets a reader of each expression key's values for the merge.
 */
export function segmentSort(keys: ResolvedKey[], seg: Segment, owned: number[], exprValues?: ExprValues): PlanSortKey[] {
  return keys.map((k, i) => {
    if (k.kind === 'weight') return { kind: SK_WEIGHT, ref: 0, desc: k.desc };
    if (k.kind === 'expr') {
      const ptr = placeExprColumn(seg, k.code!);
      owned.push(ptr);
      exprValues?.set(i, coreColumnReader(seg, ptr, seg.rows));
      return { kind: SK_F64, ref: ptr, desc: k.desc };
    }
    if (!k.host) return { kind: SK_COLUMN, ref: k.column, desc: k.desc };
    // a string column: the segment's ranks under the collation, derived once and kept with the segment
    const kept = k.str ? stringRanks(seg, k.column - 1, k.coll) : null;
    if (kept) return { kind: SK_RANK_U32, ref: kept.ptr, desc: k.desc };
    let values: AttrValue[] = [];
    if (k.rowValues) {
      const computed = k.rowValues(seg);
      values = computed;
      exprValues?.set(i, (row) => computed[row]!);
    } else for (let r = 0; r < seg.rows; r++) values.push(seg.attr(k.column - 1, r));
    // the collation's sort keys once a row (a copy only of a string it changes), compared in binary order
    const fold = k.coll.fold;
    const keys = k.coll.exact ? values : values.map((v) => (typeof v === 'string' ? fold(v) : v));
    const order = keys.map((_, i) => i).sort((x, y) => compareValues(keys[x], keys[y]));
    const ranks = new Uint32Array(Math.max(seg.rows, 4));
    let rank = 0;
    order.forEach((row, i) => {
      if (i > 0 && compareValues(keys[order[i - 1]], keys[row]) !== 0) rank++;
      ranks[row] = rank;
    });
    const ptr = seg.core.place(new Uint8Array(ranks.buffer));
    owned.push(ptr);
    return { kind: SK_RANK_U32, ref: ptr, desc: k.desc };
  });
}
