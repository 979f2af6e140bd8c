/**
 * Wall-clock phase marks for finding where a run's time goes (`quarry import`'s start, middle and end):
 * with QUARRY_TRACE_PHASES=1 each mark prints `phase <ms since the process started> <thread> cpu=<this
 * thread's CPU ms, from /proc/thread-self/stat: the wall time of a loaded machine says little> wait=<ms
 * it was runnable but not running> <name>` to stderr; without it a mark costs one boolean test. Marks
 * from worker threads share the process's clock. Between two marks of a thread, wall - cpu - wait is
 * the time it had nothing to do (blocked or idle): on a loaded machine, the part wall time cannot tell
 * from a wait for a core.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { isMainThread, threadId } from 'node:worker_threads';

const on = process.env.QUARRY_TRACE_PHASES === '1';
/** Whether marks print (QUARRY_TRACE_PHASES=1). */
export const tracing = on;
/** The process's start in epoch ms (a worker's own timeOrigin is the worker's start, not the process's). */
const processStart = Date.now() - process.uptime() * 1000;

export function phase(name: string): void {
  if (!on) return;
  const ms = performance.timeOrigin + performance.now() - processStart;
  const [cpu, wait] = threadTimes();
  process.stderr.write(`phase ${ms.toFixed(1)} ${isMainThread ? 'main' : `t${threadId}`} cpu=${cpu} wait=${wait} ${name}\n`);
}

/**
 * This thread's CPU and run-queue wait in ms: from /proc/thread-self/schedstat (nanoseconds run on a
 * CPU, nanoseconds runnable on a run queue), so a mark around a 15 ms step (a RAM tail seal) reads its
 * CPU, not 10 ms ticks; the stat file's ticks (wait -1) where there is no schedstat; -1 where /proc has
 * no thread-self.
 */
function threadTimes(): [string | number, string | number] {
  try {
    const [run, wait] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    return [(Number(run) / 1e6).toFixed(1), (Number(wait) / 1e6).toFixed(1)];
  } catch {
    return [cpuMsOf('/proc/thread-self/stat'), -1];
  }
}

/** User + system CPU in ms (clock ticks of 10 ms) from a /proc stat file, or -1 when unreadable (a thread ended). */
function cpuMsOf(path: string): number {
  try {
    const stat = readFileSync(path, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // utime, stime: fields 14 and 15 of stat
  } catch {
    return -1;
  }
}

/** With the trace on: every thread of the process with its CPU ms, busiest first (V8's compiler and GC helpers included). */
export function threadsCpu(): void {
  if (!on) return;
  const cpu: string[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    const ms = cpuMsOf(`/proc/self/task/${tid}/stat`);
    if (ms > 0) cpu.push(`${tid === String(process.pid) ? 'main' : tid}=${ms}`);
  }
  cpu.sort((a, b) => Number(b.split('=')[1]) - Number(a.split('=')[1]));
  process.stderr.write(`threads ${cpu.join(' ')}\n`);
}
