// ORDER BY RAND() over a real engine (Manticore's @random sort, OPTION rand_seed): the order is a
// permutation of the matches, repeats with the same seed, differs between seeds, and the page is cut
// from it; sphinxql.y's grammar (RAND() a whole clause) and JSON's "_random" as Manticore has them.
import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { newSession, type JsonValue } from '../../../../src/engine/index.js';
import { randOfId } from '../../../../src/engine/expr/rand.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const N = 60;

const t = useTempEngine('order-rand', async (t) => {
  await t.exec('create table p (title text, a int)');
  // three statements: rows in more than one part of the table
  for (let part = 0; part < 3; part++) {
    const values = Array.from({ length: N / 3 }, (_, i) => {
      const id = part * (N / 3) + i + 1;
      return `(${id}, '${id % 2 ? 'odd' : 'even'} row', ${id % 7})`;
    });
    await t.exec(`insert into p (id, title, a) values ${values.join(', ')}`);
  }
});

const ids = async (sql: string): Promise<bigint[]> => (await t.rows(sql)).map((r) => r[0] as bigint);
const range = (n: number): bigint[] => Array.from({ length: n }, (_, i) => BigInt(i + 1));
const sorted = (xs: bigint[]): bigint[] => [...xs].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));

async function errorOf(sql: string): Promise<string> {
  const out = await t.exec(sql);
  const r = out[out.length - 1]!;
  return r.kind === 'error' ? r.message : 'no error';
}

describe('ORDER BY RAND()', () => {
  it('returns every match once, in an order that is not the id order', async () => {
    const got = await ids(`select id from p order by rand() limit ${N} option rand_seed=7`);
    expect(sorted(got)).toEqual(range(N));
    expect(got).not.toEqual(range(N));
  });

  it('repeats with the same seed and differs with another', async () => {
    const q = (seed: number) => ids(`select id from p order by rand() limit ${N} option rand_seed=${seed}`);
    const a = await q(1234);
    expect(await q(1234)).toEqual(a);
    const b = await q(1235);
    expect(sorted(b)).toEqual(range(N));
    expect(b).not.toEqual(a);
  });

  it('keeps its order when the table\'s parts are merged (the id is hashed, not the row position)', async () => {
    const before = await ids(`select id from p order by rand() limit ${N} option rand_seed=99`);
    await t.exec('optimize table p option sync=1');
    expect(await ids(`select id from p order by rand() limit ${N} option rand_seed=99`)).toEqual(before);
  });

  it('cuts LIMIT and OFFSET from that order; a seed is taken modulo 2^32 as searchd\'s DWORD', async () => {
    const all = await ids(`select id from p order by rand() limit ${N} option rand_seed=5`);
    expect(await ids('select id from p order by rand() limit 10 option rand_seed=5')).toEqual(all.slice(0, 10));
    expect(await ids('select id from p order by rand() limit 20, 10 option rand_seed=5')).toEqual(all.slice(20, 30));
    expect(await ids(`select id from p order by rand() limit ${N} option rand_seed=4294967301`)).toEqual(all);
  });

  it('orders only the matches of a full-text query and a filter', async () => {
    const got = await ids(`select id from p where match('odd') and a > 2 order by rand() limit ${N} option rand_seed=3`);
    const want = range(N).filter((id) => id % 2n === 1n && id % 7n > 2n);
    expect(sorted(got)).toEqual(want);
    expect(await ids(`select id from p where match('odd') and a > 2 order by rand() limit ${N} option rand_seed=3`)).toEqual(got);
  });

  it('takes a fresh seed for every query without rand_seed', async () => {
    const orders = new Set<string>();
    for (let i = 0; i < 3; i++) orders.add((await ids(`select id from p order by rand() limit ${N}`)).join(','));
    // three equal orders of 60 rows from fresh seeds: 1 in 2^64 at worst (the hash's 32-bit seed)
    expect(orders.size).toBeGreaterThan(1);
  });

  it('is a whole clause in sphinxql.y: beside another key, with a direction or within groups it is a syntax error', async () => {
    expect(await errorOf('select id from p order by rand(), id')).toBe("P01: syntax error, unexpected ',' near ', id'");
    expect(await errorOf("select id from p order by rand() option rand_seed=1e400")).toBe("rand_seed value should be a number: '1e400'");
    expect(await errorOf('select id from p order by rand() desc')).toBe("P01: syntax error, unexpected DESC near 'desc'");
    expect(await errorOf('select id from p order by id asc, rand()')).toMatch(/^P01: syntax error, unexpected RAND near 'rand\(\)'$/);
    expect(await errorOf('select a from p group by a within group order by rand()')).toMatch(/^P01: syntax error, unexpected RAND near 'rand\(\)'$/);
  });
});

/**
 * The order ORDER BY RAND() gives, modelled from its definition (assembly/rank/rand-id.ts): each id's two
 * 32-bit words mixed with the seed by murmur3's finaliser, ascending. The host's randOfId (the select
 * list's RAND()) is that hash; rand-opcode.test.ts checks it equals the core's for every row.
 */
function modelOrder(ids: bigint[], seed: number): bigint[] {
  const keyed = ids.map((id) => ({ id, k: randOfId(seed, id) }));
  expect(new Set(keyed.map((x) => x.k)).size).toBe(ids.length); // no ties: the order is the keys' alone
  return keyed.sort((a, b) => a.k - b.k).map((x) => x.id);
}

describe('ORDER BY RAND() as the core computes it', () => {
  it('is the seed\'s hash of each id, 64-bit ids included, before and after the parts merge', async () => {
    const big = [2n ** 32n + 5n, 2n ** 40n + 1n, 9007199254740993n, 2n ** 63n - 1n];
    await t.exec(`insert into p (id, title, a) values ${big.map((id) => `(${id}, 'big row', 1)`).join(', ')}`);
    const all = [...range(N), ...big];
    for (const seed of [0, 7, 4294967295]) {
      expect(await ids(`select id from p order by rand() limit 100 option rand_seed=${seed}`)).toEqual(modelOrder(all, seed));
    }
    await t.exec('optimize table p option sync=1');
    expect(await ids('select id from p order by rand() limit 100 option rand_seed=7')).toEqual(modelOrder(all, 7));
    expect(await ids("select id from p where match('big') order by rand() limit 100 option rand_seed=7")).toEqual(modelOrder(big, 7));
  });
});

describe('JSON "sort": ["_random"]', () => {
  const session = newSession();
  const search = async (body: string) => (await t.engine.json!.search(parse(body) as JsonValue, session)).rows.map((r) => r[0] as bigint);

  it('is ORDER BY RAND() with options.rand_seed', async () => {
    const body = (seed: number) => `{"table": "p", "limit": ${N}, "sort": ["_random"], "options": {"rand_seed": ${seed}}}`;
    const sqlOrder = await ids(`select id from p order by rand() limit ${N} option rand_seed=11`);
    expect(await search(body(11))).toEqual(sqlOrder);
    expect(await search(body(12))).not.toEqual(sqlOrder);
  });

  it('refuses keys after it (searchd would drop them) and is an unknown attribute after another key', async () => {
    await expect(search('{"table": "p", "sort": ["_random", "id"]}')).rejects.toThrow('"_random" sorts alone');
    await expect(search('{"table": "p", "sort": ["id", "_random"]}')).rejects.toThrow("sort-by attribute '@random' not found");
  });
});
