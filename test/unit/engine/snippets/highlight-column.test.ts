import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type RowsResult } from '../../../../src/engine/index.js';
import { highlightStats } from '../../../../src/engine/snippets/highlight-column.js';

let dir: string;
let engine: Engine;
const session = newSession();

async function rowsOf(text: string): Promise<unknown[][]> {
  const out = await engine.execute(text, session);
  const r = out[out.length - 1];
  if (r.kind !== 'rows') throw new Error(`expected rows, got ${JSON.stringify(r)}`);
  return (r as RowsResult).rows;
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-hl-'));
  engine = await openEngine({ dataDir: dir });
  await engine.execute('CREATE TABLE t (title text, body text, tag string, hidden text indexed)', session);
  await engine.execute("INSERT INTO t (id, title, body, tag, hidden) VALUES (1,'red apple','a red car and a green apple','red tag','red secret'),(2,'green pear','nothing here','x','y')", session);
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('HIGHLIGHT() and SNIPPET() in SELECT', () => {
  it('highlights all stored fields by the MATCH query, leaving out fields without a match', async () => {
    expect(await rowsOf("SELECT HIGHLIGHT() FROM t WHERE MATCH('red')")).toEqual([['<b>red</b> apple | a <b>red</b> car and a green apple']]);
    expect(await rowsOf("SELECT HIGHLIGHT() FROM t WHERE MATCH('@title red')")).toEqual([['<b>red</b> apple']]);
  });

  it('takes a field list, another query, an attribute and TO_STRING text', async () => {
    expect(await rowsOf("SELECT HIGHLIGHT({},'body','green') FROM t WHERE MATCH('red')")).toEqual([['a red car and a <b>green</b> apple']]);
    expect(await rowsOf("SELECT HIGHLIGHT({}, tag) FROM t WHERE MATCH('@title red')")).toEqual([['<b>red</b> tag']]);
    expect(await rowsOf("SELECT HIGHLIGHT({},TO_STRING('so red'),'red') FROM t WHERE MATCH('apple')")).toEqual([['so <b>red</b>']]);
    expect(await rowsOf("SELECT HIGHLIGHT({},'hidden') FROM t WHERE MATCH('red')")).toEqual([['']]);
  });

  it('SNIPPET() takes name=value option strings', async () => {
    expect(await rowsOf("SELECT SNIPPET(body, QUERY(), 'before_match=[', 'after_match=]') FROM t WHERE MATCH('@body green')"))
      .toEqual([['a red car and a [green] apple']]);
  });

  it('highlights only the final page (post-limit)', async () => {
    const values = Array.from({ length: 40 }, (_, i) => `(${i + 10},'word number ${i}','body ${i}','s','h')`).join(',');
    await engine.execute(`INSERT INTO t (id, title, body, tag, hidden) VALUES ${values}`, session);
    const before = highlightStats.documents;
    const rows = await rowsOf("SELECT id, HIGHLIGHT() FROM t WHERE MATCH('word') LIMIT 20,10");
    expect(rows).toHaveLength(10);
    expect(highlightStats.documents - before).toBe(10);
  });
});
