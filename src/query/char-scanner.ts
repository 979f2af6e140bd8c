/**
 * The character level of query lexing: splits query text into words and special characters the
 * way Manticore's tokenizer does in query mode (escapes, dash and dollar inside words, phrase mode).
 */
import type { QueryTextHooks } from './text-hooks.js';

/** Characters that are operators in the query syntax (`=` only with exact words). */
export const QUERY_SPECIALS = '\\()|-!@~"/^$<=';

/** Wildcard characters: word characters in a query when the table has prefixes or infixes. */
export const WILDCARDS = '*?%';
/** Keyword modifiers: they stay operators inside a phrase and never make a dash "inside a word". */
export const MODIFIERS = '^$=*';

/** Decides whether a code point is a word character (the table's charset_table). */
export type WordCharTest = (codePoint: number) => boolean;

const LETTER_OR_DIGIT = /[\p{L}\p{N}\p{M}]/u;

/**
 * The default charset (`non_cont`) approximated: ASCII letters and digits, and any non-ASCII
 * letter, digit or combining mark. Everything else separates words.
 */
export const defaultIsWordChar: WordCharTest = (cp) => {
  if (cp < 128) return (cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122);
  return LETTER_OR_DIGIT.test(String.fromCodePoint(cp));
};

/** How the table shapes query lexing. */
export interface ScannerOptions {
  isWordChar?: WordCharTest;
  /** Prefix/infix indexing is on: `*`, `?`, `%` are wildcards inside words (default true). */
  wildcards?: boolean;
  /** index_exact_words is on: `=word` is the exact-form operator (default true). */
  exactWords?: boolean;
  /** JSON `match` text: no operators at all, only `\` escapes (default false). */
  json?: boolean;
  /** The table's exceptions and multi-word wordforms (none when absent). */
  textHooks?: QueryTextHooks;
}

/** What a character is to the scanner (Manticore's codepoint flags, reduced). */
const enum Code { Sep, Word, Special, Dual }

/** A word or one special character, with where it starts and ends in the query text. */
export interface RawToken {
  text: string;
  special: boolean;
  start: number;
  end: number;
}

/** The tokenizer's whitespace test, applied to a byte (so to the low byte of a code point). */
export const isTokWhitespace = (c: number): boolean => c === 0 || c === 32 || c === 9 || c === 13 || c === 10;

/** ASCII punctuation: such separators never form a "soft" non-token. */
const isPunctuation = (c: number): boolean =>
  (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126);

/** Where a `$` after a word counts as the field-end modifier rather than a separator. */
function isBoundary(c: number, phrase: boolean): boolean {
  return isTokWhitespace(c) || c === 34 || (!phrase && (c === 40 || c === 41 || c === 124));
}

/**
 * Stateful scanner over one query. `next()` returns the next word or special, or null at the end.
 * `phrase` is set by the lexer between quotes; `overshort` counts "soft" separator runs skipped by
 * the last call (they become position-holding empty keywords, as in Manticore).
 */
export class CharScanner {
  pos = 0;
  phrase = false;
  overshort = 0;
  /** Start and end of the last token returned; -1 before any (Manticore's GetTokenStart/End). */
  tokenStart = -1;
  tokenEnd = -1;

  private readonly isWordChar: WordCharTest;
  private readonly wildcards: boolean;
  private readonly exactWords: boolean;
  private readonly json: boolean;
  private readonly hooks: QueryTextHooks | undefined;

  constructor(readonly text: string, opts: ScannerOptions = {}) {
    this.hooks = opts.textHooks;
    this.isWordChar = opts.isWordChar ?? defaultIsWordChar;
    this.wildcards = opts.wildcards ?? true;
    this.exactWords = opts.exactWords ?? true;
    this.json = opts.json ?? false;
  }

  private classify(cp: number): Code {
    const ch = String.fromCodePoint(cp);
    const special = QUERY_SPECIALS.includes(ch) && !this.json && (ch !== '=' || this.exactWords);
    if (special) return this.isWordChar(cp) ? Code.Dual : Code.Special;
    if ((this.wildcards && WILDCARDS.includes(ch)) || this.isWordChar(cp)) return Code.Word;
    return Code.Sep;
  }

