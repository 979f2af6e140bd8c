/**
 * A full garbage collection once the process goes idle after work (a load, merges, a checkpoint, a burst
 * of queries). V8 collects its old generation only as it grows toward its limit, so after a load the heap
 * keeps the garbage of every batch (a server after 100k documents: ~146 MiB of 256 KiB heap pages, and as
 * much again of freed buffers' memory) until the next load pushes it; idle, nothing would. Idle is judged
 * by the process's CPU time (every thread: merges and checkpoints count as work), so the collection
 * follows the last merge within seconds, whatever the checkpoint interval. `gc` is exposed by setting the
 * flag at run time, which affects only contexts created after it: the one made here, never the
 * application's global scope.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * A full, compacting collection now (milliseconds for tens of MiB); the freed heap pages go back to the
 * system. Only `gc()` without arguments: Node 20's V8 (11.3) answers `gc({ type: 'major', ... })`, with
 * or without `flavor: 'last-resort'`, with a scavenge (a 'gc' PerformanceObserver shows kind 1), which is
 * what an earlier trial of 'last-resort' measured (138 MB of heap committed for 42 used after a 100k load).
 */
export function collectGarbage(): void {
  if (!gc) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Ticks of this length; the process is idle in one that used under 2% of a core. */
const TICK_MS = 1000;
const IDLE_SHARE = 0.02;
/** Idle ticks in a row before collecting (an fsync or a short pause between requests is not idle). */
const IDLE_TICKS = 2;
/** CPU time of work since the last collection worth a collection (light traffic is left to V8). */
const WORK_US = 50_000;
/**
 * Idle ticks between a collection and each of its follow-ups. V8 shrinks its young generation (32 MiB,
 * resident once used) only in a collection that sees a low allocation rate, and counts the bytes the
 * previous full collection promoted as allocation: right after a load or a burst of queries it sees the
 * burst's rate, and often (by how much the first collection promoted) the first follow-up still does.
 */
const FOLLOW_UP_TICKS = 5;
/**
 * Follow-ups after each collection: the second, 10 idle ticks after it, sees the idle rate (little left to promote), and
 * comes after jemalloc's decay time (10 s; bin/quarry.js preloads it without its background thread, which
 * returns freed pages only while the process allocates): its own malloc traffic makes jemalloc return the
 * pages the burst and the first collections freed. With one follow-up both waited for V8's memory reducer
 * (a collection 20-45 s after the work, unannounced): 100k gcide after the side-by-side's queries read
 * 160-170 MiB of PSS at rest in some runs and 190-250 in others (young generation 32 vs 4 MiB, malloc'd
 * pages 84 vs 50); with two, 159-171 MiB at +22 s in each of 3 alternated probe runs (one follow-up: 187-209)
 * and 157/168 in the side-by-side (176/178), the queries' CPU unchanged (`node dist/bench/memory/pss-probe.js`).
 */
const FOLLOW_UPS = 2;
/**
 * Idle ticks before collecting after work that only read (queries). A forced collection makes the next
 * few thousand queries run colder (100k gcide, /search from one client with a collection in every pause
 * between bursts: 1.6 ms of server CPU per request against 1.15 without), so a pause between bursts
 * (seconds) leaves the garbage to V8; a server idle this long has ended its burst, and holds its
 * garbage (100k gcide after the side-by-side's queries: ~30 MiB of V8 heap pages) until the next load.
 * Most of that coldness was the young generation the collection shrank (16 MiB semi-spaces to 1, the
 * allocation rate of an idle process): bin/quarry.js now starts Node with a 4 MiB floor on it (16 cost
 * 28 MiB of PSS at rest; its comment has the figures).
 */
export const READ_IDLE_TICKS = 10;

/** The process's CPU time so far, microseconds (every thread). */
const processCpuMicros = (): number => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/**
 * Runs `collect` (a full GC) once the process has been idle for IDLE_TICKS ticks after WORK_US of work
 * that wrote: `writes()` changed since the last collection (or a checkpoint was written, noteWork);
 * after work that only read (queries), once it has been idle for `readIdleTicks` (READ_IDLE_TICKS).
 * Without `writes`, any work counts as writing.
 */
export class IdleCollector {
  #timer?: NodeJS.Timeout;
  #last: number;
  #work = 0;
  #idle = 0;
  /** Idle ticks since the last collection, while a follow-up is due; -1 when none is. */
  #sinceCollection = -1;
  /** Follow-ups still due after the last collection. */
  #followUps = 0;
  /** `writes()` at the last collection; undefined at the start, so the startup's own work counts. */
  #writesSeen: unknown;
  #noted = false;

  constructor(
    /** `followUp`: a follow-up of a collection (FOLLOW_UP_TICKS idle ticks after it), not the first collection after work. */
    private readonly cpuMicros = processCpuMicros, private readonly collect: (followUp: boolean) => void = collectGarbage,
    private readonly writes?: () => unknown,
    private readonly readIdleTicks = READ_IDLE_TICKS,
  ) {
    this.#last = cpuMicros();
  }

  /** Work that leaves garbage behind however little CPU it took (a checkpoint written): collect at the next idle. */
  noteWork(): void {
    this.#work = Math.max(this.#work, WORK_US);
    this.#noted = true;
  }

  /** Whether the work since the last collection wrote anything. */
  #wrote(): boolean {
    return this.#noted || !this.writes || this.writes() !== this.#writesSeen;
  }

  start(tickMs = TICK_MS): void {
    this.#timer = setInterval(() => this.tick(tickMs), tickMs);
    this.#timer.unref();
  }

  /** One tick of `tickMs`: counts its CPU time as work or idleness; collects when due. Whether it collected. */
  tick(tickMs: number): boolean {
    const now = this.cpuMicros();
    const used = now - this.#last;
    this.#last = now;
    if (used > tickMs * 1000 * IDLE_SHARE) {
      this.#work += used;
      this.#idle = 0;
      // work worth a collection of its own: that one (and its follow-up) comes once idle instead of
      // the pending follow-up, which would run at the end of the work's allocations, and forget them
      if (this.#work >= WORK_US) this.#sinceCollection = -1;
      return false;
    }
    this.#idle++;
    const due = this.#work >= WORK_US && this.#idle >= (this.#wrote() ? IDLE_TICKS : this.readIdleTicks);
    const followUp = !due && this.#sinceCollection >= 0 && ++this.#sinceCollection >= FOLLOW_UP_TICKS;
    if (!due && !followUp) return false;
    this.collect(!due);
    this.#followUps = due ? FOLLOW_UPS : this.#followUps - 1;
    this.#sinceCollection = this.#followUps > 0 ? 0 : -1;
    this.#work = 0;
    this.#noted = false;
    this.#writesSeen = this.writes?.();
    this.#last = this.cpuMicros(); // the collection's own time is not work
    return true;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
  }
}
