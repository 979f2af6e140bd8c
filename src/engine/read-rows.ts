/** The output rows of a page of hits: each select-list column read from the hit's id, weight, attributes and text. */
import type { AttrValue } from '../index/types.js';
import type { Cell } from './result.js';
import type { OutColumn, RowSource } from './select-items.js';
import type { Table } from './table.js';

export function readRows(table: Table, cols: OutColumn[], hits: { docId: bigint; weight: number }[]): Cell[][] {
  const textCols = [...new Set(cols.map((c) => c.needsText).filter((x): x is string => !!x))];
  const docs = textCols.length ? table.fetch(hits.map((h) => h.docId)) : [];
  const names = table.index.schema.attrs.map((a) => a.name);
  return hits.map((h, i) => {
    let attrs: Map<string, AttrValue> | undefined;
    const src: RowSource = {
      docId: h.docId, weight: h.weight,
      // read on first use: `SELECT id, weight()` pages never look the attributes up
      get attrs() {
        if (!attrs) {
          const values = table.index.getAttrs(h.docId) ?? [];
          attrs = new Map<string, AttrValue>(names.map((n, j) => [n, values[j]]));
        }
        return attrs;
      },
      text: (docs[i] ?? {}) as Record<string, unknown>,
    };
    return cols.map((c) => c.read(src));
  });
}

