/**
 * quarry as a library: open a data directory and run SphinxQL in process, with the same result model
 * the servers render. The embedded mode SQLite users expect.
 *
 * @example
 * import { open } from 'quarry';
 * const db = await open('./data');
 * await db.sql("CREATE TABLE docs (title text, price float)");
 * await db.sql("INSERT INTO docs (id, title, price) VALUES (1, 'hello world', 9.5)");
 * const [res] = await db.sql("SELECT id, weight() FROM docs WHERE MATCH('hello')");
 * await db.close();
 */
import { newSession, openEngine, type Engine, type Result, type Session } from './engine/index.js';

export type { Result, RowsResult, OkResult, ErrorResult, ResultColumn, Cell, CellKind, SearchMeta } from './engine/index.js';
export { startServer } from './server/server.js';
import { autoOptimizeOf, loadConfig } from './server/server.js';

export interface Database {
  /** Runs one or more `;`-separated statements; one Result per statement (errors are Results too). */
  sql(text: string): Promise<Result[]>;
  /** The engine behind it, for sessions of your own (`engine.execute(sql, newSession())`). */
  readonly engine: Engine;
  close(): Promise<void>;
}

/** `threads`: worker threads for queries over big tables (default one per core; 1 = none). */
/** `configPath`: a Manticore config whose searchd section's auto_optimize applies (0, 1 or 2). */
export async function open(dataDir: string, opts: { configPath?: string; threads?: number } = {}): Promise<Database> {
  const autoOptimize = opts.configPath ? autoOptimizeOf(await loadConfig(opts.configPath)) : undefined;
  const engine = await openEngine({ dataDir, ...opts, autoOptimize });
  const session: Session = newSession();
  return {
    engine,
    sql: (text) => engine.execute(text, session),
    close: () => engine.close(),
  };
}

export { newSession, openEngine };
