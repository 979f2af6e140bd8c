import { describe, expect, it } from 'vitest';
import { selectItemName } from '../../../src/sql/select-parser.js';
import { errorOf, one } from './helpers.js';

const names = (sql: string): string[] => one(sql, 'select').items.map((i) => i.name);

describe('select list', () => {
  it('names columns by the text as typed, lower-cased up to the first . , [ (sphColumnToLowercase)', () => {
    expect(names('SELECT HIGHLIGHT({limit=50}) FROM books')).toEqual(['highlight({limit=50})']);
    expect(names("SELECT HIGHLIGHT({},'title', 'five') FROM books")).toEqual(["highlight({},'title', 'five')"]);
    expect(names("SELECT HIGHLIGHT({},TO_STRING('Some Text'), 'x') FROM b")).toEqual(["highlight({},TO_STRING('Some Text'), 'x')"]);
    expect(names("SELECT HIGHLIGHT({before_match='<B>'}) FROM b")).toEqual(["highlight({before_match='<B>'})"]);
    expect(names('SELECT COUNT(*), WEIGHT(), Id, j.Foo FROM t')).toEqual(['count(*)', 'weight()', 'id', 'j.Foo']);
    expect(names('SELECT COUNT(DISTINCT Gid) FROM t')).toEqual(['count(distinct gid)']);
  });

  it('reads GROUP_CONCAT\'s SEPARATOR and ORDER BY ... LIMIT forms (sphinxql.y)', () => {
    const s = one("SELECT GROUP_CONCAT(a SEPARATOR '; '), GROUP_CONCAT(b ORDER BY c DESC, d SEPARATOR '' LIMIT 3) FROM t GROUP BY e", 'select');
    expect((s.items[0]!.expr as { concat?: unknown }).concat).toEqual({ separator: '; ' });
    const limited = (s.items[1]!.expr as { concat?: { order: { desc: boolean }[]; separator: string; limit: number } }).concat!;
    expect([limited.order.map((o) => o.desc), limited.separator, limited.limit]).toEqual([[true, false], '', 3]);
    expect(s.items[1]!.name).toBe("group_concat(b order by c desc, d SEPARATOR '' LIMIT 3)");
    expect(errorOf('SELECT GROUP_CONCAT(b ORDER BY c) FROM t')).toContain("expecting LIMIT");
    expect(errorOf("SELECT GROUP_CONCAT(b LIMIT 2 SEPARATOR ',') FROM t")).toContain('syntax error');
  });

  it('takes a clause word as the alias after AS only (bugs/3489-fuzzy-option-alias-bug.rec)', () => {
    const s = one("SELECT IF(field = 1, 1, 0) AS option FROM t WHERE MATCH('test') OPTION cutoff=0", 'select');
    expect(s.items.map((i) => i.alias)).toEqual(['option']);
    expect(s.options.map((o) => o.name)).toEqual(['cutoff']);
    expect(one('SELECT id FROM t OPTION ranker=none', 'select').items.map((i) => i.alias)).toEqual([undefined]);
  });

  it('lower-cases aliases, with or without AS', () => {
    const s = one('SELECT id, weight() W, title AS Tt, `x` AS `Y` FROM t', 'select');
    expect(s.items.map((i) => [i.name, i.alias])).toEqual([['id', undefined], ['w', 'w'], ['tt', 'tt'], ['y', 'y']]);
  });

  it('exposes selectItemName for other callers', () => {
    expect(selectItemName("SNIPPET(Body,'Q')")).toBe("snippet(body,'Q')");
    // the cut happens even inside quotes, as in Manticore
    expect(selectItemName("F('A[b]', X)")).toBe("f('A[b]', X)");
  });

  it('parses stars, calls with option maps and arithmetic', () => {
    const s = one("SELECT *, t.*, highlight({limit=50, html_strip_mode=retain, around=-1}, title), a*2+1 AS x FROM t", 'select');
    expect(s.items[0]!.expr).toEqual({ kind: 'star', text: '*' });
    expect(s.items[1]!.expr).toEqual({ kind: 'star', table: 't', text: 't.*' });
    expect(s.items[2]!.expr).toMatchObject({
      kind: 'call', name: 'highlight',
      args: [
        { kind: 'map', entries: [
          { name: 'limit', value: { kind: 'int', value: 50 } },
          { name: 'html_strip_mode', value: { kind: 'ident', name: 'retain' } },
          { name: 'around', value: { kind: 'int', value: -1 } },
        ] },
        { kind: 'column', name: 'title', path: [] },
      ],
    });
    expect(s.items[3]!.expr).toMatchObject({
      kind: 'binary', op: '+', text: 'a*2+1',
      left: { kind: 'binary', op: '*', left: { kind: 'column', name: 'a' }, right: { kind: 'literal' } },
    });
  });

  it('follows Manticore precedence: OR < AND < | < & < = < comparison < + < * < NOT < unary minus', () => {
    const e = one('SELECT a OR b AND c = d + e * -f FROM t', 'select').items[0]!.expr;
    expect(e).toMatchObject({
      kind: 'binary', op: 'or',
      right: { kind: 'binary', op: 'and', right: { kind: 'binary', op: '=', right: {
        kind: 'binary', op: '+', right: { kind: 'binary', op: '*', right: { kind: 'unary', op: '-' } },
      } } },
    });
    expect(one('SELECT NOT a + b FROM t', 'select').items[0]!.expr).toMatchObject({
      kind: 'binary', op: '+', left: { kind: 'unary', op: 'not' },
    });
    expect(one('SELECT 7 DIV 2, 7 MOD 2 FROM t', 'select').items.map((i) => (i.expr as { op: string }).op)).toEqual(['div', 'mod']);
  });

  it('parses JSON paths, IN() and IS NULL inside expressions', () => {
    const s = one("SELECT j.a[0].`b c`['d'], j.x IN (1,2), j.y IS NOT NULL FROM t", 'select');
    expect(s.items[0]!.expr).toEqual({ kind: 'column', name: 'j', path: ['a', 0, 'b c', 'd'], text: "j.a[0].`b c`['d']" });
    expect(s.items[1]!.expr).toMatchObject({ kind: 'call', name: 'in', args: [{ kind: 'column', name: 'j', path: ['x'] }, {}, {}] });
    expect(s.items[2]!.expr).toMatchObject({ kind: 'is_null', negate: true });
  });

  it('accepts keywords that Manticore allows as column names', () => {
    expect(names('SELECT values, status, `select` FROM t')).toEqual(['values', 'status', 'select']);
  });
});

