/**
 * Manticore's post-parse fix-ups of the working tree (XQParseHelper_c::FixupTree), in its order:
 * drop nodes limited to no field, sweep vanished keywords, turn one-word phrases into keywords,
 * enforce the NOT rules, check quorum/proximity/NEAR arguments, handle a lone NOT.
 */
import { queryError } from './field-spec.js';
import { hasMissedField, xqNode, type XqNode } from './xq-node.js';

export interface FixupResult {
  /** Null when nothing is left to match. */
  root: XqNode | null;
  warnings: string[];
}

export function fixupTree(input: XqNode | null, notOnlyAllowed: boolean): FixupResult {
  const warnings: string[] = [];
  if (input) deleteNodesWithoutFields(input);
  let root = sweepNulls(input, notOnlyAllowed, false);
  if (root) fixupDegenerates(root, warnings);
  if (root) fixupNulls(root);
  const holder = { root };
  if (root) fixupNots(root, null, notOnlyAllowed, holder);
  root = holder.root;
  if (root) { checkQuorumProximity(root); checkNear(root); }
  if (root && root.op === 'not') {
    if (!notOnlyAllowed) throw queryError('query is non-computable (single NOT operator)');
    root.op = 'and';
    root = onlyNot(root);
  }
  if (root && root.op === 'null') root = null;
  return { root, warnings };
}

/** Children whose field limit selects no field go away (the root stays). */
function deleteNodesWithoutFields(node: XqNode): void {
  node.children = node.children.filter((c) => !hasMissedField(c.spec));
  for (const c of node.children) deleteNodesWithoutFields(c);
}

/**
 * Removes vanished keywords and nodes left empty; an operator with one child is replaced by it.
 * Manticore's quirk: if that lone child is a NOT and a sibling was swept (`the -word` with a
 * stopword), the NOT matches nothing rather than failing the NOT rules.
 */
export function sweepNulls(node: XqNode | null, notOnlyAllowed: boolean, sweepHappened: boolean): XqNode | null {
  if (!node) return null;
  if (node.words.length) {
    node.words = node.words.filter((w) => w.text !== null);
    return node.words.length ? node : null;
  }
  let swept = sweepHappened;
  const kept: XqNode[] = [];
  for (const c of node.children) {
    const s = sweepNulls(c, notOnlyAllowed, false);
    if (s) kept.push(s);
    else swept = true;
  }
  node.children = kept;
  if (!kept.length) return null;
  if (node.op !== 'not' && kept.length === 1) {
    const only = kept[0]!;
    if (swept && only.op === 'not' && !notOnlyAllowed) {
      only.op = 'null';
      only.children = [];
    }
    return sweepNulls(only, notOnlyAllowed, swept);
  }
  return node;
}

/** A phrase, proximity or quorum of one word is that word; a quorum of 1 word over /N>1 warns. */
function fixupDegenerates(node: XqNode, warnings: string[]): void {
  const single = node.words.length === 1 && (node.op === 'phrase' || node.op === 'proximity' || node.op === 'quorum');
  if (single) {
    if (node.op === 'quorum' && !node.percent && node.opArg > 1) {
      warnings.push(`quorum threshold too high (words=1, thresh=${node.opArg}); replacing quorum operator with AND operator`);
    }
    node.op = 'and';
    return;
  }
  for (const c of node.children) fixupDegenerates(c, warnings);
}

/** `x | null` is x; `x null` (AND) is null. */
function fixupNulls(node: XqNode): void {
  for (const c of node.children) fixupNulls(c);
  if (node.op === 'or') node.children = node.children.filter((c) => c.op !== 'null');
  else if (node.op === 'and' && node.children.some((c) => c.op === 'null')) {
    node.op = 'null';
    node.children = [];
  }
}

const NOT_INSIDE: Partial<Record<string, string>> = {
  or: 'NOT is not allowed within OR',
  maybe: 'NOT is not allowed within MAYBE',
  near: 'NOT is not allowed within NEAR',
  notnear: 'NOT is not allowed within NOTNEAR',
  before: 'NOT cannot be used as before operand',
};

