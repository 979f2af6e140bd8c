import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { SearchError } from '../../../src/util/errors.js';
import { and, errorOf, not, or, t, tree } from './helpers.js';

describe('NOT rules', () => {
  it('rejects a lone NOT, unless not_terms_only_allowed', () => {
    expect(errorOf(() => parseQuery('-world'))).toBe('query error: query is non-computable (single NOT operator)');
    expect(tree('-world', { notTermsOnlyAllowed: true })).toEqual(not(t('world')));
  });

  it('rejects a node made only of NOTs, unless allowed', () => {
    expect(errorOf(() => parseQuery('-war -a'))).toBe('query error: query is non-computable (node consists of NOT operators only)');
    expect(tree('-war -a', { notTermsOnlyAllowed: true })).toEqual(not(or(t('war'), t('a'))));
  });

  it('allows NOTs next to a positive term, in any order', () => {
    expect(tree('hello -war -hallo')).toEqual(and(t('hello'), not(t('war')), not(t('hallo'))));
    expect(tree('( -war -hallo ) hello')).toEqual(and(t('hello'), not(t('war')), not(t('hallo'))));
  });

  it('computes a NOT-only group beside a positive operand of an AND, allowed or not (deliberate)', () => {
    const expected = and(t('hello'), not(or(t('war'), t('hallo'))));
    expect(tree('hello ( -war -hallo )')).toEqual(expected);
    expect(tree('hello ( -war -hallo )', { notTermsOnlyAllowed: true })).toEqual(expected);
    expect(tree('a b (-c -d)')).toEqual(and(t('a'), t('b'), not(or(t('c'), t('d')))));
    expect(tree('a (b (-c -d))')).toEqual(and(t('a'), t('b'), not(or(t('c'), t('d')))));
    expect(tree('a (-b -c) (-d)')).toEqual(and(t('a'), not(or(t('b'), t('c'))), not(t('d'))));
  });

  it('keeps the errors of a NOT-only group with no positive AND sibling', () => {
    const onlyNots = 'query error: query is non-computable (node consists of NOT operators only)';
    expect(errorOf(() => parseQuery('(-war -hallo)'))).toBe(onlyNots);
    expect(errorOf(() => parseQuery('(-a -b) (-c -d)'))).toBe(onlyNots);
    expect(errorOf(() => parseQuery('a | (-b -c)'))).toBe(onlyNots);
    expect(errorOf(() => parseQuery('a (b | (-c -d))'))).toBe(onlyNots);
  });

  it('rejects NOT inside OR, MAYBE, NEAR, NOTNEAR and <<', () => {
    const msg = (q: string): string => errorOf(() => parseQuery(q));
    expect(msg('a | (-b)')).toBe('query error: query is non-computable (NOT is not allowed within OR)');
    expect(msg('a MAYBE (-b)')).toBe('query error: query is non-computable (NOT is not allowed within MAYBE)');
    expect(msg('a NEAR/2 -b')).toBe('query error: query is non-computable (NOT is not allowed within NEAR)');
    expect(msg('a NOTNEAR/2 (-b)')).toBe('query error: query is non-computable (NOT is not allowed within NOTNEAR)');
    expect(msg('a << -b')).toBe('query error: query is non-computable (NOT cannot be used as before operand)');
  });

  it('keeps NOT rules inside groups that have a positive term', () => {
    expect(tree('a | (c -b)')).toEqual(or(t('a'), and(t('c'), not(t('b')))));
  });
});

