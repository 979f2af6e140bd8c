import { describe, expect, it } from 'vitest';
import type { QueryNode } from '../../../src/query/ast.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { and, f, not, or, phrase, strip, t, tree } from './helpers.js';

describe('boolean operators and precedence', () => {
  it('reads words as an implicit AND, keeping their typed form', () => {
    expect(tree('Hello  World')).toEqual(and(t('Hello'), t('World')));
  });

  it('binds OR tighter than the implicit AND', () => {
    expect(tree('a | b c')).toEqual(and(or(t('a'), t('b')), t('c')));
    expect(tree('looking for cat | dog | mouse')).toEqual(and(t('looking'), t('for'), or(t('cat'), t('dog'), t('mouse'))));
  });

  it("ORs words without an operator under boolean_mode='or', but keeps NOT an AND", () => {
    expect(tree('a b (c d)', { defaultOr: true })).toEqual(or(t('a'), t('b'), t('c'), t('d')));
    expect(tree('a b -c', { defaultOr: true })).toEqual(and(or(t('a'), t('b')), not(t('c'))));
  });

  it('groups with parentheses and flattens nested ANDs and ORs', () => {
    expect(tree('a (b | (c | d)) (e (f g))')).toEqual(and(t('a'), or(t('b'), t('c'), t('d')), t('e'), t('f'), t('g')));
    expect(tree('((a))')).toEqual(t('a'));
  });

  it('lets NOT apply to a whole OR list', () => {
    expect(tree('x -a | b')).toEqual(and(t('x'), not(or(t('a'), t('b')))));
    expect(tree('x !a')).toEqual(and(t('x'), not(t('a'))));
  });

  it('puts NOT children after the positive ones of an AND', () => {
    expect(tree('a -b c')).toEqual(and(t('a'), t('c'), not(t('b'))));
    expect(tree('-war -hallo hello')).toEqual(and(t('hello'), not(t('war')), not(t('hallo'))));
  });

  it('treats a dash inside a word as a separator, not as NOT', () => {
    expect(tree('a-b')).toEqual(and(t('a'), t('b')));
    expect(tree('-a-b c')).toEqual(and(t('b'), t('c'), not(t('a'))));
  });

  it('reads MAYBE at OR level, left to right', () => {
    expect(tree('a MAYBE b MAYBE c')).toEqual({ kind: 'maybe', left: { kind: 'maybe', left: t('a'), right: t('b') }, right: t('c') });
    expect(tree('a | b MAYBE c')).toEqual({ kind: 'maybe', left: or(t('a'), t('b')), right: t('c') });
    expect(tree('a maybe b')).toEqual(and(t('a'), t('maybe'), t('b')));
  });

  it('reads strict order << below the implicit AND', () => {
    expect(tree(' aaa << bbb << ccc ')).toEqual({ kind: 'order', children: [t('aaa'), t('bbb'), t('ccc')] });
    expect(tree('x a << b')).toEqual(and(t('x'), { kind: 'order', children: [t('a'), t('b')] }));
    expect(tree('(ccc | "ddd eee") << (ddd | ggg)')).toEqual({
      kind: 'order', children: [or(t('ccc'), phrase(['ddd', 'eee'])), or(t('ddd'), t('ggg'))],
    });
    expect(tree('a < b')).toEqual(and(t('a'), t('b')));
  });

  it('reads NEAR/N (case-sensitive), merging a chain with one distance', () => {
    expect(tree('a NEAR/3 b NEAR/3 c')).toEqual({ kind: 'near', distance: 3, children: [t('a'), t('b'), t('c')] });
    expect(tree('a NEAR/3 b NEAR/4 c')).toEqual({
      kind: 'near', distance: 4, children: [{ kind: 'near', distance: 3, children: [t('a'), t('b')] }, t('c')],
    });
    expect(() => tree('a near/3')).toThrow("P08: syntax error, unexpected '/' near '/3'");
  });

  it('spreads a group operand of NEAR into the chain', () => {
    expect(tree('(a b) NEAR/3 c')).toEqual({ kind: 'near', distance: 3, children: [t('a'), t('b'), t('c')] });
    expect(tree('a b NEAR/3 c')).toEqual(and(t('a'), { kind: 'near', distance: 3, children: [t('b'), t('c')] }));
  });

  it('reads NOTNEAR/N between atoms', () => {
    expect(tree('church NOTNEAR/3 street')).toEqual({ kind: 'near', distance: 3, negate: true, children: [t('church'), t('street')] });
  });

  it('reads SENTENCE and PARAGRAPH over words and phrases', () => {
    expect(tree('all SENTENCE words SENTENCE "in one sentence"')).toEqual({
      kind: 'sentence', children: [t('all'), t('words'), phrase(['in', 'one', 'sentence'])],
    });
    expect(tree('"Bill Gates" PARAGRAPH "Steve Jobs"')).toEqual({
      kind: 'paragraph', children: [phrase(['Bill', 'Gates']), phrase(['Steve', 'Jobs'])],
    });
  });
});

