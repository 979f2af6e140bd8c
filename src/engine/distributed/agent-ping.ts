/**
 * Manticore's ha_ping_interval (1000 ms by default; 0 turns it off): while idle, the master pings every
 * mirror of its distributed tables' mirrored agents, so a dead mirror is known (and a revived one seen
 * again) before a query is sent to it; the outcomes feed the karma blocks (agent-health.ts notePing).
 * A mirror a query reached within the interval is not pinged.
 */
import { agentRequest } from '../../agent/agent-client.js';
import { Cmd } from '../../agent/wire.js';
import { hostStats, notePing } from './agent-health.js';
import type { DistributedDef, Mirror } from './dist-def.js';

export const DEFAULT_PING_INTERVAL_MS = 1000;
const PING_VERSION = 0x100;

async function ping(def: DistributedDef, m: Mirror): Promise<void> {
  const started = performance.now();
  const cookie = Buffer.alloc(4);
  cookie.writeUInt32BE(Math.floor(Math.random() * 0xffffffff));
  try {
    const r = await agentRequest(m, Cmd.PING, PING_VERSION, cookie, { connectMs: def.connectTimeoutMs, queryMs: def.queryTimeoutMs });
    if (r.status !== 0 || !r.body.subarray(0, 4).equals(cookie)) throw new Error('failed to parse remote reply: bad ping reply');
    notePing(m, performance.now() - started);
  } catch (e) {
    notePing(m, 0, (e as Error).message);
  }
}

/** Starts pinging the mirrors of `defs()` every `intervalMs`; returns the stop function. */
export function startHaPings(defs: () => DistributedDef[], intervalMs = DEFAULT_PING_INTERVAL_MS): () => void {
  if (intervalMs <= 0) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return; // a slow round is not overlapped
    running = true;
    const now = Date.now();
    const jobs: Promise<void>[] = [];
    for (const def of defs()) {
      for (const a of def.agents) {
        if (a.blackhole || a.mirrors.length < 2) continue;
        for (const m of a.mirrors) if (now - hostStats(m).lastQueryAt >= intervalMs) jobs.push(ping(def, m));
      }
    }
    void Promise.all(jobs).finally(() => { running = false; });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
