/** A seeded generator (mulberry32) and the picks the fuzz generators share: same seed, same inputs. */
export class Rng {
  #s: number;
  constructor(seed: number) {
    this.#s = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    let t = (this.#s = (this.#s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A small count, most often 0-3, now and then large. */
  count(max = 8): number {
    return this.chance(0.05) ? this.int(0, max * 8) : this.int(0, Math.min(3, max));
  }

  bytes(n: number): Buffer {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = this.int(0, 255);
    return b;
  }
}

/** Text that breaks naive handling: quotes, escapes, control bytes, Unicode, surrogates, operators. */
const NASTY = [
  "'", '"', '\\', '\\\\', "\\'", '`', '\0', '\n', '\r\n', '\t', ';', '--', '/*', '*/', '#', '%', '_', '*', '?', '(', ')',
  '@', '!', '-', '|', '^', '$', '=', '~', '<<', '"/', '/3', 'NEAR/2', 'MAYBE', 'SENTENCE', 'PARAGRAPH', 'ZONE:(h1)',
  'é', 'ß', 'ǅ', '日本語', 'Ελληνικά', 'русский', 'עברית', '\u200b', '\ufeff', '\ud800', '\udfff', '😀', '\u0301',
  'İ', 'ﬁ', '\u2028', '\x7f', '\x01', 'NULL', 'null', '1e309', '-0', 'NaN', '18446744073709551615', '-9223372036854775808',
];

const WORDS = ['hello', 'world', 'quick', 'brown', 'fox', 'test', 'doc', 'running', 'a', 'the', 'x', 'abc123', 'über'];

export function word(r: Rng): string {
  return r.chance(0.85) ? r.pick(WORDS) : r.pick(NASTY);
}

/** A string of mixed words and nasty pieces, sometimes very long. */
export function text(r: Rng): string {
  if (r.chance(0.02)) return r.pick(WORDS).repeat(r.int(1000, 50_000));
  const n = r.count(6);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(r.chance(0.7) ? r.pick(WORDS) : r.pick(NASTY));
  return parts.join(r.chance(0.8) ? ' ' : '');
}

/** Numbers at the edges of every type the server parses. */
export const EDGE_NUMBERS = [
  '0', '1', '-1', '2147483647', '2147483648', '-2147483649', '4294967295', '4294967296', '9223372036854775807',
  '9223372036854775808', '-9223372036854775808', '-9223372036854775809', '18446744073709551615', '18446744073709551616',
  '1e308', '1e309', '-1e309', '0.000001', '1.5', '.5', '5.', '1e', '0x10', '00012', '99999999999999999999999999999',
];

export function number(r: Rng): string {
  return r.chance(0.6) ? String(r.int(-5, 1000)) : r.pick(EDGE_NUMBERS);
}

/** Percent-encodes the UTF-8 bytes of a string (lone surrogates become U+FFFD instead of throwing). */
export function urlEncode(s: string): string {
  return Buffer.from(s, 'utf8').toString('latin1').replace(/[^A-Za-z0-9\-_.~]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
