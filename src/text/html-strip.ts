/**
 * html_strip=1: removes markup before tokenizing, as Manticore's HTML stripper (src/stripper/):
 * tags become a space (inline tags like <b> nothing), comments, <!DOCTYPE> and <?..?> vanish,
 * entities are decoded, html_remove_elements drop their contents, html_index_attrs keep values,
 * control characters become spaces and whitespace runs collapse to one space. <script> and
 * <style> contents are kept unless listed in html_remove_elements (as in Manticore).
 */
import { lookupEntity, MAX_ENTITY_NAME } from './html-entities.js';
import { isHtmlSpace, isTagChar, isTagNameStart, isTagStart, TagRules, type TagRule } from './html-tags.js';
import { PARAGRAPH_MARK, ZONE_MARK } from './spz-marks.js';
import { Output, type StrippedText } from './stripped-output.js';

export type { StrippedText } from './stripped-output.js';

export interface HtmlStripOptions {
  /** html_index_attrs, e.g. `img=alt,title; a=title;`. */
  indexAttrs?: string;
  /** html_remove_elements, e.g. `style, script`. */
  removeElements?: string;
  /** Decode entities (default true; highlighting's strip mode keeps them as written). */
  decodeEntities?: boolean;
  /** index_sp=1: block elements become PARAGRAPH_MARK. */
  paragraphs?: boolean;
  /** index_zones: zone elements become ZONE_MARK + name (`/name` when closing) + ZONE_MARK. */
  zones?: string;
}


/** Quoted attribute values longer than this are assumed unterminated (Manticore's limit). */
const MAX_QUOTED = 512;
/** How far a `<?` processing instruction is searched for its `>`. */
const MAX_PI = 256;
const SPACE = 0x20, LT = 0x3c, GT = 0x3e, AMP = 0x26, SEMI = 0x3b, HASH = 0x23, SLASH = 0x2f;
const BANG = 0x21, DASH = 0x2d, QMARK = 0x3f, QUOTE = 0x22, APOS = 0x27;

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
function isAsciiLetter(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}
function hexDigit(c: number): number {
  if (isDigit(c)) return c - 0x30;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  return -1;
}

/** True when stripping cannot change the text: no markup, entities, control chars or double spaces. */
function isPlain(src: string): boolean {
  let prev = 0;
  for (let k = 0; k < src.length; k++) {
    const c = src.charCodeAt(k);
    if (c === LT || c === AMP || c < SPACE || (c === SPACE && prev === SPACE)) return false;
    prev = c;
  }
  return true;
}

export class HtmlStripper {
  private readonly tags: TagRules;
  private readonly decodeEntities: boolean;

  constructor(opts: HtmlStripOptions = {}) {
    this.tags = new TagRules(opts);
    this.decodeEntities = opts.decodeEntities ?? true;
  }

  strip(src: string): StrippedText {
    if (isPlain(src)) return { text: src, starts: null, ends: null };
    return new StripRun(src, this.tags, this.decodeEntities).run();
  }
}

/** One pass over one text. Like the C original, a NUL character ends the text. */
class StripRun {
  private readonly end: number;
  private readonly out: Output;
  private p = 0;

  constructor(private readonly src: string, private readonly tags: TagRules, private readonly decode: boolean) {
    const nul = src.indexOf('\0');
    this.end = nul < 0 ? src.length : nul;
    this.out = new Output(this.end + 16);
  }

  private ch(k: number): number {
    return k < this.end ? this.src.charCodeAt(k) : 0;
  }

  run(): StrippedText {
    while (this.p < this.end) {
      const c = this.ch(this.p);
      if (c === AMP) this.entity();
      else if (c === LT) { if (!this.markup()) break; }
      else { this.out.push(c < SPACE ? SPACE : c, this.p, this.p + 1); this.p++; }
    }
    return this.out.finish();
  }

  private literal(): void {
    this.out.push(this.ch(this.p), this.p, this.p + 1);
    this.p++;
  }

