// The mysql source's ranged queries (src/indexer/mysql-source.ts): steps made one at a time, so a sparse
// id range starts at once, and the share of the range read drives the indexer's progress; against a real MariaDB (Debian's mariadb-server) when installed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MysqlSource, rangeSteps } from '../../../src/indexer/mysql-source.js';
import { ConfigSection } from '../../../src/server/config-parser.js';
import type { SourceEvent } from '../../../src/indexer/source.js';
import { mariadbAvailable, startMariadb, type MariaDb } from '../../helpers/mariadb-server.js';

const HUGE = 1n << 62n;

describe('rangeSteps', () => {
  it('covers min..max in steps, the last one reaching past max', () => {
    expect([...rangeSteps(1n, 2500n, 1000n)]).toEqual([[1n, 1000n], [1001n, 2000n], [2001n, 3000n]]);
    expect([...rangeSteps(5n, 5n, 1024n)]).toEqual([[5n, 1028n]]);
    expect([...rangeSteps(10n, 9n, 1n)]).toEqual([]);
  });

  it('gives the first steps of a range of 2^62 ids at once, without building the rest', () => {
    const it = rangeSteps(1n, HUGE, 1024n);
    expect([it.next().value, it.next().value]).toEqual([[1n, 1024n], [1025n, 2048n]]);
  });
});

describe.skipIf(!mariadbAvailable())('MysqlSource over a sparse id range', () => {
  let dir = '';
  let db: MariaDb;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-mysql-source-'));
    db = await startMariadb(join(dir, 'mariadb'));
    const c = await db.connect();
    await c.query('CREATE DATABASE shop');
    await c.query('CREATE TABLE shop.items (id BIGINT UNSIGNED PRIMARY KEY, title VARCHAR(100))');
    await c.query(`INSERT INTO shop.items VALUES (1, 'first'), (2, 'second'), (${HUGE}, 'far away')`);
    await c.query('CREATE TABLE shop.dense (id BIGINT UNSIGNED PRIMARY KEY, title VARCHAR(100))');
    await c.query("INSERT INTO shop.dense SELECT seq, CONCAT('row ', seq) FROM shop.seq_1_to_3000");
    await c.end();
  }, 120_000);
  afterAll(async () => {
    await db?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads the first step\'s rows at once (the source once died building every step\'s query first)', async () => {
    const s = new ConfigSection();
    for (const [k, v] of [['type', 'mysql'], ['sql_host', '127.0.0.1'], ['sql_port', String(db.port)], ['sql_user', 'root'],
      ['sql_db', 'shop'], ['sql_query_range', 'SELECT MIN(id), MAX(id) FROM items'],
      ['sql_query', 'SELECT id, title FROM items WHERE id BETWEEN $start AND $end']]) s.add(k, v);
    const events = new MysqlSource(s).events();
    const first: SourceEvent[] = [];
    for await (const e of events) {
      first.push(e);
      if (e.kind === 'schema') break; // sent with the first row; the generator's return() closes the connection
    }
    expect(first).toEqual([{ kind: 'schema', columns: [{ name: 'title', type: 'field' }] }]);
  }, 20_000);

  it('tells the share of its id range read, step by step, for the indexer\'s progress bar and ETA', async () => {
    const s = new ConfigSection();
    for (const [k, v] of [['type', 'mysql'], ['sql_host', '127.0.0.1'], ['sql_port', String(db.port)], ['sql_user', 'root'],
      ['sql_db', 'shop'], ['sql_query_range', 'SELECT MIN(id), MAX(id) FROM dense'], ['sql_range_step', '1000'],
      ['sql_query', 'SELECT id, title FROM dense WHERE id BETWEEN $start AND $end']]) s.add(k, v);
    const source = new MysqlSource(s);
    const seen: { rows: number; done: number | undefined }[] = [];
    let rows = 0;
    for await (const e of source.events()) {
      if (e.kind !== 'rows') continue;
      rows += e.rows.length;
      seen.push({ rows, done: source.done() });
    }
    // 1000 rows an event: the share of the ids up to the last row read (not only the steps finished)
    expect(seen).toEqual([{ rows: 1000, done: 0.3333 }, { rows: 2000, done: 0.6666 }, { rows: 3000, done: 1 }]);
    expect(source.done()).toBe(1);
  }, 20_000);
});
