/**
 * The merge scheduling of an RT table (RtIndex): the tiered merge policy run after each batch (in a
 * later event-loop turn by default), on the merge thread when the host gave one, else inline; bulk
 * loads that hold merges off; the idle compaction; OPTIMIZE. The swap of a merged segment for its
 * parts is merge-swap.ts's.
 */
import { mergeRunner, type MergedSegment } from './parallel/merge-job.js';
import { mergeSegments } from './segment/segment-merger.js';
import { compactRange, type MergePolicy } from './merge-policy.js';
import { swapIn, type MergeHost } from './merge-swap.js';
import { indexTrace } from './index-trace.js';
import { TAIL_IDLE_MS } from './ram-tail.js';

/**
 * Quiet time after a table's last merge pass before the idle compaction looks at it: a load's batches
 * come milliseconds apart, so it waits for the load's end, not between two batches (the RAM tail's idle
 * seal waits as long). Short, so the compaction runs within a second of the end of a load, where a
 * client (or a benchmark waiting for the server to go idle) would take it for done.
 */
export const IDLE_MERGE_MS = 200;
/**
 * The idle compaction rewrites at most this many rows per row the table grew by since its last
 * compaction (the tiered policy's own bound: a row is rewritten once per level, MERGE_FACTOR rows a level).
 * Without it, trickled writes on a table already at the cutoff sealed a small segment at each pause and
 * the compaction merged it into a big neighbour at once: 100k rows rewritten for a few hundred new ones
 * (bench insert, 16 single-row clients, server CPU until idle per 1000 documents: 300 / 150 ms with the
 * compaction off against 500 / 590 on, MySQL / HTTP, measured beside a CI run).
 */
export const COMPACT_ROWS_PER_NEW_ROW = 10;

/** Runs `fn` in a later event-loop turn: setImmediate in Node, a zero timeout where there is none (browsers). */
const later: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => { setImmediate(fn); } : (fn) => { setTimeout(fn, 0); };

export class MergeScheduler {
  readonly #host: MergeHost;
  readonly #policy: MergePolicy;
  readonly #autoMerge: boolean | 'deferred';
  /** The deferred merge pass scheduled and not yet run. */
  #pendingMerge?: Promise<void>;
  /** The merge thread failed once: merges run inline from then on. */
  #threadless = false;
  /** Bulk loads in progress (hold): no merge pass is scheduled while any is. */
  #held = 0;
  /** The idle compaction's segment count (0: none); see compactRange. */
  #idleCutoff: number;
  #idleTimer?: ReturnType<typeof setTimeout>;
  /** whenIdle's callers waiting for the armed idle timer to fire or be dropped. */
  #idleWaiters: (() => void)[] = [];
  /** The table's live rows when the idle compaction last merged (0 at start: the first one is free). */
  #compactedAt = 0;
  /**
   * Budget the idle compaction earned and left unspent (rows), at most the table's live rows. Dropping
   * it after each merge left a load's table in as many segments as its last pause found (9-11 after a
   * 100k INSERT load whose pauses ran compactions). Spent only on a merge whose result fits a hole the
   * core already has (compactFits): carried freely it merged a 1M table to 5 segments through results
   * placed above every hole, and the wasm memory, which never shrinks, kept them (PSS 1.34x -> 1.61x).
   */
  #compactCarry = 0;
  /**
   * When the table last took a write that made no segment (a row into the RAM tail): the idle compaction
   * waits IDLE_MERGE_MS after it too, not only after the last merge pass. A stream of single-row INSERTs
   * seals its tail (1000 rows, or a checkpoint's read) while it goes on, and the quiet time counted from
   * that seal's merge pass alone ran the compaction 200 ms later in the middle of the stream, merging the
   * small new segment into its 11-13k-row neighbour again at each seal (20,000-row table, 16 clients x
   * 3,000 INSERTs, QUARRY_TRACE_PHASES=1: 3 compactions rewriting 11.4k + 12.4k + 13.0k rows for 2,000 new).
   */
  #lastWrite = -Infinity;
  /** The table is closing (stopIdle): no idle compaction is armed any more. */
  #stopped = false;

  constructor(host: MergeHost, policy: MergePolicy, autoMerge: boolean | 'deferred', idleCutoff = 0) {
    this.#host = host;
    this.#policy = policy;
    this.#autoMerge = autoMerge;
    this.#idleCutoff = idleCutoff;
  }

