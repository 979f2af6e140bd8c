// `quarry import` as a user runs it: the real CLI on real files and stdin, then the table read back
// through the embedded engine (CSV quoting, TSV, JSON Lines, gzip, bad lines, --skip-errors, Ctrl-C).
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { dataDirRows } from '../../helpers/data-dir-rows.js';
import { runQuarry, startQuarry } from '../../helpers/run-quarry.js';
import { ROOT } from '../../helpers/server-process.js';

const execFileAsync = promisify(execFile);

let dir = '';
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-import-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const data = () => join(dir, 'data');
const file = (name: string, content: string | Buffer) => {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
};

const rows = (sql: string) => dataDirRows(data(), sql);

describe('quarry import', () => {
  it('reads CSV with RFC 4180 quoting and creates the table by auto schema', async () => {
    const csv = file('products.csv', 'id,title,price,qty\r\n1,"Bag, red",19.5,3\r\n2,"a ""quoted"" word",7,10\r\n3,"two\r\nlines",0.25,\r\n');
    const r = await runQuarry(['import', '--table', 'products', '--data', data(), '--quiet', csv]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(await rows('DESCRIBE products')).toEqual([
      ['id', 'bigint', ''], ['title', 'text', 'indexed stored'], ['price', 'float', ''], ['qty', 'uint', ''],
    ]);
    expect(await rows('SELECT id, title, price, qty FROM products ORDER BY id ASC')).toEqual([
      [1, 'Bag, red', 19.5, 3], [2, 'a "quoted" word', 7, 10], [3, 'two\r\nlines', 0.25, 0],
    ]);
    expect(await rows("SELECT id FROM products WHERE MATCH('quoted')")).toEqual([[2]]);
  });

  it('reads TSV and headerless files with --columns, into an existing table', async () => {
    const tsv = file('a.tsv', 'id\ttitle\tyear\n5\tfirst one\t2001\n6\tsecond\t2002\n');
    expect((await runQuarry(['import', '--table', 'books', '--data', data(), '--quiet', tsv])).code).toBe(0);
    const more = file('more.txt', '7\tthird\t2003\n');
    const r = await runQuarry(['import', '--table', 'books', '--data', data(), '--format', 'tsv', '--no-header', '--columns', 'id,title,year', '--quiet', more]);
    expect(r.code).toBe(0);
    expect(await rows('SELECT id, title, year FROM books ORDER BY id ASC')).toEqual([[5, 'first one', 2001], [6, 'second', 2002], [7, 'third', 2003]]);
  });

  it('reads gzipped JSON Lines from stdin, ids optional and 64-bit ids exact', async () => {
    const lines = '{"id":9223372036854775807,"title":"max id","tags":[1,2]}\n\n{"title":"no id","tags":[3]}\n';
    const r = await runQuarry(['import', '--table', 'j', '--data', data(), '--quiet', '-'], { stdin: gzipSync(lines) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const db = await open(data(), { threads: 1 });
    const [res] = await db.sql("SELECT id, title, tags FROM j WHERE MATCH('max')");
    await db.close();
    expect(res?.kind === 'rows' && res.rows).toEqual([[9223372036854775807n, 'max id', [1n, 2n]]]);
    expect(await rows('SELECT COUNT(*) FROM j')).toEqual([[2]]);
  });

  it('stops at a bad line, reporting its number, and keeps what came before', async () => {
    const f = file('bad.jsonl', '{"id":1,"n":1,"t":"a"}\n{"id":2,"n":2,"t":"b"}\n{"id":3,"n":\n{"id":4,"n":4,"t":"d"}\n');
    const r = await runQuarry(['import', '--table', 'b', '--data', data(), '--quiet', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${f}: line 3: invalid JSON`);
    expect(r.stderr).toContain('stopped at');
    expect(await rows('SELECT id FROM b ORDER BY id ASC')).toEqual([[1], [2]]);
  });

  it('reports a value the table refuses by line number, in a later batch', async () => {
    const f = file('v.csv', 'id,title,n\n1,a,1\n2,b,2\n3,c,3\n4,d,oops\n5,e,5\n');
    const r = await runQuarry(['import', '--table', 'v', '--data', data(), '--batch', '2', '--quiet', f]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("line 5: column 'n': 'oops' is not a number");
    expect(await rows('SELECT id FROM v ORDER BY id ASC')).toEqual([[1], [2], [3]]);
  });

  it('--skip-errors goes on past bad lines and counts them', async () => {
    const f = file('s.csv', 'id,title,n\n1,a,1\n2,"unterminated,2\n');
    const g = file('s2.csv', 'id,title,n\n3,c,3\n3,dup,4\n4,d,4,extra\n5,"bad"x,5\n6,f,6\n');
    const r = await runQuarry(['import', '--table', 's', '--data', data(), '--skip-errors', f, g]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('line 3: unterminated quoted field');
    expect(r.stderr).toContain("line 3: duplicate id '3' (skipped)");
    expect(r.stderr).toContain('line 4: 4 fields where the header has 3');
    expect(r.stderr).toContain("line 5: unexpected 'x' after a closing quote");
    expect(r.stderr).toMatch(/3 documents into table s .*; 4 bad lines skipped/);
    expect(await rows('SELECT id, title FROM s ORDER BY id ASC')).toEqual([[1, 'a'], [3, 'c'], [6, 'f']]);
  });

  it('a batch refused whole (every id a duplicate) still ends with the summary and its exit code', async () => {
    // the build thread was terminated with nothing else holding the loop: the process ended with 13
    // (Node's unsettled top-level await) and no summary, with and without --skip-errors
    const f = file('dup.csv', 'id,title\n1,a\n'); // one row: its build still on the thread at close
    expect((await runQuarry(['import', '--table', 'd', '--data', data(), '--quiet', f])).code).toBe(0);
    for (let i = 0; i < 3; i++) {
      const skip = await runQuarry(['import', '--table', 'd', '--data', data(), '--skip-errors', f]);
      expect(skip.stderr).toMatch(/0 documents into table d .*; 1 bad lines skipped/);
      expect(skip.code).toBe(0);
      const stop = await runQuarry(['import', '--table', 'd', '--data', data(), '--quiet', f]);
      expect(stop.stderr).toContain("line 2: duplicate id '1'");
      expect(stop.code).toBe(1);
    }
    expect(await rows('SELECT id, title FROM d ORDER BY id ASC')).toEqual([[1, 'a']]);
  });

  it('prints a plain progress line when not on a terminal, none with --quiet', async () => {
    const f = file('p.jsonl', Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: i + 1, t: `w${i}` })).join('\n'));
    const r = await runQuarry(['import', '--table', 'p', '--data', data(), '--batch', '500', f], { env: { QUARRY_PROGRESS_MS: '1' } });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^import p \d+% [\d,]+ docs [\d.]+ (B|KiB)\/[\d.]+ KiB [\d,]+ docs\/s/m);
    expect(r.stderr).toContain('3,000 documents into table p');
    const q = await runQuarry(['import', '--table', 'p2', '--data', data(), '--quiet', f], { env: { QUARRY_PROGRESS_MS: '1' } });
    expect(q.stderr).toBe('');
  });

  it('draws a progress bar redrawn in place on a terminal (a pseudo-terminal from script(1))', async () => {
    const f = file('t.jsonl', Array.from({ length: 60_000 }, (_, i) => JSON.stringify({ id: i + 1, t: `word${i % 500} more text` })).join('\n'));
    const cmd = `${process.execPath} ${join(ROOT, 'bin/quarry.js')} import --table tt --data ${data()} --batch 2000 ${f}`;
    const { stdout } = await execFileAsync('script', ['-qec', cmd, '/dev/null'], { maxBuffer: 16 << 20 });
    // the bar: carriage return, label, [###---], percent, documents, bytes of total, rate, ETA; cleared to the line's end
    expect(stdout).toMatch(/\rimport tt \[#*-*\] \d+% [\d,]+ docs [\d.]+ (B|KiB|MiB)\/[\d.]+ MiB [\d,]+ docs\/s( ETA \d+:\d{2})?\x1b\[K/);
    expect(stdout).toContain('60,000 documents into table tt');
    expect(await rows('SELECT COUNT(*) FROM tt')).toEqual([[60_000]]);
  }, 120_000);

  it('Ctrl-C stops reading and reports how far it got; what was imported stays', async () => {
    const n = 400_000;
    const f = file('big.jsonl', Array.from({ length: n }, (_, i) => `{"id":${i + 1},"t":"word${i % 1000} other"}`).join('\n'));
    const run = startQuarry(['import', '--table', 'big', '--data', data(), '--batch', '1000', f], { env: { QUARRY_PROGRESS_MS: '1' } });
    // interrupt once the first batches are in
    while (!/[1-9][\d,]* docs/.test(run.output().stderr)) await new Promise((r) => setTimeout(r, 20));
    run.proc.kill('SIGINT');
    const r = await run.done;
    expect(r.code).toBe(130);
    const m = /interrupted after .*big\.jsonl line (\d+): ([\d,]+) documents imported/.exec(r.stderr);
    expect(m).not.toBeNull();
    const imported = Number(m![2]!.replace(/,/g, ''));
    expect(imported).toBeGreaterThan(0);
    expect(imported).toBeLessThan(n);
    expect(imported).toBe(Number(m![1]));
    expect(await rows('SELECT COUNT(*) FROM big')).toEqual([[imported]]);
  }, 120_000);

  it('refuses usage errors, an unreachable server and a data directory held by a running server', async () => {
    const r = await runQuarry(['import', '--data', data(), 'x.csv']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('import needs --table NAME');
    const { freePort } = await import('../../helpers/mariadb-server.js');
    const nobody = `http://127.0.0.1:${await freePort()}`;
    const down = await runQuarry(['import', '--table', 'x', '--url', nobody, file('d.jsonl', '{"id":1}\n')]);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain(`quarry import: cannot reach ${nobody}: connect ECONNREFUSED`);
    expect(down.stderr).toContain('documents imported into table x before it (acknowledged: they stay)');
    const { spawnQuarry } = await import('../../helpers/spawn-quarry.js');
    const { ROOT } = await import('../../helpers/server-process.js');
    const server = await spawnQuarry(ROOT, ['--data', data()]);
    try {
      const f = file('one.jsonl', '{"id":1,"t":"a"}\n');
      const held = await runQuarry(['import', '--table', 'x', '--data', data(), f]);
      expect(held.code).toBe(1);
      expect(held.stderr).toContain(`data directory ${data()} is in use by a running server (pid ${server.proc.pid})`);
      // through the server instead
      const viaUrl = await runQuarry(['import', '--table', 'x', '--url', `http://127.0.0.1:${server.http}`, '--quiet', f]);
      expect(viaUrl.stderr).toBe('');
      expect(viaUrl.code).toBe(0);
      const res = await fetch(`http://127.0.0.1:${server.http}/sql?mode=raw`, { method: 'POST', body: 'query=' + encodeURIComponent('SELECT id, t FROM x') });
      expect(((await res.json()) as { data: unknown[] }[])[0]!.data).toEqual([{ id: 1, t: 'a' }]);
    } finally {
      server.proc.kill('SIGTERM');
      await server.exited;
    }
  }, 60_000);
});
