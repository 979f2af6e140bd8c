/**
 * Turns the fixed-up working tree into the public query tree: phrase groups expanded, NEAR over
 * groups spread out, quorums replaced by AND/OR where Manticore does so, AND-NOT written as AND
 * with NOT children, zones as a ZoneNode around each limited keyword or phrase (and around an AND
 * of keywords under one ZONESPAN, which must match in a single span).
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

/**
 * `wildcards`: the table indexes prefixes or infixes, so `*`, `?`, `%` in a word are wildcards;
 * otherwise such a character reached a word only as a word character (blend_chars, charset_table).
 */
export function toAst(root: XqNode, warnings: string[], wildcards = true): QueryNode {
  const expanded = spreadNear(expandPhraseGroups(root));
  return new Converter(warnings, wildcards).node(expanded);
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

function term(w: XqWord, wildcards: boolean, field?: FieldLimit): TermNode {
  const t: TermNode = { kind: 'term', text: w.text ?? '', pos: w.pos };
  if (w.exact) t.exact = true;
  if (w.fieldStart) t.fieldStart = true;
  if (w.fieldEnd) t.fieldEnd = true;
  if (w.boost !== undefined) t.boost = w.boost;
  if (wildcards && WILD.test(t.text)) t.wildcard = true;
  if (field) t.field = { ...field, fields: [...field.fields] };
  return t;
}

/** Zones of a keyword node as a ZoneNode wrapper, or nothing. */
function zoneOf(spec: XqSpec): { zones: string[]; span: boolean } | undefined {
  return spec.zones?.length ? { zones: spec.zones, span: spec.zoneSpan === true } : undefined;
}

/**
 * Manticore's ZONESPAN case: an AND of single keywords, all limited to the same ZONESPAN, must
 * match inside one span. Anywhere else a zone limits each keyword on its own.
 */
function zonespanGroup(n: XqNode): { zones: string[]; span: boolean } | undefined {
  if (n.op !== 'and' || n.children.length < 2 || !n.children.every((c) => c.words.length === 1)) return undefined;
  const first = zoneOf(n.children[0]!.spec);
  if (!first?.span) return undefined;
  const same = n.children.every((c) => c.spec.zoneSpan === true && c.spec.zones!.join() === first.zones.join());
  return same ? first : undefined;
}

function inZone(zone: { zones: string[]; span: boolean }, child: QueryNode): QueryNode {
  return { kind: 'zone', zones: [...zone.zones], span: zone.span, child };
}

class Converter {
  constructor(private readonly warnings: string[], private readonly wildcards: boolean) {}

  /** `zoned`: an enclosing ZoneNode already carries the zone limit of this subtree. */
  node(n: XqNode, zoned = false): QueryNode {
    if (n.words.length) {
      const zone = zoned ? undefined : zoneOf(n.spec);
      const node = this.plain(n);
      if (!zone) return node;
      // Keywords that end up AND-ed or OR-ed (quorum replaced, phrase group) are limited one by one.
      if (node.kind === 'and' || node.kind === 'or') return { ...node, children: node.children.map((c) => inZone(zone, c)) };
      return inZone(zone, node);
    }
    const group = zoned ? undefined : zonespanGroup(n);
    return group ? inZone(group, this.composite(n, true)) : this.composite(n, zoned);
  }

  private plain(n: XqNode): QueryNode {
    const field = n.spec.field;
    const terms = n.words.map((w) => term(w, this.wildcards));
    if (terms.length === 1 || n.op === 'and') {
      const each = n.words.map((w) => term(w, this.wildcards, field));
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
    const each = (): TermNode[] => n.words.map((w) => term(w, this.wildcards, field));
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
    const q: QuorumNode = { kind: 'quorum', terms: n.words.map((w) => term(w, this.wildcards)), threshold };
    if (n.percent && n.fraction !== undefined) q.fraction = n.fraction;
    if (field) q.field = { ...field, fields: [...field.fields] };
    return q;
  }

  private composite(n: XqNode, zoned: boolean): QueryNode {
    const kids = (): QueryNode[] => n.children.map((c) => this.node(c, zoned));
    switch (n.op) {
      case 'or': case 'and': return { kind: n.op, children: kids() };
      case 'not': return n.children.length ? { kind: 'not', child: this.node(n.children[0]!, zoned) } : nothing();
      case 'andnot': return this.andNot(n, zoned);
      case 'maybe': return kids().reduce((left, right) => ({ kind: 'maybe', left, right }));
      case 'before': return { kind: 'order', children: kids() };
      case 'near': return { kind: 'near', children: kids(), distance: n.opArg };
      case 'notnear': return { kind: 'near', children: kids(), distance: n.opArg, negate: true };
      case 'sentence': case 'paragraph': return { kind: n.op, children: kids() };
      default: return nothing();
    }
  }

  /** ANDNOT(positive, NOT x | OR(NOT x, NOT y)): AND(positive, NOT x, NOT y); over SCAN: NOT alone. */
  private andNot(n: XqNode, zoned: boolean): QueryNode {
    const [pos, neg] = n.children as [XqNode, XqNode];
    const negated = neg.op === 'or' ? neg.children : [neg];
    const inner = negated.map((c) => (c.op === 'not' && c.children.length ? this.node(c.children[0]!, zoned) : this.node(c, zoned)));
    if (pos.op === 'scan') {
      return { kind: 'not', child: inner.length === 1 ? inner[0]! : { kind: 'or', children: inner } };
    }
    return { kind: 'and', children: [this.node(pos, zoned), ...inner.map((child): QueryNode => ({ kind: 'not', child }))] };
  }
}
