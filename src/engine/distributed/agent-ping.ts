/**
 * Manticore's ha_ping_interval (ha-settings.ts: 1000 ms by default; 0 turns it off): while idle, the master pings every
 * mirror of its distributed tables' mirrored agents, so a dead mirror is known (and a revived one seen
 * again) before a query is sent to it; the outcomes feed the karma blocks (agent-health.ts notePing).
 * A mirror a query reached within the interval is not pinged.
 */
import { agentRequest } from '../../agent/agent-client.js';
import { Cmd } from '../../agent/wire.js';
import { hostStats, notePing } from './agent-health.js';
import { mirrorUrl, type DistributedDef, type Mirror } from './dist-def.js';
import { haFor } from './ha-settings.js';

/** How often to look again when no table pings (a table created later may ask for pings). */
const IDLE_CHECK_MS = 1000;
const PING_VERSION = 0x100;

async function ping(def: DistributedDef, m: Mirror, karmaMs: number): Promise<void> {
  const started = performance.now();
  const cookie = Buffer.alloc(4);
  cookie.writeUInt32BE(Math.floor(Math.random() * 0xffffffff));
  try {
    const r = await agentRequest(m, Cmd.PING, PING_VERSION, cookie, { connectMs: def.connectTimeoutMs, queryMs: def.queryTimeoutMs });
    if (r.status !== 0 || !r.body.subarray(0, 4).equals(cookie)) throw new Error('failed to parse remote reply: bad ping reply');
    notePing(m, performance.now() - started, undefined, karmaMs);
  } catch (e) {
    notePing(m, 0, (e as Error).message, karmaMs);
  }
}

/** When each mirror was last pinged (host:port), so a table's own interval is kept between rounds. */
const lastPing = new Map<string, number>();

/** One round: the idle mirrors of every mirrored agent whose table's interval has passed. */
function round(defs: DistributedDef[], now: number): Promise<void>[] {
  const jobs: Promise<void>[] = [];
  for (const def of defs) {
    const { pingIntervalMs, karmaPeriodMs } = haFor(def.ha);
    if (pingIntervalMs <= 0) continue;
    for (const a of def.agents) {
      if (a.blackhole || a.mirrors.length < 2) continue;
      for (const m of a.mirrors) {
        const url = mirrorUrl(m);
        if (now - hostStats(m).lastQueryAt < pingIntervalMs || now - (lastPing.get(url) ?? 0) < pingIntervalMs) continue;
        lastPing.set(url, now);
        jobs.push(ping(def, m, karmaPeriodMs));
      }
    }
  }
  return jobs;
}

/**
 * Starts pinging the mirrors of `defs()`: a round every `tickMs` (the shortest interval any table or
 * the searchd setting asks for, re-read each round); returns the stop function.
 */
export function startHaPings(defs: () => DistributedDef[], tickMs?: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const next = (): void => {
    if (stopped) return;
    const intervals = [haFor().pingIntervalMs, ...defs().map((d) => haFor(d.ha).pingIntervalMs)].filter((ms) => ms > 0);
    const delay = tickMs ?? (intervals.length ? Math.min(...intervals) : IDLE_CHECK_MS);
    timer = setTimeout(() => {
      // a slow round is not overlapped: the next is scheduled once this one is done
      void Promise.all(round(defs(), Date.now())).finally(next);
    }, delay);
    timer.unref();
  };
  next();
  return () => { stopped = true; clearTimeout(timer); };
}
