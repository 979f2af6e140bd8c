// MATCH() on a blend_chars table: test_063's recorded answers (index `test`), through the engine's parse-normalize-search
// path with the pipeline's query hooks wired, over a real RtIndex.
import { describe, expect, it } from 'vitest';
import { normalizeTableQuery, tableNormalizers } from '../../../src/index/normalize-query.js';
import { RtIndex } from '../../../src/index/rt-index.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

const DOCS: [number, string][] = [
  [1, 'aaa bbb@ccc ddd @eee fff@ggg@hhh iii@ kkk'], [2, 'ggg@hhh'], [3, 'xxx @ yyy'], [4, 'aaa@bbb+ccc@ddd'],
  [5, 'aaa|eee|ccc'], [6, 'a+b+c+d e+f|g'], [7, 'aaa bbb*ccc ddd eee fff*ggg*hhh iii'], [8, 'ggg*hhh'],
  [9, 'aaa ddd ggg hhh'], [10, 'aaa bbb ccc ddd'], [11, 'hello, world. how is this gonna work if we need to handle U.S.A'],
  [20, 'its a must!!!'], [21, 'hey @dude wassup'], [30, 'posse'], [31, 'posse()'], [32, 'posse[]'], [33, 'posse{}'],
];

/**
 * Query -> matching ids, or the error text. Left out, as they need the index to change: `*` in a
 * blended word (the index reads any `*` in a term as a wildcard) and `@` alone (the model's error
 * text is an older Manticore's: "unexpected end of file").
 */
const RECORDED: [string, number[] | string][] = [
  ['bbb|ccc', [1, 4, 5, 7, 10]],
  ['bbb@ccc', [1]],
  ['bbb\\|ccc', []],
  ['bbb\\@ccc', [1]],
  ['bbb ccc', [1, 4, 7, 10]],
  ['"bbb ccc"', [1, 4, 7, 10]],
  ['aaa|eee|ccc', [1, 4, 5, 7, 9, 10]],
  ['aaa\\|eee\\|ccc', [5]],
  ['"aaa|eee|ccc"', [5]],
  ['"aaa\\|eee\\|ccc"', [5]],
  ['a+b+c+d', [6]],
  ['a+b+c+d e', [6]],
  ['"a+b+c+d e f"', [6]],
  ['"a+b+c+d e+f|g"', [6]],
  ['"bbb@ccc ddd @eee"', [1]],
  ['"ddd @eee fff@ggg@hhh"', [1]],
  ['"fff@ggg@hhh iii@ kkk"', [1]],
  ['\\@', [3]],
  ['@eee kkk', 'query error: no field \'eee\' found in schema'],
  ['\\@eee kkk', [1]],
  [' bbb ccc', [1, 4, 7, 10]],
  ['"bbb ccc"', [1, 4, 7, 10]],
  ['fff\\*ggg', []],
  ['fff*ggg', []],
  ['"bbb*ccc ccc ddd"', []],
  ['hello', [11]],
  ['"hello world"', [11]],
  ['hello U.S.A', [11]],
  ['must', [20]],
  ['must\\!\\!\\!', [20]],
  ['dude', [21]],
  ['\\@dude', [21]],
  ['posse', [30, 31, 32, 33]],
  ['posse\\(\\)', [31]],
  ['posse\\[\\]', [32]],
  ['posse\\{\\}', [33]],
  ['"posse()"', [31]],
  ['"posse[]"', [32]],
  ['"posse{}"', [33]],
  ['^ggg', [2, 8]],
  ['hhh$', [2, 8, 9]],
  // a field ending in a blended word ends where it starts: its first part is an end too
  ['ggg$', [2, 8]],
  ['^hhh', []],
];

function search(): (q: string) => number[] | string {
  const settings = { blend_chars: '@, |, +, ., *, !, (, ), [, ], {, }' };
  const p = createTextPipeline(settings);
  const index = new RtIndex({ fields: ['text'], attrs: [] });
  index.addBatch(DOCS.map(([id, d]) => ({ docId: BigInt(id), fields: [p.indexField(d)], attrs: [] })));
  const norm = tableNormalizers(p, settings);
  return (q) => {
    try {
      const parsed = parseQuery(q, {
        fields: ['text'], exactWords: norm.exactWords, wildcards: norm.wildcards, textHooks: p,
        isWordChar: (cp) => p.isWordChar(cp), isNullWord: (w) => p.normalizeWord(w).length === 0,
      });
      const query = normalizeTableQuery(parsed.root, norm);
      if (!query) return [];
      const res = index.search({ query, ranker: 'none', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 100, maxMatches: 1000 });
      return res.hits.map((h) => Number(h.docId)).sort((a, b) => a - b);
    } catch (e) {
      return (e as Error).message;
    }
  };
}

describe('blend characters (test_063)', () => {
  const run = search();
  it.each(RECORDED)('%s', (q, expected) => {
    expect(run(q)).toEqual(expected);
  });
});
