/** Test fixture: a real engine in a temporary directory behind a MySQL listener on a free port. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEngine, type Engine } from '../../../src/engine/index.js';
import { startMysqlListener, type MysqlListener, type MysqlListenerOptions } from '../../../src/mysql/mysql-listener.js';

export interface MysqlFixture {
  engine: Engine;
  listener: MysqlListener;
  port: number;
  stop(): Promise<void>;
}

export async function startFixture(opts: Partial<MysqlListenerOptions> = {}): Promise<MysqlFixture> {
  const dir = await mkdtemp(join(tmpdir(), 'quarry-mysql-'));
  const engine = await openEngine({ dataDir: dir });
  const listener = await startMysqlListener(engine, { host: '127.0.0.1', port: 0, ...opts });
  return {
    engine, listener, port: listener.port,
    async stop() {
      await listener.close();
      await engine.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
