/**
 * The C library's readings of a string that searchd's INSERT applies to attribute values
 * (searchd.cpp CSphMatchVariant::ToInt/ToBigInt, ConvertPlainAttr): the leading number is taken and
 * the rest ignored, so '1e5' is 1 in an int and 100000 in a float, 'abc' is 0, never an error
 * (attr_autoconv_strict, which would refuse them, is off by default). And the casts of a float
 * literal (SqlInsert_t::m_fVal, a float) to int and int64, whose out-of-range results on x86-64
 * (cvttss2si) are the "integer indefinite" value: INT_MIN, INT64_MIN.
 */

const U64_MAX = (1n << 64n) - 1n;
const I64_MAX = (1n << 63n) - 1n;
const I64_MIN = -(1n << 63n);

/** isspace in the C locale, then an optional sign and decimal digits, as strtol's family reads them. */
const C_INTEGER = /^[ \t\n\v\f\r]*([+-]?)(\d*)/;

/** strtoul(s, 10) as searchd's int64 SphAttr_t holds it: past uint64 ULONG_MAX; '-n' wraps (2^64 - n). */
export function strtoul(s: string): bigint {
  const m = C_INTEGER.exec(s)!;
  if (m[2] === '') return 0n;
  const mag = BigInt(m[2]!);
  if (mag > U64_MAX) return U64_MAX;
  return m[1] === '-' ? (U64_MAX + 1n - mag) & U64_MAX : mag;
}

/** An integer saturated at int64's ends, as strtoll and searchd's integer literals. */
export function clampI64(v: bigint): bigint {
  return v > I64_MAX ? I64_MAX : v < I64_MIN ? I64_MIN : v;
}

/** strtoll(s, 10): saturates at int64's ends. */
export function strtoll(s: string): bigint {
  const m = C_INTEGER.exec(s)!;
  if (m[2] === '') return 0n;
  return clampI64(m[1] === '-' ? -BigInt(m[2]!) : BigInt(m[2]!));
}

const C_DOUBLE = /^[ \t\n\v\f\r]*([+-]?)(?:(inf(?:inity)?)|(nan)(?:\([0-9A-Za-z_]*\))?|0[xX]((?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+))(?:[pP]([+-]?\d+))?|((?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?))/i;

/** strtod(s): its leading decimal, hex, inf or nan; 0 when there is none. */
export function strtod(s: string): number {
  const m = C_DOUBLE.exec(s);
  if (!m) return 0;
  const sign = m[1] === '-' ? -1 : 1;
  if (m[2] !== undefined) return sign * Infinity;
  if (m[3] !== undefined) return NaN;
  if (m[4] !== undefined) {
    const [int = '', frac = ''] = m[4].split('.');
    let v = 0;
    for (const d of int + frac) v = v * 16 + parseInt(d, 16);
    return sign * v * 2 ** (Number(m[5] ?? 0) - 4 * frac.length);
  }
  return sign * Number(m[6]!);
}

/** int(f) of a float: truncated; NaN or outside int32 is INT_MIN (x86-64's integer indefinite). */
export function floatToInt32(f: number): bigint {
  const t = Math.trunc(Math.fround(f));
  return Number.isNaN(t) || t < -(2 ** 31) || t >= 2 ** 31 ? -(1n << 31n) : BigInt(t);
}

/** int64_t(f) of a float: truncated; NaN or outside int64 is INT64_MIN. */
export function floatToInt64(f: number): bigint {
  const t = Math.trunc(Math.fround(f));
  return Number.isNaN(t) || t < -(2 ** 63) || t >= 2 ** 63 ? I64_MIN : BigInt(t);
}

/**
 * The date formats GetUTC tries (sphinxutils.cpp g_dDateTimeFormats, longest first) as one pattern:
 * %Y[-%m[-%d[T%H[:%M[:%S[.frac][zone]]]]]], parsed by cctz as the server's local time (a zone
 * name after the seconds is read and ignored, as cctz's %Z).
 */
const DATE = /^\s*([+-]?\d+)(?:-(\d{1,2})(?:-(\d{1,2})(?:T(\d{1,2})(?::(\d{1,2})(?::(\d{1,2})(?:\.\d*)?(?:[^\s\d.][^\s]*)?)?)?)?)?)?\s*$/;

/**
 * searchd's GetUTC for a timestamp attribute given a string: 5 or more digits alone are strtoul's
 * number, else a date in the formats above (local time, in seconds), else 0.
 */
export function getUtc(s: string): bigint {
  if (s === '') return 0n;
  if (/^\d{5,}$/.test(s)) return strtoul(s);
  const m = DATE.exec(s);
  if (!m) return 0n;
  const [y, mo = 1, d = 1, h = 0, mi = 0, sec = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  if (mo! < 1 || mo! > 12 || d! < 1 || d! > 31 || h! > 23 || mi! > 59 || sec! > 60) return 0n;
  const date = new Date(2000, 0, 1, 0, 0, 0);
  date.setFullYear(y!, mo! - 1, d);
  date.setHours(h!, mi!, sec);
  const t = date.getTime();
  return Number.isFinite(t) ? BigInt(Math.floor(t / 1000)) : 0n;
}