describe('SELECT without FROM', () => {
  it.each([
    ['select @@version_comment limit 1', { kind: 'variable', name: 'version_comment', system: true }, '@@version_comment'],
    ['SELECT DATABASE()', { kind: 'call', name: 'database', args: [] }, 'database()'],
    ['SELECT USER()', { kind: 'call', name: 'user', args: [] }, 'user()'],
    ['SELECT 1', { kind: 'literal', value: { kind: 'int', value: 1 } }, '1'],
    ['select @@session.auto_increment_increment', { kind: 'variable', name: 'session.auto_increment_increment' }, '@@session.auto_increment_increment'],
  ])('%s', (sql, expr, name) => {
    const s = one(sql, 'select');
    expect(s.tables).toEqual([]);
    expect(s.items[0]).toMatchObject({ expr, name });
  });

  it('keeps the LIMIT', () => {
    expect(one('select @@version_comment limit 1', 'select').limit).toBe(1);
  });
});

describe('FROM, ORDER BY, LIMIT, GROUP BY, OPTION', () => {
  it('reads tables, a Manticore. prefix and an alias', () => {
    expect(one('SELECT * FROM t1, T2', 'select').tables).toEqual(['t1', 'T2']);
    expect(one('SELECT * FROM Manticore.t', 'select').tables).toEqual(['t']);
    // backquoted, as MySQL clients quote it (CLT expected-errors/buddy-plugin-select.rec)
    expect(one('SELECT * FROM `manticore`.t', 'select').tables).toEqual(['t']);
    expect(one('SELECT * FROM `Manticore`.`t`', 'select').tables).toEqual(['t']);
    expect(one('SELECT * FROM t AS x', 'select').tableAlias).toBe('x');
  });

  it('reads ORDER BY keys with directions (asc by default)', () => {
    const s = one('SELECT id FROM t ORDER BY weight() DESC, id ASC, price', 'select');
    expect(s.orderBy!.map((o) => [o.expr.text, o.direction])).toEqual([
      ['weight()', 'desc'], ['id', 'asc'], ['price', 'asc'],
    ]);
    // ORDER BY RAND() is a clause of its own in sphinxql.y, never one key of several
    expect(one('SELECT id FROM t ORDER BY RAND() LIMIT 3', 'select').orderBy!.map((o) => o.expr.text)).toEqual(['RAND()']);
  });

  it.each([
    ['LIMIT 5', 5, undefined], ['LIMIT 25, 3', 3, 25], ['LIMIT 5 OFFSET 10', 5, 10], ['LIMIT -5', -5, undefined],
  ])('%s', (clause, limit, offset) => {
    const s = one(`SELECT * FROM t ${clause}`, 'select');
    expect([s.limit, s.offset]).toEqual([limit, offset]);
  });

  it('reads GROUP BY, GROUP N BY, WITHIN GROUP ORDER BY and HAVING', () => {
    const s = one('SELECT gid, COUNT(*) c FROM t GROUP 3 BY gid, j.k WITHIN GROUP ORDER BY price DESC HAVING c > 1', 'select');
    expect(s.groupBy!.map((g) => g.text)).toEqual(['gid', 'j.k']);
    expect(s.groupLimit).toBe(3);
    expect(s.withinGroupOrderBy).toMatchObject([{ expr: { name: 'price' }, direction: 'desc' }]);
    expect(s.having).toMatchObject({ kind: 'compare', op: '>', target: { expr: { name: 'c' } } });
  });

  it('rejects WITHIN GROUP ORDER BY without GROUP BY', () => {
    expect(errorOf('SELECT * FROM t WITHIN GROUP ORDER BY id')).toBe(
      "P01: you must specify GROUP BY element in order to use WITHIN GROUP ORDER BY clause near ''",
    );
  });

  it('reads OPTION values of every form', () => {
    const s = one(
      "SELECT * FROM t OPTION Ranker=BM25, field_weights=(title=10, body=-3, x=1.5), max_matches=100, comment='hi', ranker=expr('sum(lcs)') OPTION cutoff=0",
      'select',
    );
    expect(s.options).toEqual([
      { name: 'ranker', value: { kind: 'ident', name: 'BM25' } },
      { name: 'field_weights', value: { kind: 'list', entries: [
        { name: 'title', value: { kind: 'int', value: 10, text: '10' } },
        { name: 'body', value: { kind: 'int', value: -3, text: '-3' } },
        { name: 'x', value: { kind: 'float', value: 1.5, text: '1.5' } },
      ] } },
      { name: 'max_matches', value: { kind: 'int', value: 100, text: '100' } },
      { name: 'comment', value: { kind: 'string', value: 'hi' } },
      { name: 'ranker', value: { kind: 'call', name: 'expr', arg: 'sum(lcs)' } },
      { name: 'cutoff', value: { kind: 'int', value: 0, text: '0' } },
    ]);
  });

  it('rejects trailing garbage and bad LIMITs', () => {
    expect(errorOf('SELECT * FROM t LIMIT x')).toBe("P01: syntax error, unexpected identifier, expecting integer or '-' near 'x'");
    expect(errorOf('SELECT * FROM t LIMIT 1, -2')).toBe("P01: syntax error, unexpected '-', expecting integer near '-2'");
    expect(errorOf('SELECT FROM t')).toBe("P01: syntax error, unexpected FROM near 'FROM t'");
  });
});

