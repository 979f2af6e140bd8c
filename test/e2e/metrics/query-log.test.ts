// searchd log / query_log through a real server: Manticore's sphinxql lines, query_log_min_msec,
// reopening on SIGUSR1 after the file was moved away (what logrotate does).
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnQuarry, type SpawnedQuarry } from '../../helpers/spawn-quarry.js';
import { ROOT } from '../../helpers/server-process.js';

let dir = '';
let q: SpawnedQuarry | undefined;
afterEach(async () => {
  if (q) { q.proc.kill('SIGTERM'); await q.exited; q = undefined; }
  rmSync(dir, { recursive: true, force: true });
});

async function serve(searchd: string): Promise<SpawnedQuarry> {
  dir = mkdtempSync(join(tmpdir(), 'quarry-qlog-'));
  const cfg = join(dir, 'quarry.conf');
  writeFileSync(cfg, `searchd {\n${searchd.replaceAll('DIR', dir)}\n}\n`);
  q = await spawnQuarry(ROOT, ['--config', cfg, '--data', join(dir, 'data')]);
  return q;
}

async function sql(http: number, query: string): Promise<void> {
  await fetch(`http://127.0.0.1:${http}/sql?mode=raw`, { method: 'POST', body: query });
}

const waitFor = async (f: () => boolean) => {
  for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 50));
};

