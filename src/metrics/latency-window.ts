/**
 * Recent latencies for Manticore's `*_stats_ms_{avg,min,max,pct95,pct99}` counters, each printed as
 * three figures: over the last 1, 5 and 15 minutes. Samples older than 15 minutes are dropped; at
 * most MAX_SAMPLES are kept (the oldest go first under a flood).
 */
const MINUTE = 60_000;
const WINDOWS = [MINUTE, 5 * MINUTE, 15 * MINUTE];
const MAX_SAMPLES = 20_000;

export type WindowStat = 'avg' | 'min' | 'max' | 'pct95' | 'pct99';
export const WINDOW_STATS: WindowStat[] = ['avg', 'min', 'max', 'pct95', 'pct99'];

export class LatencyWindow {
  #at: number[] = [];
  #ms: number[] = [];

  add(ms: number, now = Date.now()): void {
    this.#at.push(now);
    this.#ms.push(ms);
    if (this.#at.length > MAX_SAMPLES) this.#drop(this.#at.length - MAX_SAMPLES);
  }

  #drop(n: number): void {
    this.#at.splice(0, n);
    this.#ms.splice(0, n);
  }

  /** How many samples each of the 1, 5 and 15 minute windows holds (`3 10 12`). */
  countText(now = Date.now()): string {
    return WINDOWS.map((w) => this.#at.filter((t) => t >= now - w).length).join(' ');
  }

  /** `stat` over the 1, 5 and 15 minute windows, as Manticore prints it (`0.209 0.188 0.188`); `N/A` when empty. */
  text(stat: WindowStat, now = Date.now()): string {
    let old = 0;
    while (old < this.#at.length && this.#at[old]! < now - WINDOWS[2]!) old++;
    if (old) this.#drop(old);
    return WINDOWS.map((w) => {
      const vals: number[] = [];
      for (let i = 0; i < this.#at.length; i++) if (this.#at[i]! >= now - w) vals.push(this.#ms[i]!);
      return vals.length ? compute(stat, vals).toFixed(3) : 'N/A';
    }).join(' ');
  }
}

function compute(stat: WindowStat, vals: number[]): number {
  if (stat === 'avg') return vals.reduce((a, b) => a + b, 0) / vals.length;
  if (stat === 'min') return Math.min(...vals);
  if (stat === 'max') return Math.max(...vals);
  const sorted = [...vals].sort((a, b) => a - b);
  const p = stat === 'pct95' ? 0.95 : 0.99;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}
