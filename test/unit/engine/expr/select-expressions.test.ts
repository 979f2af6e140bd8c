// Expressions in the select list over a real engine: Manticore's typing (int32, int64, float32 shown
// as %f), column names, aliases naming aliases, WHERE over an alias, and the errors. Values hand-computed.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';
import { cellToSqlText } from '../../../../src/engine/values/cell-format.js';
import type { RowsResult } from '../../../../src/engine/index.js';

const t = useTempEngine('expr-select', async (t) => {
  await t.exec('create table p (title text, price float, qty uint, big bigint, brand string, tags multi, ts timestamp, meta json)');
  await t.exec(`insert into p (id, title, price, qty, big, brand, tags, ts, meta) values
    (1, 'red bag', 10.5, 3, 5000000000, 'acme', (1,2,5), 1700000000, '{"a":{"b":7},"arr":[4,9,2],"s":"x-y-z"}'),
    (2, 'blue hat', 20, 7, -2, 'zeta', (), 86399, '{"arr":[]}')`);
});

/** Rows of one statement as the MySQL text protocol would send them, with the column names. */
async function text(sql: string): Promise<{ names: string[]; rows: (string | null)[][] }> {
  const out = await t.exec(sql);
  const r = out[out.length - 1] as RowsResult;
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return { names: r.columns.map((c) => c.name), rows: r.rows.map((row) => row.map((v, i) => cellToSqlText(v as never, r.columns[i]!.kind))) };
}

async function errorOf(sql: string): Promise<string> {
  const out = await t.exec(sql);
  const r = out[out.length - 1]!;
  return r.kind === 'error' ? r.message : 'no error';
}

describe('select-list expressions', () => {
  it('arithmetic: int stays int, `/` is float, DIV and MOD are integer, bigint widens', async () => {
    const r = await text('select id, qty*2, qty/2, qty div 2, qty % 4, price*2 as p2, big+1, id+qty from p order by id asc');
    expect(r.names).toEqual(['id', 'qty*2', 'qty/2', 'qty div 2', 'qty % 4', 'p2', 'big+1', 'id+qty']);
    expect(r.rows).toEqual([
      ['1', '6', '1.500000', '1', '3', '21.000000', '5000000001', '4'],
      ['2', '14', '3.500000', '3', '3', '40.000000', '-1', '9'],
    ]);
  });

  it('int32 arithmetic wraps as Manticore IntEval does; division by zero is 0', async () => {
    const r = await text('select qty*1000000000 as w, qty/0 as z, 7 div 0 as d from p where id=1');
    expect(r.rows).toEqual([['-1294967296', '0.000000', '0']]);
  });

  it('comparison and boolean operators give 0/1 (NOT binds tighter than =, as sphinxexpr.y); IF, IN, INTERVAL, BETWEEN', async () => {
    const r = await text(`select qty>5 as a, qty=3 and price<11 as b, not (qty=3) as c, not qty=3 as c2, if(qty>5, 'big', 'small') as d,
      if(qty>5, price, qty) as e, in(qty, 1, 3, 9) as f, interval(qty, 1, 5, 10) as g, qty between 3 and 6 as h
      from p order by id asc`);
    expect(r.rows).toEqual([
      ['0', '1', '0', '0', 'small', '3.000000', '1', '1', '1'],
      ['1', '0', '1', '0', 'big', '20.000000', '0', '2', '0'],
    ]);
  });

  it('BETWEEN takes a whole arithmetic operand: qty+1 BETWEEN 4 AND 5 is (qty+1) BETWEEN 4 AND 5', async () => {
    // qty is 3 and 7: (qty+1) is 4 and 8; read as qty + (1 BETWEEN 4 AND 5) it would be 3 and 7; qty*2 is 6 and 14
    const r = await text('select qty+1 between 4 and 5 as a, qty*2 not between 5 and 7 as b from p order by id asc');
    expect(r.rows).toEqual([['1', '0'], ['0', '1']]);
  });

  it('math functions', async () => {
    const r = await text(`select abs(-qty) as a, ceil(price) as b, floor(price) as c, sqrt(16) as d, ln(1) as e,
      log10(1000) as f, pow(2, 10) as g, exp(0) as h, min(qty, 5) as i, max(price, 15) as j, sqrt(-4) as k
      from p where id=1`);
    expect(r.rows).toEqual([['3', '11', '10', '4.000000', '0.000000', '3.000000', '1024.000000', '1.000000', '3', '15.000000', '0.000000']]);
  });

  it('FLOOR/CEIL of a float beyond int64 is C\'s out-of-range cast (INT64_MIN on x86), not a wrap', async () => {
    // the float product -158.671875 * 58128592042721276 rounds to -(2^63 + 2^40): an integral double out of range
    const r = await text(`select floor(-158.671875 * big * 11625718408.5442552) as a, ceil(1e30) as b, min(floor(price * 1e20), 0) as c from p where id=1`);
    expect(r.rows).toEqual([['-9223372036854775808', '-9223372036854775808', '-9223372036854775808']]);
  });

  it('date functions in UTC', async () => {
    // 1700000000 = 2023-11-14 22:13:20 UTC
    const r = await text(`select day(ts), month(ts), year(ts), yearmonth(ts), yearmonthday(ts), hour(ts), minute(ts),
      second(ts), date_format(ts, '%Y-%m-%d %H:%M:%S') as f from p where id=1`);
    expect(r.rows).toEqual([['14', '11', '2023', '202311', '20231114', '22', '13', '20', '2023-11-14 22:13:20']]);
  });

  it('strings, JSON paths, MVA', async () => {
    const r = await text(`select concat(brand, '-', to_string(qty)) as a, length(brand) as b,
      substring_index(meta.s, '-', 2) as c, regex(brand, '^ac') as d, meta.a.b + 1 as e, meta.arr[1] as f,
      length(meta.arr) as g, in(tags, 5, 6) as h, length(tags) as i, greatest(tags) as j, least(meta.arr) as k,
      to_string(price) as l
      from p where id=1`);
    expect(r.rows).toEqual([['acme-3', '4', 'x-y', '1', '8', '9', '3', '1', '3', '5', '2', '10.500000']]);
  });

  it('an alias names another expression; WHERE over an alias', async () => {
    const r = await text('select id, price*2 as p2, p2+1 as p3 from p where p2 > 30');
    expect(r.rows).toEqual([['2', '40.000000', '41.000000']]);
  });

  it('GEODIST adaptive and haversine, degrees and units', async () => {
    const r = await text(`select geodist(0, 0, 0, 1, {in=deg, out=km}) as a,
      geodist(0, 0, 0, 1, {in=deg, method=haversine}) as b from p where id=1`);
    // adaptive: the flat-ellipsoid model at the equator, 111.319 km per degree of longitude
    expect(Number(r.rows[0]![0])).toBeCloseTo(111.319, 2);
    // haversine over Manticore's 6384 km sphere: 2*pi*6384000/360
    expect(Number(r.rows[0]![1])).toBeCloseTo((2 * Math.PI * 6384000) / 360, 0);
  });

  it("errors: Manticore's texts for argument counts and types; unknown functions named", async () => {
    expect(await errorOf('select sqrt(1, 2) from p')).toBe('table p: parse error: sqrt() called with 2 args, 1 args expected');
    expect(await errorOf('select price % 2 from p')).toBe('table p: parse error: MOD arguments must be integer');
    expect(await errorOf('select nope + 1 from p')).toBe('table p: parse error: unknown column: nope');
    expect(await errorOf('select frobnicate(brand) from p')).toContain('unsupported function FROBNICATE()'); // CRC32 is supported now
    expect(await errorOf('select geodist(0, 0, 10, 10) from p')).toContain('expects input coordinates in radians');
  });
});