describe('query_log', () => {
  it('writes SELECT and UPDATE in the sphinxql format with time and found rows, errors on the same line; log gets server lines', async () => {
    const s = await serve('  log = DIR/searchd.log\n  query_log = DIR/query.log\n  query_log_format = sphinxql');
    await sql(s.http, 'CREATE TABLE t (title text, n int)');
    await sql(s.http, "INSERT INTO t (id, title, n) VALUES (1, 'apple pie', 1), (2, 'apple\\njuice', 2)");
    await sql(s.http, "SELECT * FROM t WHERE MATCH('apple')");
    await sql(s.http, 'UPDATE t SET n = 5 WHERE id = 1');
    await sql(s.http, 'SELECT * FROM nope');
    const lines = readFileSync(join(dir, 'query.log'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    const stamp = String.raw`[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}\.\d{3} \d{4}`;
    const conn = String.raw`conn \d+ \(127\.0\.0\.1:\d+\)`; // HTTP clients too, as Manticore names them
    expect(lines[0]).toMatch(new RegExp(String.raw`^/\* ${stamp} ${conn} real \d+\.\d{3} wall \d+\.\d{3} found 2 \*/ SELECT \* FROM t WHERE MATCH\('apple'\);$`));
    expect(lines[1]).toMatch(new RegExp(String.raw`^/\* ${stamp} ${conn} real \d+\.\d{3} \*/ UPDATE t SET n = 5 WHERE id = 1;$`));
    expect(lines[2]).toMatch(/found 0 \*\/ SELECT \* FROM nope; \/\* error=unknown local table.* \*\/$/);
    const log = readFileSync(join(dir, 'searchd.log'), 'utf8');
    expect(log).toMatch(/^\[[A-Z][a-z]{2} .+\] \[\d+\] quarry listening http=/);
  });

  it('query_log_format = plain: one line per successful search, as Manticore writes it; nothing else', async () => {
    const s = await serve('  query_log = DIR/query.log\n  query_log_format = plain');
    await sql(s.http, 'CREATE TABLE t (title text, n int, g int)');
    await sql(s.http, "INSERT INTO t (id, title, n, g) VALUES (1, 'apple pie', 1, 7), (2, 'apple juice', 2, 7), (3, 'pear', 3, 8)");
    await sql(s.http, "SELECT * FROM t WHERE MATCH('apple\n   pie | juice') AND n > 0 AND g = 7 LIMIT 5, 10");
    await sql(s.http, 'SELECT g, COUNT(*) FROM t GROUP BY g');
    await fetch(`http://127.0.0.1:${s.http}/search`, { method: 'POST', body: '{"table":"t","query":{"bool":{"must":[{"match":{"*":"apple"}},{"range":{"n":{"gte":2}}}]}},"limit":3}' });
    await sql(s.http, 'SELECT * FROM nope');
    await sql(s.http, 'UPDATE t SET n = 5 WHERE id = 1');
    await sql(s.http, 'SELECT 1');
    const lines = readFileSync(join(dir, 'query.log'), 'utf8').trimEnd().split('\n');
    const stamp = String.raw`\[[A-Z][a-z]{2} [A-Z][a-z]{2} \d{2} \d{2}:\d{2}:\d{2}\.\d{3} \d{4}\] \d+\.\d{3} sec \d+\.\d{3} sec`;
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(new RegExp(String.raw`^${stamp} \[ext2/2/ext 2 \(5,10\)\] \[t\] apple pie \| juice$`));
    expect(lines[1]).toMatch(new RegExp(String.raw`^${stamp} \[ext2/0/ext 2 \(0,20\) @g\] \[t\]$`));
    expect(lines[2]).toMatch(new RegExp(String.raw`^${stamp} \[ext2/1/ext 1 \(0,3\)\] \[t\] \{"table":"t",.*"limit":3\}$`));
    await sql(s.http, 'SELECT * FROM t');
    expect(readFileSync(join(dir, 'query.log'), 'utf8').trimEnd().split('\n')).toHaveLength(4);
  });

  it('query_log_format other than sphinxql and plain is refused', async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-qlog-'));
    const cfg = join(dir, 'quarry.conf');
    writeFileSync(cfg, `searchd {\n  query_log = ${dir}/q.log\n  query_log_format = json\n}\n`);
    await expect(spawnQuarry(ROOT, ['--config', cfg, '--data', join(dir, 'data')])).rejects.toThrow(/query_log_format = json is not supported \(sphinxql and plain are\)/);
  });

  it('query_log_min_msec keeps only slower statements; SIGUSR1 reopens the files', async () => {
    const s = await serve('  query_log = DIR/query.log\n  query_log_min_msec = 60000');
    await sql(s.http, 'CREATE TABLE t (title text)');
    await sql(s.http, 'SELECT * FROM t');
    expect(readFileSync(join(dir, 'query.log'), 'utf8')).toBe('');
    q!.proc.kill('SIGTERM');
    await q!.exited;
    const s2 = await spawnQuarry(ROOT, ['--config', join(dir, 'quarry.conf').replace('quarry.conf', 'q2.conf'), '--data', join(dir, 'data')]).catch(() => undefined);
    expect(s2).toBeUndefined(); // a missing config file is an error, not a silent default
    writeFileSync(join(dir, 'q2.conf'), `searchd {\n  query_log = ${dir}/query.log\n}\n`);
    q = await spawnQuarry(ROOT, ['--config', join(dir, 'q2.conf'), '--data', join(dir, 'data')]);
    await sql(q.http, 'SELECT * FROM t');
    renameSync(join(dir, 'query.log'), join(dir, 'query.log.1'));
    q.proc.kill('SIGUSR1');
    await waitFor(() => existsSync(join(dir, 'query.log')));
    await sql(q.http, "SELECT * FROM t WHERE MATCH('x')");
    expect(readFileSync(join(dir, 'query.log.1'), 'utf8')).toMatch(/SELECT \* FROM t;\n$/);
    expect(readFileSync(join(dir, 'query.log'), 'utf8')).toMatch(/^\/\* .* \*\/ SELECT \* FROM t WHERE MATCH\('x'\);\n$/);
  });

  it('logs JSON searches with their body, and the statements query_log_commands names; counts command_json', async () => {
    const s = await serve('  query_log = DIR/query.log\n  query_log_commands = insert, delete, bulk');
    const post = (path: string, body: string, type = 'application/json') =>
      fetch(`http://127.0.0.1:${s.http}${path}`, { method: 'POST', body, headers: { 'content-type': type } });
    await sql(s.http, 'CREATE TABLE t (title text, n int)');
    await post('/insert', '{"table": "t", "id": 1, "doc": {"title": "apple  pie", "n": 1}}');
    await post('/bulk', '{"insert": {"table": "t", "id": 2, "doc": {"title": "apple"}}}\n', 'application/x-ndjson');
    await post('/search', '{\n  "table": "t",\n  "query": { "match": { "*": "apple" } }\n}');
    await post('/search', '{"table": "nope", "query": {"match_all": {}}}');
    await post('/update', '{"table": "t", "id": 1, "doc": {"n": 2}}');
    await sql(s.http, 'DELETE FROM t WHERE id = 2');
    await sql(s.http, 'SELEKT 1');
    const lines = readFileSync(join(dir, 'query.log'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => l.replace(/^\/\* [^*]*\*\/ /, ''))).toEqual([
      ' /*{"table": "t", "id": 1, "doc": {"title": "apple  pie", "n": 1}} */',
      ' /*{"insert": {"table": "t", "id": 2, "doc": {"title": "apple"}}} */',
      ' /*{ "table": "t", "query": { "match": { "*": "apple" } } } */',
      ' /*{"table": "nope", "query": {"match_all": {}}} */ /* error=unknown local table(s) \'nope\' in search request */',
      ' /*{"table": "t", "id": 1, "doc": {"n": 2}} */',
      'DELETE FROM t WHERE id = 2;',
      'SELEKT 1 # error=P02: syntax error, unexpected identifier near \'SELEKT 1\'',
    ]);
    expect(lines[2]).toMatch(/^\/\* .* conn \d+ \(127\.0\.0\.1:\d+\) real \d+\.\d{3} wall \d+\.\d{3} found 2 \*\/  \/\*\{/);
    const status = await (await fetch(`http://127.0.0.1:${s.http}/sql?mode=raw`, { method: 'POST', body: "SHOW STATUS LIKE 'command_%'" })).json() as { data: { Counter: string; Value: string }[] }[];
    const counter = (n: string) => status[0]!.data.find((r) => r.Counter === n)?.Value;
    expect(counter('command_json')).toBe('5');
    expect(counter('command_search')).toBe('2');
    expect(counter('command_insert')).toBe('1');
    expect(counter('command_update')).toBe('1');
  });

  it('SET GLOBAL query_log_format / query_log_min_msec change the next lines (were checked and dropped)', async () => {
    const s = await serve('  query_log = DIR/query.log\n  query_log_format = plain');
    await sql(s.http, 'CREATE TABLE t (title text)');
    await sql(s.http, "INSERT INTO t (id, title) VALUES (1, 'apple')");
    await sql(s.http, "SELECT * FROM t WHERE MATCH('apple')");
    await sql(s.http, 'SET GLOBAL query_log_format = sphinxql');
    await sql(s.http, "SELECT id FROM t WHERE MATCH('apple')");
    await sql(s.http, 'SET GLOBAL query_log_min_msec = 60000');
    await sql(s.http, 'SELECT * FROM t');
    await sql(s.http, 'SET GLOBAL query_log_min_msec = 0');
    await sql(s.http, "SET GLOBAL query_log_format = 'plain'");
    await sql(s.http, 'SELECT title FROM t');
    const lines = readFileSync(join(dir, 'query.log'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^\[.*\] \d+\.\d{3} sec .*\[t\] apple$/);
    expect(lines[1]).toMatch(/^\/\* .* found 1 \*\/ SELECT id FROM t WHERE MATCH\('apple'\);$/);
    expect(lines[2]).toMatch(/^\[.*\] \d+\.\d{3} sec .*\[t\]$/);
    // SHOW VARIABLES reads them back from the server, in searchd's place after collation_connection
    await sql(s.http, 'SET GLOBAL log_level = debug');
    const res = await fetch(`http://127.0.0.1:${s.http}/sql?mode=raw`, { method: 'POST', body: 'SHOW VARIABLES' });
    const vars = ((await res.json()) as { data: { Variable_name: string; Value: string }[] }[])[0]!.data.map((r) => [r.Variable_name, r.Value]);
    const at = vars.findIndex((r) => r[0] === 'collation_connection');
    expect(vars.slice(at + 1, at + 3)).toEqual([['query_log_format', 'plain'], ['log_level', 'debug']]);
  });

  it('refuses an unknown query_log_commands name', async () => {
    await expect(serve('  query_log = DIR/q.log\n  query_log_commands = insert, inserts')).rejects.toThrow(/unknown statement name\(s\) inserts/);
  });
});
