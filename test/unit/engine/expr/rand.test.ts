// RAND() in the select list over a real engine, as Manticore's manual gives it: a random float between 0 and 1,
// optionally seeded by a constant integer or an integer attribute. A select-list RAND() and ORDER BY RAND() of
// one statement share the seed (OPTION rand_seed or a fresh one), so ORDER BY its alias sorts what is shown.
import { describe, expect, it } from 'vitest';
import { randOfId, xorShiftRand } from '../../../../src/engine/expr/rand.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const N = 40;

const t = useTempEngine('expr-rand', async (t) => {
  await t.exec('create table r (title text, a int, b bigint)');
  for (let part = 0; part < 2; part++) {
    const values = Array.from({ length: N / 2 }, (_, i) => {
      const id = part * (N / 2) + i + 1;
      return `(${id}, 'row', ${id % 5}, ${id * 1000003})`;
    });
    await t.exec(`insert into r (id, title, a, b) values ${values.join(', ')}`);
  }
});

const rows = async (sql: string) => (await t.rows(sql)).map((row) => row.map((v) => (typeof v === 'bigint' ? Number(v) : v)) as number[]);
const errorOf = async (sql: string) => {
  const r = (await t.exec(sql)).at(-1)!;
  return r.kind === 'error' ? r.message : 'no error';
};

describe('RAND() in the select list', () => {
  it('is a float in [0, 1], the same for a row under the same rand_seed, the id hashed with it', async () => {
    const a = await rows(`select id, rand() from r limit ${N} option rand_seed=42`);
    expect(a).toHaveLength(N);
    for (const [id, v] of a) {
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThanOrEqual(1);
      expect(v).toBe(Math.fround(randOfId(42, BigInt(id!))));
    }
    expect(await rows(`select id, rand() from r limit ${N} option rand_seed=42`)).toEqual(a);
    expect(new Set(a.map((x) => x[1])).size).toBeGreaterThan(N - 2);
  });

  it('shares the statement\'s seed with ORDER BY RAND() and ORDER BY its alias (either direction)', async () => {
    for (const opt of [' option rand_seed=7', '']) {
      const byRand = await rows(`select id, rand() as x from r order by rand() limit ${N}${opt}`);
      const values = byRand.map((x) => x[1]!);
      expect(values).toEqual([...values].sort((p, q) => p - q));
      const byAlias = await rows(`select id, rand() as x from r order by x desc limit ${N}${opt}`);
      const down = byAlias.map((x) => x[1]!);
      expect(down).toEqual([...down].sort((p, q) => q - p));
      // an expression over it sorts by its shown value too
      const scaled = (await rows(`select id, rand() * 10 as y from r order by y asc limit ${N}${opt}`)).map((x) => x[1]!);
      expect(scaled).toEqual([...scaled].sort((p, q) => p - q));
    }
    const seeded = await rows(`select id, rand() as x from r order by x asc limit ${N} option rand_seed=7`);
    expect(seeded.map((x) => x[0])).toEqual((await rows(`select id from r order by rand() limit ${N} option rand_seed=7`)).map((x) => x[0]));
  });

  it('RAND(attribute) is searchd\'s xorshift64* of the value: equal values, equal results', async () => {
    const got = await rows(`select id, a, rand(a), rand(b) from r order by id asc limit ${N}`);
    for (const [id, a, ra, rb] of got) {
      expect(ra).toBe(Math.fround(xorShiftRand(BigInt(a!))));
      expect(rb).toBe(Math.fround(xorShiftRand(BigInt(id! * 1000003))));
    }
    expect(new Set(got.map((x) => x[2])).size).toBe(5);
  });

  it('RAND(constant) repeats for the same constant, differs for another', async () => {
    const q = async (seed: number) => (await rows(`select id, rand(${seed}) from r order by id asc limit ${N}`)).map((x) => x[1]);
    const a = await q(3);
    expect(await q(3)).toEqual(a);
    expect(await q(4)).not.toEqual(a);
  });

  it('takes 0 or 1 numeric argument, with searchd\'s errors', async () => {
    expect(await errorOf('select id, rand(1, 2) from r')).toBe('table r: parse error: rand() called with 2 args, either 0 or 1 args expected');
    expect(await errorOf("select id, rand('x') from r")).toBe('table r: parse error: rand() argument must be numeric');
  });
});
