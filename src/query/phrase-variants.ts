/**
 * Phrases with OR groups (`"door (opened | closed)"`) become an OR of plain phrases, one per
 * combination, as Manticore's TransformPhraseBased does before searching.
 */
import { queryError } from './field-spec.js';
import { xqNode, type XqNode, type XqWord } from './xq-node.js';

/** Manticore's expansion_phrase_limit default: at most this many combinations per phrase. */
export const MAX_PHRASE_VARIANTS = 1024;

const OP_NAMES: Record<string, string> = {
  and: 'AND', or: 'OR', maybe: 'MAYBE', not: 'NOT', andnot: 'ANDNOT', before: 'BEFORE', phrase: 'PHRASE',
  proximity: 'PROXIMITY', quorum: 'QUORUM', near: 'NEAR', notnear: 'NOTNEAR', sentence: 'SENTENCE',
  paragraph: 'PARAGRAPH', null: 'NULL', scan: 'SCAN',
};

const isPhraseLike = (n: XqNode): boolean => n.op === 'phrase' || n.op === 'proximity' || n.op === 'quorum';

/** Expands every phrase-like node that has groups; returns the (possibly replaced) node. */
export function expandPhraseGroups(node: XqNode): XqNode {
  if (isPhraseLike(node) && node.children.length) {
    const variants = variantsOf(node);
    const phrases = variants.map((words) => {
      const start = words[0]!.pos;
      const p = xqNode(node.op, node.spec, [], words.map((w, i) => ({ ...w, pos: start + i })));
      p.opArg = node.opArg;
      p.percent = node.percent;
      if (node.fraction !== undefined) p.fraction = node.fraction;
      return p;
    });
    return xqNode('or', node.spec, phrases);
  }
  node.children = node.children.map(expandPhraseGroups);
  return node;
}

function tooComplex(complexity: number): never {
  throw queryError(`query too complex, exceeds max variants limit during OR combination (complexity ${complexity}, expansion_phrase_limit ${MAX_PHRASE_VARIANTS})`);
}

/** All word sequences a node can stand for: OR unites, phrase-like and AND concatenate. */
function variantsOf(node: XqNode): XqWord[][] {
  let out: XqWord[][];
  if (node.op === 'or') {
    out = [...node.words.map((w) => [w]), ...node.children.flatMap(variantsOf)];
  } else if (node.op === 'and' || isPhraseLike(node)) {
    const groups: XqWord[][][] = [...node.words.map((w) => [[w]]), ...node.children.map(variantsOf)];
    out = cartesian(groups);
  } else {
    throw queryError(`unsupported node '${OP_NAMES[node.op]}' at the phrase`);
  }
  if (out.length > MAX_PHRASE_VARIANTS) tooComplex(out.length);
  return out;
}

/** One variant from each group, in order; fails once the running product passes the limit. */
function cartesian(groups: XqWord[][][]): XqWord[][] {
  let total = 1;
  for (const g of groups) {
    if (!g.length) continue;
    total *= g.length;
    if (total > MAX_PHRASE_VARIANTS) tooComplex(total);
  }
  let acc: XqWord[][] = [[]];
  for (const g of groups) {
    if (!g.length) continue;
    const next: XqWord[][] = [];
    for (const prefix of acc) for (const v of g) next.push([...prefix, ...v]);
    acc = next;
  }
  return acc;
}
