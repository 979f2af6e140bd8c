// Out-of-range numbers in INSERT, as searchd stores them (searchd.cpp ConvertPlainAttr): an int column
// keeps the low 32 bits of the literal's int64 value, which saturates (99999999999999999999 -> 2^63-1 ->
// 4294967295, not the low bits of the wrapped number); a quoted value goes through strtoul (magnitude
// saturating at 2^64-1); bigint saturates at int64; a float past its range is inf, as strtod gives; a
// filter constant past int64 is an error naming the strtoull-capped number.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('insert-range', async (t) => {
  expect((await t.exec('CREATE TABLE t (title text, n int, b bigint, f float)'))[0]?.kind).toBe('ok');
});

describe('out-of-range INSERT values', () => {
  it('int columns truncate the saturated int64, as searchd', async () => {
    await t.exec(`INSERT INTO t (id, n, b) VALUES (1, 99999999999999999999, 99999999999999999999), (2, -99999999999999999999, -99999999999999999999),
      (3, 4294967296, 1), (4, -1, 18446744073709551615), (5, '99999999999999999999', '99999999999999999999'), (6, '-5', '-5')`);
    expect(await t.rows('SELECT id, n, b FROM t ORDER BY id ASC')).toEqual([
      [1n, 4294967295, 9223372036854775807n], [2n, 0, -9223372036854775808n], [3n, 0, 1n],
      [4n, 4294967295, 9223372036854775807n], [5n, 4294967295, 9223372036854775807n], [6n, 4294967291, -5n],
    ]);
  });

  it('a float past its range is inf, literal or quoted', async () => {
    await t.exec("INSERT INTO t (id, f) VALUES (1, 1e400), (2, '1e400'), (3, -1e400)");
    expect(await t.rows('SELECT id, f FROM t ORDER BY id ASC')).toEqual([[1n, Infinity], [2n, Infinity], [3n, -Infinity]]);
  });

  it('a filter constant past int64 is an error naming the capped number', async () => {
    expect((await t.exec('SELECT * FROM t WHERE id = 18446744073709551616'))[0])
      .toMatchObject({ kind: 'error', message: 'number 18446744073709551615 is out of range [-9223372036854775808..9223372036854775807]' });
  });
});
