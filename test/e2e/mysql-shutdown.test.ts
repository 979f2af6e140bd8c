// SIGTERM closes the MySQL listener with clients still connected, and the server exits 0.
import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { startQuarry } from './mysql-server.js';

describe('shutdown', () => {
  it('ends connected MySQL clients and exits cleanly on SIGTERM', async () => {
    const q = await startQuarry();
    const conn = await mysql.createConnection({ host: '127.0.0.1', port: q.mysqlPort, user: 'root' });
    conn.on('error', () => undefined);
    await conn.query('SELECT 1');
    const ended = new Promise<void>((resolve) => conn.on('end', () => resolve()));
    const exit = new Promise<number | null>((resolve) => q.proc.once('exit', (code) => resolve(code)));
    q.proc.kill('SIGTERM');
    await ended;
    expect(await exit).toBe(0);
    await q.stop();
  });
});
