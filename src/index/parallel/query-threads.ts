/**
 * How many worker threads evaluate queries (searchd `threads`), and the pool per core instance.
 * 1 (or less) keeps every query on the calling thread, as before worker threads existed; the pool
 * starts on the first query that would go to it, which runs on the calling thread meanwhile
 * (takeQueryPool), as do the next ones until the threads are up.
 */
import { CorePool, threadsAvailable } from '../../wasm/worker-pool.js';
import type { Core } from '../../wasm/core.js';

/**
 * What a hand-over costs the process, in ms of CPU: the mailbox, the worker's wake-up, the protocol
 * thread preempted by the worker it wakes on a 2-core machine and the answer's promise. Measured on 100k
 * gcide (bench/side-by-side's mix, 2 cores): a query on the threads cost about 0.2 ms more CPU than on
 * the protocol thread, and under 8 clients worker-pool's send (the notify) took 2.2% of the protocol
 * thread's samples while the workers spent about 1% of theirs evaluating the queries of 0.15-0.23 ms
 * sent to them whole. A query must save more than this to be worth sending.
 */
export const HANDOVER_MS = 0.2;

/**
 * The estimated evaluation time (cost-model.ts) from which a query is cut in ranges over the threads
 * while this thread is not saturated (one client waiting on each answer: latency first). Cut in two it
 * answers in about half its time plus a hand-over each way; from 5 hand-overs' worth the latency saved
 * is worth the CPU (on 100k gcide queries of 0.3-0.5 ms answered slower there, at the old 20k postings
 * threshold, and those of over 2 ms, phrases of common words up to 11 ms, in a third of the time).
 */
export const SPREAD_MS = 5 * HANDOVER_MS;

/**
 * The estimated evaluation time from which a query goes whole to an idle worker while this thread is
 * saturated and a core is spare: it frees this thread for that time at the price of one hand-over, so
 * below twice HANDOVER_MS it saves no more than it costs (queries of 0.15-0.23 ms sent away under 8
 * clients cost as much CPU as threads = 1 saved).
 */
export const WHOLE_MS = 2 * HANDOVER_MS;

/**
 * The searchCost threshold tests set (setParallelMinCost) to spread the queries of small tables: while
 * set, the cost in postings alone decides (spread from it, whole from SATURATED_SHARE of it), not the
 * learnt time, which for a small table's queries is below any threshold.
 */
export const SATURATED_SHARE = 0.5;

/**
 * The searchCost under which a query stays on this thread whatever its learnt time: a query of so few
 * postings (or rows scanned) spends its time in fixed work, not in evaluation a thread could take over,
 * and a learnt time that says otherwise measured a pause (the first query of a shape compiling, the
 * thread preempted on a busy machine). Without it a small table's first grouping, timed at a few ms
 * while V8 compiled it, sent every later query of that shape to the threads.
 */
export const MIN_HANDOVER_COST = 4096;

let threads = 1;
let minCost: number | null = null;
/** Whether this thread is saturated (the host measures it; none = never, so queries stay here). */
let busyProbe: (() => boolean) | null = null;
/** Whether the machine has a core to spare (the host measures it; none = always). */
let spareProbe: (() => boolean) | null = null;

/**
 * Installs how the protocol thread tells it is saturated (Node: its event loop's utilization). While it
 * is, a query below SPREAD_MS also goes to an idle worker thread, whole, if the machine has a
 * core to spare: this thread then only parses, plans and renders, and the other core evaluates (a
 * saturated thread has other requests waiting, so the hand-over's latency is hidden behind them).
 */
export function setBusyProbe(fn: (() => boolean) | null): void {
  busyProbe = fn;
}

/** True when the installed probe says the calling thread is saturated. */
export function threadBusy(): boolean {
  return busyProbe !== null && busyProbe();
}

/**
 * Installs how the host tells the machine has an idle core lately (Node: /proc/stat's idle ticks).
 * Without one, a worker thread is taken to have a core of its own.
 */
export function setSpareCoreProbe(fn: (() => boolean) | null): void {
  spareProbe = fn;
}

/** True unless the installed probe says every core of the machine was busy lately. */
export function spareCore(): boolean {
  return spareProbe === null || spareProbe();
}

/**
 * Where a query of searchCost `cost`, estimated to take `ms` here (estimateCost), runs: 'inline' on the
 * calling thread, 'spread' in row ranges over the pool's threads, 'whole' on one of its threads. A
 * thread runs in parallel with this one only when a core is free for it; when every core is busy (this
 * thread saturated, the other core taken by other clients' queries, the clients themselves or other
 * processes), a hand-over adds CPU (the mailbox, wake-ups, this thread preempted) and gains no
 * parallelism, so:
 * - not saturated (one client waiting on each answer): spread from SPREAD_MS, latency first;
 * - saturated: the big go whole to one thread (queued there if none is idle), never cut: with this
 *   thread taking a core, cutting buys little latency and costs each range's wake-up and fixed work
 *   (measured on 100k gcide, 8 and 64 clients, protocol-ab: server CPU per query 0.31-0.33 ms whole
 *   against 0.36-0.59 cut while a core looked spare); a query from WHOLE_MS goes whole to an idle
 *   thread if a core is spare, so this thread only parses, plans and renders; cheaper ones stay here.
 */
