/** Merges segments into one: live rows only, in segment order; postings re-encoded, attributes copied. */
import type { AttrValue, IndexSchema } from './types.js';
import type { Segment } from './segment.js';
import type { TermPostings } from './postings-encoder.js';
import { readPostings } from './postings-reader.js';
import { buildSegment, type BuiltSegment, type InvertedBatch } from './segment-builder.js';

export function mergeSegments(schema: IndexSchema, segments: Segment[]): BuiltSegment {
  const numFields = schema.fields.length;
  const remaps: Int32Array[] = [];
  let rows = 0;
  for (const seg of segments) {
    const map = new Int32Array(seg.rows).fill(-1);
    for (let r = 0; r < seg.rows; r++) if (!seg.isDeleted(r)) map[r] = rows++;
    remaps.push(map);
  }
  const fieldLens = new Uint32Array(rows * numFields);
  const docIds = new BigInt64Array(rows);
  const attrs: AttrValue[][] = schema.attrs.map(() => new Array<AttrValue>(rows));
  segments.forEach((seg, s) => {
    for (let r = 0; r < seg.rows; r++) {
      const to = remaps[s][r];
      if (to < 0) continue;
      docIds[to] = seg.docId(r);
      fieldLens.set(seg.fieldLengths(r), to * numFields);
      schema.attrs.forEach((_, a) => { attrs[a][to] = seg.attr(a, r); });
    }
  });
  const postings = new Map<string, TermPostings>();
  segments.forEach((seg, s) => {
    seg.terms.forEach((term, t) => {
      const src = readPostings(seg, t);
      let dst = postings.get(term);
      let pos = 0;
      for (let i = 0; i < src.rows.length; i++) {
        const tf = src.tfs[i];
        const to = remaps[s][src.rows[i]];
        if (to >= 0) {
          if (!dst) postings.set(term, (dst = { rows: [], tfs: [], positions: [] }));
          dst.rows.push(to);
          dst.tfs.push(tf);
          for (let j = 0; j < tf; j++) dst.positions.push(src.positions[pos + j]);
        }
        pos += tf;
      }
    });
  });
  const batch: InvertedBatch = { rows, numFields, postings, fieldLens, docIds, attrs };
  return buildSegment(schema, batch);
}
