// The merge of parts without deleted rows (src/index/segment/segment-concat.ts, blocks copied) against one
// segment built from the same documents at once: the same dictionary, and per term the same rows, tfs
// and hits when decoded block by block, each block's pruning bound word exact, and the same search answers.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { Segment } from '../../../../src/index/segment/segment.js';
import { unpackInto } from '../../../../src/index/segment/bitpack.js';
import { unpackHits } from '../../../../src/index/segment/positions-codec.js';
import { blockFieldBit, blockMaxWord } from '../../../../src/index/segment/postings-encoder.js';
import { H, SKIP_WORDS, TERM_INFO_WORDS } from '../../../../src/index/segment/segment-layout.js';
import type { IndexSchema } from '../../../../src/index/types.js';
import { doc, phrase, req, t } from '../helpers.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'n', type: 'uint' }] };
// 'a' is in nearly every document: with 300+ rows its postings span several blocks in every part
const WORDS = ['a', 'a', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'x1', 'x2', 'x3', 'y'];
const text = fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' '));
const docs = fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 400 });

/** Term t's postings decoded from the blob, block by block: rows, tfs, hits. */
function decode(seg: Segment, term: number): { rows: number[]; tfs: number[]; hits: number[]; df: number; blocks: number } {
  const u32 = seg.words();
  const base = seg.blobPtr;
  const info = ((base + u32[(base >>> 2) + H.termTable]) >>> 2) + term * TERM_INFO_WORDS;
  const skip = (base + u32[info + 2]) >>> 2;
  const out = { rows: [] as number[], tfs: [] as number[], hits: [] as number[], df: u32[info], blocks: u32[info + 3] };
  const deltas = new Uint32Array(128);
  const tfm1 = new Uint32Array(128);
  let prev = 0;
  for (let b = 0; b < u32[info + 3]; b++) {
    const e = skip + b * SKIP_WORDS;
    const count = u32[e + 4];
    unpackInto(deltas, u32, (base + u32[e + 1]) >>> 2, count, u32[e + 5]);
    unpackInto(tfm1, u32, (base + u32[e + 2]) >>> 2, count, u32[e + 6]);
    let n = 0;
    for (let i = 0; i < count; i++) {
      prev += deltas[i];
      out.rows.push(prev);
      out.tfs.push(tfm1[i] + 1);
      n += tfm1[i] + 1;
    }
    expect(u32[e]).toBe(prev); // the skip entry's last row
    const hits = new Uint32Array(n);
    unpackHits(u32, (base + u32[e + 3]) >>> 2, n, u32[e + 7], hits, 0);
    out.hits.push(...hits);
    // the block's pruning bound (assembly/plan/prune.ts) is its rows' largest tf and their fields
    let maxTf = 0;
    for (let i = 0; i < count; i++) maxTf = Math.max(maxTf, tfm1[i] + 1);
    let fields = 0;
    for (const h of hits) fields |= blockFieldBit(h);
    expect(u32[info + 4]).not.toBe(0);
    expect(u32[((base + u32[info + 4]) >>> 2) + b]).toBe(blockMaxWord(maxTf, fields));
  }
  return out;
}

describe('concatSegments (merge without deleted rows)', () => {
  it('gives the postings and answers of one segment built from all the documents', () => {
    fc.assert(fc.property(docs, fc.array(fc.integer({ min: 1, max: 150 }), { minLength: 1, maxLength: 6 }), (texts, sizes) => {
      const inputs = texts.map(([title, body], i) => doc(schema, i + 1, { title, body }, [i]));
      const merged = new RtIndex(schema, { autoMerge: false });
      for (let at = 0, k = 0; at < inputs.length; k++) {
        const n = sizes[k % sizes.length];
        merged.addBatch(inputs.slice(at, at + n));
        at += n;
      }
      merged.optimize();
      const whole = new RtIndex(schema, { autoMerge: false });
      whole.addBatch(inputs);
      const [m] = merged.segments;
      const [w] = whole.segments;
      expect(merged.segments).toHaveLength(1);
      expect(m.terms).toEqual(w.terms);
      for (let term = 0; term < w.terms.length; term++) {
        const a = decode(m, term);
        const b = decode(w, term);
        expect({ ...a, blocks: 0 }).toEqual({ ...b, blocks: 0 });
        expect(a.blocks).toBeGreaterThanOrEqual(b.blocks); // a part's run of a term may end in a short block
        expect(a.blocks).toBeLessThanOrEqual(b.blocks + Math.max(1, Math.floor(b.blocks / 4))); // else re-encoded
      }
      for (const q of [t('a'), t('x2'), phrase('a b'), phrase('a a c')]) {
        expect(merged.search(req(q, { limit: 50 }))).toEqual(whole.search(req(q, { limit: 50 })));
      }
      merged.truncate();
      whole.truncate();
    }), { numRuns: 60 });
  });
});
