/**
 * Splits a request's filters per segment: numeric ones (and id) go to the core as plan filters;
 * string ones, long IN lists and anything else become a row-allow bitmap built here, strings compared
 * under the request's collation (searchd's string filters take it: libc_ci unless set).
 */
import type { AttrValue, Filter, IndexSchema } from './types.js';
import type { Segment } from './segment/segment.js';
import type { PlanFilter } from '../wasm/plan-format.js';
import { COL_F32, COL_I64, COL_NONE, coreColumnType } from './segment/segment-layout.js';
import { SearchError } from '../util/errors.js';
import { exprColumnValues } from './expr-column.js';
import { collation, type Collation, type CollationName } from '../util/collation.js';
import { rankBound, stringRanks } from './segment/string-ranks.js';

/** IN lists longer than this are checked on the host with a Set, not value by value in the core. */
const CORE_IN_LIMIT = 16;

export interface SplitFilters {
  core: PlanFilter[];
  host: Filter[];
}

/** Core column of an attribute name ('id' = 0, attribute i = i + 1); -1 when unknown. */
export function columnOf(schema: IndexSchema, attr: string): number {
  if (attr.toLowerCase() === 'id') return 0;
  const i = schema.attrs.findIndex((a) => a.name.toLowerCase() === attr.toLowerCase());
  return i < 0 ? -1 : i + 1;
}

function filterValues(f: Filter): (number | bigint | string)[] {
  if (f.op === 'between') return [f.low, f.high];
  if (f.op === 'in') return f.values;
  return [f.value];
}

export function splitFilters(schema: IndexSchema, filters: Filter[]): SplitFilters {
  const out: SplitFilters = { core: [], host: [] };
  for (const f of filters) {
    if (f.code) { out.host.push(f); continue; }
    const col = columnOf(schema, f.attr);
    if (col < 0) throw new SearchError('QUERY_ERROR', `unknown column: '${f.attr}'`);
    const type = col === 0 ? coreColumnType('bigint') : coreColumnType(schema.attrs[col - 1].type);
    const values = filterValues(f);
    const numeric = values.every((v) => typeof v !== 'string');
    if (type === COL_NONE || !numeric || (f.op === 'in' && values.length > CORE_IN_LIMIT)) {
      out.host.push(f);
      continue;
    }
    const float = type === COL_F32;
    // ids (INSERT refuses past 2^63-1) and the 32-bit unsigned columns hold no value past 2^63-1
    const top = col === 0 || type !== COL_I64 ? I64_MAX : U64_MAX;
    out.core.push(float ? { column: col, op: f.op, negate: !!f.negate, values: values as (number | bigint)[], float }
      : integerFilter(col, f, values as (number | bigint)[], top));
  }
  return out;
}

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
const U64_MAX = (1n << 64n) - 1n;

/**
 * Past every value of the column, `top` being the largest a filter may name as it is: U64_MAX for a
 * bigint, whose 2^63..2^64-1 are the negative ones (the core's signed reading, as Manticore's), I64_MAX
 * for ids and the unsigned columns, which hold none of 2^63..2^64-1 (ids past 2^63-1 are refused; the
 * binary API's id range reads its 2^64-1 as above every id, agent/search-sql.ts).
 */
const past64 = (v: number | bigint, top: bigint): boolean => typeof v === 'bigint' && (v > top || v < I64_MIN);

/**
 * A filter with a value past the column's values (`id = 18446744073709551617`, `id < 9223372036854775808`),
 * rewritten on what the core's 64-bit values can say. The core keeps a value's low 64 bits as a signed
 * one, so 2^64+1 was 1 (an UPDATE or DELETE by it changed the row with id 1) and 2^64-1 was -1 (`DELETE
 * ... WHERE id > 18446744073709551615` deleted every row). Such a value equals no row and is above (or below) all.
 */
