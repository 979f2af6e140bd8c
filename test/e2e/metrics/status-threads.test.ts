// SHOW STATUS, SHOW THREADS and SHOW PROCESSLIST over real mysql2 connections to the real server.
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startQuarry, type QuarryProcess } from '../mysql-server.js';

let q: QuarryProcess;
beforeAll(async () => { q = await startQuarry(); }, 60_000);
afterAll(async () => { await q?.stop(); });

const connect = () => mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort });

describe('status over the MySQL protocol', () => {
  it('SHOW THREADS lists every open connection with what it runs now; PROCESSLIST the same in MySQL\'s columns', async () => {
    const idle = await connect();
    const me = await connect();
    try {
      await idle.query('SHOW TABLES');
      const [threads] = await me.query('SHOW THREADS');
      const list = threads as Record<string, string>[];
      // searchd's columns without --cpustats (no "CPU activity"); TID, ConnID and Jobs done are numbers
      expect(Object.keys(list[0]!)).toEqual(['TID', 'Name', 'Proto', 'State', 'Connection from', 'ConnID', 'This/prev job time', 'Jobs done', 'Thread status', 'Info']);
      expect(typeof list[0]!.TID).toBe('number');
      expect(typeof list[0]!['Jobs done']).toBe('number');
      const mine = list.filter((r) => r.Info === 'SHOW THREADS');
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ Proto: 'mysql', State: 'query', 'Thread status': 'working' });
      const idleRows = list.filter((r) => r.Proto === 'mysql' && r['Thread status'] === 'idling');
      expect(idleRows.length).toBeGreaterThanOrEqual(1);
      // searchd's %t timespan with " (prev)" while idle
      expect(idleRows.some((r) => Number(r['Jobs done']) >= 1 && /^\d+(us|ms|s) \(prev\)$/.test(r['This/prev job time']!))).toBe(true);
      expect(mine[0]!['This/prev job time']).toMatch(/^\d+(us|ms|s)$/);
      const [procs] = await me.query('SHOW PROCESSLIST');
      const p = procs as Record<string, string>[];
      expect(p.filter((r) => r.Command === 'Query').map((r) => r.Info)).toEqual(['SHOW PROCESSLIST']);
      expect(p.filter((r) => r.Command === 'Sleep').length).toBeGreaterThanOrEqual(1);
      // without FULL, MySQL's Info is the statement's first 100 characters; FULL gives all of it
      const long = `SHOW PROCESSLIST /* ${'x'.repeat(120)} */`;
      const [cut] = await me.query(long);
      expect((cut as Record<string, string>[]).filter((r) => r.Command === 'Query').map((r) => r.Info)).toEqual([long.slice(0, 100)]);
      const fullText = long.replace('SHOW', 'SHOW FULL');
      const [whole] = await me.query(fullText);
      expect((whole as Record<string, string>[]).filter((r) => r.Command === 'Query').map((r) => r.Info)).toEqual([fullText]);
    } finally {
      await idle.end();
      await me.end();
    }
  });

  it('SHOW STATUS counts connections and commands across clients', async () => {
    const c = await connect();
    try {
      const status = async () => new Map(((await c.query('SHOW STATUS'))[0] as { Counter: string; Value: string }[]).map((r) => [r.Counter, r.Value]));
      const before = await status();
      const other = await connect();
      await other.query('CREATE TABLE s (title text)');
      await other.query("INSERT INTO s (id, title) VALUES (1, 'x')");
      await other.query("SELECT * FROM s WHERE MATCH('x')");
      await other.end();
      const after = await status();
      const delta = (k: string) => Number(after.get(k)) - Number(before.get(k));
      expect(delta('connections')).toBe(1);
      expect(delta('command_insert')).toBe(1);
      expect(delta('command_search')).toBe(1);
      expect(delta('command_status')).toBe(1);
      expect(Number(after.get('uptime'))).toBeGreaterThanOrEqual(0);
      expect(after.get('maxed_out')).toBe('0');
    } finally {
      await c.end();
    }
  });
});
