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
 * read first, before anything is awaited, as readRows reads them. `sources` gets each row's stored
 * document (RowsResult.sources) when the select list reads stored text.
 */
export async function readRowsAsync(table: Table, cols: OutColumn[], hits: Hit[], sources?: (object | undefined)[]): Promise<Cell[][]> {
  const srcs = rowSources(table, cols, hits);
  if (sources) for (const s of srcs) sources.push(s.text === NO_TEXT ? undefined : s.text);
  const out = srcs.map((src) => cols.map((c) => (c.readPage ? null : c.read(src))));
  if (!srcs.length || !cols.some((c) => c.readPage)) return out;
  const pages = await Promise.all(cols.map((c) => (c.readPage && srcs.length ? c.readPage(srcs) : null)));
  pages.forEach((p, j) => { if (p) out.forEach((row, i) => { row[j] = p[i]; }); });
  return out;
}

/** No stored text fetched (the select list reads none): one shared, frozen record for every row. */
const NO_TEXT: Record<string, unknown> = Object.freeze({});

/**
 * A hit as the select list reads it. The attributes are read on first use (`SELECT id, weight()`
 * pages never look them up); a class, so a page's rows share one getter instead of a closure and
 * an accessor each (about 9 kB of garbage per 20-row page, the most of any step of a query).
 */
class HitRow implements RowSource {
  #attrs: Map<string, AttrValue> | undefined;
  constructor(
    readonly docId: bigint, readonly weight: number, readonly text: Record<string, unknown>,
    private readonly table: Table,
  ) {}

  get attrs(): Map<string, AttrValue> {
    if (!this.#attrs) {
      const values = this.table.index.getAttrs(this.docId);
      const attrs = this.table.index.schema.attrs;
      const map = new Map<string, AttrValue>();
      for (let j = 0; j < attrs.length; j++) map.set(attrs[j]!.name, values?.[j] as AttrValue);
      this.#attrs = map;
    }
    return this.#attrs;
  }
}

function rowSources(table: Table, cols: OutColumn[], hits: Hit[]): RowSource[] {
  let fetchText = false;
  for (const c of cols) if (c.needsText) fetchText = true;
  const docs = fetchText ? table.fetch(hits.map((h) => h.docId)) : [];
  return hits.map((h, i): RowSource => new HitRow(h.docId, h.weight, (docs[i] ?? NO_TEXT) as Record<string, unknown>, table));
}
