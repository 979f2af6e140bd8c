/**
 * searchd's string collations (src/collation.cpp): how STRING attributes and JSON strings compare in
 * filters, ORDER BY, GROUP BY and WITHIN GROUP ORDER BY. The server's default comes from `collation_server`
 * (libc_ci unless set); `SET collation_connection` changes it for one MySQL session.
 *
 * - libc_ci: strncasecmp over the shorter length in the C locale (A-Z fold to a-z, every other byte as it
 *   is), then the shorter string first.
 * - libc_cs: strcoll, which in the C locale (quarry has no collation_libc_locale) is byte order: as binary.
 * - utf8_general_ci: code points folded through MySQL's utf8_general_ci weights (utf8-general-weights.ts).
 * - binary: memcmp, then the shorter first.
 *
 * Byte order of UTF-8 is code point order; JavaScript strings compare by UTF-16 code unit, which differs
 * only between a surrogate (U+10000 and up) and U+E000-U+FFFF: `unitOrder` mends that one case.
 *
 * Every collation here is "fold, then compare in code point order": `fold` gives a string whose binary
 * order and equality are the collation's, so sorts rank folded keys and groups key on them, and filters
 * compare with `compare` (a loop over code units, no folded copy a row).
 */
import { utf8GeneralWeights } from './utf8-general-weights.js';

export type CollationName = 'libc_ci' | 'libc_cs' | 'utf8_general_ci' | 'binary';

export interface Collation {
  readonly name: CollationName;
  /** Negative, zero or positive as searchd's comparison of the two strings. */
  compare(a: string, b: string): number;
  /** A string equal to fold(b) exactly when a and b are equal under the collation, ordered as they are. */
  fold(s: string): string;
  /** True when fold is the identity (binary order and plain equality are the collation's). */
  readonly exact: boolean;
}

/** Code unit order mended to code point order (a surrogate sorts above U+E000-U+FFFF, as in UTF-8). */
function unitOrder(x: number, y: number): number {
  if (x >= 0xd800 && y >= 0xd800) {
    x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
  }
  return x < y ? -1 : 1;
}

export function binaryCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i), y = b.charCodeAt(i);
    if (x !== y) return unitOrder(x, y);
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** A code unit with A-Z folded to a-z (tolower in the C locale). */
const lower = (c: number): number => (c >= 65 && c <= 90 ? c + 32 : c);

export function libcCiCompare(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  // a loop over code units, no folded copies: a filter compares once a row
  for (let i = 0; i < n; i++) {
    const x = lower(a.charCodeAt(i)), y = lower(b.charCodeAt(i));
    if (x !== y) return unitOrder(x, y);
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

const UPPER = /[A-Z]/;
/** ASCII lower case; the string itself (no copy) when it has no A-Z. */
function libcCiFold(s: string): string {
  return UPPER.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s;
}

function utf8GeneralCompare(a: string, b: string): number {
  if (a === b) return 0;
  const w = utf8GeneralWeights();
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i), cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // code points past U+FFFF have no weights: their surrogates compare as they are
    const x = w[ca]!, y = w[cb]!;
    if (x !== y) return unitOrder(x, y);
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

function utf8GeneralFold(s: string): string {
  const w = utf8GeneralWeights();
  let i = 0;
  while (i < s.length && w[s.charCodeAt(i)] === s.charCodeAt(i)) i++;
  if (i === s.length) return s;
  const out = new Uint16Array(s.length);
  for (let j = 0; j < s.length; j++) out[j] = w[s.charCodeAt(j)]!;
  let text = '';
  // in pieces: a spread of a long string's every unit would overflow the argument stack
  for (let j = 0; j < out.length; j += 4096) text += String.fromCharCode(...out.subarray(j, j + 4096));
  return text;
}

const identity = (s: string): string => s;

const COLLATIONS: Record<CollationName, Collation> = {
  libc_ci: { name: 'libc_ci', compare: libcCiCompare, fold: libcCiFold, exact: false },
  libc_cs: { name: 'libc_cs', compare: binaryCompare, fold: identity, exact: true },
  utf8_general_ci: { name: 'utf8_general_ci', compare: utf8GeneralCompare, fold: utf8GeneralFold, exact: false },
  binary: { name: 'binary', compare: binaryCompare, fold: identity, exact: true },
};

/** searchd's ESphCollation values in order: what the binary API's master extension carries. */
export const API_COLLATIONS: readonly CollationName[] = ['libc_ci', 'libc_cs', 'utf8_general_ci', 'binary'];

/** searchd's default collation (SPH_COLLATION_DEFAULT). */
export const DEFAULT_COLLATION: CollationName = 'libc_ci';

export function collation(name: CollationName | undefined): Collation {
  return COLLATIONS[name ?? DEFAULT_COLLATION];
}

/** A collation's name as SET collation_connection / collation_server give it; undefined when unknown. */
export function collationName(text: string): CollationName | undefined {
  const n = text.toLowerCase();
  return Object.hasOwn(COLLATIONS, n) ? (n as CollationName) : undefined;
}
