// snippet-heads.ts: a kept start serves only limits its pieces cross, per tokenizer, and only what it was given.
import { afterEach, describe, expect, it } from 'vitest';
import { keepHead, keptHead, setFieldHeads } from '../../../src/highlight/snippet-heads.js';
import { PIECE_WORDS } from '../../../src/highlight/snippet-stream.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

/** Pieces of `lengths` units each, one after another (kind and position left 0: only offsets count here). */
function pieces(lengths: number[]): Int32Array {
  const d = new Int32Array(lengths.length * PIECE_WORDS);
  let at = 0;
  lengths.forEach((len, i) => { d[i * PIECE_WORDS + 1] = at; d[i * PIECE_WORDS + 2] = at + len; at += len; });
  return d;
}

describe('field heads', () => {
  afterEach(() => setFieldHeads(true));

  it('keeps the pieces through the first that passes the limit, and serves only limits below what they cover', () => {
    const p = createTextPipeline({});
    const text = 'a'.repeat(100);
    keepHead(p, text, pieces([10, 10, 10, 10, 10, 50]), 6, 25, false, 100);
    const head = keptHead(p, text, 25)!;
    expect(head.pieces.length).toBe(3 * PIECE_WORDS);
    expect(head.crossCp).toBe(30);
    expect(head.docBytes).toBe(100);
    expect(keptHead(p, text, 29)).toBe(head);
    expect(keptHead(p, text, 30)).toBeUndefined();
    // another tokenizer's pieces are its own
    expect(keptHead(createTextPipeline({}), text, 25)).toBeUndefined();
  });

  it('keeps a whole field that never passes the limit, but not a head scan that does not', () => {
    const p = createTextPipeline({});
    keepHead(p, 'whole', pieces([2, 1, 2]), 3, 256, true, 5);
    expect(keptHead(p, 'whole', 10_000)!.crossCp).toBe(Infinity);
    keepHead(p, 'head', pieces([2, 1, 2]), 3, 256, false, 4);
    expect(keptHead(p, 'head', 1)).toBeUndefined();
  });

  it('keeps and serves nothing when turned off', () => {
    const p = createTextPipeline({});
    setFieldHeads(false);
    keepHead(p, 'off', pieces([5, 5]), 2, 3, false, 10);
    setFieldHeads(true);
    expect(keptHead(p, 'off', 3)).toBeUndefined();
  });
});