/** NOT children of an AND become AND-NOT; anywhere else they are errors (Manticore's rules). */
function fixupNots(node: XqNode, parent: XqNode | null, allowed: boolean, holder: { root: XqNode | null }): void {
  if (node.words.length || node.op === 'andnot') return;
  for (const c of [...node.children]) fixupNots(c, node, allowed, holder);
  const nots = node.children.filter((c) => c.op === 'not');
  if (!nots.length) return;
  node.children = node.children.filter((c) => c.op !== 'not');
  if (!node.children.length && node.op === 'and' && hasPositiveSibling(node, parent)) {
    negateGroup(node, nots);
    return;
  }
  if (!node.children.length && !allowed) throw queryError('query is non-computable (node consists of NOT operators only)');
  const inside = NOT_INSIDE[node.op];
  if (inside) throw queryError(`query is non-computable (${inside})`);
  if (node.op === 'and' && !node.children.length) {
    if (!parent) {
      node.op = 'or';
      node.children = nots;
      holder.root = onlyNot(node);
      return;
    }
    if (parent.op === 'and' && parent.children.length === 2) {
      parent.op = 'andnot';
      node.op = 'or';
      node.children = nots;
      return;
    }
    throw queryError('query is non-computable (node consists of NOT operators only)');
  }
  const positive = xqNode('and', node.spec, node.children);
  const negative = nots.length === 1 ? nots[0]! : xqNode('or', node.spec, nots);
  node.op = 'andnot';
  node.children = [positive, negative];
}

/**
 * Deliberate extension (README compatibility table): a group of NOTs only beside a positive operand
 * of an AND (`hello ( -war -hallo )`) is computable, as `hello AND NOT (war OR hallo)`; Manticore
 * computes that only with not_terms_only_allowed=1 and refuses it otherwise.
 */
function hasPositiveSibling(node: XqNode, parent: XqNode | null): boolean {
  return parent !== null && parent.op === 'and' && parent.children.some((c) => c !== node && !isNotOnly(c));
}

/** A NOT, or an AND group whose operands are all NOTs (not yet turned into one). */
function isNotOnly(n: XqNode): boolean {
  if (n.op === 'not') return true;
  return n.op === 'and' && n.words.length === 0 && n.children.length > 0 && n.children.every(isNotOnly);
}

/** Turns a NOT-only group into one NOT of the OR of its negated operands, for the parent's AND-NOT. */
function negateGroup(node: XqNode, nots: XqNode[]): void {
  const negated = nots.map((n) => n.children[0]).filter((c): c is XqNode => c !== undefined);
  node.op = 'not';
  node.children = negated.length === 1 ? negated : [xqNode('or', node.spec, negated)];
}

/** NOT-only query (not_terms_only_allowed): every document except the matching ones. */
function onlyNot(node: XqNode): XqNode {
  return xqNode('andnot', node.spec, [xqNode('scan', node.spec), node]);
}

/** Quorum and proximity arguments must be in range (checked over the whole tree first). */
function checkQuorumProximity(node: XqNode): void {
  if (node.op === 'quorum' && !(node.opArg > 0 && (!node.percent || node.opArg <= 100))) {
    if (node.percent) {
      const shown = Math.fround(Math.fround(1 / 100) * node.opArg);
      throw queryError(`quorum threshold out of bounds 0.0 and 1.0f (${shown.toFixed(6)})`);
    }
    throw queryError(`quorum threshold too low (${node.opArg})`);
  }
  if (node.op === 'proximity' && node.opArg < 1) throw queryError(`proximity threshold too low (${node.opArg})`);
  for (const c of node.children) checkQuorumProximity(c);
}

/** NEAR/N needs N >= 1. */
function checkNear(node: XqNode): void {
  if (node.op === 'near' && node.opArg < 1) throw queryError(`NEAR distance too low (${node.opArg})`);
  for (const c of node.children) checkNear(c);
}
