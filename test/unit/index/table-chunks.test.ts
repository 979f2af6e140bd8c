// Chunk lookups: the dictionary chunk a term would sit in, the blob pages a byte range covers.
import { describe, expect, it } from 'vitest';
import { BLOB_PAGE_BYTES, dictChunkOf, pagesOf } from '../../../src/index/table-chunks.js';

describe('table chunks', () => {
  it('finds the dictionary chunk of a term (code-unit order, as the dictionary sorts)', () => {
    const first = ['a', 'ka', 'q', 'zz'];
    expect(dictChunkOf(first, 'a')).toBe(0);
    expect(dictChunkOf(first, '0')).toBe(0);
    expect(dictChunkOf(first, 'k')).toBe(0);
    expect(dictChunkOf(first, 'ka')).toBe(1);
    expect(dictChunkOf(first, 'pzz')).toBe(1);
    expect(dictChunkOf(first, 'zzz')).toBe(3);
    expect(dictChunkOf(first, '\u0002sentence')).toBe(0);
    expect(dictChunkOf(['only'], 'x')).toBe(0);
  });
  it('lists the pages of a byte range', () => {
    expect(pagesOf(0, 0)).toEqual([]);
    expect(pagesOf(0, 1)).toEqual([0]);
    expect(pagesOf(BLOB_PAGE_BYTES - 1, BLOB_PAGE_BYTES + 1)).toEqual([0, 1]);
    expect(pagesOf(BLOB_PAGE_BYTES, 2 * BLOB_PAGE_BYTES)).toEqual([1]);
  });
});
