// MATCH() with the table's query hooks wired (exceptions, multi-word wordforms, blend_chars): the engine's
// parse-normalize-search path (matchQuery) reproduced over a real RtIndex, with `textHooks: pipeline` added.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { normalizeTableQuery, tableNormalizers } from '../../../src/index/normalize-query.js';
import { RtIndex } from '../../../src/index/rt-index.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline, type TextPipeline } from '../../../src/text/text-pipeline.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-query-hooks-match-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** A one-field table over `docs` (ids from 1); `ids(q)` runs MATCH(q) as the engine would with the hooks wired. */
function table(settings: Record<string, string>, docs: string[]): (q: string) => bigint[] {
  const p: TextPipeline = createTextPipeline(settings);
  const index = new RtIndex({ fields: ['title'], attrs: [] });
  index.addBatch(docs.map((d, i) => ({ docId: BigInt(i + 1), fields: [p.indexField(d)], attrs: [] })));
  const norm = tableNormalizers(p, settings);
  return (q) => {
    const parsed = parseQuery(q, {
      fields: ['title'], exactWords: norm.exactWords, wildcards: norm.wildcards, textHooks: p,
      isWordChar: (cp) => p.isWordChar(cp), isNullWord: (w) => p.normalizeWord(w).length === 0,
    });
    const query = normalizeTableQuery(parsed.root, norm);
    if (!query) return [];
    const res = index.search({ query, ranker: 'none', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 100, maxMatches: 1000 });
    return res.hits.map((h) => h.docId).sort((a, b) => (a < b ? -1 : 1));
  };
}

describe('MATCH() with exceptions', () => {
  const ids = table({ exceptions: file('exc.txt', 'AT&T => att\nC++ => cplusplus\n') }, [
    'AT&T phones', 'at and t', 'C++ code', 'c code', 'code in C++ today',
  ]);

  it('maps an exception typed in the query, case-sensitively', () => {
    expect(ids('AT&T')).toEqual([1n]);
    expect(ids('C++')).toEqual([3n, 5n]);
    expect(ids('c')).toEqual([4n]);
  });

  it('keeps phrase positions around an exception, and takes escapes', () => {
    expect(ids('"C++ code"')).toEqual([3n]);
    expect(ids('"in C\\+\\+ today"')).toEqual([5n]);
    expect(ids('C++ | AT&T')).toEqual([1n, 3n, 5n]);
  });
});

describe('MATCH() with multi-word wordforms', () => {
  const ids = table({ wordforms: file('wf.txt', 'core 2 duo > c2d\n') }, ['Core 2 Duo laptop', 'core duo 2', 'c2d inside']);

  it('maps the typed words to the destination, alone and in a phrase', () => {
    expect(ids('core 2 duo')).toEqual([1n, 3n]);
    expect(ids('"CORE 2 DUO laptop"')).toEqual([1n]);
    expect(ids('core duo')).toEqual([2n]);
  });
});

describe('MATCH() with blend_chars', () => {
  const ids = table({ blend_chars: '&' }, ['AT&T phones', 'phones AT&T', 'at t phones']);

  it('a phrase after a blended word skips its parts\' positions, as Manticore', () => {
    expect(ids('"AT&T phones"')).toEqual([1n]);
    expect(ids('"phones AT&T"')).toEqual([2n]);
    expect(ids('AT&T')).toEqual([1n, 2n]);
  });
});

describe('MATCH() with blend_mode skip_pure', () => {
  const ids = table({ blend_chars: '&', blend_mode: 'trim_none, skip_pure' }, ['a & b', 'a x b']);

  it('a pure-blend word typed in a phrase holds no position, as it holds none in the index', () => {
    expect(ids('"a & b"')).toEqual([1n]);
    expect(ids('"a b"')).toEqual([1n]);
  });
});

describe('MATCH() on blended words: test_164 (blend_mode), as Manticore answered it', () => {
  const docs = ['@simple!', 'hey @dude! a-team was awesome!!', 'hey @dude... a-team was @@!!! awesome'];
  const queries = ['simple', '\\@simple', '\\@simple\\!', 'simple\\!', '"hey" "@dude!"', '"dude a-team"', '"a-team was"', '"@@!!!"', '"was @@!!! awesome"'];
  const recorded: [string, bigint[][]][] = [
    ['trim_none', [[1n], [], [1n], [], [2n], [2n, 3n], [2n, 3n], [3n], [3n]]],
    ['trim_none, skip_pure', [[1n], [], [1n], [], [2n], [2n, 3n], [2n, 3n], [], [2n, 3n]]],
    ['trim_tail', [[1n], [1n], [], [], [], [2n, 3n], [2n, 3n], [3n], [3n]]],
    ['trim_head, trim_tail', [[1n], [1n], [], [1n], [], [2n, 3n], [2n, 3n], [3n], [3n]]],
  ];
  for (const [mode, answers] of recorded) {
    it(`blend_mode=${mode}`, () => {
      const ids = table({ blend_chars: '@, &, ., !, -', blend_mode: mode }, docs);
      expect(queries.map((q) => ids(q))).toEqual(answers);
    });
  }
});
