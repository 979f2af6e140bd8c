// CRC32(), FIBONACCI() and SINT(), functions of Manticore's expression list (Functions > Mathematical)
// that quarry answered with 'unsupported function'.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('crc32-fibonacci-sint', async (t) => {
  await t.exec("create table f (title text, name string, n uint, j json)");
  await t.exec(`insert into f (id, title, name, n, j) values (1, 'a', 'hello', 4294967295, '{"s":"hello"}'), (2, 'b', '', 10, '{}')`);
});

describe('CRC32, FIBONACCI, SINT', () => {
  it('CRC32 of a string attribute and of a JSON string (CRC-32/IEEE, unsigned); empty or missing is 0', async () => {
    expect(await t.rows('select id, crc32(name), crc32(j.s) from f order by id asc')).toEqual([[1n, 907060870n, 907060870n], [2n, 0n, 0n]]);
    expect(await t.rows("select id from f where crc32(name) = 907060870")).toEqual([[1n]]);
  });
  it('CRC32 of a number is an error, not a silent 0', async () => {
    expect(JSON.stringify(await t.exec('select crc32(n) from f'))).toContain('crc32() argument must be string');
  });
  it('FIBONACCI: the n-th number, 0 below zero', async () => {
    expect(await t.rows('select fibonacci(0), fibonacci(1), fibonacci(2), fibonacci(10), fibonacci(-3) from f where id = 1'))
      .toEqual([[0, 1, 1, 55, 0]]);
  });
  it('FIBONACCI of a large n wraps as 32-bit int, same as adding step by step (and answers at once)', async () => {
    const stepwise = (n: number): number => { let f0 = 0, f1 = 1; for (let j = 0; j < n; j++) [f0, f1] = [f1, (f0 + f1) | 0]; return f0; };
    for (const n of [46, 47, 48, 93, 1000003]) {
      expect(await t.rows(`select fibonacci(${n}) from f where id = 1`)).toEqual([[stepwise(n)]]);
    }
    const [[big]] = (await t.rows('select fibonacci(2147483647) from f where id = 1')) as [[number]];
    expect(Number.isInteger(big)).toBe(true);
  });
  it('SINT: the low 32 bits as a signed integer', async () => {
    expect(await t.rows('select id, sint(n) from f order by id asc')).toEqual([[1n, -1n], [2n, 10n]]);
  });
});
