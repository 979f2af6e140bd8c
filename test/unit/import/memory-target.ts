// An ImportTarget for ImportRun's unit tests: the table is (id, title, body) and the rows it is sent
// are kept in memory by id (the loading itself is tested elsewhere); `prime` is the target's optional hook.
import type { ImportTarget, RowBatch } from '../../../src/import/target.js';

export function memoryTarget(loaded: string[], prime?: ImportTarget['prime']): ImportTarget {
  return {
    where: 'test',
    sql: async () => undefined,
    describe: async () => [{ name: 'id', type: 'bigint' }, { name: 'title', type: 'text' }, { name: 'body', type: 'text' }],
    tid: async () => '0',
    bulk: async () => ({ ok: true }),
    loadRows: async (_t: string, batch: RowBatch) => {
      for (const r of batch.rows) loaded.push(String((r[0] as { v: unknown }).v));
      return { ok: true };
    },
    ...(prime ? { prime } : {}),
    close: async () => {},
  };
}
