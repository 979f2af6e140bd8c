/** The tokenizer: one pass over UTF-16 code units with the folding table, as Manticore's UTF-8 tokenizer. */
import {
  CODE_MASK, FLAG_BLEND, FLAG_BOUNDARY, FLAG_DUAL, FLAG_IGNORE, FLAG_SPECIAL, type CharsetTable,
} from './charset-table.js';
import { arbitrateSentence } from './sentence-rules.js';
import { ZONE_MARK } from './spz-marks.js';

/** Longest token kept, in codepoints (Manticore's SPH_MAX_WORD_LEN); longer words are truncated. */
export const MAX_TOKEN_CODEPOINTS = 42;
/** Longest token kept, in UTF-8 bytes (SPH_LEGACY_TOKEN_BYTES, dict=keywords). */
export const MAX_TOKEN_BYTES = 126;
/** Characters with query meaning, special in query mode (CALL KEYWORDS, query words). */
export const QUERY_SPECIALS = '\\()|-!@~"/^$<';
/** Characters that become specials in index mode with index_sp=1 (sentence ends, paragraph mark). */
export const SENTENCE_SPECIALS = '.?!\x03';

const BACKSLASH = 0x5c;
const REPLACEMENT_CHAR = 0xfffd;

export interface TokenizerOptions {
  /** Tokens shorter than this (in codepoints) are dropped and counted as overshort. */
  minWordLen: number;
  /** Query mode: `\` escapes, query specials split words and come back as special tokens. */
  queryMode: boolean;
  /** index_sp=1 (index mode): `.`, `?`, `!` that end a sentence come back as SENTENCE_MARK tokens. */
  sentences?: boolean;
  /** index_zones (index mode): a ZONE_MARK token carries the zone name that follows it. */
  zones?: boolean;
}

/** `^ $ = *`: operators that may prefix a word (sphIsModifier). */
function isModifier(c: number): boolean {
  return c === 0x5e || c === 0x24 || c === 0x3d || c === 0x2a;
}

/** What ends a word for the `$` rule: whitespace, NUL, quote, parentheses, pipe. */
function isQueryBoundary(c: number): boolean {
  return c === 0 || c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a
    || c === 0x22 || c === 0x28 || c === 0x29 || c === 0x7c;
}

/**
 * A pull tokenizer: `reset(text)`, then `next()` until it returns false; after each `true` the
 * public fields describe the token. Offsets are UTF-16 indexes into the text given to reset().
 */
export class Tokenizer {
  /**
   * The folded token (truncated to MAX_TOKEN_CODEPOINTS / MAX_TOKEN_BYTES). A word's string is made
   * on first read: the index path looks most words up by `buf` and `textLen` and never needs it.
   */
  get text(): string {
    if (this.lazyText) {
      this.lazyText = false;
      this.textValue = this.lazyAscii
        ? lowerAscii(this.input.slice(this.start, this.start + this.textLen))
        : String.fromCharCode.apply(null, this.buf.subarray(0, this.textLen) as unknown as number[]);
    }
    return this.textValue;
  }
  set text(v: string) {
    this.textValue = v;
    this.lazyText = false;
  }
  /** UTF-16 units of the current word in `buf` (0 for a special token); valid until next(). */
  textLen = 0;
  private textValue = '';
  private lazyText = false;
  private lazyAscii = false;
  start = 0;
  /** End offset: where the separator after the token begins (trailing ignored chars included). */
  end = 0;
  /** Tokens dropped as shorter than minWordLen since the previous token. */
  overshort = 0;
  /** A phrase boundary character (followed by a separator) came before this token. */
  boundary = false;
  /** This token is a lone special character: an operator (query mode) or an SPZ mark (index mode). */
  special = false;
  /** For a ZONE_MARK token: the zone tag name, `/name` for a closing tag. */
  zone = '';

  input = '';
  private pos = 0;
  /** The folded token being accumulated (UTF-16 units). */
  readonly buf = new Uint16Array(MAX_TOKEN_CODEPOINTS * 2);
  private bufLen = 0;
  /** Codepoints accumulated in the current token (what min_word_len and index_sp rules count). */
  cps = 0;
  private bytes = 0;
  /** The accumulated token is the source slice lowercased with ASCII rules only. */
  private asciiLower = true;
  private afterBoundaryChar = false;
  /** Width in code units of the codepoint last read by readAt() (2 after an escape: `\\x`). */
  private width = 1;
  private readonly minWordLen: number;
  private readonly queryMode: boolean;
  private readonly sentences: boolean;
  private readonly zones: boolean;

