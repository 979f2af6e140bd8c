/**
 * A background thread's scheduling priority: the nice value of the calling thread alone (Linux keeps
 * nice per thread; setpriority(PRIO_PROCESS, tid) sets one thread's, and /proc/thread-self names the
 * calling thread's id). Elsewhere (no /proc, or not allowed) nothing changes.
 */
import { readlinkSync, readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The calling thread's kernel id (Linux), or 0 where there is none to read. */
export function threadId(): number {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : 0;
  } catch {
    return 0;
  }
}

/**
 * Lowers the calling thread's priority to nice value `nice` (a higher number: less CPU when cores are
 * contended, all idle CPU otherwise); a thread already at that or lower priority (a process started
 * under `nice`) is left as it is, since raising it back needs privileges. True when the thread now runs
 * at `nice` or lower; false where threads cannot be told apart or the system refused.
 */
export function lowerThreadPriority(nice: number): boolean {
  const tid = threadId();
  if (!tid) return false;
  try {
    if (getPriority(tid) < nice) setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/** The nice value of thread `tid` of this process, from /proc (stat field 19), or null where unreadable. */
export function threadNice(tid: number): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
  } catch {
    return null;
  }
}