export function handOver(cost: number, ms: number, pool: Pick<CorePool, 'idle' | 'threads'>): 'inline' | 'spread' | 'whole' {
  if (minCost === null && cost < MIN_HANDOVER_COST) return 'inline';
  const big = minCost === null ? ms >= SPREAD_MS : cost >= minCost;
  const busy = threadBusy() || pool.idle < pool.threads;
  if (big) return busy ? 'whole' : 'spread';
  if (!busy || pool.idle === 0 || !spareCore()) return 'inline';
  const mid = minCost === null ? ms >= WHOLE_MS : cost >= minCost * SATURATED_SHARE;
  return mid ? 'whole' : 'inline';
}

/** The searchCost from which a query goes whole to an idle thread while this one is saturated, when tests set one. */
export function saturatedMinCost(): number {
  return (minCost ?? Infinity) * SATURATED_SHARE;
}

/**
 * Sets a searchCost from which queries go to the threads whatever their learnt time (tests spread
 * the queries of small tables with it); undefined = the learnt time decides.
 */
export function setParallelMinCost(cost: number | undefined): void {
  minCost = cost ?? null;
}
const pools = new Map<Core, CorePool>();

/**
 * Sets the thread count for queries started from now on. Pools of another size close; going to 1
 * keeps an idle pool (its threads hold no reference that keeps the process alive).
 */
export async function setQueryThreads(n: number): Promise<void> {
  threads = Math.max(1, Math.trunc(n) || 1);
  if (threads > 1 && [...pools.values()].some((p) => p.threads !== threads)) await closeQueryPools();
}

export function queryThreads(): number {
  return threads;
}

/** Whether queries over `core` may go to threads (none are started by asking). */
export function queryThreadsFor(core: Core): boolean {
  if (threads <= 1 || !threadsAvailable() || !core.shared) return false;
  const pool = pools.get(core);
  return !pool || pool.alive; // its threads died: queries stay on the calling thread
}

/** What handOver weighs of `core`'s pool: a pool not started yet counts as all idle. */
export function poolLoad(core: Core): Pick<CorePool, 'idle' | 'threads'> {
  return pools.get(core) ?? { idle: threads, threads };
}

/** The pool evaluating queries over `core` (started if it was not), or null when queries run on the calling thread. */
export function queryPool(core: Core): CorePool | null {
  if (!queryThreadsFor(core)) return null;
  let pool = pools.get(core);
  if (!pool) {
    pool = new CorePool(core, threads);
    pools.set(core, pool);
  }
  return pool;
}

/**
 * The pool for a query handOver sent to the threads, or null to run it on the calling thread: the
 * pool starts now if it was not (a new table, or one released once the process went idle) and the
 * query does not wait for its threads (tens of ms; 170 for the first query at 10M, against 3 after).
 * Tests that set setParallelMinCost want the threads whatever it costs, so they get the pool at once
 * (their jobs wait for the threads to start).
 */
export function takeQueryPool(core: Core): CorePool | null {
  const pool = queryPool(core);
  if (!pool) return null;
  return pool.ready || minCost !== null ? pool : null;
}

/**
 * Sets `core`'s per-call working-memory cap (max_query_memory; 0: none). Its pool closes when the
 * cap changes: the threads read it when they start, so the next query starts them with it.
 */
export async function setQueryMemory(core: Core, bytes: number): Promise<void> {
  if (core.queryMemory === bytes) return;
  core.queryMemory = bytes;
  const pool = pools.get(core);
  if (pool) {
    pools.delete(core);
    await pool.close();
  }
}

/**
 * Closes the pools with no job running or queued: each thread is an isolate of its own (about 7 MiB
 * resident, 100k gcide's server at rest: 15 of its ~150 MiB for 2 threads). The next query that needs
 * threads starts them again (tens of ms, once); one that took its pool before this runs inline.
 * The engine calls it once the process has gone idle.
 */
export async function releaseIdleQueryPools(): Promise<void> {
  const idle = [...pools].filter(([, p]) => !p.busy);
  for (const [core] of idle) pools.delete(core);
  await Promise.all(idle.map(([, p]) => p.close()));
}

export async function closeQueryPools(): Promise<void> {
  const all = [...pools.values()];
  pools.clear();
  await Promise.all(all.map((p) => p.close()));
}