describe('phrases, proximity, quorum', () => {
  it('reads phrases, with * as a one-word gap', () => {
    expect(tree('"exact * phrase * * for terms"')).toEqual(phrase(['exact', 'phrase', 'for', 'terms'], [0, 2, 5, 6]));
    expect(tree('"a *b"')).toEqual({ kind: 'phrase', terms: [t('a'), t('*b', { wildcard: true })], offsets: [0, 1] });
    // without prefixes or infixes a `*` reaches a word only as a word character (blend_chars): no wildcard
    expect(tree('bbb*ccc', { wildcards: false, isWordChar: (cp) => cp === 0x2a || (cp >= 0x61 && cp <= 0x7a) })).toEqual(t('bbb*ccc'));
  });

  it('turns separators and operators inside quotes into word breaks', () => {
    expect(tree('"a-b @c/d"')).toEqual(phrase(['a', 'b', 'c', 'd']));
  });

  it('makes a one-word phrase a plain word', () => {
    expect(tree('"word"')).toEqual(t('word'));
    expect(tree('"a"~5')).toEqual(t('a'));
  });

  it('expands OR groups inside a phrase into an OR of phrases', () => {
    expect(tree('"door (opened | closed)"')).toEqual(or(phrase(['door', 'opened']), phrase(['door', 'closed'])));
    expect(tree('"( ( a b c ) | d ) e"')).toEqual(or(phrase(['a', 'b', 'c', 'e']), phrase(['d', 'e'])));
    expect(tree('"(a | b)"')).toEqual(or(t('a'), t('b')));
  });

  it('reads proximity', () => {
    expect(tree('"hello world"~10')).toEqual({ kind: 'proximity', terms: [t('hello'), t('world')], distance: 10 });
    expect(tree('"a b" ~ 3')).toEqual({ kind: 'proximity', terms: [t('a'), t('b')], distance: 3 });
  });

  it('reads an integer quorum', () => {
    expect(tree('"the world is a wonderful place"/3')).toEqual({
      kind: 'quorum', threshold: 3, terms: ['the', 'world', 'is', 'a', 'wonderful', 'place'].map((w) => t(w)),
    });
  });

  it('truncates a fractional quorum to a percentage in float32 (0.59 -> 58)', () => {
    const words = ['five', 'tree', 'oak', 'one', 'two', 'hive'];
    expect(tree('"five tree oak one two hive"/0.59')).toEqual({ kind: 'quorum', threshold: 3, fraction: 0.59, terms: words.map((w) => t(w)) });
    expect(tree('"five tree oak one two hive"/0.60')).toEqual({ kind: 'quorum', threshold: 4, fraction: 0.6, terms: words.map((w) => t(w)) });
  });

  it('makes a quorum of one an OR', () => {
    expect(tree('"hello heaven"/1')).toEqual(or(t('hello'), t('heaven')));
    expect(tree('"one world"/0.1')).toEqual(or(t('one'), t('world')));
  });

  it('replaces a quorum whose threshold reaches the word count with AND, with the warning', () => {
    const r = parseQuery('"o* t*"/2');
    expect(strip(r.root)).toEqual(and(t('o*', { wildcard: true }), t('t*', { wildcard: true })));
    expect(r.warnings).toEqual(['quorum threshold too high (words=2, thresh=2); replacing quorum operator with AND operator']);
    expect(parseQuery('"a b"/1.0').warnings).toEqual([]);
    expect(parseQuery('"a"/3').warnings).toEqual(['quorum threshold too high (words=1, thresh=3); replacing quorum operator with AND operator']);
  });

  it('reads exact phrases and words', () => {
    expect(tree('raining =cats and ="big dogs"')).toEqual(and(
      t('raining'), t('cats', { exact: true }), t('and'),
      { kind: 'phrase', terms: [t('big', { exact: true }), t('dogs', { exact: true })], offsets: [0, 1] },
    ));
  });

  it('reads nothing from empty quotes and parentheses', () => {
    expect(tree('a "" ()')).toEqual(t('a'));
    expect(tree('""')).toEqual(or());
  });
});

