/** A cursor over the token list with Manticore-style syntax errors (`P01: syntax error, ... near '...'`). */
import { SearchError } from '../util/errors.js';
import { describeWord, type Dialect } from './keywords.js';
import type { Token } from './lexer.js';

/**
 * Deepest nesting of parentheses, NOT and unary minus accepted; deeper input would overflow the JS
 * stack. Bison's parser stack gives up likewise, with `memory exhausted`.
 */
export const MAX_NESTING = 128;

/** The one-character tokens Manticore's DDL grammar (ddl.y) uses. */
const DDL_CHARS = new Set(['(', ')', ',', '.', '=']);

export class Cursor {
  /** The Pnn prefix of errors raised now; parsers switch it per statement family. */
  dialect: Dialect = 'P01';
  pos = 0;
  private depth = 0;

  constructor(readonly src: string, readonly toks: Token[]) {}

  peek(ahead = 0): Token {
    const i = Math.min(this.pos + ahead, this.toks.length - 1);
    return this.toks[i]!;
  }

  next(): Token {
    const t = this.toks[this.pos]!;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }

  atEnd(): boolean { return this.peek().kind === 'eof'; }

  /** True when the token `ahead` is the bare word `word` (upper case). */
  isKw(word: string, ahead = 0): boolean { return this.peek(ahead).upper === word; }

  isPunct(p: string, ahead = 0): boolean {
    const t = this.peek(ahead);
    return t.kind === 'punct' && t.value === p;
  }

  acceptKw(word: string): boolean {
    if (!this.isKw(word)) return false;
    this.pos++;
    return true;
  }

  acceptPunct(p: string): boolean {
    if (!this.isPunct(p)) return false;
    this.pos++;
    return true;
  }

  // the expected lists are made only on failure: a default parameter's array was allocated per call,
  // several per statement
  expectKw(word: string, expecting?: string[]): Token {
    if (!this.isKw(word)) this.fail(expecting ?? [word]);
    return this.next();
  }

  /** Bison lists expected tokens only when there are few; after most constructs there are many. */
  expectPunct(p: string, expecting?: string[]): Token {
    if (!this.isPunct(p)) this.fail(expecting);
    return this.next();
  }

  /** Runs `fn` one nesting level deeper, failing with `memory exhausted` past MAX_NESTING. */
  nested<T>(fn: () => T): T {
    if (++this.depth > MAX_NESTING) this.failWith('memory exhausted');
    try {
      return fn();
    } finally {
      this.depth--;
    }
  }

  /** Throws `syntax error, unexpected <tok>[, expecting a or b] near '<rest>'` at the current token. */
  fail(expecting: string[] = [], at: Token = this.peek()): never {
    let msg = `syntax error, unexpected ${this.describe(at)}`;
    if (expecting.length > 0) msg += `, expecting ${expecting.join(' or ')}`;
    this.failWith(msg, at);
  }

  /** Throws `<Pnn>: <msg> near '<rest of the input from tok>'`. */
  failWith(msg: string, at: Token = this.peek()): never {
    throw new SearchError('PARSE_ERROR', `${this.dialect}: ${msg} near '${this.src.slice(at.start)}'`);
  }

  /** Bison's name for a token: `identifier`, `string`, `integer`, `';'`, `$end`, a keyword ... */
  describe(t: Token): string {
    switch (t.kind) {
      case 'eof': return '$end';
      case 'ident': return describeWord(this.dialect, t.upper);
      case 'quoted_ident': return this.dialect === 'P03' ? 'tablename' : 'identifier';
      case 'string': return 'string';
      case 'int': return 'integer';
      case 'float': return 'float';
      case 'sysvar': return '@@sysvar';
      case 'uservar': return this.dialect === 'P03' ? 'identifier' : '@uservar';
      // the DDL grammar's lexer passes any other character through as itself, which bison, knowing only
      // these, names $undefined (`ALTER TABLE invalid-name ...`)
      // these, names $undefined (`ALTER TABLE invalid-name ...`); a sign before a digit starts its number
      case 'punct': if (this.dialect === 'P03' && !DDL_CHARS.has(t.value) && !/^[-+][0-9.]/.test(this.src.slice(t.start, t.start + 2))) return '$undefined';
      // bison quotes one-char tokens and prints string aliases (`<=`, `!=`) bare
        return t.value.length === 1 ? `'${t.value}'` : t.value;
      default: return '$undefined';
    }
  }

  /** The source text from token `from` up to (not including) the current token. */
  textFrom(from: Token): string {
    const prev = this.toks[this.pos - 1];
    if (!prev || prev.end <= from.start) return '';
    return this.src.slice(from.start, prev.end);
  }
}