  next(): RawToken | null {
    const s = this.text;
    this.overshort = 0;
    this.tokenStart = -1;
    let gotNonToken = this.phrase;
    let gotSoft = false;
    let accum = '';
    let accumLen = 0;
    let start = -1;
    for (;;) {
      const cur = this.pos;
      if (cur >= s.length) return this.flushAtEnd(accum, start);
      if (accumLen === 0 && this.hooks) {
        // an exception is tried wherever no word is under way, as Manticore's tokenizer does
        const end = this.hooks.exceptionAt(s, cur);
        if (end > cur) {
          this.pos = end;
          return this.word(unescape(s.slice(cur, end)), cur, end);
        }
      }
      let cp = s.codePointAt(cur)!;
      this.pos += cp > 0xffff ? 2 : 1;
      let code: Code;
      if (cp === 92 /* \ */) {
        if (this.pos >= s.length) return this.flushAtEnd(accum, start);
        cp = s.codePointAt(this.pos)!;
        this.pos += cp > 0xffff ? 2 : 1;
        const c = this.classify(cp);
        code = c === Code.Special ? Code.Sep : c === Code.Dual ? Code.Word : c;
      } else {
        code = this.arbitrate(this.classify(cp), cp, accumLen, accum);
      }
      if (!gotNonToken && accumLen === 0) {
        if (!gotSoft) {
          gotSoft = code === Code.Sep && !isTokWhitespace(cp & 0xff) && !isPunctuation(cp);
        } else if (isTokWhitespace(cp & 0xff) || code === Code.Special) {
          this.overshort++;
          gotNonToken = true;
        }
      }
      if (code === Code.Sep) {
        if (accumLen) return this.word(accum, start, cur);
        continue;
      }
      if (code === Code.Special) {
        if (accumLen) {
          this.pos = cur;
          return this.word(accum, start, cur);
        }
        this.tokenStart = cur;
        this.tokenEnd = this.pos;
        return { text: String.fromCodePoint(cp), special: true, start: cur, end: this.pos };
      }
      if (!accumLen) start = cur;
      accum += String.fromCodePoint(cp);
      accumLen++;
    }
  }

  /** Manticore's query-mode arbitration of a special character by its context. */
  private arbitrate(code: Code, cp: number, accumLen: number, accum: string): Code {
    if (code !== Code.Special && code !== Code.Dual) return code;
    const ch = String.fromCodePoint(cp);
    if (code === Code.Dual && this.hooks?.isBlendChar?.(cp)) {
      // Manticore's CodepointArbitrationQ: a blend character that is also an operator blends
      // inside a phrase (not a modifier or quote) and in a word's middle for @ / -
      const blends = (this.phrase && !MODIFIERS.includes(ch) && ch !== '"') || (accumLen > 0 && '@/-'.includes(ch));
      if (blends) return Code.Word;
    }
    const nextByte = this.pos < this.text.length ? this.text.charCodeAt(this.pos) : 0;
    const dashInside = accumLen > 0 && ch === '-' && !(accumLen === 1 && MODIFIERS.includes(accum));
    const plain = dashInside
      || (accumLen > 0 && ch === '$' && !isBoundary(nextByte, this.phrase))
      || (this.phrase && ch !== '"' && !MODIFIERS.includes(ch) && !'|()'.includes(ch));
    if (plain) return code === Code.Dual ? Code.Word : Code.Sep;
    return Code.Special;
  }

  private word(text: string, start: number, end: number): RawToken {
    this.tokenStart = start;
    this.tokenEnd = end;
    return { text, special: false, start, end };
  }

  private flushAtEnd(accum: string, start: number): RawToken | null {
    this.pos = this.text.length;
    return accum ? this.word(accum, start, this.text.length) : null;
  }
}

/** Query text with its backslash escapes resolved (`C\+\+` -> `C++`). */
function unescape(raw: string): string {
  return raw.replace(/\\([\s\S])/g, '$1');
}
