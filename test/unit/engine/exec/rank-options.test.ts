// Ranking options through SQL and JSON: ranker=expr('...'), idf, index_weights, options.ranker.
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { newSession, type JsonValue } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('rank', async (t) => {
  await t.exec('create table t (title text, body text)');
  await t.exec(`insert into t (id, title, body) values (1, 'hello world', 'the world says hello'),
    (2, 'world peace', 'hello hello'), (3, 'big hello world', 'nothing'), (4, 'other', 'world')`);
});
const q = (opt: string) => `select id, weight() from t where match('hello world') order by id asc option ${opt}`;
const rows = async (sql: string): Promise<[bigint, number][]> => (await t.rows(sql)).map((x) => [x[0] as bigint, Number(x[1])]);

describe('OPTION ranker=expr', () => {
  it('sum(lcs*user_weight)*1000+bm25 equals proximity_bm25, with field weights', async () => {
    const fw = 'field_weights=(title=5, body=2)';
    expect(await rows(q(`ranker=expr('sum(lcs*user_weight)*1000+bm25'), ${fw}`))).toEqual(await rows(q(`ranker=proximity_bm25, ${fw}`)));
  });
  it('a formula error is the query error', async () => {
    await expect(t.exec(q("ranker=expr('lcs')"))).resolves.toSatisfy((r: unknown[]) =>
      JSON.stringify(r).includes('field factors must only occur within field aggregation functions'));
  });
});

describe('OPTION idf and index_weights', () => {
  it("idf='plain' and 'tfidf_unnormalized' change the bm25 part", async () => {
    const base = await rows(q('ranker=bm25'));
    const plain = await rows(q("ranker=bm25, idf='plain'"));
    const part = await rows(q("ranker=expr('bm25')"));
    const unPart = await rows(q("ranker=expr('bm25'), idf='tfidf_unnormalized'"));
    expect(plain.map((r) => r[0])).toEqual(base.map((r) => r[0]));
    // both words are in 3 of 4 documents: plain log(N/n) > log((N-n+1)/n)
    for (let i = 0; i < base.length; i++) {
      expect(plain[i][1]).toBeGreaterThan(base[i][1]);
      // bm25 = (Σ tf/(tf+1.2)*idf + 0.5)*1000 and unnormalized idf is twice the idf over 2 words
      expect(Math.abs(unPart[i][1] - 500 - 2 * (part[i][1] - 500))).toBeLessThanOrEqual(2);
    }
  });
  it('an unknown idf flag is an error', async () => {
    const r = await t.exec(q("idf='fancy'"));
    expect(JSON.stringify(r)).toContain('unknown flag fancy in option idf');
  });
  it('index_weights multiplies the weight of the table named', async () => {
    const base = await rows(q('ranker=none'));
    expect(await rows(q('ranker=none, index_weights=(t=7)'))).toEqual(base.map(([id, w]) => [id, w * 7]));
    expect(await rows(q('ranker=none, index_weights=(other=7)'))).toEqual(base);
  });
});

describe('JSON options.ranker', () => {
  it("\"expr('...')\" is the expression ranker", async () => {
    const body = (ranker: string) => parse(`{"table": "t", "query": {"match": {"*": {"query": "hello world", "operator": "and"}}},
      "sort": [{"id": "asc"}], "track_scores": true, "options": {"ranker": ${JSON.stringify(ranker)}}}`) as JsonValue;
    const a = await t.engine.json!.search(body("expr('sum(lcs*user_weight)*1000+bm25')"), newSession());
    const b = await t.engine.json!.search(body('proximity_bm25'), newSession());
    expect(a.weights).toEqual(b.weights);
    const c = await t.engine.json!.search(body("expr('sum(hit_count)')"), newSession());
    expect(c.weights).toEqual([4, 3, 2]);
  });
});
