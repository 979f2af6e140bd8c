// SELECT's query warnings (SHOW WARNINGS, SHOW META) and full-text errors as Manticore reports them:
// the table named, `query too complex` for nesting deeper than the stack.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('select-warnings', async (t) => {
  await t.exec('create table t (title text, body text)');
  await t.exec("insert into t (id, title, body) values (1, 'quick brown fox', 'x'), (2, 'quick dog', 'y')");
});

/** The error a statement answers (the engine returns error results rather than throwing). */
async function error(sql: string): Promise<string> {
  const out = await t.exec(sql).catch((e: Error) => e);
  if (out instanceof Error) return out.message;
  const last = (Array.isArray(out) ? out.at(-1) : out) as { kind?: string; message?: string };
  return last.kind === 'error' ? last.message ?? '' : `no error: ${JSON.stringify(last)}`;
}

describe('SELECT warnings', () => {
  it('a quorum threshold above the word count warns in SHOW WARNINGS and SHOW META', async () => {
    expect(await t.rows(`select id from t where match('"quick fox"/5')`)).toEqual([[1n]]);
    const want = 'quorum threshold too high (words=2, thresh=5); replacing quorum operator with AND operator';
    expect(await t.rows('show warnings')).toEqual([['warning', '1000', want]]);
    expect((await t.rows('show meta')).find((r) => r[0] === 'warning')).toEqual(['warning', want]);
  });
  it('field_weights naming a missing field warns', async () => {
    await t.rows("select id from t where match('quick') option field_weights=(title=2, nosuch=3, other=1)");
    expect(await t.rows('show warnings')).toEqual([['warning', '1000', 'Fields specified in field_weights option not found: [nosuch other]']]);
  });
  it('a query without a warning clears the last one', async () => {
    await t.rows(`select id from t where match('"quick fox"/5')`);
    await t.rows(`select id from t where match('quick')`);
    expect(await t.rows('show warnings')).toEqual([]);
  });
});

describe('full-text errors', () => {
  it('name the table, as Manticore: syntax errors and non-computable queries', async () => {
    expect(await error("select * from t where match('jolly rodger ;)')")).toBe("table t: P08: syntax error, unexpected ')' near ';)'");
    expect(await error("select * from t where match('-hello')")).toBe('table t: query error: query is non-computable (single NOT operator)');
  });
  it('nesting deeper than the stack is `query too complex`, not a JavaScript error', async () => {
    const deep = '('.repeat(20000) + 'quick' + ')'.repeat(20000);
    const m = await error(`select id from t where match('${deep}')`);
    expect(m).toMatch(/^table t: query too complex, not enough stack \(thread_stack=\d+K or higher required\)$/);
    expect(await t.rows("select id from t where match('((quick))')")).toHaveLength(2);
  });
  it('the same for a JSON query_string', async () => {
    const { newSession } = await import('../../../../src/engine/index.js');
    const deep = '('.repeat(20000) + 'quick' + ')'.repeat(20000);
    const body = JSON.parse(JSON.stringify({ table: 't', query: { query_string: deep } }));
    await expect(t.engine.json!.search(body, newSession())).rejects.toThrow(/query too complex, not enough stack/);
  });
});

describe('SHOW WARNINGS after other statements (searchd FreezeLastMeta empties the warning)', () => {
  const warn = `select id from t where match('"quick fox"/5')`;
  it('a write or a statement that fails empties it; a SHOW keeps it (was: kept after all of them)', async () => {
    await t.rows(warn);
    await t.exec("insert into t (id, title, body) values (3, 'z', 'z')");
    expect(await t.rows('show warnings')).toEqual([]);
    await t.rows(warn);
    await t.exec('update t set title = title where id = 3').catch(() => undefined);
    await t.exec('delete from t where id = 3');
    expect(await t.rows('show warnings')).toEqual([]);
    await t.rows(warn);
    await t.exec('selekt 1');
    expect(await t.rows('show warnings')).toEqual([]);
    await t.rows(warn);
    await t.exec('show tables');
    expect((await t.rows('show warnings')).length).toBe(1);
  });
});