describe('FACET clauses', () => {
  it('reads items, aliases, BY, DISTINCT, ORDER BY and LIMIT of each FACET after OPTION', () => {
    const s = one('SELECT * FROM t LIMIT 5 OPTION max_matches=10 FACET brand_name AS b, cat BY brand_id DISTINCT price ORDER BY FACET() ASC LIMIT 2, 4 FACET price', 'select');
    expect(s.options).toMatchObject([{ name: 'max_matches' }]);
    expect(s.facets).toHaveLength(2);
    expect(s.facets![0]).toMatchObject({
      items: [{ alias: 'b', name: 'b' }, { name: 'cat' }], by: [{ kind: 'column', name: 'brand_id' }], distinct: 'price',
      orderBy: [{ expr: { kind: 'call', name: 'facet' }, direction: 'asc' }], offset: 2, limit: 4,
    });
    expect(s.facets![1]).toMatchObject({ items: [{ name: 'price' }] });
  });

  it('records filter-scope clauses and does not take their words as aliases', () => {
    const s = one('SELECT * FROM t FACET a ALL FILTERS FACET b EXCLUDE FILTERS a, c ZEROES FACET c MODE max', 'select');
    expect(s.facets!.map((f) => [f.items[0]!.alias, f.scope])).toEqual([[undefined, 'ALL FILTERS'], [undefined, 'EXCLUDE FILTERS ZEROES'], [undefined, 'MODE']]);
    expect(s.facets!.map((f) => [f.filters, f.zeroes, f.mode])).toEqual([
      [{ kind: 'all', attrs: [] }, undefined, undefined], [{ kind: 'exclude', attrs: ['a', 'c'] }, true, undefined], [undefined, undefined, 'max'],
    ]);
    expect(errorOf('SELECT * FROM t FACET a MODE wide')).toContain("unknown FACET mode 'wide' (supported: strict, auto, max)");
  });
});
