import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_NESTING } from '../../../src/sql/cursor.js';
import { parseSql } from '../../../src/sql/parse-sql.js';
import { SearchError } from '../../../src/util/errors.js';
import { errorOf, one } from './helpers.js';

describe('parseSql: statements and separators', () => {
  it('parses several statements and keeps each one source text', () => {
    const s = parseSql("SELECT * FROM t WHERE MATCH('a;b'); SHOW META");
    expect(s.map((x) => x.kind)).toEqual(['select', 'show']);
    expect(s.map((x) => x.text)).toEqual(["SELECT * FROM t WHERE MATCH('a;b')", 'SHOW META']);
  });

  it('allows a trailing semicolon on any statement', () => {
    expect(one('CREATE TABLE t (title text);', 'create_table').table).toBe('t');
    expect(one('TRUNCATE TABLE t;', 'truncate').table).toBe('t');
    expect(parseSql('select 1 from t; show warnings;')).toHaveLength(2);
  });

  it('lets only SELECT ... FROM, SHOW and session SET share a request, as Manticore does', () => {
    expect(parseSql('SELECT id FROM t; SHOW META; SET autocommit=0; SELECT id FROM t2')).toHaveLength(4);
    expect(errorOf('DESCRIBE t; SELECT * FROM t')).toBe("P01: syntax error, unexpected ';' near '; SELECT * FROM t'");
    expect(errorOf('SELECT * FROM t; DESCRIBE t')).toBe("P01: syntax error, unexpected DESCRIBE near 'DESCRIBE t'");
    expect(errorOf('SELECT * FROM t; INSERT INTO t VALUES (1)')).toBe(
      "P01: syntax error, unexpected INSERT near 'INSERT INTO t VALUES (1)'",
    );
  });

  it('skips comments, and a request of comments only is no statement', () => {
    expect(one('/* hi */ SELECT 1 -- tail', 'select').items).toHaveLength(1);
    expect(parseSql('/* nothing */')).toEqual([]);
  });

  it('reports an empty request as Manticore does', () => {
    expect(errorOf('')).toBe('query was empty');
    expect(errorOf('   ')).toBe("P01: syntax error, unexpected $end near ''");
  });
});

