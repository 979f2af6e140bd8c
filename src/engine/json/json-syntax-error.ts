/**
 * searchd's verdict on a JSON attribute's text (src/sphinxjson.l, sphinxjson.y): undefined when its grammar
 * takes the text, else the message its parser gives, `P10: <bison message> near '<rest>'`. searchd's
 * INSERT (AttributeConverter_c::String2JsonPack, json_strict off as by default) stores such a value as
 * NULL and keeps this message as the statement's warning instead of refusing the row.
 *
 * The grammar is small enough to run as the LR automaton bison builds from it (%error-verbose, default
 * reductions): an error is found only in a state without a default reduction, and the message lists the
 * tokens that state shifts, in token-number order, when there are at most four of them. `near` is the
 * input from the last string or identifier the lexer read (STORE_BOUNDS), `(null)` when there was none.
 */

type Tok = '$end' | 'TOK_IDENT' | 'TOK_INT' | 'TOK_FLOAT' | 'TOK_STRING' | 'TOK_TRUE' | 'TOK_FALSE' | 'TOK_NULL'
  | "'{'" | "'}'" | "'['" | "']'" | "':'" | "','" | '$undefined';

const SCALARS = new Set<Tok>(['TOK_INT', 'TOK_FLOAT', 'TOK_STRING', 'TOK_TRUE', 'TOK_FALSE', 'TOK_NULL']);
const PUNCT: Record<string, Tok> = { '{': "'{'", '}': "'}'", '[': "'['", ']': "']'", ':': "':'", ',': "','" };