  /**
   * After segments were loaded from files: the deferred pass runs the policy over them (a checkpoint
   * may have been written before the merges of its last writes ran), then the idle compaction.
   */
  afterLoad(): void {
    if (this.#autoMerge === 'deferred' && this.#host.segments().length > 1) this.#scheduleMerge();
  }

  /**
   * Changes the idle compaction's segment count (ALTER TABLE ... optimize_cutoff): a lower one is
   * acted on after the quiet time, as after a write; 0 turns the compaction off.
   */
  setIdleCutoff(cutoff: number): void {
    this.#idleCutoff = cutoff;
    if (!this.#pendingMerge) this.#armIdle();
  }

  /**
   * The idle compaction's next merge (merge-policy.ts compactRange), or null: within what the rows
   * added since its last merge earned, else within the carry too when the result fits a hole.
   */
  compactRange(): [number, number] | null {
    const live = this.#host.segments().map((s) => s.live);
    const cap = this.#policy.capRows?.(live) ?? Infinity;
    const earned = COMPACT_ROWS_PER_NEW_ROW * Math.max(0, liveTotal(live) - this.#compactedAt);
    const range = compactRange(live, this.#idleCutoff, Math.min(cap, earned));
    if (range || !this.#compactCarry) return range;
    // the longest run whose result fits, so each merge brings the count down as far as holes allow
    return compactRange(live, this.#idleCutoff, Math.min(cap, earned + this.#compactCarry), (run) => this.#compactFits(run));
  }

  /**
   * Whether the segment merged from `range` fits the core's largest hole (a free block below the
   * memory's top, whose pages are resident already), so placing it grows no resident memory. Its size
   * is taken as the parts' blobs and a tenth more (pairs the merge adds; equal words and deleted rows
   * make it smaller). The parts' own space is not counted: they need not be adjacent.
   */
  #compactFits(range: [number, number]): boolean {
    let bytes = 0;
    for (const s of this.#host.segments().slice(range[0], range[1])) bytes += s.blobLen;
    return bytes * 1.1 + (1 << 16) <= this.#host.core.heapStats().largestFree;
  }

  /**
   * A write that made no segment (rows into the RAM tail): postpones the idle compaction to IDLE_MERGE_MS
   * after the tail's idle seal that follows it. A time stamp, no timer touched: the armed timer looks at it when it fires.
   */
  noteWrite(): void {
    this.#lastWrite = performance.now();
  }

  /**
   * No idle compaction from now on: the table is closing. One armed by a bulk load's release, 200 ms
   * before the import's engine closed, started merging every segment while the last checkpoint was
   * written, and was dropped unfinished when the process ended (its merge thread's start and reads
   * competing with the close for the cores). A server that opens the table arms it again (afterLoad).
   */
  stopIdle(): void {
    this.#stopped = true;
    this.#armIdle();
  }

  /** Starts (again) the quiet time after which the idle compaction runs, when one would be due. */
  #armIdle(): void {
    if (this.#idleTimer) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
    if (this.#stopped || this.#held || this.#autoMerge !== 'deferred' || !this.compactRange()) return this.#wakeIdle();
    this.#setIdleTimer(IDLE_MERGE_MS);
  }

  #setIdleTimer(ms: number): void {
    this.#idleTimer = setTimeout(() => {
      this.#idleTimer = undefined;
      // writes still streaming into the tail: wait for their pause and the tail's idle seal after it (that
      // seal's merge pass arms the timer again), so the compaction takes the sealed rows in the same merge
      const left = this.#lastWrite + TAIL_IDLE_MS + IDLE_MERGE_MS - performance.now();
      if (left > 0 && !this.#held) return this.#setIdleTimer(left);
      if (!this.#held && !this.#pendingMerge && this.compactRange()) this.#scheduleMerge(true);
      this.#wakeIdle();
    }, ms);
    // a quiet table never keeps the process alive, unless whenIdle is waiting for this timer
    if (!this.#idleWaiters.length) (this.#idleTimer as { unref?: () => void }).unref?.();
  }

  /** After a batch became visible: schedules (or runs) the policy, unless a bulk load holds merges. */
  afterBatch(): void {
    if (this.#held) return;
    if (this.#autoMerge === 'deferred') this.#scheduleMerge();
    else if (this.#autoMerge) {
      try {
        this.maybeMerge();
      } catch (e) {
        console.error('quarry: segment merge failed:', e);
      }
    }
  }

  /**
   * A bulk load: until the returned release() each batch stays its own segment (no tiered merge
   * re-merging the same rows at every level as they pile up); release() then runs the policy once
   * over them all and resolves when it has settled. Writes stay searchable and durable throughout.
   */
  hold(): () => Promise<void> {
    this.#held++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        if (--this.#held === 0 && this.#autoMerge === 'deferred') this.#scheduleMerge();
        else if (this.#held === 0 && this.#autoMerge) this.maybeMerge();
      }
      return this.whenMerged();
    };
  }

  /** Resolves once the deferred merge pass scheduled by earlier writes (if any) has run. */
  whenMerged(): Promise<void> {
    return this.#pendingMerge ?? Promise.resolve();
  }

  /**
   * Resolves once the merge pass and the idle compaction it arms (IDLE_MERGE_MS later) have both run:
   * the layout a quiet table keeps. A benchmark that times queries after whenMerged alone times them
   * while the compaction merges and then swaps in its result on this thread (a 410k-row merge stalled
   * one query 143 ms at 2M; 10M's 2.5M-row ones, 1.5 s).
   */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.whenMerged();
      if (!this.#idleTimer) return;
      (this.#idleTimer as { ref?: () => void }).ref?.(); // awaited now: the process waits for it
      await new Promise<void>((r) => this.#idleWaiters.push(r));
    }
  }

  #wakeIdle(): void {
    for (const r of this.#idleWaiters.splice(0)) r();
  }

  /**
   * Merges one range at a time until the policy asks for nothing more, each in a later event-loop
   * turn: on the merge thread when the host gave one (merge-job.ts; the protocol thread only swaps
   * the result in), else inline, where requests waiting in between are served between two merges.
   */
  #scheduleMerge(compact = false): void {
    if (this.#pendingMerge) return;
    const pass = async () => {
      for (;;) {
        await new Promise<void>((r) => later(r));
        let merged = false;
        try {
          // the idle compaction (compact) only once the policy asks for nothing more
          const tiered = this.#policy.findMerge(this.#host.segments().map((s) => s.live));
          const compaction = tiered ? null : compact ? this.compactRange() : null;
          const before = this.#host.segments().map((s) => s.live);
          if ((tiered ?? compaction) && indexTrace.mark) indexTrace.mark(`merge ${tiered ? 'tiered' : 'compaction'} start`);
          merged = await this.#mergeNext(tiered ?? compaction);
          if (merged && compaction) {
            // what this merge rewrote is spent; the rest of the budget carries over to the next one
            const earned = COMPACT_ROWS_PER_NEW_ROW * Math.max(0, liveTotal(before) - this.#compactedAt) + this.#compactCarry;
            const live = liveTotal(this.#host.segments().map((s) => s.live));
            this.#compactCarry = Math.min(live, Math.max(0, earned - liveTotal(before.slice(compaction[0], compaction[1]))));
            this.#compactedAt = live;
          }
        } catch (e) {
          // the segments stay as they were (a merge swaps them in only once built): log, stop
          console.error('quarry: segment merge failed:', e);
        }
        if (!merged) {
          // cleared in the same turn as the policy's last look: a write after it schedules a new pass
          this.#pendingMerge = undefined;
          this.#armIdle();
          return;
        }
      }
    };
    this.#pendingMerge = pass();
  }

  /** Merges `range` (the policy's or the compaction's), on the merge thread if there is one; false when null. */
  async #mergeNext(range: [number, number] | null): Promise<boolean> {
    if (!range) return false;
    const runner = this.#threadless ? null : mergeRunner(this.#host.core);
    if (!runner) {
      this.#mergeRange(range[0], range[1]);
      return true;
    }
    const parts = this.#host.segments().slice(range[0], range[1]);
    const t0 = indexTrace.mark ? performance.now() : 0;
    const snap = parts.map((p) => ({ deleted: p.deletedBitmap(), version: p.version }));
    // pinned: a TRUNCATE or OPTIMIZE meanwhile frees them only once the thread is done reading
    for (const p of parts) p.pin();
    let built: MergedSegment;
    try {
      built = await runner({ schema: this.#host.schema, parts: parts.map((p, i) => ({ blobPtr: p.blobPtr, deleted: snap[i].deleted, terms: p.terms })) });
    } catch (e) {
      console.error('quarry: the merge thread failed, merging inline from now on:', e);
      this.#threadless = true;
      return true;
    } finally {
      for (const p of parts) p.unpin();
    }
    // the parts may be gone (TRUNCATE, OPTIMIZE, another merge): then the result is dropped
    const start = this.#host.segments().indexOf(parts[0]);
    if (start < 0 || parts.some((p, i) => this.#host.segments()[start + i] !== p)) return true;
    const t1 = indexTrace.mark ? performance.now() : 0;
    swapIn(this.#host, start, parts, built, snap);
    if (indexTrace.mark) {
      let bytes = 0;
      for (const p of parts) bytes += p.blobLen;
      indexTrace.mark(`merge parts=${parts.map((p) => p.live).join('+')} bytes=${bytes} thread_ms=${(t1 - t0).toFixed(1)} swap_ms=${(performance.now() - t1).toFixed(1)} segments=${this.#host.segments().length}`);
    }
    return true;
  }

  #mergeOnce(): boolean {
    const range = this.#policy.findMerge(this.#host.segments().map((s) => s.live));
    if (range) this.#mergeRange(range[0], range[1]);
    return range !== null;
  }

  /** Runs the merge policy until it asks for nothing more; returns how many merges ran. */
  maybeMerge(): number {
    let merges = 0;
    while (this.#mergeOnce()) merges++;
    return merges;
  }

  /** Merges every segment into one (Manticore's OPTIMIZE). */
  optimize(): void {
    if (this.#host.segments().length > 1 || this.#host.segments().some((s) => s.live < s.rows)) this.#mergeRange(0, this.#host.segments().length);
  }

  #mergeRange(start: number, end: number): void {
    const parts = this.#host.segments().slice(start, end);
    swapIn(this.#host, start, parts, mergeSegments(this.#host.schema, parts));
  }
}

function liveTotal(live: number[]): number {
  let n = 0;
  for (const r of live) n += r;
  return n;
}
