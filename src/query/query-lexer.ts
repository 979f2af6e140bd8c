/**
 * The token level of query lexing (Manticore's XQParser::GetToken): keywords with their modifiers,
 * operators, NEAR/N, MAYBE, SENTENCE, ZONE:, numbers after `~` and `/`, field limits, and the field
 * and zone state that each keyword takes at the moment it is read.
 */
import { CharScanner, MODIFIERS, type RawToken, type ScannerOptions } from './char-scanner.js';
import { atoi, strtodPrefix } from './c-number.js';
import { parseFieldOperator, parseZoneNames, type FieldContext } from './field-spec.js';
import { readModifiers } from './keyword-modifiers.js';
import { EMPTY_SPEC, keywordNode, type XqNode, type XqSpec } from './xq-node.js';

export type TokType =
  | 'KEYWORD' | 'INT' | 'FLOAT' | 'FIELDLIMIT' | 'ZONE' | 'ZONESPAN' | 'BEFORE' | 'SENTENCE'
  | 'PARAGRAPH' | 'MAYBE' | 'NEAR' | 'NOTNEAR' | 'END'
  | '(' | ')' | '|' | '-' | '!' | '"' | '~' | '/' | '=';

export interface LexToken {
  type: TokType;
  /** KEYWORD: the keyword node, made with the field/zone state of the moment. */
  node?: XqNode;
  /** INT, NEAR, NOTNEAR: the integer; FLOAT: the typed value. */
  value?: number;
  /** INT, FLOAT: the number as a keyword (null when it makes no keyword). */
  text?: string | null;
}

export interface LexerOptions extends ScannerOptions {
  /** True for words the table turns into nothing (stopwords...): they vanish but keep a position. */
  isNullWord?: (word: string) => boolean;
  /** Schema and `@@relaxed` for field operators (warnings go to the lexer's list). */
  field: Omit<FieldContext, 'warn'>;
}

const C_SPACE = ' \t\n\v\f\r';
const NUMBER_FOLLOW = '()|-!@~"/';
/** Longest number read after `~` or `/` is 9 characters (Manticore's int32 buffer). */
const MAX_NUMBER_LEN = 9;

export class QueryLexer {
  readonly scanner: CharScanner;
  atomPos = 0;
  /** Start of the text being lexed when the last token was asked for (error context). */
  errorAt = 0;
  /** No token read yet (only whitespace or junk so far). */
  empty = true;
  warnings: string[] = [];
  /** Positions of `*` gaps in the current phrase. */
  phraseStars: number[] = [];
  private specs: XqSpec[] = [EMPTY_SPEC];
  private pending: LexToken | null = null;
  private pendingNulls = 0;
  private wasKeyword = false;
  private quoted = false;
  private quorumQuote = -1;
  private quorumSlash = -1;
  private checkNumber = false;

  constructor(readonly text: string, private readonly opts: LexerOptions) {
    this.scanner = new CharScanner(text, opts);
  }

  get spec(): XqSpec { return this.specs[this.specs.length - 1]!; }

  warn(message: string): void { this.warnings.push(`query warning: ${message}`); }

  /** A keyword node at the current position, with modifiers read around the last token. */
  keyword(text: string | null): XqNode {
    const word = { text, pos: this.atomPos };
    readModifiers(this.text, this.scanner, word);
    return keywordNode(word, this.spec);
  }

  next(): LexToken {
    let frontModifier = false;
    if (!this.pending) {
      for (;;) {
        const got = this.step();
        if (got === 'continue') continue;
        if (got === 'front') { frontModifier = true; continue; }
        if (got !== 'pending') return got;
        break;
      }
      if (frontModifier && this.pending!.type !== 'KEYWORD') this.warn('modifiers must be applied to keywords, not operators');
    }
    this.empty = false;
    if (this.pendingNulls > 0) {
      this.pendingNulls--;
      this.wasKeyword = true;
      return { type: 'KEYWORD', node: this.keyword(null) };
    }
    const tok = this.pending!;
    this.pending = null;
    if (tok.type === 'KEYWORD') this.wasKeyword = true;
    return tok;
  }