  /** `&#NN;`, `&#xHH;`, `&name;`; anything else leaves the `&` as text. */
  private entity(): void {
    const at = this.p;
    if (!this.decode) return this.literal();
    if (this.ch(at + 1) === HASH) return this.numericEntity(at);
    if (isAsciiLetter(this.ch(at + 1))) {
      const nameAt = at + 1;
      let q = at;
      while (q < this.end && this.ch(q) !== SEMI && q - nameAt <= MAX_ENTITY_NAME) q++;
      if (this.ch(q) === SEMI) {
        const code = q - nameAt >= 2 && q - nameAt <= MAX_ENTITY_NAME ? lookupEntity(this.src.slice(nameAt, q)) : 0;
        if (code > 0) {
          this.out.pushCodepoint(code, at, q + 1);
          this.p = q + 1;
          return;
        }
      }
    }
    this.literal();
  }

  /** Numeric entities: without a `;`, or below U+20, the digits are silently dropped (as Manticore). */
  private numericEntity(at: number): void {
    let q = at + 2;
    let code = 0;
    if (this.ch(q) === 0x78 || this.ch(q) === 0x58) {
      q++;
      for (let h = hexDigit(this.ch(q)); h >= 0; h = hexDigit(this.ch(++q))) code = ((code << 4) | h) >>> 0;
    } else {
      while (isDigit(this.ch(q))) code = (Math.imul(code, 10) + this.ch(q++) - 0x30) >>> 0;
    }
    code %= 0x110000;
    if (code <= 0x1f || this.ch(q) !== SEMI) {
      this.p = q;
      return;
    }
    // a surrogate codepoint would not survive UTF-8: it reads as U+FFFD there
    this.out.pushCodepoint(code >= 0xd800 && code <= 0xdfff ? 0xfffd : code, at, q + 1);
    this.p = q + 1;
  }

  /** Handles text at a `<`; returns false when the rest of the text is to be dropped. */
  private markup(): boolean {
    const at = this.p;
    const c1 = this.ch(at + 1);
    if (!isTagNameStart(c1)) {
      if (c1 === SLASH) {
        if (!isTagNameStart(this.ch(at + 2))) { this.literal(); return true; }
      } else if (c1 === BANG) {
        return this.bang(at);
      } else if (c1 === QMARK) {
        this.p = this.skipPI(at);
        return true;
      } else {
        this.literal();
        return true;
      }
    }
    this.tag(at);
    return true;
  }

  /** `<!-- -->` comments (an unclosed one drops the rest), `<!DOCTYPE ...>`, or a literal `<`. */
  private bang(at: number): boolean {
    if (this.ch(at + 2) === DASH && this.ch(at + 3) === DASH) {
      const close = this.src.indexOf('-->', at + 4);
      if (close < 0 || close + 3 > this.end) return false;
      this.p = close + 3;
      return true;
    }
    if (!isAsciiLetter(this.ch(at + 2))) { this.literal(); return true; }
    let q = at + 2;
    while (q < this.end && this.ch(q) !== GT) {
      const c = this.ch(q);
      if (c === APOS || c === QUOTE) {
        q = this.skipQuoted(q);
        while (q < this.end && (this.ch(q) === SPACE || (this.ch(q) >= 0x09 && this.ch(q) <= 0x0d))) q++;
      } else q++;
    }
    this.p = this.ch(q) === GT ? q + 1 : q;
    return true;
  }

  /** `<?...>`: up to the first `>` within MAX_PI; otherwise only the non-space run after `<?`. */
  private skipPI(at: number): number {
    const from = at + 2;
    const max = from + MAX_PI;
    let q = from;
    for (; q < max && q < this.end; q++) if (this.ch(q) === GT) return q + 1;
    if (q >= this.end) return this.end;
    q = from;
    while (q < max && q < this.end && !isHtmlSpace(this.ch(q))) q++;
    return q;
  }

