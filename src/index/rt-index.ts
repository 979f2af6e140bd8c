/**
 * RtIndex: an RT table's full-text index: immutable segments in the WASM core, a deleted-rows
 * bitmap per segment, attribute columns updated in place, a docId -> (segment, row) map, and a
 * tiered merge after each batch. Implements RtIndexApi (types.ts).
 */
import type { AttrValue, DocInput, IndexSchema, RtIndexApi, SearchRequest, SearchResult } from './types.js';
import { Core, sharedCore } from '../wasm/core.js';
import { SearchError } from '../util/errors.js';
import { Segment } from './segment.js';
import { buildSegment, invertDocs } from './segment-builder.js';
import { mergeSegments } from './segment-merger.js';
import { TieredMergePolicy, type MergePolicy } from './merge-policy.js';
import { loadSegment, serializeSegment } from './segment-codec.js';
import { searchSegments, type SegmentMatches } from './search.js';

export interface RtIndexOptions {
  /** The core instance holding this index's segments (default: the process-wide one). */
  core?: Core;
  mergePolicy?: MergePolicy;
  /**
   * When the merge policy runs after addBatch: 'deferred' (default) in a later event-loop turn, so a
   * merge never delays the write that caused it; true right inside addBatch; false never (call
   * maybeMerge()).
   */
  autoMerge?: boolean | 'deferred';
}

interface RowRef { seg: Segment; row: number }

/** Runs `fn` in a later event-loop turn: setImmediate in Node, a zero timeout where there is none (browsers). */
const later: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => { setImmediate(fn); } : (fn) => { setTimeout(fn, 0); };

export class RtIndex implements RtIndexApi {
  readonly schema: IndexSchema;
  readonly core: Core;
  #segments: Segment[] = [];
  #docs = new Map<bigint, RowRef>();
  /**
   * Each segment's row refs by row (the objects #docs holds; deleted rows keep stale ones): a
   * merge re-points them at the merged segment instead of re-keying every document id in #docs.
   */
  #rowRefs = new Map<Segment, RowRef[]>();
  #policy: MergePolicy;
  #autoMerge: boolean | 'deferred';
  /** The deferred merge pass scheduled and not yet run. */
  #pendingMerge?: Promise<void>;

  constructor(schema: IndexSchema, opts: RtIndexOptions = {}) {
    this.schema = schema;
    this.core = opts.core ?? sharedCore();
    this.#policy = opts.mergePolicy ?? new TieredMergePolicy();
    this.#autoMerge = opts.autoMerge ?? 'deferred';
  }

  /** An index over segments loaded from files (serializeSegment output), oldest first. */
  static fromSegments(schema: IndexSchema, files: Uint8Array[], opts: RtIndexOptions = {}): RtIndex {
    const idx = new RtIndex(schema, opts);
    for (const bytes of files) idx.#attach(loadSegment(bytes, schema, idx.core));
    return idx;
  }

  /** The live segments, oldest first (for checkpoints): a copy, as a deferred merge may change the list. */
  get segments(): readonly Segment[] {
    return this.#segments.slice();
  }

  /** Serialized form of every segment, oldest first. */
  serializeSegments(): Uint8Array[] {
    return this.#segments.map(serializeSegment);
  }

