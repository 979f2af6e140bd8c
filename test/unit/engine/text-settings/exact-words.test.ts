// `=word` exact forms: with index_exact_words=1 (and morphology) the unstemmed form is indexed as
// `=word` and `=word` in a query matches only it; without exact words `=` is not an operator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type RowsResult } from '../../../../src/engine/index.js';

let dir: string;
let engine: Engine;
const session = newSession();

async function ids(text: string): Promise<bigint[]> {
  const out = await engine.execute(text, session);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((x) => x[0] as bigint);
}

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-exact-'));
  engine = await openEngine({ dataDir: dir });
});
afterEach(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

async function table(settings: string): Promise<void> {
  await engine.execute(`create table t (title text) ${settings}`, session);
  await engine.execute("insert into t (id, title) values (1, 'Running dogs'), (2, 'the dog runs'), (3, 'run dog run')", session);
}
const match = (q: string) => ids(`select id from t where match('${q}') order by id asc`);

describe('exact forms', () => {
  it('index_exact_words=1 with morphology: =word matches the unstemmed form only', async () => {
    await table("morphology='stem_en' index_exact_words='1'");
    expect(await match('running')).toEqual([1n, 2n, 3n]);
    expect(await match('=running')).toEqual([1n]);
    expect(await match('=run')).toEqual([3n]);
    expect(await match('=dogs')).toEqual([1n]);
    // exact and stemmed forms share positions: phrases mix them
    expect(await match('"=running dog"')).toEqual([1n]);
    expect(await match('"=run =dog"')).toEqual([3n]);
    expect(await match('"dog =runs"')).toEqual([2n]);
    expect(await match('"dog run"')).toEqual([2n, 3n]);
  });
  it('without index_exact_words, = is not an operator', async () => {
    await table("morphology='stem_en'");
    expect(await match('=running')).toEqual([1n, 2n, 3n]);
  });
  it('without morphology, index_exact_words has no effect', async () => {
    await table("index_exact_words='1'");
    expect(await match('=dog')).toEqual([2n, 3n]);
    expect(await match('dogs')).toEqual([1n]);
  });
  it('dict=keywords with prefixes and morphology forces exact words on', async () => {
    await table("morphology='stem_en' min_prefix_len='2'");
    expect(await match('=running')).toEqual([1n]);
  });
  it('prefixes expand over the unstemmed forms, from min_prefix_len characters on', async () => {
    await table("morphology='stem_en' min_prefix_len='3'");
    // "runs" and "run" stem to run, but only "Running" starts with "runn"
    expect(await match('runn*')).toEqual([1n]);
    expect(await match('run*')).toEqual([1n, 2n, 3n]);
    expect(await match('ru*')).toEqual([]);
  });
  it('expand_keywords: a word also matches as *word* (or word*) and =word', async () => {
    await table("min_infix_len='2' expand_keywords='1'");
    // plain "dog" also finds "dogs" through *dog*
    expect(await match('dog')).toEqual([1n, 2n, 3n]);
    expect(await match('un')).toEqual([1n, 2n, 3n]);
    // a word shorter than min_infix_len is not expanded
    expect(await match('u')).toEqual([]);
  });
  it('expand_keywords with morphology: exact forms join the stemmed word', async () => {
    await table("morphology='stem_en' index_exact_words='1' expand_keywords='exact'");
    expect(await match('running')).toEqual([1n, 2n, 3n]);
    expect(await match('=running')).toEqual([1n]);
  });
  it('expand_keywords=0 or without prefixes, infixes and exact words changes nothing', async () => {
    await table("expand_keywords='1'");
    expect(await match('dog')).toEqual([2n, 3n]);
  });
});