  /** Position after a quoted value starting at `q`; an unterminated one ends at a likely `>`. */
  private skipQuoted(q: number): number {
    const max = q + MAX_QUOTED;
    const quote = this.ch(q++);
    let probable = -1;
    while (q < max && q < this.end && this.ch(q) !== quote) {
      if (probable < 0 && (this.ch(q) === GT || this.ch(q) === 0x0d)) probable = q;
      q++;
    }
    if (this.ch(q) === quote && q < this.end) return q + 1;
    return probable >= 0 ? probable : q;
  }

  /** A tag: scan its attributes (copying indexed values), then apply the tag's rule. */
  private tag(at: number): void {
    const found = this.tags.find(this.src, at + 1, this.end);
    this.p = found ? found.after : at + 1;
    this.attributes(found?.rule);
    if (this.p < this.end) this.p++; // the closing '>'
    const rule = found?.rule;
    if (!rule) { this.out.push(SPACE, at, this.p); return; }
    if (rule.zone) {
      this.out.push(ZONE_MARK, at, this.p);
      for (let k = at + 1; k < found!.after; k++) this.out.push(this.ch(k) | (this.ch(k) >= 0x41 && this.ch(k) <= 0x5a ? 0x20 : 0), at, this.p);
      this.out.push(ZONE_MARK, at, this.p);
      return;
    }
    if (rule.para) { this.out.push(PARAGRAPH_MARK, at, this.p); return; }
    if (!rule.remove) {
      if (!rule.inline) this.out.push(SPACE, at, this.p);
      return;
    }
    if (this.p >= this.end || this.ch(this.p - 2) === SLASH) return;
    this.skipElement(rule, at);
  }

  private skipSpaces(): void {
    while (this.p < this.end && isHtmlSpace(this.ch(this.p))) this.p++;
  }

  private attributes(rule: TagRule | undefined): void {
    while (this.p < this.end && this.ch(this.p) !== GT) {
      this.skipSpaces();
      if (this.p >= this.end || this.ch(this.p) === GT) return;
      if (isTagStart(this.ch(this.p))) {
        const nameAt = this.p;
        while (isTagChar(this.ch(this.p))) this.p++;
        const c = this.ch(this.p);
        if (isHtmlSpace(c) || c === 0x3d) {
          const name = this.src.slice(nameAt, this.p).toLowerCase();
          this.skipSpaces();
          if (this.p >= this.end || this.ch(this.p) === GT) return;
          if (this.ch(this.p) !== 0x3d) continue;
          this.p++;
          this.skipSpaces();
          if (this.p >= this.end || this.ch(this.p) === GT) return;
          this.value(rule !== undefined && rule.attrs.includes(name));
          continue;
        }
      }
      while (this.p < this.end && this.ch(this.p) !== GT && !isHtmlSpace(this.ch(this.p))) this.p++;
    }
  }

  /** Skips an attribute value; an indexed one is copied (unquoted) followed by a space. */
  private value(indexed: boolean): void {
    const from = this.p;
    const q = this.ch(from);
    if (q === APOS || q === QUOTE) this.p = this.skipQuoted(from);
    else while (this.p < this.end && this.ch(this.p) !== GT && !isHtmlSpace(this.ch(this.p))) this.p++;
    if (!indexed) return;
    let vs = from;
    let ve = this.p;
    if (q === APOS || q === QUOTE) {
      if (this.ch(ve - 1) === q && ve - 1 > from) ve--;
      vs++;
    }
    for (let k = vs; k < ve; k++) this.out.push(this.ch(k), k, k + 1);
    this.out.push(SPACE, ve, ve);
  }

  /** Drops everything up to the element's closing tag (or the end of the text). */
  private skipElement(rule: TagRule, at: number): void {
    const len = rule.name.length;
    for (;;) {
      const close = this.src.indexOf('</', this.p);
      if (close < 0 || close >= this.end) { this.p = this.end; break; }
      this.p = close + 2;
      if (this.src.slice(this.p, this.p + len).toLowerCase() !== rule.name) continue;
      if (!isTagChar(this.ch(this.p + len))) {
        this.p += len;
        if (this.ch(this.p) === GT) this.p++;
        break;
      }
    }
    if (!rule.inline) this.out.push(SPACE, at, this.p);
  }
}
