/**
 * The event-loop stall oracle: a trivial query every HEARTBEAT_MS on its own connection, timed. A slow
 * answer on a loaded machine may be the scheduler's doing, so a stall is counted only when the server's
 * main thread (its tid is the pid) also burnt at least STALL_CPU_MS of CPU while the heartbeat waited:
 * that CPU is the event loop held by one task, whatever the machine's load.
 */
import { readFileSync } from 'node:fs';

/** An event-loop stall past this is a finding (README: backtracking and every walk are bounded). */
export const STALL_MS = 1_000;
/** Main-thread CPU within the slow heartbeat that makes it a stall of the server's own (not load's). */
const STALL_CPU_MS = 800;
const HEARTBEAT_MS = 250;

export interface Stall {
  ms: number;
  cpuMs: number;
  /** The inputs being answered when the heartbeat went out. */
  inFlight: string[];
}

/** CPU ms (user + system) of the process's main thread. */
function mainThreadCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[11] and [12] are utime and stime (the 14th and 15th of stat) in clock ticks (100 a second)
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/**
 * Starts the heartbeat against `ping` (a trivial query; rejects on failure) of the process `pid`;
 * `inFlight` names the inputs under way. stop() ends it and returns the stalls seen.
 */
export function startStallMonitor(pid: number, ping: () => Promise<unknown>, inFlight: () => string[]): { stop(): Promise<Stall[]> } {
  const stalls: Stall[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const flight = inFlight();
      const cpu0 = mainThreadCpuMs(pid);
      const t0 = performance.now();
      try {
        await ping();
      } catch {
        // a dead server or a refused ping is the runner's finding (its probes), not a stall
      }
      const ms = performance.now() - t0;
      const cpuMs = mainThreadCpuMs(pid) - cpu0;
      if (ms > STALL_MS && cpuMs >= STALL_CPU_MS && stalls.length < 100) stalls.push({ ms: Math.round(ms), cpuMs, inFlight: flight });
      await new Promise((r) => setTimeout(r, HEARTBEAT_MS));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return stalls;
    },
  };
}
