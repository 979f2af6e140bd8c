/**
 * Where a page's table lives: an image in memory (every byte at hand) or an exported folder
 * fetched in chunks. Either gives one segment in the core; a chunked one fills it before a query
 * with what that query reads.
 */
import type { Segment } from '../index/segment/segment.js';
import type { ImageManifest, PageDoc, TableImage } from '../index/table-image.js';
import { exactNumber } from '../index/table-image.js';
import { loadSegment } from '../index/segment/segment-codec.js';
import type { Hit, SearchRequest } from '../index/types.js';
import type { Core } from '../wasm/core.js';

export interface HitDoc { id: number | string; doc: PageDoc }

export interface TableSource {
  readonly manifest: ImageManifest;
  readonly segment: Segment;
  /** Makes the core hold what `req` reads (dictionary entries, postings, positions, columns). */
  prepare(req: SearchRequest): Promise<void>;
  /** The ids and stored documents of a page of hits, in order. */
  hitDocs(hits: Hit[]): Promise<HitDoc[]>;
}

/** A whole image in memory (`openIndex(bytes)` or a `.qimg` URL). */
export class ImageSource implements TableSource {
  readonly manifest: ImageManifest;
  readonly segment: Segment;
  readonly #docs: PageDoc[];
  #rowOf: Map<bigint, number> | null = null;

  constructor(image: TableImage, core: Core) {
    this.manifest = image.manifest;
    this.#docs = image.docs;
    this.segment = loadSegment(image.segment, image.manifest.index, core);
  }

  async prepare(): Promise<void> {}

  async hitDocs(hits: Hit[]): Promise<HitDoc[]> {
    if (!this.#rowOf) {
      this.#rowOf = new Map();
      for (let r = 0; r < this.segment.rows; r++) this.#rowOf.set(this.segment.docId(r), r);
    }
    return hits.map((h) => ({ id: exactNumber(h.docId), doc: this.#docs[this.#rowOf!.get(h.docId) ?? -1] ?? {} }));
  }
}
