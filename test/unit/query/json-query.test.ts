import { describe, expect, it } from 'vitest';
import type { QueryNode } from '../../../src/query/ast.js';
import { boolOf, finishQuery, fullTextNode, hasFullText, isFullTextProperty } from '../../../src/query/json-query.js';
import { and, errorOf, f, not, or, phrase, strip, t } from './helpers.js';

const fields = ['title', 'content'];
const node = (name: string, value: unknown, path?: string): QueryNode => strip(fullTextNode(name, value, { fields, path }).node!);
const all = { fields: [], exclude: false };

describe('match', () => {
  it('ORs the words by default, limited to the named field', () => {
    expect(node('match', { content: '3rd fourth' })).toEqual(or(t('3rd', { field: f('content') }), t('fourth', { field: f('content') })));
  });

  it('reads "*" and "_all" as all fields and "a,b" as a list', () => {
    expect(node('match', { '*': 'one' })).toEqual(t('one', { field: all }));
    expect(node('match', { _all: 'one' })).toEqual(t('one', { field: all }));
    expect(node('match', { 'content,title': 'one' })).toEqual(t('one', { field: f('content', 'title') }));
  });

  it('splits on operator characters without reading them as operators', () => {
    expect(node('match', { '*': 'one|robots -x "y"' })).toEqual(or(...['one', 'robots', 'x', 'y'].map((w) => t(w, { field: all }))));
  });

  it('takes the object form with operator and boost', () => {
    expect(node('match', { 'content,title': { query: 'glanced on', operator: 'and' } }))
      .toEqual(and(t('glanced', { field: f('content', 'title') }), t('on', { field: f('content', 'title') })));
    expect(node('match', { title: { query: 'a', boost: 2 } })).toEqual(t('a', { field: f('title'), boost: 2 }));
  });

  it('matches nothing when no word is left', () => {
    expect(node('match', { title: ' ,; ' })).toEqual(or());
  });

  it('gives positions from 1 in every match', () => {
    expect(fullTextNode('match', { title: 'a b' }).node).toEqual(or(t('a', { field: f('title'), pos: 1 }), t('b', { field: f('title'), pos: 2 })));
  });

  it('falls back to all fields, with a warning, when the name is not a field name', () => {
    const r = fullTextNode('match', { '(title)': 'a' }, { fields });
    expect(r.warnings).toEqual(['query warning: ignoring fields in "(title)", using "_all"']);
    expect(strip(r.node!)).toEqual(t('a', { field: all }));
  });

  it('builds nothing, with a warning, for a value that is neither text nor object', () => {
    expect(fullTextNode('match', { title: 5 })).toEqual({ node: null, warnings: ['query warning: values of properties in "match" should be strings or objects'] });
  });

  it('reports malformed forms with Manticore\'s texts and the JSON path', () => {
    const msg = (value: unknown, path?: string): string => errorOf(() => fullTextNode('match', value, { fields, path }));
    expect(msg({ 'content, title': '1st second' })).toBe("query error: error parsing field list: invalid field block operator syntax near ' title' at '/query/match'");
    expect(msg({ title: 'title smth', operator: 'and' }, '/query/bool/must/bool/should'))
      .toBe('query error: ill-formed "match" property at \'/query/bool/must/bool/should/match\'');
    expect(msg('x')).toBe('query error: "match" value should be an object at \'/query/match\'');
    expect(msg({ title: { operator: 'or' } })).toBe('query error: "query" property missing at \'/query/match\'');
    expect(msg({ title: { query: 1 } })).toBe('query error: "query" property value should be a string at \'/query/match\'');
    expect(msg({ title: { query: '' } })).toBe('query error: "query" property empty at \'/query/match\'');
    expect(msg({ title: { query: 'a', operator: 'xor' } })).toBe('query error: unknown operator: "xor" at \'/query/match\'');
    expect(msg({ nosuch: 'a' })).toBe("query error: no field 'nosuch' found in schema at '/query/match'");
    expect(msg({ 'title,': 'a' })).toBe("query error: empty field passed to AddField() at '/query/match'");
  });
});

