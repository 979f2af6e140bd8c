// GET /metrics scraped by a real Prometheus (Debian's `prometheus`): a counter the server reports is
// then read back through Prometheus' own query API.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../../helpers/server-process.js';

let dir = '';
let server: ServerProcess;
let prom: ChildProcess | undefined;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-prom-'));
  server = await startServer(join(dir, 'data'));
}, 60_000);
afterAll(async () => {
  prom?.kill('SIGTERM');
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('/metrics', () => {
  it('answers in the text format with counters and per-statement and per-table histograms', async () => {
    await server.sql('CREATE TABLE m (title text)');
    await server.sql("INSERT INTO m (id, title) VALUES (1, 'a'), (2, 'b')");
    await server.sql("SELECT * FROM m WHERE MATCH('a')");
    const res = await fetch(`http://127.0.0.1:${server.httpPort}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toMatch(/^manticore_commands_total\{command="insert"\} [1-9]/m);
    expect(text).toMatch(/^# TYPE quarry_statement_duration_seconds histogram$/m);
    expect(text).toMatch(/^quarry_statement_duration_seconds_count\{statement="select"\} [1-9]/m);
    expect(text).toMatch(/^quarry_table_statement_duration_seconds_bucket\{table="m",le="\+Inf"\} [1-9]/m);
  });

  it('is scraped by a real Prometheus, which then answers a query for a counter', async () => {
    const port = await freePort();
    const config = join(dir, 'prometheus.yml');
    writeFileSync(config, [
      'global:', '  scrape_interval: 1s', 'scrape_configs:', '  - job_name: quarry',
      '    metrics_path: /metrics', '    static_configs:', `      - targets: ['127.0.0.1:${server.httpPort}']`, '',
    ].join('\n'));
    prom = spawn('prometheus', [`--config.file=${config}`, `--storage.tsdb.path=${join(dir, 'tsdb')}`,
      `--web.listen-address=127.0.0.1:${port}`], { stdio: 'ignore' });
    for (let i = 0; i < 5; i++) await server.sql(`INSERT INTO m (id, title) VALUES (${100 + i}, 'p')`);
    const query = encodeURIComponent('manticore_commands_total{command="insert",job="quarry"}');
    let value = -1;
    const deadline = Date.now() + 45_000;
    while (Date.now() < deadline) {
      try {
        const r = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${query}`);
        const j = (await r.json()) as { data?: { result?: { value: [number, string] }[] } };
        const v = j.data?.result?.[0]?.value[1];
        if (v !== undefined) { value = Number(v); break; }
      } catch { /* not up yet */ }
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(value).toBeGreaterThanOrEqual(6);
  }, 60_000);
});