describe('syntax errors', () => {
  it('reports the unexpected token and the text from it, as bison does', () => {
    expect(errorOf(() => parseQuery('IT/Tech'))).toBe("P08: syntax error, unexpected '/' near '/Tech'");
    expect(errorOf(() => parseQuery('foo ~ 24 mois'))).toBe("P08: syntax error, unexpected '~' near '~ 24 mois'");
    expect(errorOf(() => parseQuery('a | -b'))).toBe("P08: syntax error, unexpected '-' near ' -b'");
    expect(errorOf(() => parseQuery('a )'))).toBe("P08: syntax error, unexpected ')' near ')'");
    expect(errorOf(() => parseQuery('(a'))).toBe("P08: syntax error, unexpected $end near ''");
    expect(errorOf(() => parseQuery('"a b'))).toBe("P08: syntax error, unexpected $end near ''");
    expect(errorOf(() => parseQuery('MAYBE a'))).toBe("P08: syntax error, unexpected TOK_MAYBE near 'MAYBE a'");
    expect(errorOf(() => parseQuery('@title @body a'))).toBe("P08: syntax error, unexpected TOK_FIELDLIMIT near ' @body a'");
    expect(errorOf(() => parseQuery('a <<< b'))).toBe("P08: syntax error, unexpected TOK_BEFORE near '<< b'");
  });

  it('lists the expected tokens where bison does', () => {
    expect(errorOf(() => parseQuery('"a b"~'))).toBe("P08: syntax error, unexpected $end, expecting TOK_INT near ''");
    expect(errorOf(() => parseQuery('"a b"~3x'))).toBe("P08: syntax error, unexpected TOK_KEYWORD, expecting TOK_INT near '3x'");
    expect(errorOf(() => parseQuery('"a b"/x'))).toBe("P08: syntax error, unexpected TOK_KEYWORD, expecting TOK_INT or TOK_FLOAT near 'x'");
  });

  it('accepts only short numbers after ~ and /', () => {
    expect(errorOf(() => parseQuery('"a b"~1234567890'))).toContain('unexpected TOK_KEYWORD, expecting TOK_INT');
    expect(tree('"a b"~123456789')).toEqual({ kind: 'proximity', terms: [t('a'), t('b')], distance: 123456789 });
  });

  it('ignores a syntax error when nothing but junk was read', () => {
    expect(tree(',;.')).toEqual(or());
  });
});

describe('argument checks', () => {
  it('rejects quorum, proximity and NEAR arguments out of range', () => {
    expect(errorOf(() => parseQuery('"one two"/0'))).toBe('query error: quorum threshold too low (0)');
    expect(errorOf(() => parseQuery('"one two"/1.5'))).toBe('query error: quorum threshold out of bounds 0.0 and 1.0f (1.500000)');
    expect(errorOf(() => parseQuery('"a b"~0'))).toBe('query error: proximity threshold too low (0)');
    expect(errorOf(() => parseQuery('a NEAR/0 b'))).toBe('query error: NEAR distance too low (0)');
  });

  it('does not check a phrase that became one word', () => {
    expect(tree('"a"/0')).toEqual(t('a'));
  });
});

describe('field and zone operator errors', () => {
  const fields = ['title', 'body'];
  it('rejects unknown fields when the schema is known', () => {
    expect(errorOf(() => parseQuery('@nosuch hello', { fields }))).toBe("query error: no field 'nosuch' found in schema");
    expect(errorOf(() => parseQuery('@(title,nosuch) hello', { fields }))).toBe("query error: no field 'nosuch' found in schema");
    expect(tree('@nosuch hello')).toEqual(t('hello', { field: { fields: ['nosuch'], exclude: false } }));
  });

  it('rejects malformed field lists', () => {
    expect(errorOf(() => parseQuery('@(title, body) a'))).toBe("query error: error parsing field list: invalid field block operator syntax near ' body) a'");
    expect(errorOf(() => parseQuery('@(ti#tle) a'))).toBe("query error: error parsing field list: invalid character '#' in field block operator");
    expect(errorOf(() => parseQuery('@(title'))).toBe("query error: error parsing field list: missing closing ')' in field block operator");
  });

  it('rejects malformed zone lists', () => {
    expect(errorOf(() => parseQuery('ZONE:(h1 h2) a'))).toBe("query error: unexpected character ' ' in zone block operator");
    // Manticore formats the end of the text with %c, whose NUL ends its message early.
    expect(errorOf(() => parseQuery('ZONE:(h1'))).toBe("query error: unexpected character '");
  });

  it('throws only SearchError with code PARSE_ERROR', () => {
    try {
      parseQuery('IT/Tech');
    } catch (e) {
      expect(e).toBeInstanceOf(SearchError);
      expect((e as SearchError).code).toBe('PARSE_ERROR');
    }
  });
});
