import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pickPassagesWasm, type PickInput, type PickStream } from '../../../src/wasm/snippet.js';
import { referencePick } from '../../reference/snippet-picker.js';

/**
 * A field: words with gap runs between them; some words matched with a keyword bit. `sparse`: long
 * fields with few matches, boundaries and phrase boundaries (the stretches the core jumps over).
 */
const field = (nTerms: number, sparse = false) => fc.array(fc.record({
  len: fc.integer({ min: 1, max: 12 }),
  hit: fc.integer({ min: 0, max: sparse ? 60 : 4 }),
  term: fc.integer({ min: 0, max: nTerms - 1 }),
  gaps: fc.integer({ min: 0, max: 2 }),
  pb: fc.integer({ min: 0, max: sparse ? 300 : 8 }),
  brk: fc.integer({ min: 0, max: sparse ? 400 : 12 }),
}), { minLength: sparse ? 100 : 0, maxLength: sparse ? 600 : 80 }).map((ws): PickStream => {
  const len: number[] = [], word: number[] = [], mask: number[] = [], hit: number[] = [], brk: number[] = [];
  let bytes = 0;
  for (const w of ws) {
    for (let g = 0; g < w.gaps; g++) { len.push(1); word.push(0); mask.push(0); hit.push(0); brk.push(g === 0 && w.pb === 0 ? 2 : 0); bytes++; }
    const h = w.hit === 0 ? 1 : 0;
    len.push(w.len); word.push(1); hit.push(h); mask.push(h ? 1 << w.term : 0); brk.push(w.brk === 0 ? 1 : 0);
    bytes += w.len;
  }
  return {
    len: Int32Array.from(len), word: Uint8Array.from(word), mask: Uint32Array.from(mask),
    hit: Uint8Array.from(hit), brk: Uint8Array.from(brk), docBytes: bytes,
  };
});

const limits = fc.record({
  limit: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 200 })),
  limitWords: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 30 })),
  limitSnippets: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 5 })),
});

const inputOf = (sparse: boolean) => fc.integer({ min: 1, max: 6 }).chain((nTerms) => fc.record({
  streams: fc.array(field(nTerms, sparse), { minLength: 1, maxLength: 3 }),
  limits: fc.array(limits, { minLength: 3, maxLength: 3 }),
  global: limits,
  perField: fc.boolean(),
  around: fc.integer({ min: 0, max: 7 }),
  forceAllWords: fc.boolean(),
  useBoundaries: fc.boolean(),
  spz: fc.boolean(),
  termWeights: fc.array(fc.integer({ min: 1, max: 12 }), { minLength: nTerms, maxLength: nTerms }),
}).map((r): PickInput => {
  let found = 0;
  for (const s of r.streams) for (const m of s.mask) found |= m;
  return { ...r, extract: r.streams.map(() => true), foundWords: found >>> 0 };
}));
const input = inputOf(false);

/** The core's token layout, as the builder packs it. */
function pack(s: PickStream): PickStream {
  const packed = new Int32Array(s.len.length * 3);
  for (let i = 0; i < s.len.length; i++) {
    packed[i * 3] = s.len[i];
    packed[i * 3 + 1] = (s.word[i] ? 1 : 0) | (s.hit[i] ? 2 : 0) | (s.brk[i] === 1 ? 4 : 0) | (s.brk[i] === 2 ? 8 : 0);
    packed[i * 3 + 2] = s.mask[i] | 0;
  }
  return { ...s, packed };
}

describe('snippet picker: WASM core vs the TypeScript twin', () => {
  it('picks the same passages (field, first token, tokens, weight) on random streams', () => {
    let nonEmpty = 0;
    fc.assert(fc.property(input, (inp) => {
      const got = pickPassagesWasm(inp);
      expect(got).toEqual(referencePick(inp));
      expect(pickPassagesWasm({ ...inp, streams: inp.streams.map(pack) })).toEqual(got);
      if (got.length) nonEmpty++;
    }), { numRuns: 400 });
    // the comparison is about real picks, not empty results
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('picks the same passages on long fields with few matches (stretches the core jumps over)', () => {
    let nonEmpty = 0;
    fc.assert(fc.property(inputOf(true), (inp) => {
      const got = pickPassagesWasm({ ...inp, streams: inp.streams.map(pack) });
      expect(got).toEqual(referencePick(inp));
      if (got.length) nonEmpty++;
    }), { numRuns: 300 });
    expect(nonEmpty).toBeGreaterThan(100);
  });

  it('keeps passages inside their field and in document order within a pick', () => {
    fc.assert(fc.property(input, (inp) => {
      const out = pickPassagesWasm({ ...inp, perField: true });
      for (const p of out) {
        expect(p.start).toBeGreaterThanOrEqual(0);
        expect(p.start + p.tokens).toBeLessThanOrEqual(inp.streams[p.field].len.length);
      }
      for (let i = 1; i < out.length; i++) {
        if (out[i].field === out[i - 1].field) expect(out[i].start).toBeGreaterThanOrEqual(out[i - 1].start);
      }
    }), { numRuns: 200 });
  });

  it('respects limit_snippets', () => {
    fc.assert(fc.property(input, fc.integer({ min: 1, max: 3 }), (inp, k) => {
      const lim = { limit: 0, limitWords: 0, limitSnippets: k };
      const out = pickPassagesWasm({ ...inp, perField: false, global: lim });
      expect(out.length).toBeLessThanOrEqual(k);
    }), { numRuns: 200 });
  });
});