// RE2's leading flag group (CLT bugs/4345-json-si-fallbacks: REGEX(j.name, '(?i)visitor')). Before: 'is invalid'.
describe('REGEX() with RE2 inline flags', () => {
  it('a leading (?i) / (?s) group becomes the pattern\'s flags; other RE2-only syntax stays an error', async () => {
    const r = await text("select id, regex(brand, '(?i)^ACME') as a, regex(brand, '^ACME') as b, regex(meta.s, '(?is)X.Y') as c from p where id = 1");
    expect(r.rows).toEqual([['1', '1', '0', '1']]);
    expect(await errorOf("select regex(brand, 'a(?i)b') from p")).toContain("regex() pattern 'a(?i)b' is invalid");
  });
});

describe('ANY()/ALL() over an array with FOR', () => {
  it('ANY holds for some element, ALL for every one (none: 0); over JSON arrays and MVA', async () => {
    const r = await text(`select id, any(x > 8 for x in meta.arr) as a, all(x > 1 for x in meta.arr) as b,
      any(x = 5 for x in tags) as c, all(x < 3 for x in tags) as d from p order by id asc`);
    expect(r.rows).toEqual([['1', '1', '1', '1', '0'], ['2', '0', '0', '0', '0']]);
  });
  // CLT bugs/4345-json-si-fallbacks: the loop variable's own keys. Before: 'unknown column: s'.
  it("the loop variable's keys and indexes (s.n, s['n'], s[0]) when the elements are objects or arrays", async () => {
    await t.exec('create table subs (j json)');
    await t.exec(`insert into subs (id, j) values (1, '{"subs":[{"n":5,"p":[1,2]},{"n":9}]}'), (2, '{"subs":[{"n":1}]}'), (3, '{"subs":[3]}')`);
    const r = await text(`select id, any(s.n > 6 for s in j.subs) a, all(s['n'] > 2 for s in j.subs) b, any(s.p[1] = 2 for s in j.subs) c from subs order by id asc`);
    expect(r.rows).toEqual([['1', '1', '1', '1'], ['2', '0', '0', '0'], ['3', '0', '0', '0']]);
    expect((await text('select id, any(s.n > 6 for s in j.subs) a from subs where a = 1')).rows).toEqual([['1', '1']]);
  });
});