  constructor(private readonly table: CharsetTable, opts: TokenizerOptions) {
    this.minWordLen = Math.max(1, opts.minWordLen);
    this.queryMode = opts.queryMode;
    this.sentences = !opts.queryMode && (opts.sentences ?? false);
    this.zones = !opts.queryMode && (opts.zones ?? false);
  }

  reset(input: string): void {
    this.input = input;
    this.pos = 0;
    this.afterBoundaryChar = false;
    this.clearAccum();
  }

  private clearAccum(): void {
    this.bufLen = 0;
    this.cps = 0;
    this.bytes = 0;
    this.asciiLower = true;
  }

  next(): boolean {
    this.overshort = 0;
    this.boundary = false;
    this.special = false;
    this.zone = '';
    const len = this.input.length;
    for (;;) {
      if (!this.queryMode) this.scanPlain();
      if (this.pos >= len) return this.emitAccum(len);
      const at = this.pos;
      const cp = this.readAt(at);
      const entry = this.classify(cp, at);
      const width = this.width;
      if (entry < 0) { this.pos = len; return this.emitAccum(len); }
      if ((entry & FLAG_IGNORE) !== 0) {
        this.pos = at + width;
        if (this.cps > 0) this.asciiLower = false;
        continue;
      }
      if (this.afterBoundaryChar && entry === 0) this.boundary = true;
      this.afterBoundaryChar = (entry & FLAG_BOUNDARY) !== 0;
      if (entry === 0 || this.afterBoundaryChar) {
        this.pos = at + width;
        if (this.emitAccum(at)) return true;
        continue;
      }
      if ((entry & FLAG_SPECIAL) !== 0) {
        if (this.cps < this.minWordLen) this.dropShort();
        if (this.cps > 0) return this.emitAccum(at);
        return this.emitSpecial(entry, at, width);
      }
      if (this.cps === 0) this.start = at;
      this.accumulate(entry & CODE_MASK, cp, width);
      this.pos = at + width;
    }
  }

  /**
   * The table entry of the codepoint at `at` after the mode's rules: query escapes and operators,
   * or index_sp sentence ends. Sets `width`; returns -1 for a backslash at the very end.
   */
  private classify(cp: number, at: number): number {
    const entry = cp < 0x10000 ? this.table.bmp[cp] : this.table.lookup(cp);
    if (this.queryMode) {
      if (cp === BACKSLASH) {
        if (at + 1 >= this.input.length) return -1;
        const escaped = this.table.lookup(this.readAt(at + 1));
        this.width += 1;
        const plain = (escaped & FLAG_DUAL) !== 0 || (escaped & FLAG_SPECIAL) === 0;
        return plain ? escaped & ~(FLAG_SPECIAL | FLAG_DUAL) : 0;
      }
      return (entry & FLAG_SPECIAL) !== 0 ? this.arbitrateSpecial(entry, at + this.width) : entry;
    }
    return this.sentences && (entry & FLAG_SPECIAL) !== 0 ? arbitrateSentence(entry, at, this) : entry;
  }

  /** A lone special character becomes its own token (an operator or an SPZ mark). */
  private emitSpecial(entry: number, at: number, width: number): boolean {
    this.pos = at + width;
    this.special = true;
    this.textLen = 0;
    this.text = String.fromCharCode(entry & CODE_MASK);
    this.start = at;
    this.end = at + width;
    if (this.zones && (entry & CODE_MASK) === ZONE_MARK) this.readZoneName();
    return true;
  }

  /**
   * The hot loop: skips plain separators and accumulates plain BMP word characters (no flags),
   * stopping at anything that needs the general path (a token end, flags, surrogates).
   */
  private scanPlain(): void {
    const input = this.input;
    const len = input.length;
    const bmp = this.table.bmp;
    const buf = this.buf;
    let pos = this.pos;
    let cps = this.cps;
    let bytes = this.bytes;
    let bufLen = this.bufLen;
    let lower = this.asciiLower;
    while (pos < len) {
      const c = input.charCodeAt(pos);
      if ((c & 0xf800) === 0xd800) break;
      const code = bmp[c];
      if (code === 0) {
        if (cps > 0 || this.afterBoundaryChar) break;
        pos++;
        continue;
      }
      // flags, or a fold to an astral codepoint (two units): the general path
      if (code > 0xffff) break;
      this.afterBoundaryChar = false;
      if (cps === 0) this.start = pos;
      const need = code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
      if (cps < MAX_TOKEN_CODEPOINTS && bytes + need <= MAX_TOKEN_BYTES) {
        cps++;
        bytes += need;
        buf[bufLen++] = code;
        if (lower && !(c < 0x80 && (code === c || (c >= 0x41 && c <= 0x5a && code === (c | 0x20))))) lower = false;
      } else {
        lower = false;
      }
      pos++;
    }
    this.pos = pos;
    this.cps = cps;
    this.bytes = bytes;
    this.bufLen = bufLen;
    this.asciiLower = lower;
  }

