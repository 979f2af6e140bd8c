// The ranker functions' argument checks, with Manticore's texts (ExprRankerHook_T::CheckArgtypes):
// constants first, then the count of the last signature tried, then each argument's kind.
import { describe, expect, it } from 'vitest';
import { compileRankExpr } from '../../../../src/index/rank-expr/rank-expr-compile.js';
import { constOf } from '../../../../src/index/rank-expr/rank-expr-args.js';
import { parseRankExpr } from '../../../../src/index/rank-expr/rank-expr-parse.js';

const compile = (e: string) => () => compileRankExpr(e, { fields: ['title'], attrs: [] });

describe('ranker function arguments', () => {
  it('constant arithmetic is folded, factors are not constants', () => {
    expect(constOf(parseRankExpr('1.5*2 - -1'))).toBe(4);
    expect(constOf(parseRankExpr('bm25 + 1'))).toBeUndefined();
    expect(compile('bm25a(0.6*2, 1-0.25)')).not.toThrow();
    expect(compile('bm25a(bm25, 0.75)')).toThrow('BM25A() requires constant arguments');
  });
  it('the count error names the longest signature', () => {
    expect(compile('bm25a(1.2)')).toThrow('BM25A() requires 3 argument(s), not 1');
    expect(compile('bm25f(1.2, 0.75, {title=2}, 4)')).toThrow('BM25F() requires 3 argument(s), not 4');
    expect(compile('sum(max_window_hits(2, 3))')).toThrow('MAX_WINDOW_HITS() requires 1 argument(s), not 2');
  });
  it('argument kinds: a map only where a map goes, an integer window', () => {
    expect(compile('bm25f(1.2, 0.75, 3)')).toThrow('argument 2 to BM25F() must be a map of constants');
    expect(compile('bm25a(1.2, 0.75, {title=2})')).toThrow('argument 2 to BM25A() must be scalar (integer or float)');
    expect(compile('sum(max_window_hits(2.5))')).toThrow('argument 0 to MAX_WINDOW_HITS() must be integer');
    expect(compile('bm25f(1.2, 0.75, {title=2})')).not.toThrow();
  });
});
