/** A real engine on a fresh temporary data directory per test, and a shortcut for SQL returning rows. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { newSession, openEngine, type Engine, type Result, type RowsResult } from '../../src/engine/index.js';

export interface TempEngine {
  /** The engine of the running test. */
  readonly engine: Engine;
  /** The test's own temporary directory (the data directory is `dir/data`). */
  readonly dir: string;
  /** Runs SQL on one session; the last statement must return rows. */
  rows(sql: string): Promise<unknown[][]>;
  /** Runs SQL on the same session; returns every result. */
  exec(sql: string): ReturnType<Engine['execute']>;
  /** Runs SQL on a new session (what one statement of a new client gets); returns the last result. */
  last(sql: string): Promise<Result>;
}

/** Registers beforeEach/afterEach hooks; `setup` runs after opening (create tables, insert). */
export function useTempEngine(prefix: string, setup?: (t: TempEngine) => Promise<void>): TempEngine {
  let engine: Engine | undefined;
  let dir = '';
  const session = newSession();
  const t: TempEngine = {
    get engine() { return engine!; },
    get dir() { return dir; },
    exec: (sql) => engine!.execute(sql, session),
    async last(sql) {
      const out = await engine!.execute(sql, newSession());
      return out[out.length - 1]!;
    },
    async rows(sql) {
      const out = await engine!.execute(sql, session);
      const r = out[out.length - 1] as RowsResult;
      if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
      return r.rows;
    },
  };
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), `quarry-${prefix}-`));
    engine = await openEngine({ dataDir: join(dir, 'data') });
    if (setup) await setup(t);
  });
  afterEach(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return t;
}
