/**
 * A table exported in chunks, fetched by a page on demand (`quarry export` writes it beside the
 * one-file image): `table.json` (the manifest, the dictionary's chunk index), the dictionary in
 * chunks of sorted terms with their term-table rows, the segment blob in fixed-size pages (a query
 * fetches the pages holding its terms' postings, hit positions included), and the stored documents in
 * chunks of rows. A first query so fetches the manifest, one dictionary chunk per word and only
 * the pages and documents it reads, never the whole table.
 */
import type { ImageManifest, PageDoc } from './table-image.js';

export const CHUNKS_FORMAT = 'quarry-table-chunks/2';
/** Blob page size: small enough that a rare word costs little, large enough that a frequent one needs few requests. */
export const BLOB_PAGE_BYTES = 32 * 1024;
export const DICT_CHUNK_TERMS = 512;
export const DOC_CHUNK_ROWS = 32;

export const CHUNK_FILES = {
  manifest: 'table.json',
  blob: (page: number) => `blob/${page}.bin`,
  dict: (chunk: number) => `dict/${chunk}.json`,
  docs: (chunk: number) => `docs/${chunk}.json`,
};

export interface ChunksManifest extends ImageManifest {
  format: typeof CHUNKS_FORMAT;
  /** The segment blob's length (its pages are BLOB_PAGE_BYTES each, the last one shorter). */
  blobBytes: number;
  /** Byte range of the blob's column table and numeric columns (read by expression rankers and token-count rankers). */
  columnBytes: [number, number];
  terms: number;
  /** Terms per dictionary chunk (the last one may hold fewer) and rows per documents chunk. */
  dictChunkTerms: number;
  docChunkRows: number;
  /** First term of each dictionary chunk (sorted as the dictionary: UTF-16 code units). */
  dictFirst: string[];
  /** Column-table range, loaded with the first page at open (the segment reads it when placed). */
  colTable: [number, number];
}

/** One dictionary chunk: terms from `start`, their term-table rows and where their postings (hits included) end. */
export interface DictChunk {
  start: number;
  terms: string[];
  /** TERM_INFO_WORDS u32 per term, as the blob's term table holds them. */
  info: number[];
  /** Byte offset in the blob where each term's postings end (the next term's start, or the columns). */
  postingsEnd: number[];
}

/** A documents chunk: `[id, doc]` per row (ids beyond 2^53 as decimal strings). */
export type DocsChunk = [number | string, PageDoc][];

/** The dictionary chunk that would hold `term` (binary search over the chunks' first terms). */
export function dictChunkOf(dictFirst: readonly string[], term: string): number {
  let lo = 0;
  let hi = dictFirst.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (dictFirst[mid] <= term) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Blob pages covering bytes [start, end). */
export function pagesOf(start: number, end: number): number[] {
  if (end <= start) return [];
  const out: number[] = [];
  for (let p = Math.floor(start / BLOB_PAGE_BYTES); p <= Math.floor((end - 1) / BLOB_PAGE_BYTES); p++) out.push(p);
  return out;
}
