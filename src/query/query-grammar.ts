/**
 * Manticore's extended query grammar (src/sphinxquery/sphinxquery.y) as a recursive-descent parser
 * over QueryLexer tokens, building the working tree with Manticore's node-building rules.
 *
 *   expr       := beforelist+                       implicit AND
 *   beforelist := orlistf ((<< | NEAR/n) orlistf)*  left-associative
 *   orlistf    := orlist | limiter? (- | !) orlist
 *   orlist     := limiter? atom ((| | MAYBE) limiter? atom)*
 *   atom       := primary (NOTNEAR/n primary)*
 *   primary    := keyword | sentence | paragraph | ( ) | ( expr ) | "phrase" [~n | /n | /f] | ="phrase"
 */
import { SearchError } from '../util/errors.js';
import { quorumPercent } from './c-number.js';
import type { LexToken, QueryLexer, TokType } from './query-lexer.js';
import { addDefaultOp, addOp, addPhraseKeyword, notNode, setPhrase, type XqNode, type XqOp } from './xq-node.js';

/** Bison's names for tokens in `unexpected ...` messages. */
function tokenName(t: TokType): string {
  if (t === 'END') return '$end';
  return t.length === 1 ? `'${t}'` : `TOK_${t}`;
}

const KEYWORD_START: TokType[] = ['KEYWORD', 'INT', 'FLOAT', '='];
const ATOM_START: TokType[] = [...KEYWORD_START, '(', '"'];
const LIMITERS: TokType[] = ['FIELDLIMIT', 'ZONE', 'ZONESPAN'];
const BEFORELIST_START: TokType[] = [...ATOM_START, ...LIMITERS, '-', '!'];

/** Thrown for a syntax error; the caller drops it when nothing was read yet (an empty query). */
export class QuerySyntaxError extends SearchError {}

export class QueryGrammar {
  private tok: LexToken;

  /** `defaultOr`: OPTION boolean_mode='or' (words without an operator between them are OR-ed). */
  constructor(private readonly lex: QueryLexer, private readonly defaultOr = false) {
    this.tok = lex.next();
  }

  /** query := expr END. Returns null for a query that is empty after all. */
  parse(): XqNode | null {
    const root = this.expr();
    if (this.tok.type !== 'END') this.fail();
    return root;
  }

  private advance(): LexToken {
    const t = this.tok;
    this.tok = this.lex.next();
    return t;
  }

  private at(...types: TokType[]): boolean {
    return types.includes(this.tok.type);
  }

  private expect(...types: TokType[]): LexToken {
    if (!this.at(...types)) this.fail();
    return this.advance();
  }

  /** For the states where these are the only tokens bison accepts, so its message lists them. */
  private expectOnly(...types: TokType[]): LexToken {
    if (!this.at(...types)) this.fail(types);
    return this.advance();
  }

  /** P08 syntax error, bison-style; "expecting" only where bison lists few enough tokens. */
  private fail(expected?: TokType[]): never {
    const list = expected && expected.length <= 4 ? `, expecting ${expected.map(tokenName).join(' or ')}` : '';
    const near = this.lex.text.slice(this.lex.errorAt);
    throw new QuerySyntaxError('PARSE_ERROR', `P08: syntax error, unexpected ${tokenName(this.tok.type)}${list} near '${near}'`);
  }

  /** Whether the current token is one of `types` (the lists above: no rest array per test, as at() makes). */
  private atOne(types: TokType[]): boolean {
    return types.includes(this.tok.type);
  }

  private startsBeforelist(): boolean {
    return this.atOne(BEFORELIST_START);
  }

  private expr(): XqNode | null {
    let node = this.beforelist();
    while (this.startsBeforelist()) node = addDefaultOp(node, this.beforelist(), this.defaultOr);
    return node;
  }

  private beforelist(): XqNode | null {
    let node = this.orlistf();
    while (this.at('BEFORE', 'NEAR')) {
      const op = this.advance();
      const right = this.orlistf();
      node = op.type === 'BEFORE' ? addOp('before', node, right) : addOp('near', node, right, op.value);
    }
    return node;
  }

  private orlistf(): XqNode | null {
    if (this.atOne(LIMITERS)) {
      this.advance();
      if (this.at('-', '!')) return this.negation();
      return this.orlistRest(this.atom());
    }
    if (this.at('-', '!')) return this.negation();
    if (!this.atOne(ATOM_START)) this.fail();
    return this.orlistRest(this.atom());
  }

  private negation(): XqNode {
    this.advance();
    const spec = this.lex.spec;
    return notNode(this.orlist(), spec);
  }

  private orlist(): XqNode | null {
    if (this.atOne(LIMITERS)) this.advance();
    return this.orlistRest(this.atom());
  }

  private orlistRest(first: XqNode | null): XqNode | null {
    let node = first;
    while (this.at('|', 'MAYBE')) {
      const op: XqOp = this.advance().type === '|' ? 'or' : 'maybe';
      if (this.atOne(LIMITERS)) this.advance();
      node = addOp(op, node, this.atom());
    }
    return node;
  }

  private atom(): XqNode | null {
    let node = this.primary();
    while (this.at('NOTNEAR')) {
      const dist = this.advance().value;
      node = addOp('notnear', node, this.primary(), dist);
    }
    return node;
  }

