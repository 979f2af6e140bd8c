/**
 * Recent latencies for Manticore's `*_stats_ms_{avg,min,max,pct95,pct99}` counters, each printed as
 * three figures: over the last 1, 5 and 15 minutes. Samples older than 15 minutes are dropped; at
 * most MAX_SAMPLES are kept (the oldest go first under a flood).
 */
const MINUTE = 60_000;
const WINDOWS = [MINUTE, 5 * MINUTE, 15 * MINUTE];
export const MAX_SAMPLES = 20_000;
const INITIAL_SAMPLES = 64;

export type WindowStat = 'avg' | 'min' | 'max' | 'pct95' | 'pct99';
export const WINDOW_STATS: WindowStat[] = ['avg', 'min', 'max', 'pct95', 'pct99'];

export class LatencyWindow {
  // A ring of the newest samples, oldest at #head, grown by doubling up to MAX_SAMPLES (a table's
  // window holds little until it is searched): adding one is O(1) (the arrays' splice(0, 1) per sample
  // once full cost 0.8% of a /search request's protocol-thread CPU).
  #at = new Float64Array(INITIAL_SAMPLES);
  #ms = new Float64Array(INITIAL_SAMPLES);
  #head = 0;
  #count = 0;

  add(ms: number, now = Date.now()): void {
    if (this.#count === this.#at.length && this.#count < MAX_SAMPLES) this.#grow();
    const slot = this.#slot(this.#count);
    this.#at[slot] = now;
    this.#ms[slot] = ms;
    if (this.#count < this.#at.length) this.#count++;
    else this.#head = this.#slot(1);
  }

  /** The i-th oldest sample's slot. */
  #slot(i: number): number {
    const s = this.#head + i;
    return s >= this.#at.length ? s - this.#at.length : s;
  }

  /** Twice the room, the samples moved to its start in order. */
  #grow(): void {
    const cap = Math.min(MAX_SAMPLES, 2 * this.#at.length);
    const at = new Float64Array(cap), ms = new Float64Array(cap);
    for (let i = 0; i < this.#count; i++) {
      const s = this.#slot(i);
      at[i] = this.#at[s]!;
      ms[i] = this.#ms[s]!;
    }
    this.#at = at;
    this.#ms = ms;
    this.#head = 0;
  }

  /** How many samples each of the 1, 5 and 15 minute windows holds (`3 10 12`). */
  countText(now = Date.now()): string {
    return WINDOWS.map((w) => {
      let n = 0;
      for (let i = 0; i < this.#count; i++) if (this.#at[this.#slot(i)]! >= now - w) n++;
      return n;
    }).join(' ');
  }

  /** `stat` over the 1, 5 and 15 minute windows, as Manticore prints it (`0.209 0.188 0.188`); `N/A` when empty. */
  text(stat: WindowStat, now = Date.now()): string {
    let old = 0;
    while (old < this.#count && this.#at[this.#slot(old)]! < now - WINDOWS[2]!) old++;
    this.#head = this.#slot(old);
    this.#count -= old;
    return WINDOWS.map((w) => {
      const vals: number[] = [];
      for (let i = 0; i < this.#count; i++) {
        const s = this.#slot(i);
        if (this.#at[s]! >= now - w) vals.push(this.#ms[s]!);
      }
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
