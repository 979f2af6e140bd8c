/** Final tidy-up of a query tree: nested ANDs and ORs merged (NOTs last), one-child ANDs and ORs replaced by the child. */
import type { QueryNode } from './ast.js';

/** Returns an equivalent tree; an OR without children (matches nothing) is kept as is. */
export function simplify(node: QueryNode): QueryNode {
  switch (node.kind) {
    case 'and':
    case 'or': {
      const kind = node.kind;
      let children = node.children.map(simplify).flatMap((c) => (c.kind === kind ? c.children : [c]));
      // Negations last, as Manticore's AND-NOT puts them: one canonical order for merged ANDs.
      if (kind === 'and') children = [...children.filter((c) => c.kind !== 'not'), ...children.filter((c) => c.kind === 'not')];
      return children.length === 1 ? children[0]! : { kind, children };
    }
    case 'not': return { kind: 'not', child: simplify(node.child) };
    case 'maybe': return { kind: 'maybe', left: simplify(node.left), right: simplify(node.right) };
    case 'order': case 'sentence': case 'paragraph': return { ...node, children: node.children.map(simplify) };
    case 'near': return { ...node, children: node.children.map(simplify) };
    case 'zone': return { ...node, child: simplify(node.child) };
    default: return node;
  }
}