describe('ORDER BY an expression (computed per row in the core)', () => {
  it("sorts by the alias of a numeric expression (Manticore's ORDER BY takes names only), across segments; ties by id", async () => {
    await t.exec(`insert into p (id, price, qty, big) values (3, 1, 100, 1), (4, 30, 0, 1)`);
    // price*qty: 1 -> 31.5, 2 -> 140, 3 -> 100, 4 -> 0
    expect((await text('select id, price*qty as v from p order by v desc')).rows.map((r) => r[0])).toEqual(['2', '3', '1', '4']);
    expect(await errorOf('select id from p order by price*qty desc')).toContain("unexpected '*'");
    expect((await text('select id, price*qty as v from p order by v asc')).rows).toEqual([
      ['4', '0.000000'], ['1', '31.500000'], ['3', '100.000000'], ['2', '140.000000'],
    ]);
    // integer formula with a tie (qty%2: 1 -> 1, 2 -> 1, 3 -> 0, 4 -> 0), then id
    expect((await text('select id, qty%2 as m from p order by m desc, id desc')).rows.map((r) => r[0])).toEqual(['2', '1', '4', '3']);
    expect((await text('select id, if(qty>5, 1, 0) as a, abs(price-15) as b from p order by a asc, b asc')).rows.map((r) => r[0])).toEqual(['1', '4', '2', '3']);
  });

  it('what the core cannot compute is computed on the host (strings, JSON paths)', async () => {
    const ids = async (sql: string) => (await text(sql)).rows.map((r) => r[0]);
    expect(await ids("select id, concat(brand, '!') as c from p order by c desc")).toEqual(['2', '1']);
    expect(await ids("select id, concat(brand, '!') as c from p order by c asc")).toEqual(['1', '2']);
    // row 2 has no meta.a.b: no value sorts first
    expect(await ids('select id, meta.a.b+1 as x from p order by x desc')).toEqual(['1', '2']);
    expect(await ids('select id, meta.a.b+1 as x from p order by x asc')).toEqual(['2', '1']);
    expect(await ids('select id, big*3 as b from p order by b asc')).toEqual(['2', '1']);
  });
});

describe('grouping over expressions (segment readers)', () => {
  it('GROUP BY an expression alias, SUM/MIN/MAX/AVG over expressions', async () => {
    await t.exec(`insert into p (id, price, qty, brand) values (3, 1, 7, 'acme'), (4, 30, 3, 'zeta')`);
    // qty%2: 1 -> 3%2=1, 2 -> 7%2=1, 3 -> 1, 4 -> 1; qty>5: 1 -> 0, 2 -> 1, 3 -> 1, 4 -> 0
    const r = await text('select qty>5 as big, count(*), sum(price*2), min(qty*10), max(price+qty), avg(price*qty) from p group by big order by big asc');
    expect(r.rows).toEqual([
      // big=0: ids 1 (10.5, 3), 4 (30, 3): sums 21+60, min 30, max 33, avg (31.5+90)/2
      ['0', '2', '81.000000', '30', '33.000000', '60.750000'],
      // big=1: ids 2 (20, 7), 3 (1, 7): sums 40+2, min 70, max 27, avg (140+7)/2
      ['1', '2', '42.000000', '70', '27.000000', '73.500000'],
    ]);
    const s = await text("select concat(brand, '!') as b, count(*) from p group by b order by b asc");
    expect(s.rows).toEqual([['acme!', '2'], ['zeta!', '2']]);
  });
});

describe('WHERE over a numeric expression alias (values computed by the core)', () => {
  it('compare, BETWEEN and IN over the alias; OR and strings stay host predicates', async () => {
    await t.exec(`insert into p (id, price, qty, brand) values (3, 1, 100, 'q'), (4, 30, 0, 'r')`);
    const ids = async (sql: string) => (await text(sql)).rows.map((r) => r[0]);
    // price*qty: 1 -> 31.5, 2 -> 140, 3 -> 100, 4 -> 0
    expect(await ids('select id, price*qty as v from p where v > 50 order by id asc')).toEqual(['2', '3']);
    expect(await ids('select id, price*qty as v from p where v between 0 and 100 order by id asc')).toEqual(['1', '3', '4']);
    expect(await ids('select id, qty%4 as m from p where m in (3, 0) order by id asc')).toEqual(['1', '2', '3', '4']);
    expect(await ids('select id, qty%4 as m from p where m not in (3) order by id asc')).toEqual(['3', '4']);
    expect(await ids("select id, price*qty as v from p where v < 1 or brand = 'q' order by id asc")).toEqual(['3', '4']);
    expect(await ids("select id, concat(brand, 'x') as c from p where c = 'qx'")).toEqual(['3']);
  });
});
