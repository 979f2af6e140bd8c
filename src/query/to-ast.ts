/**
 * Turns the fixed-up working tree into the public query tree: phrase groups expanded, NEAR over
 * groups spread out, quorums replaced by AND/OR where Manticore does so, AND-NOT written as AND
 * with NOT children, zones as ZoneNode around the largest subtree sharing them.
 */
import type { FieldLimit, PhraseNode, QueryNode, QuorumNode, TermNode } from './ast.js';
import { quorumThreshold } from './c-number.js';
import { expandPhraseGroups } from './phrase-variants.js';
import type { XqNode, XqSpec, XqWord } from './xq-node.js';

/** Manticore's quorum handles at most this many words; beyond that it searches for all of them. */
export const MAX_QUORUM_WORDS = 256;

/** What a tree that can match nothing is written as: an OR without alternatives. */
export function nothing(): QueryNode {
  return { kind: 'or', children: [] };
}

export const isNothing = (n: QueryNode): boolean => n.kind === 'or' && n.children.length === 0;

export function toAst(root: XqNode, warnings: string[]): QueryNode {
  const expanded = spreadNear(expandPhraseGroups(root));
  return new Converter(warnings).node(expanded, false);
}

/** `(a b) NEAR/3 c` is `a NEAR/3 b NEAR/3 c` (Manticore's TransformNear). */
function spreadNear(node: XqNode): XqNode {
  if (node.op === 'near') {
    const flat = (c: XqNode): XqNode[] => (c.op === 'and' && c.children.length ? c.children.flatMap(flat) : [c]);
    node.children = node.children.flatMap(flat);
  }
  node.children = node.children.map(spreadNear);
  return node;
}

const WILD = /[*?%]/;

function term(w: XqWord, field?: FieldLimit): TermNode {
  const t: TermNode = { kind: 'term', text: w.text ?? '', pos: w.pos };
  if (w.exact) t.exact = true;
  if (w.fieldStart) t.fieldStart = true;
  if (w.fieldEnd) t.fieldEnd = true;
  if (w.boost !== undefined) t.boost = w.boost;
  if (WILD.test(t.text)) t.wildcard = true;
  if (field) t.field = { ...field, fields: [...field.fields] };
  return t;
}

/** The zone limit shared by every keyword below a node: undefined if none, 'mixed' if they differ. */
function sharedZone(node: XqNode): XqSpec | 'mixed' | undefined {
  const key = (s: XqSpec): string => (s.zones?.length ? `${s.zoneSpan ? 1 : 0}:${s.zones.join(',')}` : '');
  let found: XqSpec | undefined;
  let seen = false;
  const visit = (n: XqNode): boolean => {
    if (n.words.length) {
      if (!seen) { seen = true; found = n.spec; return true; }
      return key(found!) === key(n.spec);
    }
    return n.children.every(visit);
  };
  if (!visit(node)) return 'mixed';
  return found?.zones?.length ? found : undefined;
}

class Converter {
  constructor(private readonly warnings: string[]) {}

  /** `zoneDone`: an enclosing ZoneNode (or the lack of zones) already covers this subtree. */
  node(n: XqNode, zoneDone: boolean): QueryNode {
    if (!zoneDone) {
      const zone = sharedZone(n);
      if (zone && zone !== 'mixed') {
        return { kind: 'zone', zones: [...zone.zones!], span: zone.zoneSpan === true, child: this.node(n, true) };
      }
      zoneDone = zone === undefined;
    }
    return n.words.length ? this.plain(n) : this.composite(n, zoneDone);
  }

  private plain(n: XqNode): QueryNode {
    const field = n.spec.field;
    const terms = n.words.map((w) => term(w));
    if (terms.length === 1 || n.op === 'and') {
      const each = n.words.map((w) => term(w, field));
      return each.length === 1 ? each[0]! : { kind: 'and', children: each };
    }
    const withField = <T extends QueryNode>(x: T): T => (field ? { ...x, field: { ...field, fields: [...field.fields] } } : x);
    if (n.op === 'phrase') {
      const first = n.words[0]!.pos;
      const p: PhraseNode = { kind: 'phrase', terms, offsets: n.words.map((w) => w.pos - first) };
      return withField(p);
    }
    if (n.op === 'proximity') return withField({ kind: 'proximity', terms, distance: n.opArg });
    return this.quorum(n, field);
  }

  /** Manticore's quorum at search time: `/1` and thresholds of one are OR, too high is AND. */
  private quorum(n: XqNode, field?: FieldLimit): QueryNode {
    const words = n.words.length;
    const each = (): TermNode[] => n.words.map((w) => term(w, field));
    if (n.opArg === 1) return { kind: 'or', children: each() };
    const threshold = quorumThreshold(n.opArg, n.percent, words);
    if (threshold >= words || words > MAX_QUORUM_WORDS) {
      if (threshold >= words && !n.percent) {
        this.warnings.push(`quorum threshold too high (words=${words}, thresh=${n.opArg}); replacing quorum operator with AND operator`);
      } else if (threshold < words) {
        this.warnings.push(`too many words (${words}) for quorum; replacing with an AND`);
      }
      return { kind: 'and', children: each() };
    }
    if (threshold <= 1) return { kind: 'or', children: each() };
    const q: QuorumNode = { kind: 'quorum', terms: n.words.map((w) => term(w)), threshold };
    if (n.percent && n.fraction !== undefined) q.fraction = n.fraction;
    if (field) q.field = { ...field, fields: [...field.fields] };
    return q;
  }

  private composite(n: XqNode, inZone: boolean): QueryNode {
    const kids = (): QueryNode[] => n.children.map((c) => this.node(c, inZone));
    switch (n.op) {
      case 'or': case 'and': return { kind: n.op, children: kids() };
      case 'not': return n.children.length ? { kind: 'not', child: this.node(n.children[0]!, inZone) } : nothing();
      case 'andnot': return this.andNot(n, inZone);
      case 'maybe': return kids().reduce((left, right) => ({ kind: 'maybe', left, right }));
      case 'before': return { kind: 'order', children: kids() };
      case 'near': return { kind: 'near', children: kids(), distance: n.opArg };
      case 'notnear': return { kind: 'near', children: kids(), distance: n.opArg, negate: true };
      case 'sentence': case 'paragraph': return { kind: n.op, children: kids() };
      default: return nothing();
    }
  }

  /** ANDNOT(positive, NOT x | OR(NOT x, NOT y)): AND(positive, NOT x, NOT y); over SCAN: NOT alone. */
  private andNot(n: XqNode, inZone: boolean): QueryNode {
    const [pos, neg] = n.children as [XqNode, XqNode];
    const negated = neg.op === 'or' ? neg.children : [neg];
    const inner = negated.map((c) => (c.op === 'not' && c.children.length ? this.node(c.children[0]!, inZone) : this.node(c, inZone)));
    if (pos.op === 'scan') {
      return { kind: 'not', child: inner.length === 1 ? inner[0]! : { kind: 'or', children: inner } };
    }
    return { kind: 'and', children: [this.node(pos, inZone), ...inner.map((child): QueryNode => ({ kind: 'not', child }))] };
  }
}
