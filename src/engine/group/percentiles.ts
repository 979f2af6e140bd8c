/**
 * PERCENTILES(), PERCENTILE_RANKS() and MEDIAN_ABSOLUTE_DEVIATION() (SQL aggregates and the /search
 * `percentiles`, `percentile_ranks`, `median_absolute_deviation` aggregations; Manticore's manual,
 * Searching/Grouping.md). Manticore estimates them with a t-digest; quarry keeps every value of the group
 * and answers exactly, by the rule the t-digest answers small sets with (its clt test
 * es-like-search/percentile-mad-aggregations.rec): the p-th percentile is the value of rank
 * ceil(p/100 * n) (nearest rank), a rank is the percentage of values <= v, MAD the median of the
 * absolute deviations from the median. `compression` (the t-digest's accuracy) is accepted and has no
 * effect on an exact answer.
 */
import type { NamedValue } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { JsonFields, type JsonOut } from '../values/cell-format.js';

export type DistFn = 'percentiles' | 'percentile_ranks' | 'mad';
export interface DistOptions { fn: DistFn; values: number[] }

/** The percents PERCENTILES() reports when none are given (the manual's p_default). */
export const DEFAULT_PERCENTS = [1, 5, 25, 50, 75, 95, 99];
export const DIST_NAMES: Record<string, DistFn> = {
  percentiles: 'percentiles', percentile_ranks: 'percentile_ranks', median_absolute_deviation: 'mad',
};

function checkValues(fn: DistFn, values: number[] | undefined): number[] {
  if (fn === 'percentile_ranks' && !values?.length) throw new SearchError('QUERY_ERROR', 'percentile_ranks() requires values');
  if (values?.some((v) => !Number.isFinite(v))) throw new SearchError('QUERY_ERROR', `${fn}() values must be numbers`);
  if (fn === 'percentiles' && values?.some((v) => v < 0 || v > 100)) throw new SearchError('QUERY_ERROR', 'percentiles() values must be within [0..100]');
  return values ?? (fn === 'percentiles' ? DEFAULT_PERCENTS : []);
}

/** The SQL form's option map `{values='5,50,95', compression=200}`. */
export function sqlDistOptions(fn: DistFn, map: NamedValue[] | undefined): DistOptions {
  let values: number[] | undefined;
  for (const e of map ?? []) {
    if (e.name === 'values' && fn !== 'mad' && e.value.kind === 'string') values = e.value.value.split(',').map((x) => Number(x.trim()));
    else if (e.name === 'compression' && (e.value.kind === 'int' || e.value.kind === 'float') && Number(e.value.value) > 0) continue;
    else throw new SearchError('QUERY_ERROR', `${fn === 'mad' ? 'median_absolute_deviation' : fn}() unknown or invalid option '${e.name}'`);
  }
  return { fn, values: checkValues(fn, values) };
}

/** The JSON form's `values` array. */
export function jsonDistOptions(fn: DistFn, values: number[] | undefined): DistOptions {
  return { fn, values: checkValues(fn, values) };
}

function nearestRank(sorted: number[], p: number): number {
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

/** The answer over a group's values: percent/value -> result pairs, or the MAD; null with no values. */
export function distResult(o: DistOptions, raw: number[]): { pairs: [number, number][] } | { mad: number } | null {
  if (!raw.length) return null;
  const sorted = [...raw].sort((a, b) => a - b);
  if (o.fn === 'mad') {
    const median = nearestRank(sorted, 50);
    return { mad: nearestRank(sorted.map((v) => Math.abs(v - median)).sort((a, b) => a - b), 50) };
  }
  if (o.fn === 'percentiles') return { pairs: o.values.map((p) => [p, nearestRank(sorted, p)]) };
  return {
    pairs: o.values.map((v) => {
      let below = 0;
      while (below < sorted.length && sorted[below]! <= v) below++;
      return [v, (100 * below) / sorted.length];
    }),
  };
}

/** The SQL cell: `{"50":30,"90":50}` or `{"value":10,"value_as_string":"10"}`. */
export function distSqlText(o: DistOptions, raw: number[]): string | null {
  const r = distResult(o, raw);
  if (!r) return null;
  if ('mad' in r) return JSON.stringify({ value: r.mad, value_as_string: String(r.mad) });
  return `{${r.pairs.map(([k, v]) => `${JSON.stringify(String(k))}:${v}`).join(',')}}`;
}

/**
 * The /search form: `{"values": {"50": 30}}` (keyed, the default) or `{"values": [{"key": 50, "value": 30}]}`;
 * `{"value": 10, "value_as_string": "10"}` for the MAD.
 */
export function distJson(o: DistOptions, raw: number[], keyed: boolean): JsonOut {
  const r = distResult(o, raw);
  if (o.fn === 'mad') {
    const v = r && 'mad' in r ? r.mad : null;
    return new JsonFields([['value', v], ['value_as_string', v === null ? null : String(v)]]);
  }
  const pairs = r && 'pairs' in r ? r.pairs : [];
  return new JsonFields([['values', keyed
    ? new JsonFields(pairs.map(([k, v]) => [String(k), v]))
    : pairs.map(([k, v]) => new JsonFields([['key', k], ['value', v]]))]]);
}
