/**
 * The common single-table INSERT shape read straight off the text, without tokens:
 * `INSERT|REPLACE INTO t [(col, ...)] VALUES (v, ...)[, (...)] [;]` whose values are quoted strings,
 * [signed] numbers and NULL. Anything else (comments, backquotes, keywords as names, `Manticore.t`,
 * `cluster:t`, tuples, `.5`, OPTION, a second statement, a row of the wrong width, any syntax error)
 * returns undefined and the full grammar reads the text: errors stay the full grammar's, word for word.
 * What it returns equals what the full grammar gives for the same text (test/unit/sql/insert-fast-path.test.ts).
 */
import type { InsertStatement, Literal } from './ast.js';
import { isMainIdent } from './keywords.js';
import { isDigit, isIdentChar, isIdentStart, isSpace, unescapeChar } from './lexer.js';
import { makeFloat, makeInt } from './literals.js';
import { keepShape } from '../util/shape-keeper.js';

const C_DQUOTE = 34, C_SQUOTE = 39, C_LPAREN = 40, C_RPAREN = 41, C_PLUS = 43, C_COMMA = 44;
const C_DASH = 45, C_DOT = 46, C_SEMI = 59;

/** A cursor over the text; every read returns a value or -1/undefined, which sends the text to the full grammar. */
class Scan {
  i = 0;
  /**
   * The first backslash at or after the last string read (-1: none left, -2: not searched yet), kept
   * across strings as the lexer's nextBackslash does: searched afresh for each string, a long multi-row
   * INSERT without backslashes was scanned to its end once per string (quadratic).
   */
  #bs = -2;
  constructor(readonly src: string) {}

  /** Skips whitespace; returns the next char code (NaN at the end). */
  skip(): number {
    const s = this.src;
    let i = this.i;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    this.i = i;
    return s.charCodeAt(i);
  }

  /** A bare word (as typed), or undefined. */
  word(): string | undefined {
    const s = this.src;
    const start = this.i;
    if (!isIdentStart(s.charCodeAt(start))) return undefined;
    let i = start + 1;
    while (i < s.length && isIdentChar(s.charCodeAt(i))) i++;
    this.i = i;
    return s.slice(start, i);
  }

  /** A name the main grammar takes as a table or column name (not a keyword), or undefined. */
  name(): string | undefined {
    this.skip();
    const w = this.word();
    return w !== undefined && isMainIdent(w.toUpperCase()) ? w : undefined;
  }

  /** The keyword `kw` (upper case) next, case-insensitively. */
  keyword(kw: string): boolean {
    this.skip();
    const w = this.word();
    return w !== undefined && w.toUpperCase() === kw;
  }

  /** Consumes `code` if it is the next char after whitespace. */
  punct(code: number): boolean {
    if (this.skip() !== code) return false;
    this.i++;
    return true;
  }

  /** A quoted string's value (the lexer's unescaping), the cursor at its opening quote; undefined if unterminated. */
  string(): string | undefined {
    const s = this.src;
    const quote = s[this.i]!;
    let i = this.i + 1;
    let segStart = i;
    let value = '';
    let bs = this.#bs;
    if (bs === -2 || (bs >= 0 && bs < i)) bs = s.indexOf('\\', i);
    for (;;) {
      const close = s.indexOf(quote, i);
      if (close < 0) return undefined;
      if (bs >= 0 && bs < close) {
        value += s.slice(segStart, bs) + unescapeChar(s[bs + 1]!);
        i = bs + 2;
        segStart = i;
        bs = s.indexOf('\\', i);
        continue;
      }
      this.i = close + 1;
      this.#bs = bs;
      return value + s.slice(segStart, close);
    }
  }

  /** `[-|+]digits[.digits][e[+-]digits]` with the sign touching the digits, as the lexer reads numbers; else undefined. */
  number(): Literal | undefined {
    const s = this.src;
    let i = this.i;
    const sign = s.charCodeAt(i);
    const negative = sign === C_DASH;
    if (negative || sign === C_PLUS) i++;
    const start = i;
    if (!isDigit(s.charCodeAt(i))) return undefined;
    let isFloat = false;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    if (s.charCodeAt(i) === C_DOT) {
      isFloat = true;
      i++;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      let j = i + 1;
      const es = s.charCodeAt(j);
      if (es === C_PLUS || es === C_DASH) j++;
      if (isDigit(s.charCodeAt(j))) {
        while (j < s.length && isDigit(s.charCodeAt(j))) j++;
        isFloat = true;
        i = j;
      }
    }
    // digits running into a letter or a dot (`1.2.3`, `5x`) are the lexer's business
    const after = s.charCodeAt(i);
    if (isIdentChar(after) || after === C_DOT) return undefined;
    this.i = i;
    const digits = s.slice(start, i);
    return isFloat ? makeFloat(digits, negative) : makeInt(digits, negative);
  }

  /** One value of a row: string, number or NULL; undefined for anything else (tuples included). */
  value(): Literal | undefined {
    const c = this.skip();
    if (c === C_SQUOTE || c === C_DQUOTE) {
      const v = this.string();
      return v === undefined ? undefined : { kind: 'string', value: v };
    }
    if (isIdentStart(c)) return this.word()!.toUpperCase() === 'NULL' ? { kind: 'null' } : undefined;
    return this.number();
  }
}