  /** One round of Manticore's lexer loop: a token to return, a pending one, or go round again. */
  private step(): LexToken | 'pending' | 'continue' | 'front' {
    const wasKeyword = this.wasKeyword;
    this.wasKeyword = false;
    const sc = this.scanner;
    const lastEnd = sc.tokenEnd;
    this.errorAt = sc.pos;
    let p = sc.pos;
    while (p < this.text.length && C_SPACE.includes(this.text[p]!)) p++;
    if (this.checkNumber) {
      this.checkNumber = false;
      if (this.readNumber(p)) return 'pending';
    }
    const tok = sc.next();
    if (!tok) {
      if (!(sc.overshort > 0 || sc.pos - p > 0)) return { type: 'END' };
      this.wasKeyword = true;
      return { type: 'KEYWORD', node: this.keyword(null) };
    }
    this.empty = false;
    this.pendingNulls = sc.overshort;
    this.atomPos += 1 + this.pendingNulls;
    if (!this.quoted && this.readWordOperator(tok, p)) return 'pending';
    if (this.quoted && lastEnd >= 0) this.noteStar(tok, lastEnd);
    if (tok.special) return this.special(tok, wasKeyword);
    const word = this.multiWord(tok) ?? tok.text;
    const vanished = this.opts.isNullWord?.(word) ?? false;
    this.pending = { type: 'KEYWORD', node: this.keyword(vanished ? null : word) };
    this.atomPos += this.opts.textHooks?.extraPositions?.(word) ?? 0;
    return 'pending';
  }

  /**
   * A multi-word wordform starting at `tok` (`core 2 duo`): one keyword of the words' raw text, the
   * scanner moved past its last word; null when none starts here. Operators end the candidates.
   */
  private multiWord(tok: RawToken): string | null {
    const hooks = this.opts.textHooks;
    if (!hooks || hooks.maxMultiWords < 2) return null;
    const peek = new CharScanner(this.text, this.opts);
    peek.pos = this.scanner.pos;
    peek.phrase = this.scanner.phrase;
    const words = [tok];
    while (words.length < hooks.maxMultiWords) {
      const next = peek.next();
      if (!next || next.special) break;
      words.push(next);
    }
    const n = words.length > 1 ? hooks.multiWordSpan(words.map((w) => w.text)) : 0;
    if (n < 2) return null;
    const last = words[n - 1]!;
    this.scanner.pos = last.end;
    this.scanner.tokenEnd = last.end;
    return this.text.slice(tok.start, last.end);
  }

  /** NEAR/N, NOTNEAR/N, SENTENCE, PARAGRAPH, MAYBE, ZONE:, ZONESPAN: (case-sensitive, raw text). */
  private readWordOperator(tok: RawToken, p: number): boolean {
    const s = this.text;
    for (const [word, type] of [['NEAR/', 'NEAR'], ['NOTNEAR/', 'NOTNEAR']] as const) {
      if (s.startsWith(word, p) && /[0-9]/.test(s[p + word.length] ?? '')) {
        let q = p + word.length;
        let v = 0;
        while (/[0-9]/.test(s[q] ?? '')) v = v * 10 + Number(s[q++]);
        this.scanner.pos = q;
        return this.operator({ type, value: v });
      }
    }
    for (const [word, type] of [['SENTENCE', 'SENTENCE'], ['PARAGRAPH', 'PARAGRAPH'], ['MAYBE', 'MAYBE']] as const) {
      if (tok.text.toLowerCase() === word.toLowerCase() && s.startsWith(word, p)) return this.operator({ type });
    }
    for (const [word, type] of [['ZONE:', 'ZONE'], ['ZONESPAN:', 'ZONESPAN']] as const) {
      const at = p + word.length;
      if (s.startsWith(word, p) && (/[0-9A-Za-z_-]/.test(s[at] ?? '') || s[at] === '(')) {
        const read = parseZoneNames(s, at);
        this.scanner.pos = read.next;
        this.setSpec({ ...this.spec, zones: read.zones, zoneSpan: type === 'ZONESPAN' });
        return this.operator({ type });
      }
    }
    return false;
  }

  private operator(tok: LexToken): true {
    this.atomPos -= 1;
    this.pending = tok;
    return true;
  }

