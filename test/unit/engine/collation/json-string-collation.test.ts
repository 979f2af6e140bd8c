// JSON string filters under searchd's default collation libc_ci (src/collation.cpp CollateLibcCI via
// sphinxfilter.cpp ExprFilterString_c): ASCII case folds, other characters compare as they are.
import { describe, expect, it } from 'vitest';
import { libcCiCompare } from '../../../../src/util/collation.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('json-collation', async (t) => {
  await t.exec('create table p (j json)');
  await t.exec(`insert into p (id, j) values (1, '{"k":"p","a":["X","y"]}'), (2, '{"k":"Q","a":["z"]}'), (3, '{"k":"é"}'), (4, '{"k":"É"}')`);
});

const ids = async (where: string) => (await t.rows(`select id from p where ${where}`)).map((r) => Number(r[0]));

describe('libc_ci over JSON strings', () => {
  it('compares with ASCII case folded, the shorter first on a tie', () => {
    expect(libcCiCompare('Q', 'q')).toBe(0);
    expect(libcCiCompare('p', 'Q')).toBeLessThan(0);
    expect(libcCiCompare('ab', 'AB c')).toBeLessThan(0);
    expect(libcCiCompare('é', 'É')).not.toBe(0); // the C locale folds ASCII only
  });

  it('filters =, != and IN on a JSON key and on JSON array elements', async () => {
    expect(await ids("j.k = 'q'")).toEqual([2]);
    expect(await ids("j.k != 'q'")).toEqual([1, 3, 4]);
    expect(await ids("j.k IN ('P', 'x')")).toEqual([1]);
    expect(await ids("j.k = 'é'")).toEqual([3]);
    expect(await ids("j.a = 'x'")).toEqual([1]);
    expect(await ids("j.a IN ('Z')")).toEqual([2]);
  });
});
