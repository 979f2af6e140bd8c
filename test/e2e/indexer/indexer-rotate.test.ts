// `quarry indexer --rotate` against a running quarry server while clients keep querying: the table is
// built beside the live one and swapped in at once, so every answer counts the old table or the new
// one, never a part; without --rotate a served data directory is refused.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../helpers/mariadb-server.js';
import { runQuarry, startQuarry } from '../../helpers/run-quarry.js';

let dir = '';
let port = 0;
let server: ReturnType<typeof startQuarry>;
let conf = '';
/** Checkpoints while the staging table fills, so the swap moves a table with segment files. */
const CHECKPOINT_OFTEN = { QUARRY_CHECKPOINT_MS: '100' };

const tsv = (name: string, n: number, word: string) => {
  const p = join(dir, name);
  writeFileSync(p, Array.from({ length: n }, (_, i) => `${i + 1}\t${word} number ${i + 1}\t${i}`).join('\n') + '\n');
  return p;
};

function writeConfig(file: string, command = `cat ${file}`): void {
  writeFileSync(conf, `
source s {
  type = tsvpipe
  tsvpipe_command = ${command}
  tsvpipe_field = title
  tsvpipe_attr_uint = n
}
table t {
  source = s
}
searchd {
  listen = 127.0.0.1:${port}:http
  data_dir = ${join(dir, 'data')}
}
`);
}

async function count(sql: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/sql?mode=raw`, { method: 'POST', body: `query=${encodeURIComponent(sql)}` });
  const body = (await res.json()) as { data?: Record<string, number>[]; error?: string }[];
  if (!body[0]?.data) throw new Error(JSON.stringify(body));
  return Object.values(body[0].data[0]!)[0]!;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-rotate-'));
  port = await freePort();
  conf = join(dir, 'q.conf');
  writeConfig(tsv('v1.tsv', 20_000, 'alpha'));
  server = startQuarry(['serve', '--config', conf, '--mysql', '127.0.0.1:0'], { env: CHECKPOINT_OFTEN });
  while (!server.output().stdout.includes('quarry listening')) {
    if (server.proc.exitCode !== null) throw new Error(server.output().stderr);
    await new Promise((r) => setTimeout(r, 50));
  }
}, 60_000);

afterAll(async () => {
  server?.proc.kill('SIGTERM');
  await server?.done;
  rmSync(dir, { recursive: true, force: true });
});

describe('quarry indexer --rotate', () => {
  it('refuses a served data directory without --rotate', async () => {
    const r = await runQuarry(['indexer', '--config', conf, 't']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the server \(pid \d+\) serving .* is live: add --rotate/);
  });

  it('builds, then rebuilds while queries run; every answer is the whole old or the whole new table', async () => {
    // first build: the server finds the table once it is swapped in (pid file + the config's listen line)
    const first = await runQuarry(['indexer', '--config', conf, 't', '--rotate']);
    expect(first.stderr).toMatch(/table t: 20,000 documents in .*\(http:\/\/127\.0\.0\.1:\d+\)/);
    expect(first.code).toBe(0);
    expect(await count('SELECT COUNT(*) FROM t')).toBe(20_000);

    writeConfig(tsv('v2.tsv', 30_000, 'beta'));
    // each answer with when its request was sent and when it came back (two clients overlap, and a
    // query may run on a worker thread, so answers can come back in another order than they were sent)
    const seen: { n: number; sent: number; done: number }[] = [];
    let indexing = true;
    const clients = Array.from({ length: 2 }, async () => {
      while (indexing) {
        const sent = performance.now();
        const n = await count('SELECT COUNT(*) FROM t');
        seen.push({ n, sent, done: performance.now() });
        const alpha = await count("SELECT COUNT(*) FROM t WHERE MATCH('alpha')");
        expect([0, 20_000]).toContain(alpha);
      }
    });
    const second = await runQuarry(['indexer', '--config', conf, 't', '--rotate', '--batch', '2000']);
    indexing = false;
    await Promise.all(clients);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/table t: 30,000 documents/);
    // queries ran during the build, and saw only whole tables, old before new: once an answer showed
    // the new table, no query sent after it shows the old one
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every(({ n }) => n === 20_000 || n === 30_000)).toBe(true);
    const newSeenAt = Math.min(...seen.filter(({ n }) => n === 30_000).map(({ done }) => done));
    expect(seen.filter(({ sent }) => sent > newSeenAt).every(({ n }) => n === 30_000)).toBe(true);
    expect(await count("SELECT COUNT(*) FROM t WHERE MATCH('beta number')")).toBe(30_000);
    expect(await count("SELECT COUNT(*) FROM t WHERE MATCH('alpha')")).toBe(0);
    const tables = await fetch(`http://127.0.0.1:${port}/sql?mode=raw`, { method: 'POST', body: 'query=SHOW%20TABLES' });
    expect(((await tables.json()) as { data: unknown[] }[])[0]!.data).toEqual([{ Table: 't', Type: 'rt' }]);
  }, 120_000);

  it('the rotated table survives a restart of the server', async () => {
    server.proc.kill('SIGTERM');
    await server.done;
    server = startQuarry(['serve', '--config', conf, '--mysql', '127.0.0.1:0'], { env: CHECKPOINT_OFTEN });
    while (!server.output().stdout.includes('quarry listening')) {
      if (server.proc.exitCode !== null) throw new Error(server.output().stderr);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await count("SELECT COUNT(*) FROM t WHERE MATCH('beta')")).toBe(30_000);
  }, 60_000);

  it('tells when writes landed on the live table during the rebuild: the swap replaces them', async () => {
    // the source says it started (the indexer has read the table's tid by then) and waits for GO, so the
    // INSERT lands while the staging table fills, however slow the machine
    const started = join(dir, 'source-started');
    const go = join(dir, 'go');
    writeConfig(tsv('v3.tsv', 100, 'gamma'), `sh -c 'touch ${started}; while [ ! -f ${go} ]; do sleep 0.05; done; cat ${join(dir, 'v3.tsv')}'`);
    const build = runQuarry(['indexer', '--config', conf, 't', '--rotate']);
    while (!existsSync(started)) await new Promise((r) => setTimeout(r, 50));
    const res = await fetch(`http://127.0.0.1:${port}/insert`, { method: 'POST', body: '{"table":"t","id":999999,"doc":{"title":"written during the rebuild"}}' });
    expect(res.status).toBe(200);
    writeFileSync(go, '');
    const r = await build;
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: table t was written to while it was rebuilt \(tid \d+ -> \d+\); the rebuilt table replaced those writes/);
    expect(await count('SELECT COUNT(*) FROM t WHERE id = 999999')).toBe(0);
    expect(await count("SELECT COUNT(*) FROM t WHERE MATCH('gamma')")).toBe(100);
    // a rebuild nobody wrote into says nothing
    writeConfig(join(dir, 'v3.tsv'));
    const quiet = await runQuarry(['indexer', '--config', conf, 't', '--rotate']);
    expect(quiet.stderr).not.toMatch(/warning/);
  }, 60_000);
});
