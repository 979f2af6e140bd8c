/**
 * How many worker threads evaluate queries (searchd `threads`), and the pool per core instance.
 * 1 (or less) keeps every query on the calling thread, as before worker threads existed; the pool
 * starts on the first query that needs it.
 */
import { CorePool, threadsAvailable } from '../../wasm/worker-pool.js';
import type { Core } from '../../wasm/core.js';

/**
 * The searchCost (postings a query decodes, or rows a full scan visits) from which a query goes to
 * the worker threads: below, the hand-over costs more than it saves. Measured on 100k gcide documents
 * (2 cores, bench/side-by-side's query mix): a query on the threads costs about 0.2 ms more CPU than
 * on the protocol thread (messages, wake-ups, the workers' own isolates), and queries of cost 20k-100k
 * (0.3-0.5 ms on one thread) answered slower there, while those over 200k (phrases of common words,
 * about 11 ms) answered in a third of the time. At 20,000 the threads cost 1-client p50 0.54 -> 0.68 ms
 * and 0.12 ms of CPU per query for no throughput at 8 or 64 clients.
 */
export const PARALLEL_MIN_COST = 200_000;

/**
 * The share of the parallel threshold from which a query goes whole to an idle worker while the
 * protocol thread is saturated (saturatedMinCost). Below it the hand-over costs the protocol thread
 * about what it saves: on 100k gcide (bench/side-by-side's query mix, one client, protocol thread
 * alone) queries of cost 5k-100k evaluate in a median 0.15-0.23 ms, and under 8 clients on 2 cores
 * the wake-up of a worker preempted the protocol thread inside the mailbox's notify (--cpu-prof:
 * worker-pool's send 2.2% of the protocol thread's samples, against 1% of the workers' own time
 * evaluating), so at 5,000 the hand-over cost as much CPU as threads = 1 saved. Half of
 * PARALLEL_MIN_COST (100k: queries of about 1 ms on 100k gcide; at 1M, where postings are ten times
 * longer, most of the mix) keeps it for queries that pay for it.
 */
export const SATURATED_SHARE = 0.5;

let threads = 1;
let minCost = PARALLEL_MIN_COST;
/** Whether this thread is saturated (the host measures it; none = never, so queries stay here). */
let busyProbe: (() => boolean) | null = null;
/** Whether the machine has a core to spare (the host measures it; none = always). */
let spareProbe: (() => boolean) | null = null;

/**
 * Installs how the protocol thread tells it is saturated (Node: its event loop's utilization). While it
 * is, a query below PARALLEL_MIN_COST also goes to an idle worker thread, whole, if the machine has a
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
 * Where a query of searchCost `cost` runs: 'inline' on the calling thread, 'spread' in row ranges over
 * the pool's threads, 'whole' on one of its threads. A thread runs in parallel with this one only when a
 * core is free for it; when every core is busy (this thread saturated, the other core taken by other
 * clients' queries, the clients themselves or other processes), a hand-over adds CPU (the mailbox,
 * wake-ups, this thread preempted) and gains no parallelism, so:
 * - not saturated (one client waiting on each answer): spread from PARALLEL_MIN_COST, latency first;
 * - saturated: the big go whole to one thread (queued there if none is idle), never cut: with this
 *   thread taking a core, cutting buys little latency and costs each range's wake-up and fixed work
 *   (measured on 100k gcide, 8 and 64 clients, protocol-ab: server CPU per query 0.31-0.33 ms whole
 *   against 0.36-0.59 cut while a core looked spare); a query from saturatedMinCost goes whole to an
 *   idle thread if a core is spare, so this thread only parses, plans and renders; cheaper ones stay here.
 */
export function handOver(cost: number, pool: CorePool): 'inline' | 'spread' | 'whole' {
  const busy = threadBusy() || pool.idle < pool.threads;
  if (cost >= minCost) return busy ? 'whole' : 'spread';
  if (!busy || pool.idle === 0 || cost < saturatedMinCost() || !spareCore()) return 'inline';
  return 'whole';
}

/** The searchCost from which a query goes whole to an idle thread while this one is saturated. */
export function saturatedMinCost(): number {
  return minCost * SATURATED_SHARE;
}

/** The searchCost from which queries go to the threads now. */
export function parallelMinCost(): number {
  return minCost;
}

/** Sets it (tests spread the queries of small tables with a lower one); undefined = the default. */
export function setParallelMinCost(cost: number | undefined): void {
  minCost = cost ?? PARALLEL_MIN_COST;
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

/** The pool evaluating queries over `core`, or null when queries run on the calling thread. */
export function queryPool(core: Core): CorePool | null {
  if (threads <= 1 || !threadsAvailable() || !core.shared) return null;
  let pool = pools.get(core);
  if (pool && !pool.alive) return null; // its threads died: queries stay on the calling thread
  if (!pool) {
    pool = new CorePool(core, threads);
    pools.set(core, pool);
  }
  return pool;
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
