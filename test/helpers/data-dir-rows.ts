// Rows of a SELECT on a data directory no server holds, through the embedded engine: what the import and
// indexer tests read back after the CLI ran.
import { open } from '../../src/index.js';

/** Cells as plain JSON-able values: 64-bit integers and MVA values as numbers. */
export async function dataDirRows(dataDir: string, sql: string): Promise<unknown[][]> {
  const db = await open(dataDir, { threads: 1 });
  try {
    const [r] = await db.sql(sql);
    if (r?.kind !== 'rows') throw new Error(JSON.stringify(r));
    return r.rows.map((row) => row.map((c) => (typeof c === 'bigint' ? Number(c) : Array.isArray(c) ? c.map(Number) : c)));
  } finally {
    await db.close();
  }
}
