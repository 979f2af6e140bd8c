// A /bulk insert line and the same /insert request end alike: the same error text, or the same stored row.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type JsonObject, type JsonValue, type RowsResult } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();
const COLUMNS = '(title text, n int, u uint, f float, tags multi, big multi64, j json, s string)';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-bulk-row-'));
  engine = await openEngine({ dataDir: dir });
  await engine.execute(`create table viainsert ${COLUMNS}`, session);
  await engine.execute(`create table viabulk ${COLUMNS}`, session);
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function row(table: string, id: bigint): Promise<unknown[] | undefined> {
  const r = (await engine.execute(`select * from ${table} where id = ${id}`, session))[0] as RowsResult;
  return r.rows[0];
}

/** Runs `rest` (the request after `"table"`) through /insert and through a one-line /bulk; both outcomes. */
async function both(op: 'insert' | 'replace', rest: string): Promise<{ insert: string | unknown[]; bulk: string | unknown[] }> {
  const body = (table: string) => parse(`{"table":"${table}"${rest}}`) as JsonObject;
  let insert: string | unknown[];
  try {
    const r = await engine.json!.insert(body('viainsert'), op === 'replace');
    insert = (await row('viainsert', r.id))!.slice(1);
  } catch (e) {
    insert = (e as Error).message;
  }
  const reply = await engine.json!.bulk([{ kind: 'json', value: { [op]: body('viabulk') } as JsonValue }]);
  const item = reply.items[0];
  if (reply.outcome !== 'ok') return { insert, bulk: reply.error };
  const id = item?.kind === 'bulk' ? item.lastId : 0n;
  return { insert, bulk: (await row('viabulk', id))!.slice(1) };
}

describe('/bulk insert lines as /insert', () => {
  const cases: [string, string][] = [
    ['every type', ',"id":11,"doc":{"title":"a b","n":-5,"u":7,"f":1.5,"tags":[3,1,2],"big":[-1,9223372036854775807],"j":{"k":[1,"x"]},"s":"str"}'],
    ['no doc: defaults', ',"id":12'],
    ['empty doc', ',"id":13,"doc":{}'],
    ['keys in any case, the last of two wins', ',"id":14,"doc":{"Title":"first","TITLE":"second","N":3}'],
    ['an id key in the doc is left out', ',"id":15,"doc":{"ID":99,"title":"x","id":98}'],
    ['a generated id', ',"doc":{"title":"generated"}'],
    ['id 0 is generated', ',"id":0,"doc":{"title":"zero"}'],
    ['a string for a number', ',"id":16,"doc":{"n":"42","u":"12"}'],
    ['a float for an int, an int for a float', ',"id":17,"doc":{"n":2.75,"f":3}'],
    ['booleans and null', ',"id":18,"doc":{"n":true,"u":false,"s":null}'],
    ['uint keeps the low 32 bits', ',"id":19,"doc":{"u":4294967301}'],
    ['doc not an object', ',"id":20,"doc":[1]'],
    ['a negative id', ',"id":-1,"doc":{"title":"x"}'],
    ['a bad id before an unknown column', ',"id":1.5,"doc":{"nope":1}'],
    ['an id array', ',"id":[1],"doc":{"title":"x"}'],
    ['an unknown column, lower-cased in the error', ',"id":21,"doc":{"title":"x","NoPe":1}'],
    ['a bad value names its column position', ',"id":22,"doc":{"title":"x","id":5,"s":"y","n":"abc"}'],
    ['a bad value before an unknown column', ',"id":23,"doc":{"n":"abc","nope":1}'],
    ['a tuple for an int', ',"id":24,"doc":{"n":[1,2]}'],
    ['an object for a multi', ',"id":25,"doc":{"tags":{"a":1}}'],
    ['bad JSON text for nothing: a string in json', ',"id":26,"doc":{"j":"not json"}'],
    ['a string id', ',"id":"27","doc":{"title":"x"}'],
  ];
  for (const [name, rest] of cases) {
    it(name, async () => {
      // rows are compared without their id (generated ids differ between the two calls)
      const r = await both('insert', rest);
      expect(r.bulk).toEqual(r.insert);
    });
  }

  it('a doc that is not an object is named before a bad id, where /insert names the id first', async () => {
    const r = await both('insert', ',"id":-1,"doc":5');
    expect(r).toEqual({ insert: 'Negative document ids are not allowed', bulk: '"doc" property value should be an object' });
  });

  it('replace lines as /replace', async () => {
    for (const rest of [',"id":11,"doc":{"title":"replaced","n":1}', ',"id":40,"doc":{"n":"abc"}', ',"id":41,"doc":{"NoPe":1}']) {
      const r = await both('replace', rest);
      expect(r.bulk).toEqual(r.insert);
    }
  });

  it('a run of lines keeps each line its own values when keys vary line to line', async () => {
    const line = (id: number, doc: string): { kind: 'json'; value: JsonValue } => ({ kind: 'json', value: parse(`{"insert":{"table":"viabulk","id":${id},"doc":${doc}}}`) as JsonValue });
    const reply = await engine.json!.bulk([line(101, '{"title":"a","n":1}'), line(102, '{"s":"only s"}'), line(103, '{"N":3,"Title":"c"}')]);
    expect(reply.outcome).toBe('ok');
    const rows = ((await engine.execute('select id, title, n, s from viabulk where id >= 101 and id <= 103 order by id asc', session))[0] as RowsResult).rows;
    expect(rows).toEqual([[101n, 'a', 1, ''], [102n, '', 0, 'only s'], [103n, 'c', 3, '']]);
  });
});

// searchd's ParseJsonInsertSource takes an array's items as MVA values while each is a signed integer or a
// double; the first other item ends the list (clt http-interface/test-inserts.rec: /replace and /_bulk
// with "values":[1234567890123456789, 9876543210987654321] store 1234567890123456789). quarry wrapped
// the uint64 item to a negative int64 and kept the rest.
describe('MVA arrays over /insert and /bulk as searchd reads them', () => {
  const cases: [string, string, unknown[]][] = [
    ['an integer past int64 ends the list', '"big":[1234567890123456789,9876543210987654321,5]', [[], [1234567890123456789n]]],
    ['a double past uint64 is clamped, as cJSON valueint', '"big":[18446744073709551616,1e30,-1e30]', [[], [-9223372036854775808n, 9223372036854775807n]]],
    ['a string or bool item ends the list', '"tags":[3,"x",1],"big":[2,true,1]', [[3n], [2n]]],
    ['a first item past int64: JSON text, not an MVA value', '"big":[9223372036854775808]', ['row 1, column 2: non-MVA value specified for a MVA column']],
  ];
  let id = 300;
  for (const [name, doc, want] of cases) {
    it(name, async () => {
      const n = ++id;
      const r = await both('insert', `,"id":${n},"doc":{${doc}}`);
      expect(r.bulk).toEqual(r.insert);
      if (typeof r.insert === 'string') { expect([r.insert]).toEqual(want); return; }
      const got = ((await engine.execute(`select tags, big from viainsert where id = ${n}`, session))[0] as RowsResult).rows[0];
      expect(got).toEqual(want);
    });
  }
});
