/**
 * The one full-text query tree. SQL MATCH('...'), JSON query_string and JSON match all parse into it;
 * the planner (src/index/) turns it into the WASM core's plan bytecode.
 *
 * Words in the tree are as the user typed them (not folded, not stemmed): the planner normalizes
 * them with the table's tokenizer, because one typed word may become zero, one or several tokens.
 */

/** Which fields a node may match in, and how far into a field (`@title[3]`). */
export interface FieldLimit {
  /** Field names as written; empty = all fields (`@*`). */
  fields: string[];
  /** `@!title` / `@!(a,b)`: every field except those. */
  exclude: boolean;
  /** `@title[N]`: only the first N positions of the field (1-based, inclusive). */
  maxPos?: number;
}

export interface TermNode {
  kind: 'term';
  /** The typed word; may contain wildcards `*`, `?`, `%` when `wildcard` is set. */
  text: string;
  /** `=word`: exact form, no stemming (needs index_exact_words). */
  exact?: boolean;
  /** `^word`: must be the first word of a field. */
  fieldStart?: boolean;
  /** `word$`: must be the last word of a field. */
  fieldEnd?: boolean;
  /** `word^1.5`: keyword boost (user_weight multiplier). */
  boost?: number;
  wildcard?: boolean;
  field?: FieldLimit;
  /**
   * Query position (Manticore's atom position, 1-based), set by the parser. Ranking (LCS) compares
   * these with document positions; they are not always consecutive (`*` gaps, `"a b"/2 c`).
   */
  pos?: number;
}

/** `"a b c"`, with `*` gaps: `"a * b"` puts b two positions after a. */
export interface PhraseNode {
  kind: 'phrase';
  terms: TermNode[];
  /** Position of each term relative to the first (0, 1, 2 ... ; a `*` gap adds one). */
  offsets: number[];
  field?: FieldLimit;
}

/** `"a b c"~N`: all words within a window of N extra words, any order. */
export interface ProximityNode {
  kind: 'proximity';
  terms: TermNode[];
  distance: number;
  field?: FieldLimit;
}

/** `"a b c"/N` or `/0.5`: at least `threshold` distinct words; fraction kept for the warning text. */
export interface QuorumNode {
  kind: 'quorum';
  terms: TermNode[];
  threshold: number;
  fraction?: number;
  field?: FieldLimit;
}

export interface AndNode { kind: 'and'; children: QueryNode[] }
export interface OrNode { kind: 'or'; children: QueryNode[] }
/** `-x` / `!x`; valid only as a child of AND (the parser enforces Manticore's NOT rules). */
export interface NotNode { kind: 'not'; child: QueryNode }
/** `a << b << c`: strict order. */
export interface OrderNode { kind: 'order'; children: QueryNode[] }
/** `a NEAR/3 b` (and NOTNEAR/N with `negate`). */
export interface NearNode { kind: 'near'; children: QueryNode[]; distance: number; negate?: boolean }
/** `a MAYBE b`: matches as `a`, `b` only adds weight. */
export interface MaybeNode { kind: 'maybe'; left: QueryNode; right: QueryNode }
/** `a SENTENCE b`, `a PARAGRAPH b`. */
export interface SpanNode { kind: 'sentence' | 'paragraph'; children: QueryNode[] }
/** `ZONE:(h1,h2) ...` and `ZONESPAN:(h1) ...`. */
export interface ZoneNode { kind: 'zone'; zones: string[]; span: boolean; child: QueryNode }
/** An empty query (`MATCH('')`): matches every document, weight as a full scan. */
export interface EmptyNode { kind: 'empty' }

export type QueryNode =
  | TermNode | PhraseNode | ProximityNode | QuorumNode
  | AndNode | OrNode | NotNode | OrderNode | NearNode | MaybeNode | SpanNode | ZoneNode | EmptyNode;

/** What the parser returns: the tree plus warnings Manticore would report (quorum -> AND ...). */
export interface ParsedQuery {
  root: QueryNode;
  warnings: string[];
}
