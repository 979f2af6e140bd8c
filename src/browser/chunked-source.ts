/**
 * An exported folder fetched on demand (src/index/table-chunks.ts). The segment is placed in the
 * core at its full size but empty but for its header and column table; before a query, the
 * dictionary chunks of its words are fetched (for a wildcard, those its prefix spans) and their
 * term-table rows written in place, then the blob pages holding the matched terms' postings and
 * positions. The core then runs exactly as on the server. The page never reads ids from the core:
 * the id column holds row numbers, and ids come with the stored documents.
 */
import { analyzeQuery, type QNode } from '../index/query-analyzer.js';
import { planQuery } from '../index/planner.js';
import { H, TERM_INFO_WORDS } from '../index/segment/segment-layout.js';
import { Segment } from '../index/segment/segment.js';
import { expansionPrefix } from '../index/wildcard.js';
import { PARAGRAPH_TERM, SENTENCE_TERM, zoneTerm } from '../index/spz-terms.js';
import {
  BLOB_PAGE_BYTES, CHUNK_FILES, dictChunkOf, pagesOf, type ChunksManifest, type DictChunk, type DocsChunk,
} from '../index/table-chunks.js';
import type { Hit, SearchRequest } from '../index/types.js';
import type { Core } from '../wasm/core.js';
import type { HitDoc, TableSource } from './table-source.js';

export type Fetcher = (name: string) => Promise<ArrayBuffer>;

/** Marker terms a query's sentence, paragraph and zone operators look up. */
function markerTerms(n: QNode, out: Set<string>): void {
  if (n.kind === 'sentence') out.add(SENTENCE_TERM);
  if (n.kind === 'paragraph') out.add(PARAGRAPH_TERM);
  for (const z of n.zones ?? []) { out.add(zoneTerm(z)); out.add(zoneTerm(`/${z}`)); }
  if (n.kind !== 'term') for (const c of n.children) markerTerms(c, out);
}

export class ChunkedSource implements TableSource {
  readonly segment: Segment;
  readonly #get: Fetcher;
  readonly #pages = new Map<number, Promise<void>>();
  readonly #dict = new Map<number, Promise<void>>();
  readonly #docs = new Map<number, Promise<DocsChunk>>();
  /** Per loaded term: where its postings (hits included) end. */
  readonly #postingsEnd = new Map<number, number>();

  private constructor(readonly manifest: ChunksManifest, seg: Segment, get: Fetcher) {
    this.segment = seg;
    this.#get = get;
    this.#rowIds();
  }

  static async open(manifest: ChunksManifest, core: Core, get: Fetcher): Promise<ChunkedSource> {
    const blob = new Uint8Array(manifest.blobBytes);
    // the header and the column table: what placing the segment reads
    const first = [...new Set([0, ...pagesOf(manifest.colTable[0], manifest.colTable[1])])];
    const pages = await Promise.all(first.map((p) => get(CHUNK_FILES.blob(p))));
    first.forEach((p, i) => blob.set(new Uint8Array(pages[i]), p * BLOB_PAGE_BYTES));
    // until its chunk arrives, each entry holds its chunk's first term: the dictionary stays sorted,
    // so a prefix expansion's binary search finds the loaded range (see prepare)
    const terms = new Array<string>(manifest.terms);
    manifest.dictFirst.forEach((first, c) => terms.fill(first, c * manifest.dictChunkTerms, (c + 1) * manifest.dictChunkTerms));
    const seg = new Segment(core, manifest.index, { blob, terms, hostCols: manifest.index.attrs.map(() => null) });
    const src = new ChunkedSource(manifest, seg, get);
    first.forEach((p) => src.#pages.set(p, Promise.resolve()));
    return src;
  }

  /** Row numbers in the id column (see the file comment). */
  #rowIds(): void {
    const seg = this.segment;
    const at = seg.columnPtr(0) >>> 3;
    const i64 = seg.core.i64;
    for (let r = 0; r < seg.rows; r++) i64[at + r] = BigInt(r);
  }

