/**
 * The chunked form of an exported table (src/index/table-chunks.ts): the merged segment's blob in
 * pages, its dictionary in chunks with each term's postings end, documents by rows.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { H, TERM_INFO_WORDS } from '../../index/segment/segment-layout.js';
import type { Segment } from '../../index/segment/segment.js';
import {
  BLOB_PAGE_BYTES, CHUNK_FILES, CHUNKS_FORMAT, DICT_CHUNK_TERMS, DOC_CHUNK_ROWS, type ChunksManifest, type DictChunk, type DocsChunk,
} from '../../index/table-chunks.js';
import { exactNumber, type ImageManifest, type PageDoc } from '../../index/table-image.js';
import { SearchError } from '../../util/errors.js';

function write(outDir: string, name: string, data: string | Uint8Array): number {
  const path = join(outDir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, data);
  return typeof data === 'string' ? Buffer.byteLength(data) : data.length;
}

/** Writes the chunks of `seg` (one merged segment) and its documents; returns the bytes written. */
export function writeChunks(outDir: string, image: ImageManifest, seg: Segment, docs: PageDoc[]): number {
  const blob = seg.blobBytes();
  const words = new Uint32Array(blob.buffer, blob.byteOffset, blob.length >>> 2);
  const termTable = words[H.termTable] >>> 2;
  const colTable = words[H.colTable];
  const cols = words[H.cols];
  const firstColumn = words[(colTable >>> 2) + 1];
  const T = seg.terms.length;
  const skipOff = (t: number) => words[termTable + t * TERM_INFO_WORDS + 2];
  let bytes = 0;
  const dictFirst: string[] = [];
  for (let start = 0; start < T; start += DICT_CHUNK_TERMS) {
    const n = Math.min(DICT_CHUNK_TERMS, T - start);
    const chunk: DictChunk = { start, terms: seg.terms.slice(start, start + n), info: [], postingsEnd: [] };
    for (let t = start; t < start + n; t++) {
      const info = Array.from(words.subarray(termTable + t * TERM_INFO_WORDS, termTable + (t + 1) * TERM_INFO_WORDS));
      const end = t + 1 < T ? skipOff(t + 1) : firstColumn;
      if (end < skipOff(t)) throw new SearchError('INTERNAL', 'export: postings are not in dictionary order');
      chunk.info.push(...info);
      chunk.postingsEnd.push(end);
    }
    dictFirst.push(chunk.terms[0]);
    bytes += write(outDir, CHUNK_FILES.dict(dictFirst.length - 1), JSON.stringify(chunk));
  }
  for (let p = 0; p * BLOB_PAGE_BYTES < blob.length; p++) {
    bytes += write(outDir, CHUNK_FILES.blob(p), blob.subarray(p * BLOB_PAGE_BYTES, (p + 1) * BLOB_PAGE_BYTES));
  }
  for (let start = 0; start < seg.rows; start += DOC_CHUNK_ROWS) {
    const chunk: DocsChunk = [];
    for (let r = start; r < Math.min(seg.rows, start + DOC_CHUNK_ROWS); r++) chunk.push([exactNumber(seg.docId(r)), docs[r]]);
    bytes += write(outDir, CHUNK_FILES.docs(start / DOC_CHUNK_ROWS), JSON.stringify(chunk));
  }
  const manifest: ChunksManifest = {
    ...image, format: CHUNKS_FORMAT, blobBytes: blob.length, terms: T, dictFirst,
    dictChunkTerms: DICT_CHUNK_TERMS, docChunkRows: DOC_CHUNK_ROWS,
    columnBytes: [firstColumn, colTable + cols * 8], colTable: [colTable, colTable + cols * 8],
  };
  return bytes + write(outDir, CHUNK_FILES.manifest, JSON.stringify(manifest));
}
