/** A server process's CPU time as the benchmarks read it: the fairest figure on a shared machine. */
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime/stime (USER_HZ, 100 on Linux). */
const TICKS_PER_SEC = 100;

/** Fields of /proc/<pid>/stat from field 3 (state) on; undefined when the process is gone. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/**
 * CPU milliseconds (user + system, every thread) the process and its children (searchd's watchdog
 * runs the server as a child) have used so far, from /proc/<pid>/stat.
 */
export function processCpuMs(pid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    // f[1] is field 4 (ppid); utime is field 14, stime field 15
    if (f && (Number(entry) === pid || Number(f[1]) === pid)) ticks += Number(f[11]) + Number(f[12]);
  }
  return (ticks * 1000) / TICKS_PER_SEC;
}

/**
 * On-CPU nanoseconds of each live thread of the process and of its children, by "pid/tid" (the first field
 * of /proc/<pid>/task/<tid>/schedstat: the scheduler's run time, kept in nanoseconds).
 */
export function threadCpuNs(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const f = statFields(entry);
    if (!f || (Number(entry) !== pid && Number(f[1]) !== pid)) continue;
    let tasks: string[] = [];
    try { tasks = readdirSync(`/proc/${entry}/task`); } catch { continue; }
    for (const tid of tasks) {
      try {
        out.set(`${entry}/${tid}`, Number(readFileSync(`/proc/${entry}/task/${tid}/schedstat`, 'utf8').split(' ')[0]));
      } catch {
        // the thread ended between the listing and the read: cpuMsSince sees it gone
      }
    }
  }
  return out;
}

/** A process's CPU time at one moment, for cpuMsSince. */
export interface CpuMark { pid: number; ticksMs: number; threads: Map<string, number> }

export function cpuMark(pid: number): CpuMark {
  return { pid, ticksMs: processCpuMs(pid), threads: threadCpuNs(pid) };
}

/**
 * CPU milliseconds the process (every thread, and its children) used since `mark`, to the microsecond:
 * the sum of its threads' scheduler run times. /proc/<pid>/stat counts in clock ticks of 10 ms, which over
 * a 400-query run from one client (about 0.25 s of server CPU) is 4% of the figure a tick (the session 11
 * "rise" of MySQL's 1-client CPU per query, 0.55 -> 0.60 ms, was two ticks). A thread that ended meanwhile
 * took its run time with it: then the tick count, which keeps ended threads' time, is the answer.
 */
export function cpuMsSince(mark: CpuMark): number {
  const now = threadCpuNs(mark.pid);
  let ns = 0;
  for (const [tid, before] of mark.threads) {
    const after = now.get(tid);
    if (after === undefined) return processCpuMs(mark.pid) - mark.ticksMs;
    ns += after - before;
  }
  for (const [tid, after] of now) if (!mark.threads.has(tid)) ns += after; // started meanwhile
  return ns / 1e6;
}

/**
 * Resolves once the process has used under `busyPct` % of one core for a whole second (at most
 * `maxMs`): merges and checkpoints after a load finish before queries are timed, for every peer.
 */
export async function waitIdle(pid: number, busyPct = 3, maxMs = 60_000): Promise<void> {
  const until = performance.now() + maxMs;
  while (performance.now() < until) {
    const c0 = processCpuMs(pid);
    await new Promise((r) => setTimeout(r, 1000));
    if (processCpuMs(pid) - c0 < busyPct * 10) return;
  }
}

/**
 * CPU ms (user + system) of the process's protocol thread (`main`) and of all its other threads (lmdb's writer,
 * V8's compiler and GC helpers, workers): `other` is the process's total (/proc/PID/stat, which keeps the time
 * of threads that have ended, as idle workers do) less the main thread's, not a sum over the live threads.
 */
export function threadCpuMs(pid: number): { main: number; other: number } {
  const main = statFields(`${pid}/task/${pid}`);
  const all = statFields(String(pid));
  const ms = (f: string[] | null | undefined) => (f ? ((Number(f[11]) + Number(f[12])) * 1000) / TICKS_PER_SEC : 0);
  return { main: ms(main), other: ms(all) - ms(main) };
}

/**
 * A process's main thread from the scheduler (/proc/<pid>/task/<pid>/schedstat, nanoseconds): ms on a
 * CPU and ms runnable but waiting for one. Over a span of wall time W, W - run - wait is the time the
 * thread had nothing to do (blocked, e.g. on a commit or the next request): on a shared machine a figure
 * much less moved by the other processes than W itself.
 */
export function mainThreadSched(pid: number): { runMs: number; waitMs: number } {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ');
    return { runMs: Number(run) / 1e6, waitMs: Number(wait) / 1e6 };
  } catch {
    return { runMs: NaN, waitMs: NaN };
  }
}