// the lexer's rules in its order; flex takes the longest match, the first rule on a tie
const SQ_STRING = /'(?:[^'\\]|\\[^\n])*'/y;
const DQ_STRING = /"(?:[^"\\]|\\[^\n])*"/y;
const FLOAT = /[+-]?(?:(?:\d+\.\d*|\d*\.\d+)(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)/y;
const INT = /[+-]?\d+/y;
const ID = /[A-Za-z_][A-Za-z_0-9]*/y;
const INT64_MAX = (1n << 63n) - 1n;

class Lexer {
  pos = 0;
  /** Where the last string or identifier began (the parser's m_pLastToken), -1 before one. */
  last = -1;
  constructor(private readonly text: string) {}

  private match(re: RegExp): number {
    re.lastIndex = this.pos;
    return re.test(this.text) ? re.lastIndex - this.pos : 0;
  }

  next(): Tok {
    const s = this.text;
    for (;;) {
      if (this.pos >= s.length) return '$end';
      const ch = s[this.pos]!;
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') { this.pos++; continue; }
      if (ch === '#' || s.startsWith('//', this.pos)) {
        const nl = s.indexOf('\n', this.pos);
        this.pos = nl < 0 ? s.length : nl + 1;
        continue;
      }
      break;
    }
    const start = this.pos;
    const str = this.match(s[start] === "'" ? SQ_STRING : DQ_STRING);
    if (str) { this.pos += str; this.last = start; return 'TOK_STRING'; }
    const fl = this.match(FLOAT);
    const int = this.match(INT);
    if (fl && fl >= int) { this.pos += fl; return 'TOK_FLOAT'; }
    if (int) {
      this.pos += int;
      // strtoll's ERANGE makes the number a double (JsonParser_c::ParseNumber)
      const v = BigInt(s.slice(start, this.pos));
      return v > INT64_MAX || v < -INT64_MAX - 1n ? 'TOK_FLOAT' : 'TOK_INT';
    }
    const id = this.match(ID);
    if (id) {
      this.pos += id;
      const word = s.slice(start, this.pos).toLowerCase();
      if (word === 'true') return 'TOK_TRUE';
      if (word === 'false') return 'TOK_FALSE';
      if (word === 'null') return 'TOK_NULL';
      this.last = start;
      return 'TOK_IDENT';
    }
    // any other character is a token of its own; one the grammar does not name is bison's $undefined
    this.pos += s.codePointAt(start)! > 0xffff ? 2 : 1;
    return PUNCT[s[start]!] ?? '$undefined';
  }

  near(): string {
    return this.last < 0 ? '(null)' : this.text.slice(this.last);
  }
}

/** A bracket being read: its closer, whether its list is still empty, where the parser is in it. */
interface Frame { close: "'}'" | "']'"; empty: boolean; comma: boolean; phase: 'begin' | 'after' | 'comma' }

class Failure { constructor(readonly message: string) {} }

function syntax(tok: Tok, expected: Tok[]): Failure {
  const tail = expected.length && expected.length <= 4 ? `, expecting ${expected.join(' or ')}` : '';
  return new Failure(`syntax error, unexpected ${tok}${tail}`);
}

/** The P10 message searchd's JSON parser gives `text`, or undefined when it parses. */
export function jsonSyntaxError(text: string): string | undefined {
  const lex = new Lexer(text.includes('\0') ? text.slice(0, text.indexOf('\0')) : text);
  try {
    run(lex);
    return undefined;
  } catch (e) {
    if (e instanceof Failure) return `P10: ${e.message} near '${lex.near()}'`;
    throw e;
  }
}

const opens = (tok: Tok): boolean => tok === "'{'" || tok === "'['";
const frame = (tok: Tok): Frame => ({ close: tok === "'{'" ? "'}'" : "']'", empty: true, comma: false, phase: 'begin' });

/** A list item is reduced (before the next token is read): one after a ',' that began the list is the grammar's own error. */
function itemDone(owner: Frame): void {
  if (owner.comma && owner.empty) throw new Failure("unexpected ','");
  owner.empty = false;
  owner.phase = 'after';
}

function run(lex: Lexer): void {
  const stack: Frame[] = [];
  let tok = lex.next();
  // json: empty | '{' ... | '[' ... ; anything else reduces the empty root, which $end must follow
  if (opens(tok)) { stack.push(frame(tok)); tok = lex.next(); }
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    let item = false;
    if (top.phase === 'after') {
      if (tok === top.close) {
        stack.pop();
        // the closed bracket is a value of the frame below
        if (stack.length) itemDone(stack[stack.length - 1]!);
        tok = lex.next();
        continue;
      }
      if (tok !== "','") throw syntax(tok, [top.close, "','"]);
      top.comma = true;
      top.phase = 'comma';
      tok = lex.next();
      continue;
    }
    const isObj = top.close === "'}'";
    if (top.phase === 'begin') {
      // the list's first item, else the empty list is reduced (a default reduction: no error here)
      item = isObj ? tok === 'TOK_STRING' || tok === 'TOK_IDENT' : SCALARS.has(tok) || opens(tok);
      if (!item) { top.phase = 'after'; continue; }
    } else if (isObj && tok !== 'TOK_STRING' && tok !== 'TOK_IDENT') {
      throw syntax(tok, ['TOK_IDENT', 'TOK_STRING']);
    }
    if (isObj) {
      tok = lex.next();
      if (tok !== "':'") throw syntax(tok, ["':'"]);
      tok = lex.next();
    }
    // value: eight tokens, more than four expected ones are not listed
    if (opens(tok)) { stack.push(frame(tok)); tok = lex.next(); continue; }
    if (!SCALARS.has(tok)) throw syntax(tok, []);
    itemDone(top);
    tok = lex.next();
  }
  if (tok !== '$end') throw syntax(tok, ['$end']);
}

/** The INSERT literals stored as NULL for their JSON error (their message read back by insert-warnings.ts). */
const NULLED = new WeakMap<object, string>();

/** Whether searchd stores this JSON attribute literal as NULL (a string its grammar refuses); remembers it. */
export function nulledJson(lit: { t: string; v?: unknown }): boolean {
  if (lit.t !== 'string' || typeof lit.v !== 'string') return false;
  const message = jsonSyntaxError(lit.v);
  if (message === undefined) return false;
  NULLED.set(lit, message);
  return true;
}

/** The warning of a literal nulledJson took, or undefined. */
export function nulledJsonWarning(lit: object): string | undefined {
  return NULLED.get(lit);
}