  #page(p: number): Promise<void> {
    let got = this.#pages.get(p);
    if (!got) {
      got = this.#get(CHUNK_FILES.blob(p)).then((buf) => {
        const seg = this.segment;
        seg.core.u8.set(new Uint8Array(buf), seg.blobPtr + p * BLOB_PAGE_BYTES);
        const idCol = seg.columnPtr(0) - seg.blobPtr;
        if (pagesOf(idCol, idCol + seg.rows * 8).includes(p)) this.#rowIds();
      });
      this.#pages.set(p, got);
    }
    return got;
  }

  #range(start: number, end: number): Promise<void>[] {
    return pagesOf(start, end).map((p) => this.#page(p));
  }

  #dictChunk(c: number): Promise<void> {
    let got = this.#dict.get(c);
    if (!got) {
      got = this.#get(CHUNK_FILES.dict(c)).then((buf) => {
        const chunk = JSON.parse(new TextDecoder().decode(buf)) as DictChunk;
        const seg = this.segment;
        const u32 = seg.core.u32;
        const table = (seg.blobPtr + u32[(seg.blobPtr >>> 2) + H.termTable]) >>> 2;
        u32.set(chunk.info, table + chunk.start * TERM_INFO_WORDS);
        chunk.terms.forEach((_, i) => {
          this.#postingsEnd.set(chunk.start + i, chunk.postingsEnd[i]);
        });
        seg.addTerms(chunk.start, chunk.terms);
      });
      this.#dict.set(c, got);
    }
    return got;
  }

  async prepare(req: SearchRequest): Promise<void> {
    const m = this.manifest;
    const seg = this.segment;
    const waits: Promise<void>[] = [];
    if (req.ranker === 'expr' || m.columns.some((c) => c.tokenCount)) waits.push(...this.#range(...m.columnBytes));
    if (!req.query || m.terms === 0) { await Promise.all(waits); return; }
    const a = analyzeQuery(req.query, m.index.fields);
    const markers = new Set<string>();
    markerTerms(a.root, markers);
    const chunks = new Set<number>();
    for (const w of [...a.keywords.filter((k) => !k.wildcard).map((k) => k.text), ...markers]) chunks.add(dictChunkOf(m.dictFirst, w));
    for (const k of a.keywords.filter((x) => x.wildcard)) {
      // a wildcard's expansions all start with its lookup prefix: the chunks from it to prefix+U+FFFF
      const prefix = expansionPrefix(k.text, req.expansion);
      if (prefix === null) continue;
      const last = prefix === '' ? m.dictFirst.length - 1 : dictChunkOf(m.dictFirst, `${prefix}\uffff`);
      for (let c = prefix === '' ? 0 : dictChunkOf(m.dictFirst, prefix); c <= last; c++) chunks.add(c);
    }
    await Promise.all([...chunks].map((c) => this.#dictChunk(c)));
    // the planner's own term choice (wildcard expansions and their limit included)
    const planned = planQuery(a, [seg], seg.live, req.ranker, req.idf, req.expansion);
    const ids = new Set<number>();
    a.keywords.forEach((_, kw) => planned.termsFor(seg, kw).forEach((t) => ids.add(t)));
    for (const w of markers) if (seg.termId(w) >= 0) ids.add(seg.termId(w));
    const u32 = seg.core.u32;
    const table = (seg.blobPtr + u32[(seg.blobPtr >>> 2) + H.termTable]) >>> 2;
    for (const t of ids) {
      // a term's skip table and blocks (rows, tfs and hits) are one range
      waits.push(...this.#range(u32[table + t * TERM_INFO_WORDS + 2], this.#postingsEnd.get(t)!));
    }
    await Promise.all(waits);
  }

  #docsChunk(c: number): Promise<DocsChunk> {
    let got = this.#docs.get(c);
    if (!got) {
      got = this.#get(CHUNK_FILES.docs(c)).then((buf) => JSON.parse(new TextDecoder().decode(buf)) as DocsChunk);
      this.#docs.set(c, got);
    }
    return got;
  }

  async hitDocs(hits: Hit[]): Promise<HitDoc[]> {
    const rows = hits.map((h) => Number(h.docId));
    const per = this.manifest.docChunkRows;
    const chunks = await Promise.all(rows.map((r) => this.#docsChunk(Math.floor(r / per))));
    return rows.map((r, i) => {
      const [id, doc] = chunks[i][r % per];
      return { id, doc };
    });
  }
}
