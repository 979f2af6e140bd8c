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
