/** Parser for Manticore's charset syntax (`charset_table`, `ignore_chars`, `blend_chars`, `phrase_boundary`). */

/**
 * One definition: codepoints `start..end` map to `remapStart..remapStart+(end-start)`.
 * A plain character or range maps to itself (`remapStart === start`).
 */
export interface CharRange {
  start: number;
  end: number;
  remapStart: number;
}

/** Syntax error carrying Manticore's message text (`syntax error near 'x'`). */
export class CharsetSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CharsetSyntaxError';
  }
}

/** Lowest destination codepoint a definition may name; Manticore rejects lower ones. */
const MIN_DEST_CODE = 0x20;
/** Hex literals are capped so that absurd values cannot overflow into negatives. */
const MAX_PARSED_CODE = 0x7fffffff;

/** Named charsets usable inside a definition (`non_cont, U+2E`): name -> its ranges. */
export type CharsetAliases = ReadonlyMap<string, readonly CharRange[]>;

/** C's isspace() over ASCII: space, \t, \n, \v, \f, \r. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/**
 * Parses a charset definition into ranges in definition order (later definitions win when applied
 * in order, as Manticore's range merge does). Grammar, comma separated:
 * `c`, `U+XXXX`, `a..z`, `a->b`, `A..Z->a..z`, `U+14A..U+14B/2` (pairs fold onto their second),
 * or an alias name from `aliases` followed by `,` or the end.
 * Throws CharsetSyntaxError with Manticore's message (without the setting name prefix).
 */
export function parseCharsetDefinition(spec: string, aliases: CharsetAliases): CharRange[] {
  return new DefinitionReader(spec, aliases).readAll();
}

/** A cursor over the definition text; mirrors the order of checks of Manticore's parser. */
class DefinitionReader {
  private pos = 0;
  private readonly out: CharRange[] = [];

  constructor(private readonly src: string, private readonly aliases: CharsetAliases) {}

  readAll(): CharRange[] {
    while (this.pos < this.src.length) {
      this.skipSpaces();
      if (this.atEnd()) break;
      if (this.peek() === 0x2c) this.fail("stray ',' not allowed, use 'U+002C' instead");
      if (this.readAlias()) continue;
      this.readDefinition();
    }
    return this.out;
  }

  private peek(offset = 0): number {
    const c = this.src.charCodeAt(this.pos + offset);
    return Number.isNaN(c) ? 0 : c;
  }

  private atEnd(): boolean {
    return this.pos >= this.src.length;
  }

  private skipSpaces(): void {
    while (!this.atEnd() && isSpace(this.peek())) this.pos++;
  }

  private fail(message: string, at = this.pos): never {
    throw new CharsetSyntaxError(`${message} near '${this.src.slice(at)}'`);
  }

  private add(start: number, end: number, remapStart: number): void {
    if (remapStart < MIN_DEST_CODE) {
      this.fail(`dest range (U+${remapStart.toString(16)}) below U+20, not allowed`);
    }
    this.out.push({ start, end, remapStart });
  }

  /** An alias counts only when followed by ',' or the end of the text. */
  private readAlias(): boolean {
    for (const [name, ranges] of this.aliases) {
      if (!this.src.startsWith(name, this.pos)) continue;
      const after = this.pos + name.length;
      if (after < this.src.length && this.src.charCodeAt(after) !== 0x2c) continue;
      this.pos = after;
      if (this.peek() === 0x2c) this.pos++;
      for (const r of ranges) this.add(r.start, r.end, r.remapStart);
      return true;
    }
    return false;
  }

  /** `U+XXXX` or one printable ASCII character, then trailing spaces. */
  private readCode(): number {
    let code = 0;
    if (this.peek() === 0x55 && this.peek(1) === 0x2b) {
      this.pos += 2;
      for (let h = hexValue(this.peek()); h >= 0; h = hexValue(this.peek())) {
        code = Math.min(code * 16 + h, MAX_PARSED_CODE);
        this.pos++;
      }
    } else {
      const c = this.peek();
      if (c < 32 || c > 127) this.fail("non-ASCII characters not allowed, use 'U+00AB' syntax");
      code = c;
      this.pos++;
    }
    while (!this.atEnd() && isSpace(this.peek())) this.pos++;
    return code;
  }

  private atCommaOrEnd(): boolean {
    return this.atEnd() || this.peek() === 0x2c;
  }

  private isArrow(): boolean {
    return this.peek() === 0x2d && this.peek(1) === 0x3e;
  }

  private isDots(): boolean {
    return this.peek() === 0x2e && this.peek(1) === 0x2e;
  }

  /**
   * Consumes the ',' after a definition, or requires the end of the text. `pastBad`: Manticore
   * steps over the offending character before reporting, so its 'near' text starts after it.
   */
  private endDefinition(message: string, pastBad: boolean): void {
    if (this.atEnd()) return;
    const bad = this.peek() !== 0x2c;
    this.pos++;
    if (bad) this.fail(message, pastBad ? this.pos : this.pos - 1);
  }

  private readDefinition(): void {
    const defStart = this.pos;
    const start = this.readCode();
    if (this.atCommaOrEnd()) {
      this.add(start, start, start);
      if (!this.atEnd()) this.pos++;
      return;
    }
    if (this.isArrow()) {
      this.pos += 2;
      const dest = this.readCode();
      this.add(start, start, dest);
      this.endDefinition('syntax error', true);
      return;
    }
    if (!this.isDots()) this.fail('syntax error');
    this.pos += 2;
    this.skipSpaces();
    if (this.atEnd()) this.fail('unexpected end of line');
    const end = this.readCode();
    if (start > end) this.fail('range end less than range start', defStart);
    this.readRangeTail(defStart, start, end);
  }

  /** What may follow `a..b`: nothing, `/2`, or `->c..d`. */
  private readRangeTail(defStart: number, start: number, end: number): void {
    if (this.atCommaOrEnd()) {
      this.add(start, end, start);
      if (!this.atEnd()) this.pos++;
      return;
    }
    if (this.peek() === 0x2f && this.peek(1) === 0x32) {
      for (let c = start; c < end; c += 2) {
        this.add(c, c, c + 1);
        this.add(c + 1, c + 1, c + 1);
      }
      this.pos += 2;
      this.skipSpaces();
      this.endDefinition("expected end of line or ','", true);
      return;
    }
    if (!this.isArrow()) this.fail("expected end of line, ',' or '-><char>'");
    this.pos += 2;
    this.skipSpaces();
    if (this.atEnd()) this.fail('unexpected end of line');
    const destAt = this.pos;
    const destStart = this.readCode();
    if (this.atEnd()) this.fail('unexpected end of line');
    if (!this.isDots()) this.fail("expected '..'");
    this.pos += 2;
    const destEnd = this.readCode();
    if (destStart > destEnd) this.fail('dest range end less than dest range start', destAt);
    if (destEnd - destStart !== end - start) {
      this.fail('dest range length must match src range length', defStart);
    }
    this.add(start, end, destStart);
    this.endDefinition("expected ','", false);
  }
}
