/**
 * The parser's working tree, shaped like Manticore's XQNode so its fix-up passes can be followed
 * step by step; `to-ast.ts` turns it into the public tree of `ast.ts`.
 */
import type { FieldLimit } from './ast.js';

export type XqOp =
  | 'and' | 'or' | 'maybe' | 'not' | 'andnot' | 'before' | 'phrase' | 'proximity' | 'quorum'
  | 'near' | 'notnear' | 'sentence' | 'paragraph' | 'null' | 'scan';

/** Field and zone limits of a node (XQLimitSpec). Immutable: nodes share spec objects. */
export interface XqSpec {
  /** Undefined: no field operator applies. */
  field?: FieldLimit;
  /** The field limit is known to select no field (such nodes are deleted). */
  noField?: boolean;
  zones?: string[];
  zoneSpan?: boolean;
}

/** One keyword; `text` null is a keyword that vanished (stopword, trailing junk). */
export interface XqWord {
  text: string | null;
  /** Query position (Manticore's atom position), 1-based. */
  pos: number;
  exact?: boolean;
  fieldStart?: boolean;
  fieldEnd?: boolean;
  boost?: number;
}

/** A node holds either words (a plain node) or children, never both. */
export interface XqNode {
  op: XqOp;
  words: XqWord[];
  children: XqNode[];
  spec: XqSpec;
  /** Distance (proximity, NEAR, NOTNEAR) or threshold (quorum; a percentage when `percent`). */
  opArg: number;
  percent: boolean;
  /** The typed quorum fraction (`/0.59`), kept to print and re-read it. */
  fraction?: number;
}

export const EMPTY_SPEC: XqSpec = {};

export function xqNode(op: XqOp, spec: XqSpec, children: XqNode[] = [], words: XqWord[] = []): XqNode {
  return { op, words, children, spec, opArg: 0, percent: false };
}

export function keywordNode(word: XqWord, spec: XqSpec): XqNode {
  return xqNode('and', spec, [], [word]);
}

/** True when a limit spec selects no field (Manticore's HasMissedField). */
export const hasMissedField = (spec: XqSpec): boolean => spec.noField === true;

/**
 * Manticore's AddOp for binary operators: a null side yields the other; a left node of the same
 * operator and argument absorbs the right one; otherwise a new node takes the right side's spec
 * (the left one's if the right selects no field).
 */
export function addOp(op: XqOp, left: XqNode | null, right: XqNode | null, opArg = 0): XqNode | null {
  if (!left || !right) return left ?? right;
  if (left.children.length > 0 && left.op === op && left.opArg === opArg) {
    left.children.push(right);
    if (hasMissedField(left.spec)) left.spec = right.spec;
    return left;
  }
  const node = xqNode(op, hasMissedField(right.spec) ? left.spec : right.spec, [left, right]);
  node.opArg = opArg;
  return node;
}

/** `-x` / `!x`: a NOT node (with no child when x vanished). */
export function notNode(child: XqNode | null, stateSpec: XqSpec): XqNode {
  return xqNode('not', child ? child.spec : stateSpec, child ? [child] : []);
}

/** A NOT next to the implicit operator always makes it an AND, even in OR mode. */
const isNegation = (n: XqNode | null): boolean => n !== null && (n.op === 'not' || n.op === 'andnot') && n.children.length > 0;

/** The implicit operator between two operands: AND, or OR under `boolean_mode='or'`. */
export function addDefaultOp(left: XqNode | null, right: XqNode | null, defaultOr = false): XqNode | null {
  const or = defaultOr && !isNegation(left) && !isNegation(right);
  return addOp(or ? 'or' : 'and', left, right);
}

/** Inside quotes: plain keywords merge into one node, groups make a phrase of children. */
export function addPhraseKeyword(left: XqNode | null, right: XqNode | null): XqNode | null {
  if ((left && left.children.length) || (right && right.children.length)) return addOp('phrase', left, right);
  if (!left || !right) return left ?? right;
  left.words.push(...right.words);
  return left;
}

/**
 * Closes a quoted phrase as phrase, proximity or quorum. A phrase that is only an OR of keyword
 * groups stays that OR (Manticore: `"(a | b)"` is `a | b`). `stars` are the positions of `*` gaps.
 */
export function setPhrase(node: XqNode | null, exact: boolean, op: XqOp, stars: number[]): void {
  if (!node) return;
  if (node.op === 'or' && node.children.length && node.children.every((c) => c.op === 'and' && c.words.length)) return;
  if (exact) for (const w of node.words) if (w.text !== null) w.exact = true;
  node.op = op;
  shiftStarGaps(node, stars);
}

/** Each `*` inside a phrase is a gap: later words move one position on, `*` words are dropped. */
function shiftStarGaps(node: XqNode, stars: number[]): void {
  if (!stars.length) return;
  let next = 0;
  let shift = 0;
  let lastStar = stars[0]!;
  const firstStar = stars[0]!;
  const out: XqWord[] = [];
  for (const w of node.words) {
    while (next < stars.length && stars[next]! <= w.pos) {
      lastStar = stars[next]!;
      next++;
      shift++;
    }
    if (w.text === '*' || (w.text === null && w.pos === lastStar)) {
      shift--;
      continue;
    }
    if (firstStar <= w.pos) w.pos += shift;
    out.push(w);
  }
  node.words = out;
}