  /** Records a `*` gap inside a phrase: a lone `*` token, or a ` * ` between two tokens. */
  private noteStar(tok: RawToken, lastEnd: number): void {
    if (tok.text === '*') { this.phraseStars.push(this.atomPos); return; }
    let space = 0;
    let star = 0;
    for (let i = lastEnd; i < tok.start; i++) {
      const k = i - lastEnd;
      if (this.text[i] === '*') star = k;
      else if (this.text[i] === ' ') {
        if (space + 2 === k && star + 1 === k) this.phraseStars.push(this.atomPos);
        space = k;
      }
    }
  }

  private special(tok: RawToken, wasKeyword: boolean): LexToken | 'pending' | 'continue' | 'front' {
    this.atomPos--;
    const ch = tok.text;
    const sc = this.scanner;
    if (ch === '@') {
      const read = parseFieldOperator(this.text, sc.pos, { ...this.opts.field, warn: (m) => this.warn(m) });
      sc.pos = read.next;
      if (read.kind === 'ignore') return 'continue';
      this.setSpec({ ...this.spec, field: read.spec.limit, noField: read.spec.empty });
      this.pending = { type: 'FIELDLIMIT' };
      return 'pending';
    }
    if (ch === '<') {
      if (this.text[sc.pos] === '<') { this.pending = { type: 'BEFORE' }; return 'pending'; }
      if (this.pendingNulls > 0) return this.nullKeyword();
      return 'continue';
    }
    if (ch === '^') return tok.end < this.text.length && !' \t\n\r'.includes(this.text[tok.end]!) ? 'front' : 'continue';
    if (ch === '$') {
      if (wasKeyword) return 'continue';
      if (sc.overshort === 1) { this.pendingNulls = 0; return { type: 'KEYWORD', node: this.keyword(null) }; }
      this.warn('modifiers must be applied to keywords, not operators');
      return 'continue';
    }
    const wasQuoted = this.quoted;
    if (ch === '"') {
      this.quoted = !this.quoted;
      if (this.quoted) this.phraseStars = [];
    }
    this.pending = { type: ch as TokType };
    sc.phrase = this.quoted;
    if (ch === '(') this.specs.push(this.spec);
    else if (ch === ')' && this.specs.length > 1) this.specs.pop();
    if (wasQuoted && !this.quoted) this.quorumQuote = this.atomPos;
    else if (ch === '/') this.quorumSlash = this.atomPos;
    if (ch === '~' || ch === '/') this.checkNumber = true;
    return 'pending';
  }

  private nullKeyword(): LexToken {
    this.pendingNulls = 0;
    this.wasKeyword = true;
    return { type: 'KEYWORD', node: this.keyword(null) };
  }

  /** Field limits and zones apply from here to the end of the enclosing group. */
  private setSpec(spec: XqSpec): void { this.specs[this.specs.length - 1] = spec; }

  /** After `~` or `/`: a short number followed by a space, an operator or the end. */
  private readNumber(p: number): boolean {
    const s = this.text;
    let q = p;
    let dots = 0;
    while (q < s.length && /[0-9.]/.test(s[q]!)) { if (s[q] === '.') dots++; q++; }
    if (dots && (dots > 1 || q - p === dots)) q = p;
    const quorumArg = this.quorumQuote === this.quorumSlash && this.quorumQuote === this.atomPos;
    if (dots === 1 && !quorumArg) q = p;
    const len = q - p;
    const after = s[q];
    const dashAfter = after === '-' && !(len === 1 && MODIFIERS.includes(s[q - 1]!));
    if (!(len > 0 && len <= MAX_NUMBER_LEN && !dashAfter && (after === undefined || ' \t\n\r'.includes(after) || NUMBER_FOLLOW.includes(after)))) {
      return false;
    }
    const digits = s.slice(p, q);
    const first = new CharScanner(digits, this.opts).next();
    let text: string | null = null;
    if (first) {
      text = this.opts.isNullWord?.(first.text) ? null : first.text;
      this.atomPos++;
    }
    this.pendingNulls = 0;
    this.pending = dots
      ? { type: 'FLOAT', value: strtodPrefix(digits, 0).value, text }
      : { type: 'INT', value: atoi(digits), text };
    this.scanner.pos = q;
    this.scanner.tokenStart = this.scanner.tokenEnd = -1;
    return true;
  }
}
