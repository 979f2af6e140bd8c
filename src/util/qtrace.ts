// TEMPORARY trace (not to commit)
import { threadId } from 'node:worker_threads';
import { readdirSync, readFileSync } from 'node:fs';
const on = !!process.env.QT;
export function qt(m: string): void {
  if (!on) return;
  const cpu = Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
  process.stderr.write(`QT ${(performance.timeOrigin + performance.now()).toFixed(1)} t${threadId} cpu=${cpu.toFixed(0)} ${m}\n`);
}
export function qthreads(): void {
  if (!on) return;
  for (const t of readdirSync('/proc/self/task')) {
    const comm = readFileSync(`/proc/self/task/${t}/comm`, 'utf8').trim();
    const ns = Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    if (ns > 5e6) process.stderr.write(`QT ${(performance.timeOrigin + performance.now()).toFixed(1)} thread ${t}:${comm} ${(ns / 1e6).toFixed(0)}ms\n`);
  }
}
