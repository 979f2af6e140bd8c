// ha_ping_interval against the real binary-API listener: with no query at all, a dead mirror is
// found by the pings (at the table's own interval) and nodeads sends the first attempt to the live one.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAgentListener, type AgentListener } from '../../../../src/agent/agent-listener.js';
import type { Engine } from '../../../../src/engine/engine.js';
import { openEngine } from '../../../../src/engine/index.js';
import { mirrorOrder } from '../../../../src/engine/distributed/agent-health.js';
import { startHaPings } from '../../../../src/engine/distributed/agent-ping.js';
import { distributedDef } from '../../../../src/engine/distributed/dist-def.js';

let dir: string;
let engine: Engine;
let listener: AgentListener;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-ping-'));
  engine = await openEngine({ dataDir: dir });
  listener = await startAgentListener(engine, { host: '127.0.0.1', port: 0, maxPacketBytes: 1 << 20 });
});
afterAll(async () => {
  await listener?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('ha_ping_interval', () => {
  it('pings idle mirrors; the dead one goes last under nodeads before any query reaches it', async () => {
    const dead = await deadPort();
    const def = distributedDef('dping', {
      agent: [`127.0.0.1:${dead}|127.0.0.1:${listener.port}:t`], ha_strategy: ['nodeads'], ha_ping_interval: ['50ms'],
    }, () => false);
    const agent = def.agents[0]!;
    const stop = startHaPings(() => [def]); // the table's own ha_ping_interval sets the rounds' pace
    try {
      await new Promise((r) => setTimeout(r, 600));
      for (let i = 0; i < 20; i++) expect(mirrorOrder(agent, 'nodeads').map((m) => m.port)).toEqual([listener.port, dead]);
    } finally {
      stop();
    }
  });
});