  #attach(seg: Segment): void {
    this.#segments.push(seg);
    const refs = new Array<RowRef>(seg.rows);
    for (let r = 0; r < seg.rows; r++) {
      if (seg.isDeleted(r)) continue;
      const id = seg.docId(r);
      const old = this.#docs.get(id);
      if (old) old.seg.markDeleted(old.row); // a later segment's copy wins
      const ref = { seg, row: r };
      refs[r] = ref;
      this.#docs.set(id, ref);
    }
    this.#rowRefs.set(seg, refs);
  }

  addBatch(docs: DocInput[]): void {
    if (!docs.length) return;
    const seen = new Set<bigint>();
    for (const d of docs) {
      const id = BigInt.asIntN(64, d.docId);
      if (this.#docs.has(id) || seen.has(id)) throw new SearchError('DUPLICATE_ID', `duplicate id '${id}'`);
      seen.add(id);
    }
    const built = buildSegment(this.schema, invertDocs(this.schema, docs));
    this.#attach(new Segment(this.core, this.schema, built));
    if (this.#autoMerge === 'deferred') this.#scheduleMerge();
    else if (this.#autoMerge) this.maybeMerge();
  }

  /** Resolves once the deferred merge pass scheduled by earlier writes (if any) has run. */
  whenMerged(): Promise<void> {
    return this.#pendingMerge ?? Promise.resolve();
  }

  /**
   * Merges one range per event-loop turn until the policy asks for nothing more: requests waiting
   * in between are served between two merges rather than after all of them.
   */
  #scheduleMerge(): void {
    this.#pendingMerge ??= new Promise<void>((resolve) => {
      const step = () => {
        let merged = false;
        try {
          merged = this.#mergeOnce();
        } catch (e) {
          // the segments stay as they were (a merge swaps them in only once built): log, stop
          console.error('quarry: segment merge failed:', e);
        }
        if (merged) return later(step);
        this.#pendingMerge = undefined;
        resolve();
      };
      later(step);
    });
  }

  #mergeOnce(): boolean {
    const range = this.#policy.findMerge(this.#segments.map((s) => s.live));
    if (range) this.#mergeRange(range[0], range[1]);
    return range !== null;
  }

  /** Runs the merge policy until it asks for nothing more; returns how many merges ran. */
  maybeMerge(): number {
    let merges = 0;
    while (this.#mergeOnce()) merges++;
    return merges;
  }

  /** Merges every segment into one (Manticore's OPTIMIZE). */
  optimize(): void {
    if (this.#segments.length > 1 || this.#segments.some((s) => s.live < s.rows)) this.#mergeRange(0, this.#segments.length);
  }

  #mergeRange(start: number, end: number): void {
    const parts = this.#segments.slice(start, end);
    const built = mergeSegments(this.schema, parts);
    const merged = new Segment(this.core, this.schema, built);
    this.#segments.splice(start, end - start, ...(merged.rows ? [merged] : []));
    // the merged rows are the parts' live rows in order (mergeSegments' numbering)
    const refs = new Array<RowRef>(merged.rows);
    let row = 0;
    for (const p of parts) {
      const old = this.#rowRefs.get(p)!;
      for (let r = 0; r < p.rows; r++) {
        if (p.isDeleted(r)) continue;
        const ref = old[r];
        ref.seg = merged;
        ref.row = row;
        refs[row++] = ref;
      }
      this.#rowRefs.delete(p);
    }
    if (merged.rows) this.#rowRefs.set(merged, refs);
    for (const p of parts) p.free();
    if (!merged.rows) merged.free();
  }

  delete(docIds: bigint[]): number {
    let n = 0;
    for (const raw of docIds) {
      const id = BigInt.asIntN(64, raw);
      const ref = this.#docs.get(id);
      if (!ref) continue;
      ref.seg.markDeleted(ref.row);
      this.#docs.delete(id);
      n++;
    }
    return n;
  }

  has(docId: bigint): boolean {
    return this.#docs.has(BigInt.asIntN(64, docId));
  }

  updateAttrs(docId: bigint, values: Map<string, AttrValue>): boolean {
    const ref = this.#docs.get(BigInt.asIntN(64, docId));
    if (!ref) return false;
    for (const [name, v] of values) {
      const a = this.schema.attrs.findIndex((x) => x.name.toLowerCase() === name.toLowerCase());
      if (a < 0) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
      ref.seg.setAttr(a, ref.row, v);
    }
    return true;
  }

  getAttrs(docId: bigint): AttrValue[] | undefined {
    const ref = this.#docs.get(BigInt.asIntN(64, docId));
    if (!ref) return undefined;
    return this.schema.attrs.map((_, a) => ref.seg.attr(a, ref.row));
  }

  count(): number {
    return this.#docs.size;
  }

  search(req: SearchRequest): SearchResult {
    return searchSegments(this.schema, this.#segments, this.count(), req);
  }

  /** Every match of the request, segment by segment (GROUP BY); `hits` of the result is empty. */
  searchAll(req: SearchRequest, visit: SegmentMatches): SearchResult {
    return searchSegments(this.schema, this.#segments, this.count(), req, visit);
  }

  truncate(): void {
    for (const s of this.#segments) s.free();
    this.#segments = [];
    this.#docs.clear();
    this.#rowRefs.clear();
  }
}
