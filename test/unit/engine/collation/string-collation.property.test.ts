// Property: random strings that differ in case (and in accents), written in several INSERTs (several
// segments, so the merge of per-segment ranks and partial groups is exercised); under each collation the
// engine's ORDER BY, = / IN / < filters, GROUP BY counts and each group's shown value (the representative:
// the best weight, then the earliest row) equal a plain evaluation with the collation's comparison.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { collation, type CollationName } from '../../../../src/util/collation.js';
import { coreFoldSwitch } from '../../../../src/engine/group/core-fold.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('collation-prop');
afterEach(() => { coreFoldSwitch.enabled = true; });

const WORDS = ['apple', 'Apple', 'APPLE', 'b', 'B', '_x', 'école', 'Ecole', 'ECOLE', 'zeta', 'Zeta', ''];
const NAMES: CollationName[] = ['libc_ci', 'libc_cs', 'utf8_general_ci', 'binary'];

async function load(values: string[], batches: number): Promise<void> {
  await t.exec('drop table if exists c');
  await t.exec('create table c (title text, s string, j json)');
  const per = Math.ceil(values.length / batches);
  for (let i = 0; i < values.length; i += per) {
    const rows = values.slice(i, i + per).map((v, k) => `(${i + k + 1}, 'x', '${v}', '{"k":"${v}"}')`);
    await t.exec(`insert into c (id, title, s, j) values ${rows.join(', ')}`);
  }
}

const num = (rows: unknown[][], i = 0) => rows.map((r) => Number(r[i]));

describe('collations vs a plain evaluation', () => {
  it('ORDER BY, filters and GROUP BY on a STRING attribute and a JSON string', async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 4 }),
      fc.constantFrom(...NAMES), fc.constantFrom(...WORDS), fc.boolean(),
      async (values, batches, name, lit, hostFold) => {
        await load(values, batches);
        await t.exec(`set collation_connection = ${name}`);
        coreFoldSwitch.enabled = !hostFold;
        const c = collation(name);
        const ids = values.map((_, i) => i + 1);
        const sorted = [...ids].sort((a, b) => c.compare(values[a - 1]!, values[b - 1]!) || a - b);
        expect(num(await t.rows('select id from c order by s asc limit 100'))).toEqual(sorted);
        expect(num(await t.rows('select id from c order by j.k asc limit 100'))).toEqual(sorted);
        const where = (f: (v: string) => boolean) => ids.filter((i) => f(values[i - 1]!));
        expect(num(await t.rows(`select id from c where s = '${lit}' order by id asc limit 100`))).toEqual(where((v) => c.compare(v, lit) === 0));
        expect(num(await t.rows(`select id from c where s < '${lit}' order by id asc limit 100`))).toEqual(where((v) => c.compare(v, lit) < 0));
        expect(num(await t.rows(`select id from c where s in ('${lit}', 'B') order by id asc limit 100`)))
          .toEqual(where((v) => c.compare(v, lit) === 0 || c.compare(v, 'B') === 0));
        for (const key of ['s', 'j.k']) {
          const rows = await t.rows(`select ${key}, count(*), id from c group by ${key} limit 100`);
          const want = new Map<string, number[]>();
          for (const i of ids) {
            const k = c.fold(values[i - 1]!);
            want.set(k, [...(want.get(k) ?? []), i]);
          }
          expect(rows.length, `${key} groups`).toBe(want.size);
          for (const r of rows) {
            const members = want.get(c.fold(String(r[0])))!;
            expect(Number(r[1]), `${key} ${String(r[0])}`).toBe(members.length);
            // the representative: the earliest row (weights are equal in a full scan), its own value shown
            expect(Number(r[2])).toBe(members[0]);
            expect(r[0]).toBe(values[members[0]! - 1]);
          }
        }
      },
    ), { numRuns: 40 });
  }, 180_000);
});
