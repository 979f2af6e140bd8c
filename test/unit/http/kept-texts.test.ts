// KeptTexts holds rendered texts per document within its byte budget, the least recently used
// documents dropped first, and never holds a document it kept nothing for.
import { describe, expect, it } from 'vitest';
import { KeptTexts, SOURCE_OVERHEAD_BYTES } from '../../../src/http/kept-texts.js';

const bytes = (n: number) => Buffer.alloc(n, 0x61);

describe('KeptTexts', () => {
  it('returns what was kept for a document, and an empty record for one never seen', () => {
    const k = new KeptTexts(1000);
    const doc = {};
    const first = k.of(doc);
    expect(first.texts).toEqual([]);
    k.add(first, 'text', bytes(10));
    const again = k.of(doc);
    expect(again.texts[0]).toBe('text');
    expect(again.bytes).toBe(10);
    expect(k.heldBytes).toBe(10);
  });

  it('holds nothing for documents it kept no bytes for', () => {
    const k = new KeptTexts(1000);
    for (let i = 0; i < 100; i++) k.of({});
    expect(k.heldBytes).toBe(0);
    const doc = {};
    k.of(doc);
    expect(k.of(doc).texts).toEqual([]);
  });

  it('stays within its budget, dropping the least recently used documents first', () => {
    const k = new KeptTexts(1000);
    const hot = {};
    k.add(k.of(hot), 'hot', bytes(100));
    const cold = {};
    k.add(k.of(cold), 'cold', bytes(100));
    for (let i = 0; i < 200; i++) {
      k.of(hot); // used on every page: stays
      k.add(k.of({}), `t${i}`, bytes(100));
      expect(k.heldBytes).toBeLessThanOrEqual(1000 + 200);
    }
    expect(k.of(hot).texts[0]).toBe('hot');
    expect(k.of(cold).texts).toEqual([]);
  });

  it('keeps a whole _source with its document, its overhead counted in the budget', () => {
    const k = new KeptTexts(10 * (100 + SOURCE_OVERHEAD_BYTES));
    const doc = {};
    const source = { columns: 'c', cells: ['t', 1], json: bytes(100) };
    k.addSource(k.of(doc), source);
    expect(k.of(doc).source).toBe(source);
    expect(k.heldBytes).toBe(100 + SOURCE_OVERHEAD_BYTES);
    // documents with tiny sources still drop the oldest once the overheads fill the budget
    for (let i = 0; i < 100; i++) {
      k.addSource(k.of({}), { columns: 'c', cells: [], json: bytes(1) });
      expect(k.heldBytes).toBeLessThanOrEqual(10 * (100 + SOURCE_OVERHEAD_BYTES) + 2 * (1 + SOURCE_OVERHEAD_BYTES));
    }
    expect(k.of(doc).source).toBeUndefined();
  });
});
