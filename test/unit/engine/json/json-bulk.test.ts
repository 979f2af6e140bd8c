import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, openEngine, type BulkLine, type Engine, type JsonValue, type RowsResult } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-bulk-prop-'));
  engine = await openEngine({ dataDir: dir });
  await engine.execute('create table t (title text, n int)', session);
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

type Op = { op: 'insert' | 'replace' | 'delete'; id: number };
const opArb = fc.record({ op: fc.constantFrom('insert' as const, 'replace' as const, 'delete' as const), id: fc.integer({ min: 1, max: 6 }) });

function lineOf(o: Op): BulkLine {
  const body = o.op === 'delete' ? `{"table":"t","id":${o.id}}` : `{"table":"t","id":${o.id},"doc":{"title":"d${o.id}","n":${o.id}}}`;
  return { kind: 'json', value: parse(`{"${o.op}":${body}}`) as JsonValue };
}

/** The model: runs apply in order; a run with a duplicate insert applies nothing and stops the request. */
function model(start: Set<number>, runs: Op[][]): { ids: Set<number>; failedRun: number } {
  const ids = new Set(start);
  for (const [r, run] of runs.entries()) {
    const next = new Set(ids);
    for (const o of run) {
      if (o.op === 'insert' && next.has(o.id)) return { ids, failedRun: r };
      if (o.op === 'delete') next.delete(o.id); else next.add(o.id);
    }
    ids.clear();
    next.forEach((x) => ids.add(x));
  }
  return { ids, failedRun: -1 };
}

describe('/bulk against a model', () => {
  it('committed runs apply in full, the failing run not at all', async () => {
    await fc.assert(fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }), async (runs) => {
      await engine.execute('truncate table t', session);
      const lines: BulkLine[] = runs.flatMap((run, i) => [...(i ? [{ kind: 'empty' as const }] : []), ...run.map(lineOf)]);
      const reply = await engine.json!.bulk(lines);
      const expected = model(new Set(), runs);
      const rows = ((await engine.execute('select id from t order by id asc limit 100', session))[0] as RowsResult).rows;
      expect(rows.map((r) => Number(r[0]))).toEqual([...expected.ids].sort((a, b) => a - b));
      expect(reply.outcome).toBe(expected.failedRun < 0 ? 'ok' : 'exec');
      const committed = expected.failedRun < 0 ? runs.length : expected.failedRun;
      expect(reply.items.filter((it) => it.kind === 'bulk')).toHaveLength(committed);
    }), { numRuns: 40 });
  });
});

describe('/bulk: an id out of range', () => {
  const line = (text: string): BulkLine => ({ kind: 'json', value: parse(text) as JsonValue });
  const ids = async (): Promise<number[]> =>
    ((await engine.execute('select id, n from t order by id asc limit 100', session))[0] as RowsResult).rows.map((r) => Number(r[0]) * 100 + Number(r[1]));

  it('is refused when its line is read, so nothing of its run is applied (the delete and update before it included)', async () => {
    await engine.execute('truncate table t', session);
    await engine.execute("insert into t (id, title, n) values (1, 'a', 1), (2, 'b', 2)", session);
    for (const bad of ['9223372036854775808', '18446744073709551615']) {
      for (const op of ['insert', 'replace']) {
        const reply = await engine.json!.bulk([
          line('{"insert":{"table":"t","id":3,"doc":{"title":"c","n":3}}}'),
          line('{"delete":{"table":"t","id":1}}'),
          line('{"update":{"table":"t","id":2,"doc":{"n":7}}}'),
          line(`{"${op}":{"table":"t","id":${bad},"doc":{"title":"x"}}}`),
        ]);
        expect(reply.outcome).toBe('exec');
        expect(reply.error).toBe(`document id out of range: ${bad}`);
        expect(reply.items).toEqual([{ kind: 'error', op, table: 't', message: `document id out of range: ${bad}` }]);
        expect(reply.skippedLines).toBe(4);
        expect(await ids()).toEqual([101, 202]);
      }
    }
  });
});
