import mysql from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { RawClient } from './raw-client.js';
import { startFixture } from './real-engine.js';

describe('startMysqlListener', () => {
  it('counts connections and closes idle ones on close()', async () => {
    const fx = await startFixture();
    try {
      const a = await RawClient.login(fx.port);
      await a.read();
      const b = await mysql.createConnection({ host: '127.0.0.1', port: fx.port, user: 'anyone', password: 'whatever' });
      expect(fx.listener.connections).toBe(2);
      const ended = new Promise<void>((resolve) => b.on('end', () => resolve()));
      b.on('error', () => undefined);
      await fx.listener.close();
      expect(await a.read()).toBeUndefined();
      await ended;
      expect(fx.listener.connections).toBe(0);
    } finally {
      await fx.stop();
    }
  });

  it('gives a connection one id: the handshake\'s, CONNECTION_ID() and SHOW PROCESSLIST\'s', async () => {
    const fx = await startFixture();
    const conns: mysql.Connection[] = [];
    try {
      for (let i = 0; i < 2; i++) conns.push(await mysql.createConnection({ host: '127.0.0.1', port: fx.port, user: 'root' }));
      const [a, b] = conns as [mysql.Connection, mysql.Connection];
      expect(a.threadId).not.toBe(b.threadId);
      for (const c of conns) {
        const [rows] = await c.query('SELECT CONNECTION_ID() AS id');
        expect(rows).toEqual([{ id: c.threadId }]);
      }
      const [list] = await a.query('SHOW PROCESSLIST');
      expect((list as { Id: string }[]).map((r) => Number(r.Id))).toEqual(expect.arrayContaining([a.threadId, b.threadId]));
    } finally {
      for (const c of conns) await c.end();
      await fx.stop();
    }
  });

  it('drops a client that stays idle past the idle timeout', async () => {
    const fx = await startFixture({ idleTimeoutMs: 200 });
    try {
      const a = await RawClient.login(fx.port);
      await a.read();
      expect(await a.read()).toBeUndefined(); // closed by the server, no packet
    } finally {
      await fx.stop();
    }
  });
});
