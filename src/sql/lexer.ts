/** SphinxQL lexer: one pass over char codes, no regular expressions, comments skipped. */

/**
 * - ident: a bare word (`value` as typed; keywords are idents the parser recognizes by `upper`).
 * - quoted_ident: a backquoted name (`value` without the backquotes); never a keyword.
 * - string: '...' or "..." (`value` unescaped).
 * - int / float: `value` is the literal text (sign is a separate `-` token).
 * - sysvar: `@@name` with dotted subkeys (`value` without `@@`); uservar: `@name` (`value` without `@`).
 * - punct: operators and punctuation (`value` is `(`, `!=`, `<=` ...; `<>` is given as `!=`, `:=` as `=`).
 * - bad: a character or number form no rule accepts (bison's `$undefined`), or an unterminated string.
 * - eof: end of input (start = end = input length).
 */
export type TokenKind =
  | 'ident' | 'quoted_ident' | 'string' | 'int' | 'float' | 'sysvar' | 'uservar' | 'punct' | 'bad' | 'eof';

export interface Token {
  kind: TokenKind;
  value: string;
  /** Upper-cased value for bare words (keyword matching); '' for every other kind. */
  upper: string;
  start: number;
  end: number;
}

const C_TAB = 9, C_LF = 10, C_CR = 13, C_SPACE = 32, C_DQUOTE = 34, C_HASH = 35, C_SQUOTE = 39;
const C_STAR = 42, C_DASH = 45, C_DOT = 46, C_SLASH = 47, C_0 = 48, C_9 = 57, C_AT = 64;
const C_BACKSLASH = 92, C_BACKTICK = 96;

// shared with the INSERT fast path (insert-fast-path.ts), which must read the text as this lexer does
export function isDigit(c: number): boolean { return c >= C_0 && c <= C_9; }
export function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}
export function isIdentChar(c: number): boolean { return isIdentStart(c) || isDigit(c); }
export function isSpace(c: number): boolean { return c === C_SPACE || c === C_TAB || c === C_LF || c === C_CR || c === 12 || c === 11; }

/** Two-character operators, longest match first. */
const TWO_CHAR_OPS: Record<string, string> = { '!=': '!=', '<>': '!=', '<=': '<=', '>=': '>=', ':=': '=' };

/** Splits `src` into tokens, ending with one `eof` token. Never throws. */
export function tokenize(src: string): Token[] {
  const out: Token[] = [];
  const n = src.length;
  let i = 0;
  const push = (kind: TokenKind, value: string, start: number, end: number): void => {
    out.push({ kind, value, upper: kind === 'ident' ? value.toUpperCase() : '', start, end });
  };
  while (i < n) {
    const c = src.charCodeAt(i);
    if (isSpace(c)) { i++; continue; }
    const skipTo = skipComment(src, i);
    if (skipTo > i) { i = skipTo; continue; }
    const start = i;
    if (isIdentStart(c)) {
      i++;
      while (i < n && isIdentChar(src.charCodeAt(i))) i++;
      push('ident', src.slice(start, i), start, i);
    } else if (isDigit(c) || (c === C_DOT && isDigit(src.charCodeAt(i + 1)) && !afterPathHead(out))) {
      i = lexNumber(src, i, push);
    } else if (c === C_SQUOTE || c === C_DQUOTE) {
      i = lexString(src, i, push);
    } else if (c === C_BACKTICK) {
      const close = src.indexOf('`', i + 1);
      if (close < 0) { push('bad', src.slice(i), i, n); i = n; continue; }
      push('quoted_ident', src.slice(i + 1, close), i, close + 1);
      i = close + 1;
    } else if (c === C_AT) {
      i = lexVariable(src, i, push);
    } else {
      // only `! < > :` start two-character operators; slicing a pair at every `(` `,` `)` was a hot allocation
      const two = c === 33 || c === 60 || c === 62 || c === 58 ? TWO_CHAR_OPS[src.slice(i, i + 2)] : undefined;
      if (two !== undefined) { push('punct', two, i, i + 2); i += 2; continue; }
      push(isPunct(c) ? 'punct' : 'bad', src[i]!, i, i + 1);
      i++;
    }
  }
  out.push({ kind: 'eof', value: '', upper: '', start: n, end: n });
  bsSrc = ''; // do not hold on to the statement
  return out;
}

const PUNCT = new Set('(),;=<>+-*/%&|{}[].:!~^?'.split('').map((s) => s.charCodeAt(0)));
function isPunct(c: number): boolean { return PUNCT.has(c); }

/** A `.5` right after a name, `]` or `)` is a path step (`j.5`), not a number. */
function afterPathHead(out: Token[]): boolean {
  const last = out[out.length - 1];
  if (!last) return false;
  if (last.kind === 'ident' || last.kind === 'quoted_ident' || last.kind === 'sysvar') return true;
  return last.kind === 'punct' && (last.value === ']' || last.value === ')');
}

