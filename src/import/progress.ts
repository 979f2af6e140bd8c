/**
 * Progress of a long load (import, indexer): on a terminal one bar redrawn in place (documents,
 * bytes, docs/s, ETA from the bytes done against the input's size); otherwise a plain line per
 * interval; nothing with `quiet`. Written to stderr so stdout stays the command's output.
 */

export type ProgressMode = 'tty' | 'plain' | 'quiet';

export interface ProgressState {
  docs: number;
  /** Input bytes done so far (for an import, those of the lines sent), and the total when known (regular files). */
  bytes: number;
  totalBytes?: number;
  /** The share done, 0..1, when no byte total tells it (a ranged SQL source of the indexer). */
  share?: number;
}

/** Redraws of the bar at most this often; plain lines every PLAIN_INTERVAL_MS. */
const TTY_INTERVAL_MS = 100;
export const PLAIN_INTERVAL_MS = 5_000;
/** QUARRY_PROGRESS_MS overrides the plain line's interval (tests, scripts that want more lines). */
const plainInterval = (): number => Number(process.env.QUARRY_PROGRESS_MS) || PLAIN_INTERVAL_MS;
const BAR_WIDTH = 24;

export function humanBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${i === 0 ? n : n.toFixed(1)} ${units[i]}`;
}

export function humanDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (x: number) => String(x).padStart(2, '0');
  return h > 0 ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

export const grouped = (n: number): string => Math.round(n).toLocaleString('en-US');

export class Progress {
  readonly #started = performance.now();
  #last = 0;
  #drawn = false;

  constructor(
    readonly mode: ProgressMode,
    readonly label: string,
    private readonly out: NodeJS.WritableStream = process.stderr,
    private readonly plainIntervalMs = plainInterval(),
  ) {}

  /** Milliseconds since the load started. */
  elapsedMs(): number {
    return performance.now() - this.#started;
  }

  /** Notes the current state; draws when the interval since the last drawing has passed. */
  update(s: ProgressState): void {
    if (this.mode === 'quiet') return;
    const now = performance.now();
    const interval = this.mode === 'tty' ? TTY_INTERVAL_MS : this.plainIntervalMs;
    if (now - this.#last < interval) return;
    this.#last = now;
    if (this.mode === 'tty') {
      this.out.write(`\r${this.line(s, true)}\x1b[K`);
      this.#drawn = true;
    } else {
      this.out.write(`${this.line(s, false)}\n`);
    }
  }

  /** Ends the bar's line so later output starts on a fresh one. */
  done(): void {
    if (this.#drawn) this.out.write('\n');
    this.#drawn = false;
  }

  /** `label [####----] 45% 1,234 docs 12.0 MiB/26.6 MiB 3,456 docs/s ETA 0:12`. */
  line(s: ProgressState, bar: boolean): string {
    const secs = this.elapsedMs() / 1000;
    const rate = secs > 0 ? s.docs / secs : 0;
    const parts = [this.label];
    const frac = s.totalBytes ? Math.min(1, s.bytes / s.totalBytes) : s.share;
    if (frac !== undefined && bar) {
      const fill = Math.round(frac * BAR_WIDTH);
      parts.push(`[${'#'.repeat(fill)}${'-'.repeat(BAR_WIDTH - fill)}]`);
    }
    if (frac !== undefined) parts.push(`${Math.floor(frac * 100)}%`);
    parts.push(`${grouped(s.docs)} docs`);
    // a source without bytes (SQL rows) shows none
    if (s.totalBytes || s.bytes > 0) parts.push(s.totalBytes ? `${humanBytes(s.bytes)}/${humanBytes(s.totalBytes)}` : humanBytes(s.bytes));
    parts.push(`${grouped(rate)} docs/s`);
    if (frac !== undefined && frac > 0 && frac < 1) parts.push(`ETA ${humanDuration((this.elapsedMs() * (1 - frac)) / frac)}`);
    return parts.join(' ');
  }
}

/** `quiet` wins; else a bar on a terminal and plain lines elsewhere. */
export function progressMode(quiet: boolean, stream: NodeJS.WriteStream = process.stderr): ProgressMode {
  if (quiet) return 'quiet';
  return stream.isTTY ? 'tty' : 'plain';
}
