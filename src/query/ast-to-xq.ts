/** The public query tree back into the working tree, so assembled JSON trees get Manticore's fix-ups. */
import type { FieldLimit, QueryNode, TermNode } from './ast.js';
import { quorumPercent } from './c-number.js';
import { keywordNode, xqNode, type XqNode, type XqOp, type XqSpec, type XqWord } from './xq-node.js';

function specOf(field: FieldLimit | undefined, fields?: string[]): XqSpec {
  if (!field) return {};
  const named = new Set(field.fields.map((f) => f.toLowerCase()));
  const noField = fields !== undefined && field.exclude && fields.every((f) => named.has(f.toLowerCase()));
  return noField ? { field, noField } : { field };
}

function word(t: TermNode, pos: number): XqWord {
  const w: XqWord = { text: t.text, pos: t.pos ?? pos };
  if (t.exact) w.exact = true;
  if (t.fieldStart) w.fieldStart = true;
  if (t.fieldEnd) w.fieldEnd = true;
  if (t.boost !== undefined) w.boost = t.boost;
  return w;
}

/** Zone limits go onto every keyword below that has none yet (an inner ZONE wins). */
function setZones(node: XqNode, zones: string[], span: boolean): void {
  if (node.words.length && !node.spec.zones?.length) node.spec = { ...node.spec, zones, zoneSpan: span };
  for (const c of node.children) setZones(c, zones, span);
}

/** Converts a public tree; `fields` lets limits that select no field be recognized. */
export function astToXq(node: QueryNode, fields?: string[]): XqNode {
  const down = (n: QueryNode): XqNode => astToXq(n, fields);
  switch (node.kind) {
    case 'empty': return xqNode('null', {});
    case 'term': return keywordNode(word(node, 1), specOf(node.field, fields));
    case 'phrase': {
      const first = node.terms[0]?.pos ?? 1;
      const words = node.terms.map((t, i) => ({ ...word(t, 0), pos: first + (node.offsets[i] ?? i) }));
      return xqNode('phrase', specOf(node.field, fields), [], words);
    }
    case 'proximity': case 'quorum': {
      const n = xqNode(node.kind, specOf(node.field, fields), [], node.terms.map((t, i) => word(t, i + 1)));
      if (node.kind === 'proximity') n.opArg = node.distance;
      else if (node.fraction !== undefined) {
        n.opArg = quorumPercent(node.fraction);
        n.percent = true;
        n.fraction = node.fraction;
      } else n.opArg = node.threshold;
      return n;
    }
    case 'and': case 'or': return xqNode(node.kind, {}, node.children.map(down));
    case 'not': return xqNode('not', {}, [down(node.child)]);
    case 'maybe': return xqNode('maybe', {}, [down(node.left), down(node.right)]);
    case 'order': return xqNode('before', {}, node.children.map(down));
    case 'sentence': case 'paragraph': return xqNode(node.kind, {}, node.children.map(down));
    case 'near': {
      const op: XqOp = node.negate ? 'notnear' : 'near';
      const n = xqNode(op, {}, node.children.map(down));
      n.opArg = node.distance;
      return n;
    }
    case 'zone': {
      const child = down(node.child);
      setZones(child, node.zones, node.span);
      return child;
    }
  }
}
