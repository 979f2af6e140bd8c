/** C's `%.<n>f` for a double, exactly as glibc prints it: shared by SQL cells, expressions and JSON attributes. */

const F64 = new Float64Array(1);
const U64 = new BigUint64Array(F64.buffer);

/**
 * C's `printf("%.<decimals>f", x)` for a double, exactly: the binary value is expanded to decimals
 * and rounded half-to-even, as glibc does (so 0.0078125 -> "0.007812"). Number#toFixed rounds ties
 * up and switches to exponent notation at 1e21, so it cannot be used.
 */
export function printfFixed(x: number, decimals: number): string {
  if (Number.isNaN(x)) return 'nan';
  F64[0] = x;
  const bits = U64[0]!;
  const negative = bits >> 63n === 1n;
  if (!Number.isFinite(x)) return negative ? '-inf' : 'inf';
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  // value = mantissa * 2^exponent, exactly
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  const scaled = mantissa * 10n ** BigInt(decimals);
  let digits: bigint;
  if (exponent >= 0) {
    digits = scaled << BigInt(exponent);
  } else {
    const den = 1n << BigInt(-exponent);
    digits = scaled / den;
    const twiceRest = (scaled % den) * 2n;
    if (twiceRest > den || (twiceRest === den && (digits & 1n) === 1n)) digits += 1n;
  }
  let text = digits.toString().padStart(decimals + 1, '0');
  if (decimals > 0) text = `${text.slice(0, -decimals)}.${text.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}
