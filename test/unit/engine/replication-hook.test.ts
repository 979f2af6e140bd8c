// A server without replication_nats: cluster statements and c:t / "cluster" writes fail with a clear
// error, never a write to some local table.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../helpers/temp-engine.js';
import { parse } from 'lossless-json';
import { join } from 'node:path';
import { newSession, openEngine } from '../../../src/engine/index.js';
import type { Literal } from '../../../src/engine/values/literal.js';
import { CLUSTERS_META_KEY, storedClusterOf } from '../../../src/engine/replication-hook.js';
import { Store } from '../../../src/store/index.js';

const t = useTempEngine('nocluster', async (e) => { await e.exec('CREATE TABLE t (title TEXT)'); });

describe('replication disabled', () => {
  it('refuses the cluster statements', async () => {
    for (const [sql, msg] of [
      ['CREATE CLUSTER c', "can not create cluster 'c': replication is disabled (searchd replication_nats is not set)"],
      ["JOIN CLUSTER c AT '127.0.0.1:9312'", "can not join cluster 'c': replication is disabled"],
      ['ALTER CLUSTER c ADD t', "can not ALTER cluster 'c': replication is disabled"],
      ['DELETE CLUSTER c', "can not delete cluster 'c': replication is disabled"],
    ]) {
      const [r] = await t.exec(sql!);
      expect(r).toMatchObject({ kind: 'error' });
      expect((r as { message: string }).message).toContain(msg);
    }
  });

  it('refuses writes naming a cluster, over SQL and JSON, and writes nothing', async () => {
    const [r] = await t.exec("INSERT INTO c:t (id, title) VALUES (1, 'x')");
    expect(r).toMatchObject({ kind: 'error', message: "unknown cluster 'c'" });
    await expect(t.engine.json!.insert(parse('{"cluster":"c","table":"t","id":2,"doc":{"title":"y"}}') as never, false)).rejects.toThrow("unknown cluster 'c'");
    const bulk = await t.engine.json!.bulk([{ kind: 'json', value: parse('{"insert":{"cluster":"c","table":"t","id":3,"doc":{"title":"z"}}}') as never }]);
    expect(bulk.error).toBe("unknown cluster 'c'");
    expect(await t.rows('SELECT id FROM t')).toEqual([]);
  });

  it('refuses a direct load into a table the stored membership puts in a cluster (quarry import --data)', async () => {
    const data = join(t.dir, 'loaded');
    const first = await openEngine({ dataDir: data });
    await first.execute('CREATE TABLE r (title TEXT)', newSession());
    await first.execute('CREATE TABLE plain (title TEXT)', newSession());
    await first.close();
    // what src/replication/local-state.ts stores once ALTER CLUSTER c ADD r has run on this node
    const store = Store.open(data);
    await store.setMeta(CLUSTERS_META_KEY, { c: { seq: 0, tables: ['r'] } });
    await store.close();
    const e = await openEngine({ dataDir: data });
    try {
      const batch = { columns: ['id', 'title'], rows: [[{ t: 'int', v: 1n }, { t: 'string', v: 'x' }]] as Literal[][] };
      await expect(e.loadRows!('R', batch, false)).rejects.toThrow("table 'r' is a part of cluster 'c': load it through a server of the cluster");
      expect(await e.loadRows!('plain', batch, false)).toEqual({ ok: true, written: 1 });
    } finally {
      await e.close();
    }
    expect(storedClusterOf(undefined, 'r')).toBeUndefined();
  });
});
