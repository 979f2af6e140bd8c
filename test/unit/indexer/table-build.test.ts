// The swap of `quarry indexer --rotate` (table-build.ts) has no window: a write that lands on the live
// table at the last instant before the ATTACH is still reported, because the tid it compares is the one
// the ATTACH itself read, under the same lock as the swap (before, it was read by a separate statement).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../src/server/config-parser.js';
import { plainTables } from '../../../src/indexer/indexer-command.js';
import { buildTable } from '../../../src/indexer/table-build.js';
import { EngineTarget } from '../../../src/import/engine-target.js';
import { Progress } from '../../../src/import/progress.js';
import type { ImportTarget } from '../../../src/import/target.js';

let dir = '';
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'quarry-table-build-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** `target` with `before` run just ahead of its ATTACH statement (a write racing the swap). */
function racing(target: ImportTarget, before: () => Promise<unknown>): ImportTarget {
  return new Proxy(target, {
    get(t, key) {
      if (key !== 'sql') {
        const v = Reflect.get(t, key, t) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
      }
      return async (statement: string) => {
        if (/^ATTACH /i.test(statement)) await before();
        return t.sql(statement);
      };
    },
  });
}

describe('buildTable swap', () => {
  it('reports a write that lands between the last check and the ATTACH; a quiet rebuild says nothing', async () => {
    writeFileSync(join(dir, 'v.tsv'), '1\tone\n2\ttwo\n');
    const config = parseConfig(`source s {\n  type = tsvpipe\n  tsvpipe_command = cat ${join(dir, 'v.tsv')}\n  tsvpipe_field = title\n}\n`
      + 'table t {\n  type = plain\n  source = s\n}\n');
    const t = plainTables(config).get('t')!;
    const target = await EngineTarget.open(join(dir, 'data'));
    try {
      const log: string[] = [];
      const opts = { batch: 1000, skipErrors: false, log: (l: string) => log.push(l) };
      await buildTable(target, 't', t.section, t.sources, new Progress('quiet', 'test'), opts);
      await buildTable(target, 't', t.section, t.sources, new Progress('quiet', 'test'), opts);
      expect(log).toEqual([]);
      const raced = racing(target, () => target.sql("INSERT INTO t (id, title) VALUES (99, 'written at the swap')"));
      await buildTable(raced, 't', t.section, t.sources, new Progress('quiet', 'test'), opts);
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/warning: table t was written to while it was rebuilt \(tid \d+ -> \d+\); the rebuilt table replaced those writes/);
    } finally {
      await target.close();
    }
  });
});
