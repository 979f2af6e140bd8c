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
function integerFilter(column: number, f: Filter, values: (number | bigint)[], top: bigint): PlanFilter {
  const negate = !!f.negate;
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

/** A row-allow bitmap of `seg` for the host filters, placed in core memory; 0 when there are none. */
export function placeAllowBitmap(schema: IndexSchema, seg: Segment, host: Filter[], collationName?: CollationName): number {
  if (!host.length) return 0;
  const coll = collation(collationName);
  const bits = new Uint8Array(Math.max(16, (seg.rows + 7) >>> 3));
  // a long IN list also holds its strings folded, for string values under a case-folding collation
  const inSet = (f: Filter & { op: 'in' }) => new Set(f.values.flatMap((x) => (typeof x === 'string' && !coll.exact ? [x, coll.fold(x)] : [String(x)])));
  const sets = host.map((f) => (f.op === 'in' ? inSet(f) : null));
  const cols = host.map((f) => (f.code ? -1 : columnOf(schema, f.attr)));
  // expression filters: the core computes the value of every row at once
  const computed = host.map((f) => (f.code ? exprColumnValues(seg, f.code) : null));
  for (let r = 0; r < seg.rows; r++) {
    if (seg.isDeleted(r)) continue;
    let ok = true;
    for (let i = 0; i < host.length && ok; i++) {
      const v = computed[i] ? computed[i]![r]! : cols[i] === 0 ? seg.docId(r) : seg.attr(cols[i] - 1, r);
      ok = test(host[i], v, sets[i], coll) !== !!host[i].negate;
    }
    if (ok) bits[r >>> 3] |= 1 << (r & 7);
  }
  return seg.core.place(bits);
}
