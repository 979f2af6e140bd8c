/** index_sp: whether a `.`, `?` or `!` ends a sentence (Manticore's CodepointArbitrationI), English rules. */
import { CODE_MASK, FLAG_DUAL, FLAG_SPECIAL, FLAGS_MASK } from './charset-table.js';
import { SENTENCE_MARK } from './spz-marks.js';

/** What the rules need to see of the tokenizer: its input and the token accumulated so far. */
export interface SentenceContext {
  readonly input: string;
  /** Codepoints accumulated in the current token. */
  readonly cps: number;
  /** The folded token so far. */
  readonly buf: Uint16Array;
}

const isCapital = (c: number): boolean => c >= 0x41 && c <= 0x5a;
const isLower = (c: number): boolean => c >= 0x61 && c <= 0x7a;
const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** sphIsAlpha on a byte: digits, letters, `-`, `_`; any non-ASCII (a UTF-8 lead byte) counts too. */
const isWordByte = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || isCapital(c) || isLower(c) || c === 0x2d || c === 0x5f || c >= 0x80;

/** The token before the dot is an initial (`J`), a title (`Mr`, `MR`, `MS`, `DR`) or `mrs`/`drs`. */
function looksLikeName(ctx: SentenceContext, at: number, ch: (k: number) => number): boolean {
  // Manticore looks at raw UTF-8 bytes: a non-ASCII character never reads as a capital
  const b1 = ch(at - 1);
  const b2 = b1 < 0x80 ? ch(at - 2) : 0;
  if (ctx.cps === 1) return isCapital(b1);
  if (ctx.cps === 2 && isCapital(b2)) {
    return !isCapital(b1) || (b2 === 0x4d && (b1 === 0x52 || b1 === 0x53)) || (b2 === 0x44 && b1 === 0x52);
  }
  if (ctx.cps === 3) {
    const b = ctx.buf;
    return (b[0] === 0x6d || b[0] === 0x64) && b[1] === 0x72 && b[2] === 0x73;
  }
  return false;
}

/**
 * The entry to use for a special character at `at`. `?` and `!` always end a sentence; a dot does
 * not inside a word (`U.K`, `3.5`, `a.,`), before a lowercase word (`Inc. and`, `etc. (see`), nor
 * after an initial or a title (`J.`, `Mr.`, `MRS.`). A dot that ends no sentence is a separator, or
 * a word character when the charset has it.
 */
export function arbitrateSentence(entry: number, at: number, ctx: SentenceContext): number {
  const symbol = entry & CODE_MASK;
  if (symbol === 0x3f || symbol === 0x21) return SENTENCE_MARK | FLAG_SPECIAL;
  if (symbol !== 0x2e) return entry;
  const input = ctx.input;
  const ch = (k: number): number => (k >= 0 && k < input.length ? input.charCodeAt(k) : 0);
  const next = ch(at + 1);
  const inWord = isWordByte(next) || next === 0x2c;
  const inPhrase = isSpace(next) && (isLower(ch(at + 2)) || (ch(at + 2) === 0x28 && isLower(ch(at + 3))));
  if (!inWord && !inPhrase && !looksLikeName(ctx, at, ch)) return SENTENCE_MARK | FLAG_SPECIAL;
  return (entry & FLAGS_MASK) === FLAG_SPECIAL ? 0 : entry & ~(FLAG_SPECIAL | FLAG_DUAL);
}
