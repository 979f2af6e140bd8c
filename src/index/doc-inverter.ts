/**
 * Inverts a batch of documents into postings with flat typed arrays (two passes, a counting sort
 * by term), so a batch allocates a handful of arrays instead of a few per term.
 * hitpos = field << 24 | fieldEnd << 23 | pos; fieldEnd marks a field's last position.
 */
import type { AttrValue, DocInput, IndexSchema } from './types.js';
import type { InvertedBatch } from './segment-builder.js';
import type { TermPostings } from './postings-encoder.js';
import { FIELD_END_BIT, FIELD_SHIFT, POS_MASK } from './segment-layout.js';

/** Sorts each row's hits of one term (fields handed over with positions out of order). */
function sortRowHits(rows: Uint32Array, hits: Uint32Array, from: number, to: number): void {
  let i = from;
  while (i < to) {
    let j = i + 1;
    while (j < to && rows[j] === rows[i]) j++;
    hits.subarray(i, j).sort();
    i = j;
  }
}

export function invertDocs(schema: IndexSchema, docs: DocInput[]): InvertedBatch {
  const numFields = schema.fields.length;
  const fieldLens = new Uint32Array(docs.length * numFields);
  const docIds = new BigInt64Array(docs.length);
  const attrs: AttrValue[][] = schema.attrs.map(() => new Array<AttrValue>(docs.length));
  let tokens = 0;
  for (const d of docs) for (const ft of d.fields) tokens += ft ? ft.terms.length : 0;
  // pass 1: the token stream (term number, row, hitpos) in document order
  const dict = new Map<string, number>();
  const names: string[] = [];
  const tid = new Uint32Array(tokens);
  const trow = new Uint32Array(tokens);
  const thit = new Uint32Array(tokens);
  let n = 0;
  docs.forEach((doc, row) => {
    docIds[row] = BigInt.asIntN(64, doc.docId);
    for (let a = 0; a < schema.attrs.length; a++) attrs[a][row] = doc.attrs[a] ?? null;
    for (let f = 0; f < numFields; f++) {
      const ft = doc.fields[f];
      if (!ft) continue;
      fieldLens[row * numFields + f] = ft.length;
      let last = 0;
      for (const p of ft.positions) if (p > last) last = p;
      for (let i = 0; i < ft.terms.length; i++) {
        let id = dict.get(ft.terms[i]);
        if (id === undefined) {
          id = names.length;
          dict.set(ft.terms[i], id);
          names.push(ft.terms[i]);
        }
        const pos = ft.positions[i] & POS_MASK;
        tid[n] = id;
        trow[n] = row;
        thit[n++] = ((f << FIELD_SHIFT) | (pos === last ? FIELD_END_BIT : 0) | pos) >>> 0;
      }
    }
  });
  // pass 2: stable counting sort by term keeps rows ascending and each row's hits in field order
  const start = new Uint32Array(names.length + 1);
  for (let i = 0; i < n; i++) start[tid[i] + 1]++;
  for (let t = 0; t < names.length; t++) start[t + 1] += start[t];
  const fill = start.slice(0, names.length);
  const rows = new Uint32Array(n);
  const hits = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const at = fill[tid[i]]++;
    rows[at] = trow[i];
    hits[at] = thit[i];
  }
  const postings = new Map<string, TermPostings>();
  names.forEach((name, t) => {
    const a = start[t];
    const b = start[t + 1];
    let distinct = 0;
    let unsorted = false;
    for (let i = a; i < b; i++) {
      if (i === a || rows[i] !== rows[i - 1]) distinct++;
      else if (hits[i] < hits[i - 1]) unsorted = true;
    }
    if (unsorted) sortRowHits(rows, hits, a, b);
    const pr = new Uint32Array(distinct);
    const tf = new Uint32Array(distinct);
    let k = -1;
    for (let i = a; i < b; i++) {
      if (i === a || rows[i] !== rows[i - 1]) pr[++k] = rows[i];
      tf[k]++;
    }
    postings.set(name, { rows: pr, tfs: tf, positions: hits.subarray(a, b) });
  });
  return { rows: docs.length, numFields, postings, fieldLens, docIds, attrs };
}
