// JSON doubles as searchd prints them (sphinxjson.cpp PrintDouble: snprintf "%lf" into 32 bytes, "%lg" past that).
// The expected strings are glibc's, from a C program running that snprintf on the same doubles.
import { describe, expect, it } from 'vitest';
import { formatJsonDouble, printedJson } from '../../../../src/engine/json/json-print.js';

describe('formatJsonDouble', () => {
  it('prints %lf, six decimals from the exact binary value, half to even', () => {
    const cases: [number, string][] = [
      [0.1, '0.100000'], [100, '100.000000'], [1e21, '1000000000000000000000.000000'], [1.5e-7, '0.000000'],
      [12345678.9, '12345678.900000'], [-0, '-0.000000'], [0.0078125, '0.007812'], [0.0000005, '0.000000'],
      [18446744073709551615, '18446744073709551616.000000'], [2.5e-7, '0.000000'], [-2.5, '-2.500000'],
    ];
    for (const [x, want] of cases) expect(formatJsonDouble(x)).toBe(want);
  });

  it('prints %lg once %lf passes the 32-byte buffer', () => {
    expect(formatJsonDouble(1e25)).toBe('1e+25');
    expect(formatJsonDouble(1.234567e300)).toBe('1.23457e+300');
    expect(formatJsonDouble(-9.999995e30)).toBe('-1e+31');
  });
});

describe('printedJson', () => {
  it('reformats doubles and drops whitespace, keeping strings, integers and key order', () => {
    const stored = '{ "b" : [5, 6.0, 1e2], "a": 100.0, "s":"1.5 \\" 2e3 x", "u":18446744073709551615, "i":-9223372036854775808, "n":null }';
    expect(printedJson(stored)).toBe(
      '{"b":[5,6.000000,100.000000],"a":100.000000,"s":"1.5 \\" 2e3 x","u":18446744073709551616.000000,"i":-9223372036854775808,"n":null}');
  });

  it('returns text without doubles or spaces as it is', () => {
    const t = '{"a":[1,2,3],"s":"x y 1.5","k":{"z":9007199254740993}}';
    expect(printedJson(t)).toBe(t);
  });
});