describe('match_phrase, match_all, query_string', () => {
  it('reads match_phrase as a phrase of the words', () => {
    expect(node('match_phrase', { content: 'polite distance' })).toEqual(phrase(['polite', 'distance'], undefined, f('content')));
    expect(node('match_phrase', { content: { query: 'one' } })).toEqual(t('one', { field: f('content') }));
  });

  it('renumbers a match_phrase after vanished words, as Manticore does', () => {
    const r = fullTextNode('match_phrase', { title: 'cat the dog' }, { isNullWord: (w) => w === 'the' });
    expect(strip(r.node!)).toEqual(phrase(['cat', 'dog'], [0, 1], f('title')));
  });

  it('reads match_all as an empty node', () => {
    expect(node('match_all', {})).toEqual({ kind: 'empty' });
  });

  it('parses query_string with the full syntax, as a string or {query}', () => {
    expect(node('query_string', 'IT\\/Tech')).toEqual(and(t('IT'), t('Tech')));
    expect(node('query_string', { query: 'a | b' })).toEqual(or(t('a'), t('b')));
    expect(node('query_string', '  ')).toEqual({ kind: 'empty' });
  });

  it('reports query_string errors with a second prefix and the path', () => {
    expect(errorOf(() => fullTextNode('query_string', 'IT/Tech')))
      .toBe("query error: P08: syntax error, unexpected '/' near '/Tech' at '/query/query_string'");
    expect(errorOf(() => fullTextNode('query_string', '-world')))
      .toBe("query error: query error: query is non-computable (single NOT operator) at '/query/query_string'");
    expect(errorOf(() => fullTextNode('query_string', 5))).toBe('query error: "query_string" value should be an string at \'/query/query_string\'');
    expect(errorOf(() => fullTextNode('query_string', { query: '' })))
      .toBe('query error: "query_string" value should be an object with the "query" string at \'/query/query_string\'');
  });

  it('knows which properties are full-text ones', () => {
    expect(['match', 'match_phrase', 'term', 'terms', 'query_string', 'match_all'].every(isFullTextProperty)).toBe(true);
    expect(isFullTextProperty('equals')).toBe(false);
    // Manticore 29 reads term and terms (ConstructNode); wildcard is not one of its nodes
    expect(errorOf(() => fullTextNode('wildcard', {}))).toBe("query error: unknown full-text node 'wildcard' at '/query/wildcard'");
  });
});

describe('bool assembly and the final pass', () => {
  const a = t('a');
  const b = t('b');
  const c = t('c');

  it('combines must, should and must_not as Manticore does', () => {
    expect(boolOf({ must: [a, b] })).toEqual(and(a, b));
    expect(boolOf({ should: [a, b] })).toEqual(or(a, b));
    expect(boolOf({ must: [a], mustNot: [b, c] })).toEqual(and(a, not(or(b, c))));
    expect(boolOf({ must: [a], should: [b] })).toEqual({ kind: 'maybe', left: a, right: b });
    expect(boolOf({})).toBeNull();
    expect(boolOf({ must: [a, null] })).toBeNull();
  });

  it('applies the NOT rules to the assembled tree', () => {
    expect(strip(finishQuery(boolOf({ must: [a], mustNot: [b, c] })).root)).toEqual(and(a, not(or(b, c))));
    expect(errorOf(() => finishQuery(boolOf({ mustNot: [b] }))))
      .toBe('query error: query is non-computable (single NOT operator)');
    expect(strip(finishQuery(boolOf({ mustNot: [b] }), { notTermsOnlyAllowed: true }).root)).toEqual(not(b));
  });

  it('drops match_all and vanished matches from the tree', () => {
    expect(strip(finishQuery(boolOf({ must: [{ kind: 'empty' }, a] })).root)).toEqual(a);
    expect(strip(finishQuery(boolOf({ must: [or(), a] })).root)).toEqual(a);
  });

  it('tells a full scan (no full-text condition) from a query that matches nothing', () => {
    expect(finishQuery({ kind: 'empty' }).root).toEqual({ kind: 'empty' });
    expect(finishQuery(null).root).toEqual({ kind: 'empty' });
    expect(finishQuery(or()).root).toEqual(or());
    expect(hasFullText(and({ kind: 'empty' }, a))).toBe(true);
    expect(hasFullText(not({ kind: 'empty' }))).toBe(false);
  });

  it('keeps query_string trees intact through the final pass', () => {
    const inner = fullTextNode('query_string', '"a b"~3 -c @title d').node!;
    expect(strip(finishQuery(inner, { fields }).root)).toEqual(strip(inner));
  });
});
