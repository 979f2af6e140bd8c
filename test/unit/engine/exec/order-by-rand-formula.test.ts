// RAND() inside an ORDER BY formula (a select-list alias of RAND()*2+a: sphinxql.y's ORDER BY names attributes and
// aliases, RAND() alone is a clause of its own; FACET and JSON sorts take formulas too): the core
// computes it, as ORDER BY RAND() alone (the RAND_ID opcode with the statement's seed, sort-code.ts), and every
// value is the one the host's expression evaluator (the select list's) gives; the same seed orders alike, another
// seed otherwise. 1 thread against N threads: order-rand-formula-parallel.test.ts.
import { describe, expect, it } from 'vitest';
import { X } from '../../../../src/index/rank-expr/rank-expr-words.js';
import { exprColumnValues } from '../../../../src/index/expr-column.js';
import { sortCode } from '../../../../src/engine/expr/sort-code.js';
import { compileExpr } from '../../../../src/engine/expr/compile.js';
import { parseSql } from '../../../../src/sql/parse-sql.js';
import type { Expr, SelectStatement } from '../../../../src/sql/ast.js';
import type { AttrValue } from '../../../../src/index/types.js';
import type { Table } from '../../../../src/engine/table.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const N = 60;

const t = useTempEngine('order-rand-formula', async (t) => {
  await t.exec('create table p (title text, a int, f float, b bigint)');
  // three statements: rows in more than one part of the table; 64-bit ids too
  for (let part = 0; part < 3; part++) {
    const values = Array.from({ length: N / 3 }, (_, i) => {
      const id = part === 2 && i < 4 ? 2n ** 40n + BigInt(i) : BigInt(part * (N / 3) + i + 1);
      return `(${id}, '${id % 2n ? 'odd' : 'even'} row', ${Number(id % 7n)}, ${Number(id % 13n) / 4}, ${id * 3n})`;
    });
    await t.exec(`insert into p (id, title, a, f, b) values ${values.join(', ')}`);
  }
});

const tableOf = (name: string) => (t.engine as unknown as { ctx: { catalog: { get(n: string): Table } } }).ctx.catalog.get(name);
const itemExpr = (text: string): Expr => (parseSql(`SELECT ${text} FROM p`)[0] as SelectStatement).items[0]!.expr;
const ids = async (sql: string): Promise<bigint[]> => (await t.rows(sql)).map((r) => r[0] as bigint);

const FORMULAS = [
  'rand()*2+a', 'a - rand()', 'rand(5)*3-a', 'if(rand()>0.5, a, -a)', 'rand()+rand(9)', 'f/(rand()+1)',
  'rand(4294967301)*f', 'abs(rand()-0.5)*a', 'pow(rand(), 2) + a', 'max(rand(), f)', '-rand()',
];

describe('RAND() in an ORDER BY formula', () => {
  it('is the core\'s RAND_ID with the statement\'s seed (or the constant\'s), not a host key', () => {
    const table = tableOf('p');
    let asked = 0;
    const code = sortCode(table, itemExpr('rand()*2+a'), new Map(), () => { asked++; return 1234; });
    expect(code.slice(0, 2)).toEqual([X.RAND_ID, 1234]);
    expect(asked).toBe(1);
    // RAND(constant): its low 32 bits, the statement's seed not even taken
    expect(sortCode(table, itemExpr('rand(4294967301)*f'), new Map(), () => { asked++; return 1; }).slice(0, 2)).toEqual([X.RAND_ID, 5]);
    expect(asked).toBe(1);
    // through an alias too
    expect(sortCode(table, itemExpr('k'), new Map([['k', itemExpr('rand()+a')]]), () => 77)).toContain(X.RAND_ID);
    // RAND(attribute) is searchd's xorshift of the value, the host's; a caller without a statement seed keeps the host's
    expect(() => sortCode(table, itemExpr('rand(a)*2'), new Map(), () => 1)).toThrow(/RAND\(\) of an attribute/);
    expect(() => sortCode(table, itemExpr('rand()*2'), new Map())).toThrow(/RAND\(\) outside ORDER BY/);
  });

  it('gives every row of every part the value the host\'s evaluator gives it', () => {
    const table = tableOf('p');
    const attrs = table.index.schema.attrs;
    let rows = 0;
    for (const seed of [0, 7, 0xffffffff]) {
      for (const text of FORMULAS) {
        const e = itemExpr(text);
        const host = compileExpr(e, { table, randSeed: seed });
        const code = sortCode(table, e, new Map(), () => seed);
        for (const seg of table.index.segments) {
          const core = exprColumnValues(seg, code);
          const cols = attrs.map((_, i) => seg.attrReader(i));
          for (let row = 0; row < seg.rows; row++) {
            const values = new Map<string, AttrValue>(attrs.map((a, i) => [a.name, cols[i]!(row)]));
            const want = Number(host.eval({ docId: seg.docId(row), weight: 0, attrs: values }));
            expect([text, seed, seg.docId(row), core[row]]).toEqual([text, seed, seg.docId(row), want]);
            rows++;
          }
        }
      }
    }
    expect(rows).toBe(3 * FORMULAS.length * N);
  });

  it('orders by those values, the formula in one alias or over another, ASC and DESC', async () => {
    for (const [seed, dir] of [[3, 'asc'], [4000000000, 'desc']] as const) {
      const got = await t.rows(`select id, rand()*2+a as k from p order by k ${dir}, id asc limit ${N} option rand_seed=${seed}`);
      expect(got.length).toBe(N);
      const keys = got.map((r) => Number(r[1]));
      const sortedKeys = [...keys].sort((x, y) => (dir === 'asc' ? x - y : y - x));
      expect(keys).toEqual(sortedKeys);
      expect(new Set(keys).size).toBeGreaterThan(N / 2); // a random key, not the column a
      expect(await ids(`select id, rand() as r, r*2+a as k from p order by k ${dir}, id asc limit ${N} option rand_seed=${seed}`)).toEqual(got.map((r) => r[0]));
    }
  });

  it('repeats with the same seed, differs with another, and cuts the page from that order', async () => {
    const q = (seed: number, limit = `${N}`) => ids(`select id, a - rand() as k from p where match('odd | even') order by k desc limit ${limit} option rand_seed=${seed}`);
    const a = await q(1234);
    expect(await q(1234)).toEqual(a);
    expect([...a].sort()).toEqual([...(await q(1235))].sort());
    expect(await q(1235)).not.toEqual(a);
    expect(await q(1234, '10, 10')).toEqual(a.slice(10, 20));
    await t.exec('optimize table p option sync=1');
    expect(await q(1234)).toEqual(a); // the id is hashed, not the row position
  });

  it('takes a fresh seed a statement without rand_seed, one for the select list and ORDER BY alike', async () => {
    const orders = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const got = await t.rows(`select id, rand() as r, r*2+a as k from p order by k asc limit ${N}`);
      const keys = got.map((r) => Number(r[2]));
      expect(keys).toEqual([...keys].sort((x, y) => x - y));
      orders.add(got.map((r) => r[0]).join(','));
    }
    expect(orders.size).toBeGreaterThan(1);
  });
});
