/** A real engine on a temporary data directory behind a real binary-API listener on a loopback port, for one file's tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { AgentAddress } from '../../src/agent/agent-conn.js';
import { startAgentListener, type AgentListener } from '../../src/agent/agent-listener.js';
import type { Engine } from '../../src/engine/engine.js';
import { openEngine } from '../../src/engine/index.js';
import { newSession } from '../../src/engine/session.js';

export interface EngineAgent {
  readonly engine: Engine;
  /** The listener's address. */
  to(): AgentAddress;
}

/** Registers beforeAll/afterAll hooks; `setup` statements run on the engine before the listener opens. */
export function useEngineAgent(prefix: string, setup: string[]): EngineAgent {
  let dir = '';
  let engine: Engine | undefined;
  let listener: AgentListener | undefined;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), `quarry-${prefix}-`));
    engine = await openEngine({ dataDir: dir });
    const s = newSession();
    for (const sql of setup) await engine.execute(sql, s);
    listener = await startAgentListener(engine, { host: '127.0.0.1', port: 0, maxPacketBytes: 8 << 20 });
  });
  afterAll(async () => {
    await listener?.close();
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { get engine() { return engine!; }, to: () => ({ host: '127.0.0.1', port: listener!.port }) };
}
