/** The output rows of a page of hits: each select-list column read from the hit's id, weight, attributes and text. */
import type { AttrValue } from '../index/types.js';
import type { Cell } from './result.js';
import type { OutColumn, RowSource } from './select-items.js';
import type { Table } from './table.js';

type Hit = { docId: bigint; weight: number };

export function readRows(table: Table, cols: OutColumn[], hits: Hit[]): Cell[][] {
  const srcs = rowSources(table, cols, hits);
  return srcs.map((src) => cols.map((c) => c.read(src)));
}

/**
 * readRows with the columns that read a page at once (HIGHLIGHT()) read so; the other columns are
 * read first, before anything is awaited, as readRows reads them.
 */
export async function readRowsAsync(table: Table, cols: OutColumn[], hits: Hit[]): Promise<Cell[][]> {
  const srcs = rowSources(table, cols, hits);
  const out = srcs.map((src) => cols.map((c) => (c.readPage ? null : c.read(src))));
  const pages = await Promise.all(cols.map((c) => (c.readPage && srcs.length ? c.readPage(srcs) : null)));
  pages.forEach((p, j) => { if (p) out.forEach((row, i) => { row[j] = p[i]; }); });
  return out;
}

function rowSources(table: Table, cols: OutColumn[], hits: Hit[]): RowSource[] {
  const textCols = [...new Set(cols.map((c) => c.needsText).filter((x): x is string => !!x))];
  const docs = textCols.length ? table.fetch(hits.map((h) => h.docId)) : [];
  const names = table.index.schema.attrs.map((a) => a.name);
  return hits.map((h, i): RowSource => {
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
    return src;
  });
}

