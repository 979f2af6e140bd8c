/**
 * Wall-clock phase marks for finding where a run's time goes (`quarry import`'s start, middle and end):
 * with QUARRY_TRACE_PHASES=1 each mark prints `phase <ms since the process started> <thread> <name>` to
 * stderr; without it a mark costs one boolean test. Marks from worker threads share the process's clock.
 */
import { isMainThread, threadId } from 'node:worker_threads';

const on = process.env.QUARRY_TRACE_PHASES === '1';
/** The process's start in epoch ms (a worker's own timeOrigin is the worker's start, not the process's). */
const processStart = Date.now() - process.uptime() * 1000;

export function phase(name: string): void {
  if (!on) return;
  const ms = performance.timeOrigin + performance.now() - processStart;
  process.stderr.write(`phase ${ms.toFixed(1)} ${isMainThread ? 'main' : `t${threadId}`} ${name}\n`);
}