describe('parseSql: error texts', () => {
  it('reports an unknown first word from the second grammar (P02)', () => {
    expect(errorOf('SELEKT * FROM t')).toBe("P02: syntax error, unexpected identifier near 'SELEKT * FROM t'");
    expect(errorOf('GRANT ALL ON t')).toBe("P02: syntax error, unexpected identifier near 'GRANT ALL ON t'");
  });

  it('names tokens the way bison does', () => {
    expect(errorOf("INSERT INTO t SET model='x' WHERE id > 105")).toBe(
      "P01: syntax error, unexpected SET, expecting VALUES near 'SET model='x' WHERE id > 105'",
    );
    expect(errorOf('SHOW FULL')).toBe("P01: syntax error, unexpected $end, expecting TABLES near ''");
    expect(errorOf('SHOW QUERIES')).toBe("P01: syntax error, unexpected identifier, expecting VARIABLES near 'QUERIES'");
    expect(errorOf('SELECT * FROM t WHERE a = b')).toBe("P01: syntax error, unexpected identifier near 'b'");
    expect(errorOf('SELECT * FROM t WHERE a = $')).toBe("P01: syntax error, unexpected $undefined near '$'");
    expect(errorOf('SELECT a FROM t WHERE b IN (1, NULL)')).toBe("P01: syntax error, unexpected null near 'NULL)'");
    expect(errorOf('SELECT a FROM t LIMIT 1 2')).toBe("P01: syntax error, unexpected integer near '2'");
  });

  it("rejects '' inside a string as searchd's grammar does: a second string where none may follow", () => {
    expect(errorOf("SELECT 'a''b'")).toBe("P01: syntax error, unexpected string near ''b''");
    expect(errorOf("SELECT * FROM t WHERE MATCH('a''b')")).toBe("P01: syntax error, unexpected string near ''b')'");
    expect(errorOf("SELECT id FROM t WHERE title = 'x''y'")).toBe("P01: syntax error, unexpected string near ''y''");
    expect(errorOf("INSERT INTO t (id, title) VALUES (2, 'it''s')")).toBe("P01: syntax error, unexpected string near ''s')'");
    expect(errorOf("INSERT INTO t (id, title) VALUES (2, 'it''s'), (3, 'x')")).toBe("P01: syntax error, unexpected string near ''s'), (3, 'x')'");
  });

  it('rejects a missing separator between statements', () => {
    expect(errorOf('SHOW META SHOW WARNINGS')).toBe("P01: syntax error, unexpected SHOW near 'SHOW WARNINGS'");
  });

  it('CREATE/DROP of anything but a table gets the main grammar USER error', () => {
    expect(errorOf('CREATE SOURCE s')).toBe("P01: syntax error, unexpected identifier, expecting USER near 'SOURCE s'");
  });

  it('only ever throws SearchError PARSE_ERROR on arbitrary input', () => {
    const alphabet = fc.constantFrom(
      'SELECT', 'FROM', 'WHERE', 'MATCH', '(', ')', "'", '"', '`', ',', ';', '=', '-', '*', '1', '2.5', 'a', 'id',
      'AND', 'OR', 'NOT', 'IN', 'LIMIT', 'OPTION', 'CREATE', 'TABLE', 'text', 'INSERT', 'INTO', 'VALUES', 'SET',
      'SHOW', 'CALL', '{', '}', '[', ']', '.', '@@', '@', '/*', '*/', '--', '#', '\\', ' ', '\n', 'é',
    );
    const sqlish = fc.array(alphabet, { maxLength: 30 }).map((parts) => parts.join(' '));
    fc.assert(fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), sqlish), (text) => {
      try {
        parseSql(text);
      } catch (e) {
        if (!(e instanceof SearchError) || e.code !== 'PARSE_ERROR') throw e;
      }
    }), { numRuns: 300 });
  });

  it('only ever throws SearchError PARSE_ERROR on mutilated real statements', () => {
    const seeds = [
      "select id, weight() w, highlight({limit=50}, title) from t where match('a b') and gid > 5 order by w desc limit 0,10 option ranker=bm25, field_weights=(title=10)",
      "insert into t (id, title, tags) values (1, 'x\\'y', (1,2)), (2, \"z\", ())",
      "create table if not exists t (title text indexed stored, s string attribute indexed, b bit(2), f float) morphology='stem_en'",
      "update t set tags=(1,2), meta.a[0]=1 where id in (1,2) and not (a between 1 and 2)",
      "call snippets(('a','b'), 't', 'q', 5 as around); show meta; set global x=1; truncate rtindex t with reconfigure",
    ];
    const mutation = fc.tuple(fc.constantFrom(...seeds), fc.nat(400), fc.nat(400), fc.string({ maxLength: 4 }));
    fc.assert(fc.property(mutation, ([seed, a, b, junk]) => {
      const i = a % (seed.length + 1);
      const j = Math.min(seed.length, i + (b % 12));
      try {
        parseSql(seed.slice(0, i) + junk + seed.slice(j));
      } catch (e) {
        if (!(e instanceof SearchError) || e.code !== 'PARSE_ERROR') throw e;
      }
    }), { numRuns: 1500 });
  });
});

describe('parseSql: size', () => {
  it('accepts nesting up to MAX_NESTING and reports deeper input instead of overflowing the stack', () => {
    const deep = (n: number, open: string, close: string, core: string) => open.repeat(n) + core + close.repeat(n);
    expect(one(`SELECT ${deep(MAX_NESTING - 1, '(', ')', 'a')} FROM t`, 'select').items[0]!.expr).toMatchObject({ kind: 'column', name: 'a' });
    expect(errorOf(`SELECT ${deep(100000, '(', ')', 'a')} FROM t`)).toMatch(/^P01: memory exhausted near '\(/);
    expect(errorOf(`SELECT * FROM t WHERE ${deep(100000, '(', ')', 'a=1')}`)).toMatch(/^P01: memory exhausted/);
    expect(errorOf(`SELECT * FROM t WHERE ${'NOT '.repeat(100000)} a=1`)).toMatch(/^P01: memory exhausted/);
    expect(errorOf(`SELECT ${'- '.repeat(100000)}1 FROM t`)).toMatch(/^P01: memory exhausted/);
    expect(errorOf(`SELECT ${deep(100000, 'f(', ')', '1')} FROM t`)).toMatch(/^P01: memory exhausted/);
    expect(one(`SELECT ${deep(MAX_NESTING - 1, 'f(', ')', '1')} FROM t`, 'select').items[0]!.expr).toMatchObject({ kind: 'call', name: 'f' });
  });

  it('parses an INSERT of 1000 text rows in one pass', () => {
    const rows = Array.from({ length: 1000 }, (_, i) => `(${i + 1}, 'document number ${i} with some text \\'quoted\\'', ${i % 7}, 1.5)`);
    const stmt = one(`INSERT INTO t (id, title, gid, price) VALUES ${rows.join(', ')}`, 'insert');
    expect(stmt.rows).toHaveLength(1000);
    expect(stmt.rows[999]![1]).toEqual({ kind: 'string', value: "document number 999 with some text 'quoted'" });
  });
});