describe('keyword modifiers and wildcards', () => {
  it('reads field start, field end and boost', () => {
    expect(tree('^hello world$')).toEqual(and(t('hello', { fieldStart: true }), t('world', { fieldEnd: true })));
    expect(tree('boosted^1.234 boostedfieldend$^1.5')).toEqual(and(
      t('boosted', { boost: Math.fround(1.234) }), t('boostedfieldend', { fieldEnd: true, boost: 1.5 }),
    ));
    expect(tree('keywords^2$')).toEqual(t('keywords', { boost: 2 }));
    expect(tree('"^hello world$"')).toEqual({ kind: 'phrase', terms: [t('hello', { fieldStart: true }), t('world', { fieldEnd: true })], offsets: [0, 1] });
  });

  it('warns when a modifier precedes an operator', () => {
    expect(parseQuery('^"a b"').warnings).toEqual(['query warning: modifiers must be applied to keywords, not operators']);
  });

  it('marks words with * ? % as wildcards, unless the table has none', () => {
    expect(tree('nation* *nation* t?st tes%')).toEqual(and(
      t('nation*', { wildcard: true }), t('*nation*', { wildcard: true }), t('t?st', { wildcard: true }), t('tes%', { wildcard: true }),
    ));
    expect(tree('a*b', { wildcards: false })).toEqual(and(t('a'), t('b')));
  });
});

describe('escaping and separators', () => {
  it('makes an escaped operator a separator', () => {
    expect(tree('IT\\/Tech')).toEqual(and(t('IT'), t('Tech')));
    expect(tree('\\-a')).toEqual(t('a'));
    expect(tree('r\\&b \\(official\\)')).toEqual(and(t('r'), t('b'), t('official')));
  });

  it('keeps an escaped character that the charset holds', () => {
    const withDash = (cp: number): boolean => cp === 45 || /[a-z]/i.test(String.fromCodePoint(cp));
    expect(tree('IT\\-Tech', { isWordChar: withDash })).toEqual(t('IT-Tech'));
    expect(tree('.я', { isWordChar: (cp) => cp === 46 || cp > 127 })).toEqual(t('.я'));
  });

  it('splits words on characters outside the charset', () => {
    expect(tree('foo_bar don\'t 3.14')).toEqual(and(t('foo'), t('bar'), t('don'), t('t'), t('3'), t('14')));
  });
});

describe('field limits', () => {
  it('applies a field limit to what follows, up to the end of the group', () => {
    expect(tree('@title hello @body world')).toEqual(and(t('hello', { field: f('title') }), t('world', { field: f('body') })));
    expect(tree('(@title a b) c')).toEqual(and(t('a', { field: f('title') }), t('b', { field: f('title') }), t('c')));
    expect(tree('@title a (@body b) c')).toEqual(and(t('a', { field: f('title') }), t('b', { field: f('body') }), t('c', { field: f('title') })));
    expect(tree('@title "a b"')).toEqual(phrase(['a', 'b'], undefined, f('title')));
  });

  it('reads lists, exclusions, all fields and positions', () => {
    expect(tree('@(title,body) x')).toEqual(t('x', { field: f('title', 'body') }));
    expect(tree('@!title x')).toEqual(t('x', { field: { fields: ['title'], exclude: true } }));
    expect(tree('@!(title,body) x')).toEqual(t('x', { field: { fields: ['title', 'body'], exclude: true } }));
    expect(tree('@* x')).toEqual(t('x', { field: { fields: [], exclude: false } }));
    expect(tree('@body[50] hello')).toEqual(t('hello', { field: { fields: ['body'], exclude: false, maxPos: 50 } }));
  });

  it('checks names against the schema, case-insensitively, and spells them as the schema does', () => {
    expect(tree('@TITLE x', { fields: ['title'] })).toEqual(t('x', { field: f('title') }));
  });

  it('drops nodes limited to no field, except the root', () => {
    expect(tree('a @!(title,body) b', { fields: ['title', 'body'] })).toEqual(t('a'));
    expect(tree('@@relaxed @nosuch hello', { fields: ['title'] })).toEqual(t('hello', { field: { fields: ['title'], exclude: true } }));
    expect(parseQuery('@@relaxed @nosuch hello', { fields: ['title'] }).warnings).toEqual(["query warning: no field 'nosuch' found in schema"]);
  });

  it('ignores an @ that is not followed by a name', () => {
    expect(tree('a @# b')).toEqual(and(t('a'), t('b')));
  });
});