function past64Filter(column: number, f: Filter, values: (number | bigint)[], negate: boolean, top: bigint): PlanFilter {
  const none: PlanFilter = { column, op: 'in', negate, values: [], float: false };
  const all: PlanFilter = { ...none, negate: !negate };
  const above = (v: number | bigint | undefined) => typeof v === 'bigint' && v > top;
  const below = (v: number | bigint | undefined) => typeof v === 'bigint' && v < I64_MIN;
  switch (f.op) {
    case '=': case 'in': {
      const kept = values.filter((v) => !past64(v, top));
      return integerFilter(column, { attr: f.attr, op: 'in', values: kept, negate }, kept, top);
    }
    case '!=': return all;
    case '<': case '<=': return above(values[0]) ? all : none;
    case '>': case '>=': return below(values[0]) ? all : none;
    case 'between': {
      const [low, high] = values as [number | bigint, number | bigint];
      if (above(low) || below(high)) return none;
      const bounds = [below(low) ? I64_MIN : low, above(high) ? I64_MAX : high];
      return integerFilter(column, { attr: f.attr, op: 'between', low: bounds[0]!, high: bounds[1]!, negate }, bounds, top);
    }
  }
}

/**
 * A filter on an integer column with fractional values, rewritten on integers: `x >= 5.5` is
 * `x >= 6`, `x < 5.5` is `x <= 5`; `x = 5.5` matches nothing (an empty IN list).
 */
function integerFilter(column: number, f: Filter, given: (number | bigint)[], top: bigint): PlanFilter {
  const negate = !!f.negate;
  // a float past the 64-bit range (1e19, 1e309 = Infinity) is past every value as a bigint past it is:
  // BigInt() of Infinity threw in the plan encoder, and 1e19 wrapped to a negative 64-bit value
  const values = given.map((v) => (typeof v === 'number' && !(Math.abs(v) < 2 ** 63) && !Number.isNaN(v) ? (v > 0 ? top + 1n : I64_MIN - 1n) : v));
  if (values.some((v) => past64(v, top))) return past64Filter(column, f, values, negate, top);
  const frac = (v: number | bigint) => typeof v === 'number' && !Number.isInteger(v);
  if (!values.some(frac)) return { column, op: f.op, negate, values, float: false };
  const up = (v: number | bigint) => (typeof v === 'number' ? Math.ceil(v) : v);
  const down = (v: number | bigint) => (typeof v === 'number' ? Math.floor(v) : v);
  switch (f.op) {
    case '<': return { column, op: '<=', negate, values: [down(values[0])], float: false };
    case '<=': return { column, op: '<=', negate, values: [down(values[0])], float: false };
    case '>': return { column, op: '>=', negate, values: [up(values[0])], float: false };
    case '>=': return { column, op: '>=', negate, values: [up(values[0])], float: false };
    case 'between': return { column, op: 'between', negate, values: [up(values[0]), down(values[1])], float: false };
    case '=': case 'in': return { column, op: 'in', negate, values: values.filter((v) => !frac(v)), float: false };
    case '!=': return { column, op: 'in', negate: !negate, values: [], float: false };
  }
}