  private primary(): XqNode | null {
    if (this.at('(')) {
      this.advance();
      if (this.at(')')) { this.advance(); return null; }
      if (!this.startsBeforelist()) this.fail();
      const inner = this.expr();
      this.expect(')');
      return inner;
    }
    if (this.at('"')) return this.quoted();
    if (this.at('=')) {
      this.advance();
      if (this.at('"')) return this.exactPhrase();
      return this.spChain(this.markExact(this.keyword()));
    }
    if (!this.atOne(KEYWORD_START)) this.fail();
    return this.spChain(this.keyword());
  }

  /** keyword := KEYWORD | INT | FLOAT | '=' keyword */
  private keyword(): XqNode {
    if (this.at('=')) {
      this.advance();
      return this.markExact(this.keyword());
    }
    if (!this.at('KEYWORD', 'INT', 'FLOAT')) this.fail();
    // A number becomes a keyword before the next token is read (bison's default reduction).
    const node = this.tok.type === 'KEYWORD' ? this.tok.node! : this.lex.keyword(this.tok.text ?? null);
    this.advance();
    return node;
  }

  private markExact(node: XqNode): XqNode {
    for (const w of node.words) if (w.text !== null) w.exact = true;
    return node;
  }

  /** A keyword or phrase followed by SENTENCE / PARAGRAPH chains into that operator. */
  private spChain(first: XqNode | null): XqNode | null {
    if (!this.at('SENTENCE', 'PARAGRAPH')) return first;
    const kind = this.tok.type;
    const op: XqOp = kind === 'SENTENCE' ? 'sentence' : 'paragraph';
    let node = first;
    while (this.at(kind)) {
      this.advance();
      node = addOp(op, node, this.spItem());
    }
    return node;
  }

  /** sp_item := keyword | '"' phrase '"' */
  private spItem(): XqNode | null {
    if (this.at('"')) {
      this.advance();
      const inner = this.phrase();
      this.closeQuote(inner, false);
      return inner;
    }
    if (!this.atOne(KEYWORD_START)) this.fail();
    return this.keyword();
  }

  private exactPhrase(): XqNode | null {
    this.advance();
    const inner = this.phrase();
    this.closeQuote(inner, true);
    return inner;
  }

  /** A closing quote ending a phrase that cannot take ~ or /: it is a phrase at once. */
  private closeQuote(inner: XqNode | null, exact: boolean): void {
    if (!this.at('"')) this.fail();
    const stars = [...this.lex.phraseStars];
    this.advance();
    setPhrase(inner, exact, 'phrase', stars);
  }

  /** '"' ... '"' with an optional ~N or /N or /F, or an empty "" (which matches nothing). */
  private quoted(): XqNode | null {
    this.advance();
    if (this.at('"')) {
      this.advance();
      if (this.at('~')) { this.advance(); this.expectOnly('INT'); } else if (this.at('/')) { this.advance(); this.expectOnly('INT', 'FLOAT'); }
      return null;
    }
    const inner = this.phrase();
    this.expect('"');
    const stars = [...this.lex.phraseStars];
    if (this.at('~')) {
      this.advance();
      const n = this.expectOnly('INT');
      if (inner) inner.opArg = n.value!;
      setPhrase(inner, false, 'proximity', stars);
      return inner;
    }
    if (this.at('/')) {
      this.advance();
      const n = this.expectOnly('INT', 'FLOAT');
      if (inner && n.type === 'INT') inner.opArg = n.value!;
      if (inner && n.type === 'FLOAT') {
        inner.opArg = quorumPercent(n.value!);
        inner.percent = true;
        inner.fraction = n.value!;
      }
      setPhrase(inner, false, 'quorum', stars);
      return inner;
    }
    setPhrase(inner, false, 'phrase', stars);
    return this.spChain(inner);
  }

  /** phrase := phrasetoken+ ; phrasetoken := keyword | ( group ) | ( ) | - | ~ | / */
  private phrase(): XqNode | null {
    let node: XqNode | null = null;
    let any = false;
    while (this.at(...KEYWORD_START, '(', '-', '~', '/')) {
      any = true;
      node = addPhraseKeyword(node, this.phraseToken(true));
    }
    if (!any) this.fail();
    return node;
  }

  private phraseToken(loose: boolean): XqNode | null {
    if (this.at('(')) {
      this.advance();
      if (this.at(')')) { this.advance(); return null; }
      const group = this.phraseGroup();
      this.expect(')');
      return group;
    }
    if (loose && this.at('-', '~', '/')) { this.advance(); return null; }
    return this.keyword();
  }

  /** group := sequence ('|' sequence)* ; sequence := (keyword | ( group ) | ( ))+ */
  private phraseGroup(): XqNode | null {
    let node = this.phraseSequence();
    while (this.at('|')) {
      this.advance();
      node = addOp('or', node, this.phraseSequence());
    }
    return node;
  }

  private phraseSequence(): XqNode | null {
    if (!this.at(...KEYWORD_START, '(')) this.fail();
    let node: XqNode | null = null;
    while (this.at(...KEYWORD_START, '(')) node = addPhraseKeyword(node, this.phraseToken(false));
    return node;
  }
}
