// SHOW PLAN / SHOW PROFILE after SET profiling=1: searchd answers with the last query's plan tree and
// stage timings (manual, Profiling); quarry records neither and must refuse by name with the reason,
// over a real mysql2 connection (the session that set profiling) and over HTTP /cli and /sql?mode=raw.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry, type QuarryProcess } from './mysql-server.js';

let q: QuarryProcess;
beforeAll(async () => {
  q = await startQuarry();
  const c = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort });
  await c.query('CREATE TABLE hn (comment_text text)');
  await c.query("INSERT INTO hn (id, comment_text) VALUES (1, 'dog story'), (2, 'cat story')");
  await c.end();
}, 60_000);
afterAll(async () => { await q?.stop(); });

const post = async (path: string, body: string) => {
  const res = await fetch(`http://127.0.0.1:${q.httpPort}${path}`, { method: 'POST', body });
  return { status: res.status, text: await res.text() };
};

describe('SHOW PLAN and SHOW PROFILE', () => {
  it('refuse by name after a profiled query over MySQL, never an empty answer', async () => {
    const c = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort });
    try {
      await c.query('SET profiling=1');
      const [hits] = await c.query("SELECT id FROM hn WHERE MATCH('dog|cat') ORDER BY id ASC");
      expect(hits).toEqual([{ id: 1 }, { id: 2 }]);
      for (const what of ['PLAN', 'PROFILE']) {
        await expect(c.query(`SHOW ${what}`)).rejects.toMatchObject({
          errno: 1064,
          sqlMessage: `SHOW ${what} is not supported: quarry records no query ${what.toLowerCase()} (SET profiling=1 is accepted and records nothing)`,
        });
      }
      // the connection stays usable
      const [again] = await c.query("SELECT id FROM hn WHERE MATCH('dog')");
      expect(again).toEqual([{ id: 1 }]);
    } finally {
      await c.end();
    }
  });

  it('refuse the same over HTTP /cli and /sql?mode=raw', async () => {
    const cli = await post('/cli', "SET profiling=1; SELECT id FROM hn WHERE MATCH('dog'); SHOW PLAN");
    expect(cli.status).toBe(500);
    expect(JSON.parse(cli.text).error).toContain('SHOW PLAN is not supported: quarry records no query plan');
    const raw = await post('/sql?mode=raw', 'SHOW PROFILE');
    expect(raw.text).toContain('SHOW PROFILE is not supported: quarry records no query profile');
  });
});