describe('zones', () => {
  const zone = (zones: string[], child: QueryNode, span = false): QueryNode => ({ kind: 'zone', zones, span, child });

  it('limits each keyword or phrase to the zones that apply to it', () => {
    expect(tree('ZONE:(h3,h4) only "in these"')).toEqual(and(zone(['h3', 'h4'], t('only')), zone(['h3', 'h4'], phrase(['in', 'these']))));
    expect(tree('a ZONE:h1 b ZONE:h2 c')).toEqual(and(t('a'), zone(['h1'], t('b')), zone(['h2'], t('c'))));
    expect(tree('(ZONE:h1 a) b')).toEqual(and(zone(['h1'], t('a')), t('b')));
  });

  it('keeps an AND of keywords under one ZONESPAN together (one span), as Manticore does', () => {
    expect(tree('ZONESPAN:th hello world')).toEqual(zone(['th'], and(t('hello'), t('world')), true));
    expect(tree('x (ZONESPAN:th a b)')).toEqual(and(t('x'), zone(['th'], and(t('a'), t('b')), true)));
    // A group on the left merges into the AND that follows it: the span condition is gone.
    expect(tree('(ZONESPAN:th a b) c')).toEqual(and(zone(['th'], t('a'), true), zone(['th'], t('b'), true), t('c')));
  });
});

describe('empty and vanished queries', () => {
  it('makes the empty string, and one of only spaces, an EmptyNode (full scan)', () => {
    expect(parseQuery('')).toEqual({ root: { kind: 'empty' }, warnings: [] });
    // searchd: no token read and no tree, so the query was not full-text (XQParser m_bEmpty): a full scan
    expect(parseQuery('   ')).toEqual({ root: { kind: 'empty' }, warnings: [] });
    expect(parseQuery(' \t\n ')).toEqual({ root: { kind: 'empty' }, warnings: [] });
  });

  it('makes a query whose words all vanish match nothing', () => {
    expect(tree('()')).toEqual(or()); // a token was read: full-text, with nothing left
    expect(tree('@value \\!@#$%', { fields: ['value'], wildcards: false })).toEqual(or());
    expect(tree('the', { isNullWord: (w) => w === 'the' })).toEqual(or());
  });

  it('sweeps vanished words out of the tree', () => {
    const stop = { isNullWord: (w: string) => w === 'the' };
    expect(tree('the cat | the', stop)).toEqual(t('cat'));
    expect(tree('"cat the dog"', stop)).toEqual(phrase(['cat', 'dog'], [0, 2]));
    expect(tree('hello | ,')).toEqual(t('hello'));
  });

  it('lets a NOT left alone by a vanished word match nothing (Manticore quirk)', () => {
    expect(tree('-word ,')).toEqual(or());
    expect(tree('the -word', { isNullWord: (w) => w === 'the' })).toEqual(or());
  });
});

describe('query positions', () => {
  it('numbers words from 1, skipping operators', () => {
    const r = parseQuery('a NEAR/2 b SENTENCE c << d');
    const pos = JSON.stringify(r.root).match(/"pos":\d+/g);
    expect(pos).toEqual(['"pos":1', '"pos":2', '"pos":3', '"pos":4']);
  });

  it('counts the number after ~ and / as a position, as Manticore does', () => {
    const r = parseQuery('"hello world"/1 foo');
    expect(r.root).toEqual(and(or(t('hello', { pos: 1 }), t('world', { pos: 2 })), t('foo', { pos: 4 })));
  });

  it('gives skipped junk a position', () => {
    expect(parseQuery('hello — world').root).toEqual(and(t('hello', { pos: 1 }), t('world', { pos: 3 })));
  });
});

describe('trees Manticore shows in EXPLAIN QUERY / SHOW PLAN (test_022, test_222, test_397)', () => {
  it('keeps the word after a quorum at the position after its number', () => {
    const r = parseQuery('"foo bar baz"/24 mois');
    expect(r.root).toEqual(and(t('foo', { pos: 1 }), t('bar', { pos: 2 }), t('baz', { pos: 3 }), t('mois', { pos: 5 })));
    expect(r.warnings).toEqual(['quorum threshold too high (words=3, thresh=24); replacing quorum operator with AND operator']);
  });

  it('reads escaped modifiers as separators', () => {
    // SQL MATCH('\\^one\\$') is the query text \^one\$.
    expect(parseQuery('\\^one\\$').root).toEqual(t('one', { pos: 1 }));
  });

  it('numbers words and limits fields as Manticore does', () => {
    expect(parseQuery('(running | he ) !dog').root).toEqual(and(or(t('running', { pos: 1 }), t('he', { pos: 2 })), not(t('dog', { pos: 3 }))));
    expect(parseQuery('her @!title box @(title,content) with me', { fields: ['title', 'content'] }).root).toEqual(and(
      t('her', { pos: 1 }),
      t('box', { pos: 2, field: { fields: ['title'], exclude: true } }),
      t('with', { pos: 3, field: f('title', 'content') }),
      t('me', { pos: 4, field: f('title', 'content') }),
    ));
  });
});