function cmp(a: AttrValue, b: number | bigint | string, coll: Collation): number {
  if (typeof a === 'string' || typeof b === 'string') return coll.compare(String(a ?? ''), String(b));
  if (Array.isArray(a) || a === null) return Number.NaN;
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    const x = typeof a === 'bigint' ? a : BigInt(Math.trunc(a));
    const y = typeof b === 'bigint' ? b : BigInt(Math.trunc(b));
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** IN lists up to this long compare a string value with each entry (no folded copy a row); longer ones look it up folded. */
const SHORT_IN = 16;

/** One value against one filter (MVA: any element). */
function test(f: Filter, v: AttrValue, inSet: Set<string> | null, coll: Collation): boolean {
  if (Array.isArray(v)) return v.some((x) => test(f, x, inSet, coll));
  switch (f.op) {
    case 'in': {
      if (typeof v !== 'string') return inSet!.has(v === null ? '' : String(v));
      if (coll.exact) return inSet!.has(v);
      return f.values.length <= SHORT_IN ? f.values.some((x) => coll.compare(v, String(x)) === 0) : inSet!.has(coll.fold(v));
    }
    case 'between': return cmp(v, f.low, coll) >= 0 && cmp(v, f.high, coll) <= 0;
    case '=': return cmp(v, f.value, coll) === 0;
    case '!=': return cmp(v, f.value, coll) !== 0;
    case '<': return cmp(v, f.value, coll) < 0;
    case '<=': return cmp(v, f.value, coll) <= 0;
    case '>': return cmp(v, f.value, coll) > 0;
    case '>=': return cmp(v, f.value, coll) >= 0;
  }
}

/** Whether row `r` passes (negation applied), reading core memory through `u32` when it reads ranks. */
type RowTest = (r: number, u32: Uint32Array) => boolean;

/**
 * A filter on a STRING column as a test of the segment's ranks under the collation (string-ranks.ts: kept
 * with the segment), with no string read a row: the literal's place among the folded keys is found once.
 * Undefined when the filter or the column does not fit (the row's value is then tested).
 */
function rankTest(seg: Segment, a: number, f: Filter, coll: Collation, slow: RowTest): RowTest | undefined {
  const values = filterValues(f);
  if (f.op === 'between' || !values.every((v) => typeof v === 'string')) return undefined;
  const ranks = stringRanks(seg, a, coll);
  if (!ranks) return undefined;
  const { folded } = ranks;
  const base = ranks.ptr >>> 2;
  const neg = !!f.negate;
  const exact = (lit: string): number => {
    const key = coll.fold(lit);
    const i = rankBound(folded, key, false);
    return i < folded.length && folded[i] === key ? i + 1 : -1;
  };
  let hit: (rank: number) => boolean;
  if (f.op === 'in') {
    const flags = new Uint8Array(folded.length + 1);
    for (const v of values) { const r = exact(v as string); if (r > 0) flags[r] = 1; }
    hit = (rank) => flags[rank] === 1;
  } else {
    const lit = values[0] as string;
    const lb = rankBound(folded, coll.fold(lit), false), ub = rankBound(folded, coll.fold(lit), true);
    switch (f.op) {
      case '=': { const r = exact(lit); hit = (rank) => rank === r; break; }
      case '!=': { const r = exact(lit); hit = (rank) => rank !== r; break; }
      case '<': hit = (rank) => rank <= lb; break;
      case '<=': hit = (rank) => rank <= ub; break;
      case '>': hit = (rank) => rank > ub; break;
      case '>=': hit = (rank) => rank > lb; break;
    }
  }
  // rank 0 is a null value: tested as before
  return (r, u32) => { const rank = u32[base + r]!; return rank === 0 ? slow(r, u32) : hit(rank) !== neg; };
}

/** A row-allow bitmap of `seg` for the host filters, placed in core memory; 0 when there are none. */
export function placeAllowBitmap(schema: IndexSchema, seg: Segment, host: Filter[], collationName?: CollationName): number {
  if (!host.length) return 0;
  const coll = collation(collationName);
  const bits = new Uint8Array(Math.max(16, (seg.rows + 7) >>> 3));
  // a long IN list also holds its strings folded, for string values under a case-folding collation
  const inSet = (f: Filter & { op: 'in' }) => new Set(f.values.flatMap((x) => (typeof x === 'string' && !coll.exact ? [x, coll.fold(x)] : [String(x)])));
  const tests = host.map((f): RowTest => {
    const set = f.op === 'in' ? inSet(f) : null;
    const neg = !!f.negate;
    if (f.code) {
      // expression filters: the core computes the value of every row at once
      const computed = exprColumnValues(seg, f.code);
      return (r) => test(f, computed[r]!, set, coll) !== neg;
    }
    const col = columnOf(schema, f.attr);
    const slow: RowTest = (r) => test(f, col === 0 ? seg.docId(r) : seg.attr(col - 1, r), set, coll) !== neg;
    return (col > 0 && schema.attrs[col - 1]!.type === 'string' && rankTest(seg, col - 1, f, coll, slow)) || slow;
  });
  // after every test is made (ranks may allocate core memory and grow it): the view the tests read
  const u32 = seg.core.u32;
  for (let r = 0; r < seg.rows; r++) {
    if (seg.isDeleted(r)) continue;
    let ok = true;
    for (let i = 0; i < tests.length && ok; i++) ok = tests[i]!(r, u32);
    if (ok) bits[r >>> 3] |= 1 << (r & 7);
  }
  return seg.core.place(bits);
}
