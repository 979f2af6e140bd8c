// lccs, wlccs, atc, min_gaps and max_window_hits through SQL, with weights worked out by hand
// from Manticore's definitions (src/sphinxsearch.cpp RankerState_Expr_fn).
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('rank-factors', async (t) => {
  await t.exec('create table t (title text, body text)');
  await t.exec(`insert into t (id, title, body) values
    (1, '', 'a b x a b c'), (2, '', 'a x b x c'), (3, 'z', 'a x x b x a x b'), (4, 'a b', 'a x b x x c'),
    (5, '', 'a a x a x x x a'), (6, 'z', 'z'), (7, 'z', 'z'), (8, 'z', 'z')`);
});
const f = Math.fround;
const weights = async (match: string, expr: string): Promise<[number, number][]> =>
  (await t.rows(`select id, weight() from t where match('${match}') order by id asc option ranker=expr('${expr}')`))
    .map((r) => [Number(r[0]), Number(r[1])]);

/** Manticore's normalized idf (float32): log((N-n+1)/n) / (2*log(N+1)), divided by the keyword count. */
function idf(total: number, docs: number, words: number): number {
  return f(f(f(Math.log(f(f(total - docs + 1) / docs))) / f(2 * f(Math.log(total + 1)))) / words);
}

describe('lccs and wlccs', () => {
  it('lccs: the longest run of query words in query order, contiguous in the field', async () => {
    // doc 1 body "a b x a b c": a b (2), then a b c (3); doc 2 "a x b x c": 1 each;
    // doc 4: title "a b" (2), body "a x b x x c" (1)
    expect(await weights('a b c', 'sum(lccs)')).toEqual([[1, 3], [2, 1], [4, 3]]);
  });
  it('wlccs: the idf of the words of that run', async () => {
    // 8 documents; a in 5 (1-5), b in 4 (1-4), c in 3 (1, 2, 4); three keywords
    const ia = idf(8, 5, 3);
    const ib = idf(8, 4, 3);
    const ic = idf(8, 3, 3);
    const r = new Map(await weights('a b c', 'sum(wlccs)*1000000'));
    expect(Math.abs(r.get(1)! - Math.trunc(f(f(f(ia + ib) + ic) * 1e6)))).toBeLessThanOrEqual(1);
    // doc 2: every run is one word; the last one (c) is kept, as Manticore's <= comparison does
    expect(Math.abs(r.get(2)! - Math.trunc(f(ic * 1e6)))).toBeLessThanOrEqual(1);
  });
});

describe('min_gaps', () => {
  it('two words: the fewest words between an a and a b', async () => {
    // doc 3 body "a x x b x a x b": gaps 2, 1, 1 -> 1; doc 1 "a b x a b c": 0; doc 4 title "a b": 0, body 1
    expect(await weights('a b', 'sum(min_gaps)')).toEqual([[1, 0], [2, 1], [3, 1], [4, 1]]);
  });
  it('three words: the gaps inside the window holding all three', async () => {
    // doc 4 body "a x b x x c": the a..c window has 3 other words; doc 2 "a x b x c": 2
    expect(await weights('a b c', 'sum(min_gaps)')).toEqual([[1, 0], [2, 2], [4, 3]]);
  });
});

describe('min_gaps outside an aggregate', () => {
  it('reads the field after the last one sum() visited, as Manticore\'s current field (here: none, 0)', async () => {
    // doc 3: only the body (field 1) matches, min_gaps 1 there; after sum() the current field is 2
    expect((await weights('a b', 'sum(lcs) + min_gaps*100')).find(([id]) => id === 3)).toEqual([3, 1]);
  });
});

describe('max_window_hits(n)', () => {
  it('the most hits within n positions', async () => {
    // doc 5 body "a a x a x x x a": hits at 1, 2, 4, 8; within 4 positions: 1, 2, 4 -> 3; within 3: 2
    expect((await weights('a', 'sum(max_window_hits(4))')).find(([id]) => id === 5)).toEqual([5, 3]);
    expect((await weights('a', 'sum(max_window_hits(3))')).find(([id]) => id === 5)).toEqual([5, 2]);
    // sizes up to 1 (negative ones too) count one hit per field
    expect((await weights('a', 'sum(max_window_hits(-2))')).find(([id]) => id === 5)).toEqual([5, 1]);
  });
  it('needs a constant integer inside an aggregate', async () => {
    const err = async (e: string) => JSON.stringify(await t.exec(`select id from t where match('a') option ranker=expr('${e}')`));
    expect(await err('max_window_hits(3)')).toContain('field factors must only occur within field aggregation functions');
    expect(await err('sum(max_window_hits(lcs))')).toContain('MAX_WINDOW_HITS() requires constant arguments');
    expect(await err('sum(max_window_hits(2.5))')).toContain('argument 0 to MAX_WINDOW_HITS() must be integer');
  });
});

describe('atc', () => {
  it('log(1 + sum of idf(t)*idf(t\')/distance^1.75 over neighbouring pairs)', async () => {
    // doc 4 title "a b": a sees b at distance 1 and b sees a: ln(1 + 2*idf(a)*idf(b))
    const ia = idf(8, 5, 2);
    const ib = idf(8, 4, 2);
    const atc = (d: number) => f(Math.log(f(1 + f(f(f(ib / d) * ia) + f(f(ia / d) * ib)))));
    const title = atc(1);
    // body "a x b x x c": a and b at distance 2
    const body = atc(f(Math.pow(2, 1.75)));
    const r = new Map(await weights('a b', 'sum(atc)*1000000'));
    expect(Math.abs(r.get(4)! - Math.trunc(f(f(title + body) * 1e6)))).toBeLessThanOrEqual(2);
  });
  it('is 0 for a one-word query', async () => {
    expect((await weights('a', 'sum(atc)*1000+1')).every(([, w]) => w === 1)).toBe(true);
  });
});
