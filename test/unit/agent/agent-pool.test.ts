// The persistent pool against the real binary-API listener over loopback: one PERSIST connection
// serves many requests, the idle set is bounded, a connection the agent dropped is replaced, and
// close() ends them all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchAgent } from '../../../src/agent/agent-client.js';
import { startAgentListener, type AgentListener } from '../../../src/agent/agent-listener.js';
import { AgentPool } from '../../../src/agent/agent-pool.js';
import { apiQuery } from '../../../src/agent/search-write.js';
import type { Engine } from '../../../src/engine/engine.js';
import { openEngine } from '../../../src/engine/index.js';
import { newSession } from '../../../src/engine/session.js';

let dir: string;
let engine: Engine;
let listener: AgentListener;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-pool-'));
  engine = await openEngine({ dataDir: dir });
  const s = newSession();
  await engine.execute('CREATE TABLE t (title text, gid uint)', s);
  await engine.execute("INSERT INTO t (id, title, gid) VALUES (1, 'hello world', 1), (2, 'hello there', 2), (3, 'other', 1)", s);
  listener = await startAgentListener(engine, { host: '127.0.0.1', port: 0, maxPacketBytes: 8 << 20 });
});
afterAll(async () => {
  await listener?.close();
  await engine?.close();
  rmSync(dir, { recursive: true, force: true });
});

const to = () => ({ host: '127.0.0.1', port: listener.port });
const q = (text: string) => apiQuery({ indexes: 't', query: text, offset: 0, limit: 20 });
const ids = (r: { matches: Array<{ id: bigint | number }> }) => r.matches.map((m) => Number(m.id)).sort();

describe('AgentPool', () => {
  it('reuses one persistent connection for sequential requests', async () => {
    const pool = new AgentPool(2);
    const t = { connectMs: 1000, queryMs: 3000, pool };
    for (let i = 0; i < 5; i++) {
      const [r] = await searchAgent(to(), [q('hello')], t);
      expect(ids(r!)).toEqual([1, 2]);
      expect(pool.idleCount()).toBe(1);
    }
    pool.close();
    expect(pool.idleCount()).toBe(0);
  });

  it('opens one connection per concurrent request and keeps at most `limit` idle', async () => {
    const pool = new AgentPool(2);
    const t = { connectMs: 1000, queryMs: 3000, pool };
    const rs = await Promise.all(Array.from({ length: 5 }, () => searchAgent(to(), [q('other')], t)));
    for (const [r] of rs) expect(ids(r!)).toEqual([3]);
    expect(pool.idleCount()).toBe(2);
    pool.close();
  });

  it('replaces an idle connection the agent closed, and reports a dead agent', async () => {
    const pool = new AgentPool(2);
    const t = { connectMs: 1000, queryMs: 3000, pool };
    await searchAgent(to(), [q('hello')], t);
    const port = listener.port;
    await listener.close(); // destroys the idle connection on the agent's side
    listener = await startAgentListener(engine, { host: '127.0.0.1', port, maxPacketBytes: 8 << 20 });
    const [r] = await searchAgent(to(), [q('hello')], t);
    expect(ids(r!)).toEqual([1, 2]);
    await listener.close();
    await expect(searchAgent(to(), [q('hello')], t)).rejects.toThrow(/connect\(\) failed: errno=111|agent closed connection/);
    expect(pool.idleCount()).toBe(0);
    listener = await startAgentListener(engine, { host: '127.0.0.1', port, maxPacketBytes: 8 << 20 });
    pool.close();
  });
});