  /** Codepoint at `at`, its width in code units left in `width`; lone surrogates read as U+FFFD. */
  private readAt(at: number): number {
    const c = this.input.charCodeAt(at);
    this.width = 1;
    if ((c & 0xf800) !== 0xd800) return c;
    if (c <= 0xdbff && at + 1 < this.input.length) {
      const lo = this.input.charCodeAt(at + 1);
      if ((lo & 0xfc00) === 0xdc00) {
        this.width = 2;
        return ((c - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
      }
    }
    return REPLACEMENT_CHAR;
  }

  /**
   * Query-mode rules for a special character (Manticore's CodepointArbitrationQ without phrase mode):
   * a dash inside a word and a `$` inside a word not followed by a boundary are not operators.
   */
  private arbitrateSpecial(entry: number, nextAt: number): number {
    const symbol = entry & CODE_MASK;
    // a blend character that is also an operator blends in a word's middle for @ / - (no phrase mode here)
    if ((entry & FLAG_BLEND) !== 0 && this.cps > 0 && (symbol === 0x40 || symbol === 0x2f || symbol === 0x2d)) {
      return entry & ~(FLAG_SPECIAL | FLAG_DUAL);
    }
    const dashInside = this.cps > 0 && symbol === 0x2d && !(this.cps === 1 && isModifier(this.buf[0]));
    const next = nextAt < this.input.length ? this.input.charCodeAt(nextAt) : 0;
    const dollarInside = this.cps > 0 && symbol === 0x24 && !isQueryBoundary(next);
    if (dashInside || dollarInside) {
      return (entry & FLAG_DUAL) !== 0 ? entry & ~(FLAG_SPECIAL | FLAG_DUAL) : 0;
    }
    return (entry & FLAG_DUAL) !== 0 ? symbol | FLAG_SPECIAL : entry;
  }

  /** After a ZONE_MARK token: the name up to the next ZONE_MARK, which is skipped too. */
  private readZoneName(): void {
    const close = this.input.indexOf(String.fromCharCode(ZONE_MARK), this.pos);
    if (close < 0) { this.zone = ''; return; }
    this.zone = this.input.slice(this.pos, close);
    this.pos = close + 1;
  }

  /** Appends a folded codepoint unless the token is already at its length limit. */
  private accumulate(code: number, source: number, width: number): void {
    const bytes = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (this.cps >= MAX_TOKEN_CODEPOINTS || this.bytes + bytes > MAX_TOKEN_BYTES) {
      this.asciiLower = false;
      return;
    }
    this.cps++;
    this.bytes += bytes;
    if (code < 0x10000) {
      this.buf[this.bufLen++] = code;
    } else {
      this.buf[this.bufLen++] = 0xd800 + ((code - 0x10000) >> 10);
      this.buf[this.bufLen++] = 0xdc00 + ((code - 0x10000) & 0x3ff);
    }
    if (this.asciiLower && !(source < 0x80 && width === 1 && code === (source >= 0x41 && source <= 0x5a ? source | 0x20 : source))) {
      this.asciiLower = false;
    }
  }

  private dropShort(): void {
    if (this.cps > 0) this.overshort++;
    this.clearAccum();
  }

  /** Ends the accumulated token at `end`: emits it, drops it as overshort, or reports nothing. */
  private emitAccum(end: number): boolean {
    if (this.cps === 0) return false;
    if (this.cps < this.minWordLen) {
      this.dropShort();
      return false;
    }
    this.end = end;
    // buf keeps the word until the next call accumulates over it; `text` is built from it on demand
    this.textLen = this.bufLen;
    this.lazyAscii = this.asciiLower;
    this.lazyText = true;
    this.clearAccum();
    return true;
  }

}

/** Lowercases A-Z only; returns the same string when there is nothing to change. */
function lowerAscii(s: string): string {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x41 && c <= 0x5a) return s.toLowerCase();
  }
  return s;
}
