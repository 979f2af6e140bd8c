// bench/lib/footprint.ts: a server's memory and disk as a black-box harness sees them, once it is quiet
// after its work: PSS (/proc/PID/smaps_rollup) with quarry's parts by kind of mapping (bench/lib/smaps.ts),
// and the bytes of its files. Used by the side-by-side (bench/side-by-side/side-by-side.bench.ts) and memory benches.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { processCpuMs } from './process-cpu.js';
import { breakdown, rollup } from './smaps.js';

const MiB = 1024 * 1024;
export const mib = (v: number) => Math.round((v / MiB) * 10) / 10;

/**
 * Waits until `pid` (and its children) has used under 2% of a core for `quietSeconds` seconds in a row,
 * and at least `minMs` in all: its merges and a checkpoint ran, and quarry's idle collections (2 s after
 * the last work, and 5 s after that; src/engine/background/idle-gc.ts) with them.
 */
export async function untilQuiet(pid: number, minMs: number, quietSeconds = 10): Promise<void> {
  const t0 = Date.now();
  let last = processCpuMs(pid);
  let quiet = 0;
  while (quiet < quietSeconds || Date.now() - t0 < minMs) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = processCpuMs(pid);
    quiet = now - last < 20 ? quiet + 1 : 0;
    last = now;
  }
}

/** PSS and RSS of a process, and (for quarry) its PSS by kind of mapping, in MiB. */
export function memoryOf(pid: number, parts = false): Record<string, number> {
  const { Pss: pss, Rss: rss } = rollup(pid);
  const out: Record<string, number> = { pss: mib(pss), rss: mib(rss) };
  if (parts) {
    for (const [k, v] of Object.entries(breakdown(pid))) out[k] = ['wasmMemories', 'threads'].includes(k) ? v : mib(v);
  }
  return out;
}

/**
 * `pid`'s memory (memoryOf) once at rest: read every second until two readings in a row agree (PSS within
 * `tolMiB`) with no collection between them (under 20 ms of the process's CPU in that second), at most
 * `maxSeconds`. A single reading 22 s after the queries raced quarry's last idle follow-up collection (~20 s,
 * src/engine/background/idle-gc.ts), so its V8 heap pages read 34 or 45 MiB by chance (session 23).
 */
export async function memoryAtRest(pid: number, parts = false, tolMiB = 1, maxSeconds = 60): Promise<Record<string, number>> {
  let prev = memoryOf(pid, parts);
  let cpu = processCpuMs(pid);
  for (let s = 0; s < maxSeconds; s++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = memoryOf(pid, parts);
    const cpuNow = processCpuMs(pid);
    const still = cpuNow - cpu < 20 && Math.abs(now.pss - prev.pss) <= tolMiB;
    prev = now;
    cpu = cpuNow;
    if (still) return now;
  }
  return prev;
}

/** Bytes of the files in `dir` whose name passes `keep` (recursively). */
export function filesBytes(dir: string, keep: (name: string) => boolean = () => true): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) n += filesBytes(p, keep);
    else if (keep(e.name)) n += statSync(p).size;
  }
  return n;
}

/** searchd's serving process (its pid file; the spawned --nodetach process may be a watchdog). */
export function searchdPid(dir: string): number {
  return Number(readFileSync(join(dir, 'searchd.pid'), 'utf8'));
}
