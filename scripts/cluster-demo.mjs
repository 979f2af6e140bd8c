#!/usr/bin/env node
// A replication cluster on this machine: 3 nats-server processes (JetStream, clustered on loopback)
// and 3 quarry nodes naming them in replication_nats, in a temporary folder. Prints how to reach each
// node; Ctrl-C stops everything and removes the folder. Needs `npm run build` and nats-server
// (Debian: apt-get install nats-server).
//   node scripts/cluster-demo.mjs            MySQL on 9316/9326/9336, HTTP on 9318/9328/9338
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { startNatsCluster } = await import(join(ROOT, 'dist/src/replication/local/local-nats.js'));

const dir = mkdtempSync(join(tmpdir(), 'quarry-cluster-demo-'));
const nats = await startNatsCluster(join(dir, 'nats'), 3, 14222);
const servers = nats.map((n) => n.url).join(',');
const nodes = [];
for (let i = 0; i < 3; i++) {
  const home = join(dir, `node${i + 1}`);
  mkdirSync(home, { recursive: true });
  const base = 9316 + i * 10;
  writeFileSync(join(home, 'quarry.conf'), [
    'searchd {',
    `  listen = 127.0.0.1:${base}:mysql`,
    `  listen = 127.0.0.1:${base + 2}:http`,
    `  listen = 127.0.0.1:${base + 3}`,
    `  data_dir = ${join(home, 'data')}`,
    `  replication_nats = ${servers}`,
    `  server_id = ${i + 1}`,
    '}', '',
  ].join('\n'));
  const proc = spawn(process.execPath, [join(ROOT, 'bin/quarry.js'), 'serve', '--config', join(home, 'quarry.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  nodes.push({ proc, mysql: base, http: base + 2, api: base + 3 });
}
console.log(`
NATS (JetStream): ${servers}
${nodes.map((n, i) => `node${i + 1}: mysql -h127.0.0.1 -P${n.mysql}   http://127.0.0.1:${n.http}   node address 127.0.0.1:${n.api}`).join('\n')}

  node1> CREATE TABLE products (title TEXT, price FLOAT); CREATE CLUSTER shop; ALTER CLUSTER shop ADD products;
  node2> JOIN CLUSTER shop AT '127.0.0.1:${nodes[0].api}';
  node3> JOIN CLUSTER shop AT '127.0.0.1:${nodes[0].api}';
  node2> INSERT INTO shop:products (id, title, price) VALUES (1, 'red bag', 9.5);
  node3> SELECT * FROM products;  SHOW STATUS LIKE 'cluster%';
Ctrl-C stops the cluster (folder ${dir}).`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  for (const n of nodes) n.proc.kill('SIGTERM');
  await Promise.all(nodes.map((n) => new Promise((r) => (n.proc.exitCode !== null ? r() : n.proc.once('exit', r)))));
  await Promise.all(nats.map((n) => n.kill()));
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
