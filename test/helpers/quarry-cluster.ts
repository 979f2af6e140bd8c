/**
 * A replication cluster on loopback for tests and the bench: 3 nats-server processes (JetStream,
 * clustered) and N quarry nodes whose searchd names them in replication_nats. Node names are fixed
 * (node_address, also the node's binary-API listen address, which JOIN CLUSTER ... AT asks) so a node
 * killed and restarted is the same member. Each node keeps its queries on one
 * thread (threads = 1): six processes share the machine's two cores with the other test files.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { startNatsCluster, type NatsNode } from '../../src/replication/local/local-nats.js';
import { spawnQuarry, type SpawnedQuarry } from './spawn-quarry.js';
import { claimPortBlock } from './port-block.js';

export interface QuarryNode {
  name: string;
  server?: SpawnedQuarry;
  /** Starts the node (again), with `env` added to its environment. */
  start(env?: Record<string, string>): Promise<void>;
  /** kill -9, then wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM and wait. */
  stop(): Promise<void>;
}

export interface LocalCluster {
  /** Node i's data directory is `${dir}/q${i + 1}/data`. */
  dir: string;
  nats: NatsNode[];
  nodes: QuarryNode[];
  close(): Promise<void>;
}

/** `searchd` lines every node gets besides its own (e.g. `replication_snapshot_ops = 10`), or node i's lines. */
export async function startLocalCluster(root: string, nodeCount: number, natsCount = 3, searchd: string[] | ((node: number) => string[]) = []): Promise<LocalCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-cluster-'));
  // NATS client ports base+i, NATS routes base+100+i, quarry nodes base+50+i
  const offsets = [...Array.from({ length: natsCount }, (_, i) => [i, 100 + i]).flat(), ...Array.from({ length: nodeCount }, (_, i) => 50 + i)];
  const block = await claimPortBlock(offsets);
  const base = block.base;
  const nats = await startNatsCluster(join(dir, 'nats'), natsCount, base);
  const servers = nats.map((n) => n.url).join(',');
  const nodes: QuarryNode[] = [];
  for (let i = 0; i < nodeCount; i++) {
    const home = join(dir, `q${i + 1}`);
    mkdirSync(home, { recursive: true });
    const conf = join(home, 'quarry.conf');
    writeFileSync(conf, `searchd {\n  data_dir = ${join(home, 'data')}\n  replication_nats = ${servers}\n  listen = 127.0.0.1:${base + 50 + i}\n  node_address = 127.0.0.1:${base + 50 + i}\n  server_id = ${i + 1}\n  threads = 1\n${(typeof searchd === 'function' ? searchd(i) : searchd).map((l) => `  ${l}\n`).join('')}}\n`);
    const node: QuarryNode = {
      name: `127.0.0.1:${base + 50 + i}`,
      async start(env) { node.server = await spawnQuarry(root, ['--config', conf], env); },
      async kill() {
        const s = node.server;
        if (!s || s.proc.exitCode !== null || s.proc.signalCode !== null) return;
        s.proc.kill('SIGKILL');
        await s.exited;
      },
      async stop() {
        const s = node.server;
        if (!s || s.proc.exitCode !== null || s.proc.signalCode !== null) return;
        s.proc.kill('SIGTERM');
        await s.exited;
      },
    };
    nodes.push(node);
  }
  await Promise.all(nodes.map((n) => n.start()));
  return {
    dir, nats, nodes,
    async close() {
      await Promise.all(nodes.map((n) => n.kill()));
      await Promise.all(nats.map((n) => n.kill()));
      rmSync(dir, { recursive: true, force: true });
      block.release();
    },
  };
}

/** One statement on a fresh MySQL connection to node `node`: its rows. */
export async function queryNode(cl: LocalCluster, node: number, sql: string): Promise<Record<string, unknown>[]> {
  const c = await mysql.createConnection({ host: '127.0.0.1', port: cl.nodes[node]!.server!.mysql });
  try {
    const [rows] = await c.query(sql);
    return rows as Record<string, unknown>[];
  } finally {
    await c.end();
  }
}
