/**
 * One table's searches for SHOW TABLE t STATUS (searchd's ServedStats_c): the time each took and the
 * rows it found, over the last 1, 5 and 15 minutes (LatencyWindow) and since start (`total`).
 * searchd keeps its totals in its own counters; here count, sum, min and max are exact since start,
 * pct95 / pct99 of `total` are over the samples still held (at most the last 15 minutes).
 */
import { LatencyWindow, WINDOW_STATS, type WindowStat } from './latency-window.js';

class RunningTotal {
  count = 0;
  sum = 0;
  min = Infinity;
  max = -Infinity;
  add(v: number): void {
    this.count++;
    this.sum += v;
    if (v < this.min) this.min = v;
    if (v > this.max) this.max = v;
  }
}

/** searchd's interval names, in its order (AddQueryStats). */
export const STAT_INTERVALS = ['1min', '5min', '15min', 'total'] as const;

export class TableSearchStats {
  readonly #ms = new LatencyWindow();
  readonly #found = new LatencyWindow();
  readonly #msTotal = new RunningTotal();
  readonly #foundTotal = new RunningTotal();

  /** The searches' times over the last 15 minutes (SHOW TABLE t STATUS search_stats_ms_* too). */
  get times(): LatencyWindow {
    return this.#ms;
  }

  add(ms: number, found: number | undefined): void {
    this.#ms.add(ms);
    this.#msTotal.add(ms);
    // a search whose result carried no count (an error answer) counts 0 rows, as searchd's m_iTotalMatches
    const rows = found ?? 0;
    this.#found.add(rows);
    this.#foundTotal.add(rows);
  }

  /** query_time_<interval>: `{"queries":N, "avg_sec":0.001, ...}`, `"avg":"-"` and the like while empty. */
  queryTime(interval: number): string {
    // searchd prints whole milliseconds as seconds (%.3F of microseconds / 1000)
    return this.#line(this.#ms, this.#msTotal, interval, (name, v) => `"${name}_sec":${(Math.floor(v) / 1000).toFixed(3)}`);
  }

  /** found_rows_<interval>: `{"queries":N, "avg":12, ...}` (whole rows). */
  foundRows(interval: number): string {
    return this.#line(this.#found, this.#foundTotal, interval, (name, v) => `"${name}":${Math.floor(v)}`);
  }

  #line(w: LatencyWindow, total: RunningTotal, interval: number, field: (name: WindowStat, v: number) => string): string {
    const n = interval < 3 ? Number(w.countText().split(' ')[interval]) : total.count;
    const value = (s: WindowStat): number => {
      if (interval === 3 && s !== 'pct95' && s !== 'pct99') return s === 'avg' ? total.sum / total.count : s === 'min' ? total.min : total.max;
      return Number(w.text(s).split(' ')[Math.min(interval, 2)]);
    };
    const parts = WINDOW_STATS.map((s) => (n ? field(s, value(s)) : `"${s}":"-"`));
    return `{"queries":${n}, ${parts.join(', ')}}`;
  }
}

/** The line a table never searched prints (and a table without stats, as a distributed one here). */
export const EMPTY_STATS = new TableSearchStats();
