import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { parseInsertFast } from '../../../src/sql/insert-fast-path.js';
import { parseSql, parseStatements } from '../../../src/sql/parse-sql.js';

/** The full grammar's statements, or its error message. */
function full(text: string): unknown {
  try {
    return parseStatements(text);
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** Whenever the fast path answers, its statement is the full grammar's, key order included. */
function agrees(text: string): boolean {
  const fast = parseInsertFast(text);
  if (!fast) return false;
  const slow = full(text);
  expect([fast]).toStrictEqual(slow);
  const keyed = (v: unknown) => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
  expect(keyed([fast])).toBe(keyed(slow));
  return true;
}

describe('INSERT fast path', () => {
  const taken = [
    "INSERT INTO gcide (id, title, body, len) VALUES (1,'a','b',3)",
    "  insert into t(id,title) values(1,'x')  ",
    "REPLACE INTO t VALUES (1, \"it's\", NULL, null, -5, +6, 1.5, -1.5e-3, 2E5, 1., 007)",
    "INSERT INTO t (id, s) VALUES (1, 'a\\'b\\\\c\\nd\\0e\\qf'), (2, ''), (3, \"\\\"\");",
    "INSERT INTO t (id) VALUES (18446744073709551615), (-9223372036854775808), (9007199254740993);  \n",
    'INSERT\tINTO\nt\r(id)\fVALUES\v(1)',
    "INSERT INTO t (id, body) VALUES (1, 'multi\nline\ttext with ) , ( and ; inside')",
  ];
  it.each(taken)('reads %j as the full grammar does', (text) => {
    expect(parseInsertFast(text)).toBeDefined();
    agrees(text);
    expect(parseSql(text)).toStrictEqual(parseStatements(text));
  });

  // each of these is left to the full grammar: an error word for word, or a form only it reads
  const deferred = [
    "INSERT INTO t (id) VALUES (1) OPTION foo=1", 'INSERT INTO `t` (id) VALUES (1)', 'INSERT INTO t (`id`) VALUES (1)',
    'INSERT INTO Manticore.t (id) VALUES (1)', 'INSERT INTO c:t (id) VALUES (1)', 'INSERT INTO t (id, m) VALUES (1, (1,2))',
    'INSERT INTO t (id) VALUES (.5)', 'INSERT INTO t (id) VALUES (- 5)', 'INSERT INTO t (id) VALUES (--5)',
    'INSERT INTO t (id) VALUES (1.2.3)', 'INSERT INTO t (id) VALUES (5x)', 'INSERT INTO t (id) VALUES (5-3)',
    'INSERT INTO t (id, a) VALUES (1)', 'INSERT INTO t VALUES (1, 2), (3)', "INSERT INTO t (id) VALUES ('x)",
    'INSERT INTO t (id) VALUES (1) /* c */', 'INSERT /* c */ INTO t (id) VALUES (1)', 'INSERT INTO t (id) VALUES (1) # c',
    'INSERT INTO t (id) VALUES (1); SELECT 1', 'INSERT INTO t (id) VALUES (1);;', 'INSERT INTO select (id) VALUES (1)',
    'INSERT INTO t (select) VALUES (1)', 'INSERT INTO t (id) VALUES ()', 'INSERT INTO t () VALUES (1)',
    'INSERT INTO t (id) VALUES (true)', 'INSERT INTO t (id) VALUES (NULLX)', 'INSERT INTO t (id) VALUESX (1)',
    'INSERT t (id) VALUES (1)', 'INSERT INTO t (id) VALUES (1),', 'INSERT INTO t (id) VALUES (1', 'INSERT INTO tä (id) VALUES (1)',
    'INSERT INTO t (id) VALUES (1) (2)', "INSERT INTO t (id) VALUES ('a' 'b')", 'INSERT INTO t (id) VALUES (@x)',
    'SELECT * FROM t', '', '   ', 'INSERTINTO t (id) VALUES (1)',
  ];
  it.each(deferred)('leaves %j to the full grammar', (text) => {
    expect(parseInsertFast(text)).toBeUndefined();
  });

  it('searches for backslashes once over a long INSERT, not again from each string to the end', () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `(${i + 1},'title ${i}','body ${i}')`);
    const text = `INSERT INTO t (id, title, body) VALUES ${rows.join(',')}, (9999, 'a\\\\b', 'c')`;
    let scanned = 0;
    const indexOf = String.prototype.indexOf;
    const spy = vi.spyOn(String.prototype, 'indexOf').mockImplementation(function (this: string, needle: string, from?: number) {
      if (needle === '\\' && this === text) scanned += text.length - (from ?? 0);
      return indexOf.call(this, needle, from);
    });
    try {
      expect(parseInsertFast(text)?.rows).toHaveLength(2001);
    } finally {
      spy.mockRestore();
    }
    // each character looked at a bounded number of times (per string from its start to the end: ~4000x)
    expect(scanned).toBeLessThan(3 * text.length);
    agrees(text);
  });

  it('gives the full grammar statement for generated INSERTs, and never answers where it fails', () => {
    const str = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', "'", '"', '\\', 'n', '0', ',', ')', '(', ';', '\n', 'é', '#', '-', '*', '/') });
    const value = fc.oneof(
      { arbitrary: fc.constantFrom('(1,2)', '()', 'x', '.5', '- 1'), weight: 1 },
      str.map((s) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`),
      str.map((s) => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`),
      fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
      fc.constantFrom('NULL', 'null', '+3', '1e5', '2.', '0.5E-2', '-0', '1E+2'),
    );
    const ws = fc.constantFrom('', ' ', '  ', '\n', '\t');
    // rows as wide as the column list (the mutations below make rows of other widths)
    const stmt = fc.integer({ min: 1, max: 3 }).chain((width) => fc.tuple(
      fc.constantFrom('INSERT', 'insert', 'REPLACE', 'Replace'), ws, fc.constantFrom('t', 'gcide', 'T_1', 't', 'gcide', 'T_1', 'select', '`q`'),
      fc.option(fc.constantFrom(['id', 'title', 'body'], ['ID', 'len', 'x'], ['id', 'Body', 'len']).map((c) => c.slice(0, width))),
      fc.array(fc.array(value, { minLength: width, maxLength: width }), { minLength: 1, maxLength: 2 }), ws,
      fc.constantFrom('', ';', '; ', '', ';', '; ', ' OPTION a=1', ';x'),
    )).map(([verb, w, table, cols, rows, w2, tail]) =>
      `${w}${verb} INTO ${table}${w}${cols ? `(${cols.join(`,${w}`)})` : ''} VALUES ${rows.map((r) => `(${r.join(`,${w}`)})`).join(',')}${w2}${tail}`);
    // a random character dropped, doubled or swapped in: the fast path must still agree or step aside
    const mutated = fc.tuple(stmt, fc.nat(), fc.constantFrom('', "'", '(', ')', ',', ' ', '-', '.', 'e', '\\', ';', '/*', '#')).map(([s, at, ch]) => {
      const k = at % (s.length + 1);
      return s.slice(0, k) + ch + s.slice(k + (ch === '' ? 1 : 0));
    });
    let answered = 0;
    fc.assert(fc.property(stmt, (text) => { if (agrees(text)) answered++; }), { numRuns: 3000 });
    fc.assert(fc.property(mutated, (text) => { if (agrees(text)) answered++; }), { numRuns: 3000 });
    // the generators reach the fast path often, not just its refusals
    expect(answered).toBeGreaterThan(600);
    // each text right after another one: a head kept from the text before (the same one, or one it starts
    // with, `VALUES` running on into a longer word included) reads as the full grammar reads it
    let reused = 0;
    fc.assert(fc.property(stmt, fc.oneof(stmt, mutated), fc.nat(), (before, text, cut) => {
      parseInsertFast(before);
      parseInsertFast(text.slice(0, cut % (text.length + 1)));
      parseInsertFast(text);
      if (agrees(text)) reused++;
    }), { numRuns: 3000 });
    expect(reused).toBeGreaterThan(300);
  });

  it('reads a head kept from the statement before as the full grammar does', () => {
    const pairs: [string, string][] = [
      ["INSERT INTO t (id, s) VALUES (1,'a')", "INSERT INTO t (id, s) VALUES (2,'b'),(3,'c');"],
      ["INSERT INTO t (id, s) VALUES (1,'a')", "INSERT INTO t (id, s) VALUESX (2,'b')"],
      ["INSERT INTO t (id, s) VALUES (1,'a')", "INSERT INTO t (id, s) VALUES"],
      ["INSERT INTO t (id, s) VALUES (1,'a')", "INSERT INTO t (id, s) VALUES (2)"],
      ["INSERT INTO t VALUES (1,'a')", "INSERT INTO t VALUES (2,'b',3)"],
      ["INSERT INTO t VALUES (1,'a')", "INSERT INTO t VALUES (2,'b'), (3)"],
      ["  REPLACE INTO t (id) VALUES (1)", "  REPLACE INTO t (id) VALUES (2)"],
      ["INSERT INTO t (id) VALUES (1)", "INSERT INTO t (id) VALUES (1) OPTION a=1"],
    ];
    for (const [before, text] of pairs) {
      parseInsertFast(before);
      // the fast path's statement, or the full grammar's statement or error word for word
      let viaParseSql: unknown;
      try {
        viaParseSql = parseSql(text);
      } catch (e) {
        viaParseSql = { error: (e as Error).message };
      }
      expect(viaParseSql).toStrictEqual(full(text));
      parseInsertFast(before);
      if (parseInsertFast(text)) agrees(text);
    }
    // after a head is kept, each one-character change anywhere in it (or its end moved) reads afresh
    const base = "REPLACE INTO gcide (id, title, body) VALUES (1,'a','b')";
    const headEnd = base.indexOf('VALUES') + 'VALUES'.length;
    for (let k = 0; k <= headEnd; k++) {
      for (const ch of ['X', ' ', '', '(', ',', 's']) {
        const text = base.slice(0, k) + ch + base.slice(k + 1);
        parseInsertFast(base);
        const fast = parseInsertFast(text);
        // a leading space: no kept head matches, the text is read afresh
        expect(fast === undefined).toBe(parseInsertFast(` ${text}`) === undefined);
        if (fast) agrees(text);
      }
    }
    // the statement's column list is its own: changing it leaves the next statement's alone
    const a = parseInsertFast("INSERT INTO t (id, s) VALUES (1,'a')")!;
    a.columns!.push('x');
    expect(parseInsertFast("INSERT INTO t (id, s) VALUES (2,'b')")!.columns).toEqual(['id', 's']);
  });
  it('keeps no view of the statement it read its head from (a 40 MB INSERT is not held until the next head)', () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const read = () => {
      const rows = Array.from({ length: 100_000 }, (_, i) => `(${i + 1},'${'x'.repeat(400)}')`);
      return parseInsertFast(`INSERT INTO some_long_table_name (id, a_long_column_name) VALUES ${rows.join(',')}`)!.rows.length;
    };
    gc();
    const before = process.memoryUsage().heapUsed;
    expect(read()).toBe(100_000);
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(10e6);
  });
});
