/** C number conversions the query syntax relies on: strtod prefixes, atoi, float32 rounding. */

/** Result of reading a number prefix: its value and where reading stopped (start = nothing read). */
export interface NumberPrefix {
  value: number;
  end: number;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/**
 * Reads the longest prefix of `s` from `start` that C's strtod accepts (decimal with optional
 * exponent, or a 0x hex float), as Manticore does for keyword boosts and quorum fractions.
 * An optional sign is read; leading whitespace is not (the callers never have any).
 */
export function strtodPrefix(s: string, start: number): NumberPrefix {
  const neg = s[start] === '-';
  const from = s[start] === '+' || neg ? start + 1 : start;
  const r = unsignedPrefix(s, from);
  if (r.end === from) return { value: 0, end: start };
  return { value: neg ? -r.value : r.value, end: r.end };
}

function unsignedPrefix(s: string, start: number): NumberPrefix {
  const word = /^(infinity|inf|nan)/i.exec(s.slice(start, start + 8));
  if (word) return { value: word[1]!.toLowerCase() === 'nan' ? NaN : Infinity, end: start + word[1]!.length };
  if (s[start] === '0' && (s[start + 1] === 'x' || s[start + 1] === 'X')) {
    const hex = hexPrefix(s, start + 2);
    if (hex) return hex;
  }
  let i = start;
  while (isDigit(s[i])) i++;
  let digits = i - start;
  if (s[i] === '.') {
    const f = i + 1;
    let j = f;
    while (isDigit(s[j])) j++;
    digits += j - f;
    if (digits > 0) i = j;
  }
  if (digits === 0) return { value: 0, end: start };
  if (s[i] === 'e' || s[i] === 'E') {
    let j = i + 1;
    if (s[j] === '+' || s[j] === '-') j++;
    if (isDigit(s[j])) {
      while (isDigit(s[j])) j++;
      i = j;
    }
  }
  return { value: Number(s.slice(start, i)), end: i };
}

/** Hex float body after `0x`: hex digits, optional fraction, optional binary exponent `p`. */
function hexPrefix(s: string, from: number): NumberPrefix | undefined {
  let i = from;
  let mant = 0;
  let digits = 0;
  let scale = 0;
  while (isHex(s[i])) { mant = mant * 16 + parseInt(s[i]!, 16); i++; digits++; }
  if (s[i] === '.') {
    let j = i + 1;
    while (isHex(s[j])) { mant = mant * 16 + parseInt(s[j]!, 16); scale -= 4; j++; digits++; }
    if (digits > 0) i = j;
  }
  if (digits === 0) return undefined;
  if (s[i] === 'p' || s[i] === 'P') {
    let j = i + 1;
    let sign = 1;
    if (s[j] === '+' || s[j] === '-') { sign = s[j] === '-' ? -1 : 1; j++; }
    if (isDigit(s[j])) {
      let e = 0;
      while (isDigit(s[j])) { e = e * 10 + Number(s[j]); j++; }
      scale += sign * e;
      i = j;
    }
  }
  return { value: mant * 2 ** scale, end: i };
}

/** C atoi over a digit string of at most 9 characters (the query lexer's number limit). */
export function atoi(digits: string): number {
  let v = 0;
  for (const c of digits) {
    if (!isDigit(c)) break;
    v = v * 10 + Number(c);
  }
  return v;
}

/** `(int)(fValue * 100)` in float32, as Manticore turns a `/0.59` quorum into a percentage (58). */
export function quorumPercent(fraction: number): number {
  return Math.trunc(Math.fround(Math.fround(fraction) * 100));
}

/**
 * Manticore's quorum threshold: the integer argument, or for a percentage
 * `floor(0.01f * pct * words + 0.5f)` computed in float32.
 */
export function quorumThreshold(arg: number, percent: boolean, words: number): number {
  if (!percent) return arg;
  const f = Math.fround;
  return Math.floor(f(f(f(f(1 / 100) * arg) * words) + 0.5));
}