/** Returns the index after a comment starting at `i`, or `i` if none starts there. */
function skipComment(src: string, i: number): number {
  const c = src.charCodeAt(i);
  const n = src.length;
  if (c === C_SLASH && src.charCodeAt(i + 1) === C_STAR) {
    // `/*+ hints */` are skipped too: the engine has no use for index hints
    const close = src.indexOf('*/', i + 2);
    return close < 0 ? n : close + 2;
  }
  // MySQL rule: `--` starts a comment only when followed by whitespace (or the end), so `5--3` is math
  const dashComment = c === C_DASH && src.charCodeAt(i + 1) === C_DASH && (i + 2 >= n || src.charCodeAt(i + 2) <= C_SPACE);
  if (c === C_HASH || dashComment) {
    const eol = src.indexOf('\n', i);
    return eol < 0 ? n : eol + 1;
  }
  return i;
}

type Push = (kind: TokenKind, value: string, start: number, end: number) => void;

/** INT, FLOAT (`1.`, `1.5`, `.5`, `1e3`, `1.5e-3`); digits running into letters are a bad number. */
function lexNumber(src: string, i: number, push: Push): number {
  const start = i;
  const n = src.length;
  let isFloat = false;
  while (i < n && isDigit(src.charCodeAt(i))) i++;
  if (src.charCodeAt(i) === C_DOT) {
    isFloat = true;
    i++;
    while (i < n && isDigit(src.charCodeAt(i))) i++;
  }
  const e = src.charCodeAt(i);
  if (e === 101 || e === 69) {
    let j = i + 1;
    const s = src.charCodeAt(j);
    if (s === 43 || s === C_DASH) j++;
    if (isDigit(src.charCodeAt(j))) {
      while (j < n && isDigit(src.charCodeAt(j))) j++;
      isFloat = true;
      i = j;
    }
  }
  if (i < n && isIdentChar(src.charCodeAt(i))) {
    while (i < n && isIdentChar(src.charCodeAt(i))) i++;
    push('bad', src.slice(start, i), start, i);
    return i;
  }
  push(isFloat ? 'float' : 'int', src.slice(start, i), start, i);
  return i;
}

/**
 * Manticore's SqlUnescape: \b \n \r \t, `\0` -> space, any other escaped char stands for itself.
 * Jumps between quotes and backslashes with indexOf: multi-row INSERTs are mostly string bodies,
 * and a per-character loop over them was most of the lexer's time.
 */
function lexString(src: string, i: number, push: Push): number {
  const quote = src[i]!;
  const start = i;
  i++;
  let segStart = i;
  let value = '';
  let bs = nextBackslash(src, i);
  for (;;) {
    const close = src.indexOf(quote, i);
    if (close < 0) break;
    if (bs >= 0 && bs < close) {
      // bs + 1 <= close, so the escaped character exists (it may be the quote itself)
      value += src.slice(segStart, bs) + unescapeChar(src[bs + 1]!);
      i = bs + 2;
      segStart = i;
      bs = nextBackslash(src, i);
      continue;
    }
    push('string', value + src.slice(segStart, close), start, close + 1);
    return close + 1;
  }
  push('bad', src.slice(start), start, src.length);
  return src.length;
}

/**
 * The next backslash at or after `i`, remembered across the strings of one statement: searching
 * afresh for each string would rescan the rest of a statement that has none, quadratic in its size.
 */
let bsSrc = '';
let bsFrom = 0;
let bsAt = -1;
function nextBackslash(src: string, i: number): number {
  if (src !== bsSrc || i < bsFrom || (bsAt >= 0 && bsAt < i)) {
    bsSrc = src;
    bsFrom = i;
    bsAt = src.indexOf('\\', i);
  }
  return bsAt;
}

/** The character a backslash escape stands for (see lexString). */
export function unescapeChar(ch: string): string {
  switch (ch) {
    case 'b': return '\b';
    case 'n': return '\n';
    case 'r': return '\r';
    case 't': return '\t';
    case '0': return ' ';
    default: return ch;
  }
}

/** `@@name[.sub...]` (also ``@@`name` ``) or `@name`; a lone `@` is a bad character. */
function lexVariable(src: string, i: number, push: Push): number {
  const start = i;
  const n = src.length;
  const system = src.charCodeAt(i + 1) === C_AT;
  let j = i + (system ? 2 : 1);
  if (src.charCodeAt(j) === C_BACKTICK) {
    const close = src.indexOf('`', j + 1);
    if (close > j + 1) {
      push(system ? 'sysvar' : 'uservar', src.slice(j + 1, close), start, close + 1);
      return close + 1;
    }
  }
  const nameStart = j;
  while (j < n && (isIdentChar(src.charCodeAt(j)) || (system && src.charCodeAt(j) === C_DOT && isIdentChar(src.charCodeAt(j + 1))))) j++;
  if (j === nameStart) {
    push('bad', src.slice(start, j), start, j);
    return j;
  }
  push(system ? 'sysvar' : 'uservar', src.slice(nameStart, j), start, j);
  return j;
}
