/**
 * What a benchmark run is doing now, on stderr so the results on stdout stay clean: which benchmark,
 * peer, query class and round. On a terminal one status line is rewritten in place (and counts such as
 * `1,200/4,000 queries` tick at most 5 times a second); otherwise each step is one plain line, so a log
 * file or CI output reads top to bottom.
 */
const TICK_MS = 200;

class BenchProgress {
  #started = Date.now();
  #step = '';
  #lastTick = 0;
  #open = false;
  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  get #tty(): boolean {
    return this.out.isTTY === true && process.env.CI === undefined;
  }

  #stamp(): string {
    const s = Math.floor((Date.now() - this.#started) / 1000);
    return `[${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}]`;
  }

  #show(text: string): void {
    if (this.#tty) {
      const cols = this.out.columns ?? 0;
      const width = (cols > 20 ? cols : 100) - 1;
      this.out.write(`\r\x1b[K${`${this.#stamp()} ${text}`.slice(0, width)}`);
      this.#open = true;
    } else {
      this.out.write(`${this.#stamp()} ${text}\n`);
    }
  }

  /** A new step: `side-by-side: quarry (MySQL protocol): 8 clients`. */
  step(text: string): void {
    this.#step = text;
    this.#show(text);
  }

  /** How far the current step has come; shown on a terminal only (a log file gets the steps). */
  tick(done: number, total: number, unit: string): void {
    if (!this.#tty) return;
    const now = Date.now();
    if (now - this.#lastTick < TICK_MS && done < total) return;
    this.#lastTick = now;
    this.#show(`${this.#step} · ${done.toLocaleString('en-US')}/${total.toLocaleString('en-US')} ${unit}`);
  }

  /** Clears the status line before results are printed. */
  clear(): void {
    if (this.#open) this.out.write('\r\x1b[K');
    this.#open = false;
  }
}

/** The process's progress line (benchmarks run one at a time). */
export const progress = new BenchProgress();
