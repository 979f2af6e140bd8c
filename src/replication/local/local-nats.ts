/**
 * Starts `nats-server` processes with JetStream, clustered on loopback ports in temporary folders:
 * what scripts/cluster-demo.sh, the replication tests and bench/cluster/replication.bench.ts run against.
 * Production runs its own NATS servers and names them in searchd's replication_nats.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

export const NATS_BIN = process.env.QUARRY_NATS_SERVER ?? 'nats-server';

export interface NatsNode {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  proc?: ChildProcess;
  /** Starts the process again (after a kill), same ports and store. */
  start(): Promise<void>;
  /** kill -9. */
  kill(): Promise<void>;
}

function waitPort(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  return new Promise((done, fail) => {
    const attempt = () => {
      const s = connect(port, '127.0.0.1');
      s.once('connect', () => { s.destroy(); done(); });
      s.once('error', () => {
        s.destroy();
        if (Date.now() > until) fail(new Error(`nats-server on ${port} did not start`));
        else setTimeout(attempt, 50);
      });
    };
    attempt();
  });
}

/**
 * `count` servers in one JetStream cluster: client ports basePort, basePort+1, ..., route ports
 * basePort+100+i, stores under `dir`. Resolves once every client port accepts connections.
 */
export async function startNatsCluster(dir: string, count: number, basePort: number): Promise<NatsNode[]> {
  const routes = Array.from({ length: count }, (_, i) => `nats-route://127.0.0.1:${basePort + 100 + i}`);
  const nodes: NatsNode[] = [];
  for (let i = 0; i < count; i++) {
    const name = `n${i + 1}`;
    const port = basePort + i;
    const home = join(dir, name);
    mkdirSync(home, { recursive: true });
    const conf = join(home, 'nats.conf');
    const cluster = count > 1
      ? `cluster { name: quarry, listen: 127.0.0.1:${basePort + 100 + i}, routes: [${routes.filter((_, j) => j !== i).join(', ')}] }\n`
      : '';
    writeFileSync(conf, `server_name: ${name}\nlisten: 127.0.0.1:${port}\njetstream { store_dir: "${join(home, 'js')}" }\n${cluster}`);
    const node: NatsNode = {
      name, port, url: `nats://127.0.0.1:${port}`,
      async start() {
        const proc = spawn(NATS_BIN, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        proc.stderr!.on('data', (d: Buffer) => { err = (err + d.toString()).slice(-2000); });
        proc.once('exit', (code) => { if (code) process.stderr.write(`nats-server ${name} exited ${code}: ${err}\n`); });
        node.proc = proc;
        await waitPort(port, 10_000);
      },
      async kill() {
        const p = node.proc;
        if (!p || p.exitCode !== null || p.signalCode !== null) return;
        const gone = new Promise((r) => p.once('exit', r));
        p.kill('SIGKILL');
        await gone;
      },
    };
    nodes.push(node);
  }
  await Promise.all(nodes.map((n) => n.start()));
  return nodes;
}