// the cursor's map kept between bursts of INSERTs (util/shape-keeper.ts): parseInsertFast and the cursor's
// methods inlined into it were the largest recompile after each idle collection
keepShape(new Scan(''));

/** Items read by `item` up to the `)` after an opening `(`, comma-separated; undefined when one is not of the shape. */
function commaList<T>(s: Scan, item: () => T | undefined): T[] | undefined {
  const out: T[] = [];
  do {
    const v = item();
    if (v === undefined) return undefined;
    out.push(v);
  } while (s.punct(C_COMMA));
  return s.punct(C_RPAREN) ? out : undefined;
}

/**
 * What `INSERT|REPLACE INTO t [(cols)] VALUES` read, with its text (from the start of the statement): a client
 * sends the same head before every row, and reading it again cost the most of a single-row parse (a word
 * scan, an upper-case copy and a keyword look-up for each of the verb, INTO, the table, every column and
 * VALUES). A text that starts with these characters has this head: what follows VALUES must be `(` after
 * whitespace in either reading, so `VALUESX (` fails here as it fails when read afresh.
 */
interface Head {
  text: string;
  /** Where the verb starts (after leading whitespace). */
  start: number;
  replace: boolean;
  table: string;
  columns: string[] | undefined;
}

/** The last heads read, the latest first: a few tables written at once each keep theirs. */
const keptHeads: Head[] = [];
const KEPT_HEADS = 4;

/** The head read at the cursor (the cursor after VALUES), or undefined when the text is not of the shape. */
function readHead(s: Scan): Head | undefined {
  s.skip();
  const start = s.i;
  const verb = s.word()?.toUpperCase();
  if (verb !== 'INSERT' && verb !== 'REPLACE') return undefined;
  if (!s.keyword('INTO')) return undefined;
  const table = s.name();
  // `Manticore.t` and `cluster:t` are the full grammar's
  if (table === undefined || table.toUpperCase() === 'MANTICORE') return undefined;
  let columns: string[] | undefined;
  if (s.punct(C_LPAREN)) {
    columns = commaList(s, () => s.name());
    if (columns === undefined) return undefined;
  }
  if (!s.keyword('VALUES')) return undefined;
  return { text: s.src.slice(0, s.i), start, replace: verb === 'REPLACE', table, columns };
}

/** A kept head `text` starts with (moved to the front), else undefined. */
function keptHead(text: string): Head | undefined {
  for (let k = 0; k < keptHeads.length; k++) {
    const h = keptHeads[k]!;
    if (!text.startsWith(h.text)) continue;
    if (k > 0) {
      keptHeads.splice(k, 1);
      keptHeads.unshift(h);
    }
    return h;
  }
  return undefined;
}

/** Heads longer than this are read again each time rather than kept (thousands of columns: rare). */
const KEPT_HEAD_CHARS = 4096;

/**
 * V8 copies a slice shorter than this; a longer one is a view that keeps the whole text alive, and a kept
 * view of a 100 MB multi-row INSERT would hold all of it (SlicedString::kMinLength).
 */
const VIEW_MIN_CHARS = 13;

/**
 * `s` as a string of its own, never a view of a longer text: slicing `' ' + s` flattens that pair into a new
 * string first, so the result is a view of that copy alone (~70 ns for a head; structuredClone took ~500,
 * more than reading the head again). The retention test in insert-fast-path.test.ts holds V8 to it.
 */
function own(s: string): string {
  return s.length < VIEW_MIN_CHARS ? s : (' ' + s).slice(1);
}

/** Keeps `head` (copied out of its statement's text), dropping the least recently used past KEPT_HEADS. */
function keep(head: Head): void {
  if (head.text.length > KEPT_HEAD_CHARS) return;
  keptHeads.unshift({ text: own(head.text), start: head.start, replace: head.replace, table: own(head.table), columns: head.columns?.map(own) });
  if (keptHeads.length > KEPT_HEADS) keptHeads.pop();
}

/** The statement, or undefined when the text is not of the common shape (the full grammar then reads it). */
export function parseInsertFast(text: string): InsertStatement | undefined {
  const s = new Scan(text);
  let head = keptHead(text);
  if (head) {
    s.i = head.text.length;
  } else {
    head = readHead(s);
    if (head === undefined) return undefined;
    keep(head);
  }
  const stmt: InsertStatement = { kind: 'insert', text: '', replace: head.replace, table: head.table, rows: [], options: [] };
  let width = -1;
  if (head.columns !== undefined) {
    // a copy: the statement is the caller's to keep or change
    stmt.columns = head.columns.slice();
    width = head.columns.length;
  }
  let end: number;
  do {
    if (!s.punct(C_LPAREN)) return undefined;
    const row: Literal[] | undefined = commaList(s, () => s.value());
    if (row === undefined) return undefined;
    if (width < 0) width = row.length;
    if (row.length !== width) return undefined;
    stmt.rows.push(row);
    end = s.i;
  } while (s.punct(C_COMMA));
  // then only the end, or one `;` and the end
  if (s.punct(C_SEMI)) s.skip();
  if (s.i !== text.length) return undefined;
  stmt.text = text.slice(head.start, end);
  return stmt;
}
