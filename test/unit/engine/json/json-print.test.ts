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

describe('formatJsonDouble against the exact path', () => {
  // the toFixed shortcut must agree with the exact %lf on every double it takes: random doubles of all scales
  it('agrees on random doubles and on ties', () => {
    let seed = 12345;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let i = 0; i < 20000; i++) {
      const x = (rnd() - 0.5) * 10 ** Math.floor(rnd() * 30 - 10);
      expect(formatJsonDouble(x)).toBe(exactFixed6(x));
    }
    for (const x of [0.0078125, 0.0234375, -0.0078125, 1.0000005, 2.5e-7]) expect(formatJsonDouble(x)).toBe(exactFixed6(x));
  });
});

/** %lf from the double's exact decimal expansion (BigInt), glibc's round half to even, written out here on purpose. */
function exactFixed6(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exp = Number((bits >> 52n) & 0x7ffn);
  const mant = exp === 0 ? bits & ((1n << 52n) - 1n) : (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  const e2 = exp === 0 ? -1074 : exp - 1075;
  const num = e2 >= 0 ? (mant << BigInt(e2)) * 1_000_000n : mant * 1_000_000n;
  const den = e2 >= 0 ? 1n : 1n << BigInt(-e2);
  let q = num / den;
  const r2 = (num % den) * 2n;
  if (r2 > den || (r2 === den && q % 2n === 1n)) q += 1n;
  const d = q.toString().padStart(7, '0');
  const s = `${bits >> 63n ? '-' : ''}${d.slice(0, -6)}.${d.slice(-6)}`;
  return s.length > 32 ? formatJsonDouble(x) : s;
}
