/**
 * RtIndex: an RT table's full-text index: immutable segments in the WASM core, a deleted-rows
 * bitmap per segment, attribute columns updated in place, a docId -> (segment, row) map, and a
 * tiered merge after each batch. Implements RtIndexApi (types.ts).
 */
import type { AttrValue, DocInput, IndexSchema, RtIndexApi, SearchRequest, SearchResult } from './types.js';
import { Core, sharedCore } from '../wasm/core.js';
import { SearchError } from '../util/errors.js';
import { Segment } from './segment/segment.js';
import { buildSegment, invertDocs, type BuiltSegment } from './segment/segment-builder.js';
import { mergedRows, mergeRunner, type PartSnapshot } from './parallel/merge-job.js';
import { mergeSegments } from './segment/segment-merger.js';
import { TieredMergePolicy, type MergePolicy } from './merge-policy.js';
import { loadSegment, serializeSegment } from './segment/segment-codec.js';
import { prepareSearch, runPrepared, searchCost, searchSegments, type SegmentMatches } from './search.js';
import { runPreparedParallel } from './parallel/search-parallel.js';
import { groupPrepared, type SegmentGrouping } from './search-groups.js';
import { groupPreparedParallel } from './parallel/search-groups-parallel.js';
import { handOver, parallelMinCost, queryPool } from './parallel/query-threads.js';
import { DocMap, idHalves } from './doc-map.js';

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

/**
 * Linear memory beyond which placing a merged segment may fail: wasm32's 4 GiB less a margin for the
 * allocator's own growth. Tests lower it to exercise the failure path.
 */
export const CORE_MEMORY_LIMIT = { bytes: 4 * 1024 ** 3 - (64 << 20) };

/** Runs `fn` in a later event-loop turn: setImmediate in Node, a zero timeout where there is none (browsers). */
const later: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => { setImmediate(fn); } : (fn) => { setTimeout(fn, 0); };

/** A write's segment, built and placed in the core by prepareBatch, made visible by applyBatch. */
export interface PreparedBatch { seg?: Segment }

export class RtIndex implements RtIndexApi {
  readonly schema: IndexSchema;
  readonly core: Core;
  #segments: Segment[] = [];
  /** Where each live document is: docId -> (segment slot, row). */
  #docs = new DocMap();
  /** Segments by slot (a slot is reused once its segment is gone), and each segment's slot. */
  #bySlot: (Segment | undefined)[] = [];
  #slotOf = new Map<Segment, number>();
  #policy: MergePolicy;
  #autoMerge: boolean | 'deferred';
  /** The deferred merge pass scheduled and not yet run. */
  #pendingMerge?: Promise<void>;
  /** The merge thread failed once: merges run inline from then on. */
  #threadless = false;
  /** Bulk loads in progress (holdMerges): no merge pass is scheduled while any is. */
  #held = 0;

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

  #newSlot(seg: Segment): number {
    let slot = this.#bySlot.indexOf(undefined);
    if (slot < 0) slot = this.#bySlot.length;
    this.#bySlot[slot] = seg;
    this.#slotOf.set(seg, slot);
    return slot;
  }

  #dropSlot(seg: Segment): void {
    this.#bySlot[this.#slotOf.get(seg)!] = undefined;
    this.#slotOf.delete(seg);
  }

  /** Calls fn(lo, hi, row) for each live row of `seg`, with the halves of its document id. */
  #eachLive(seg: Segment, fn: (lo: number, hi: number, row: number) => void): void {
    const i32 = seg.core.i32; // valid for the loop: nothing in it allocates core memory
    const base = seg.columnPtr(0) >>> 2;
    for (let r = 0; r < seg.rows; r++) if (!seg.isDeleted(r)) fn(i32[base + 2 * r], i32[base + 2 * r + 1], r);
  }

  #attach(seg: Segment): void {
    this.#segments.push(seg);
    const slot = this.#newSlot(seg);
    this.#eachLive(seg, (lo, hi, r) => {
      const e = this.#docs.find(lo, hi);
      if (e >= 0) this.#bySlot[this.#docs.segmentAt(e)]!.markDeleted(this.#docs.rowAt(e)); // a later segment's copy wins
      this.#docs.set(lo, hi, slot, r);
    });
  }

  /** Points every live row of `seg` (whose ids the map already holds) at it. */
  #point(seg: Segment): void {
    const slot = this.#newSlot(seg);
    this.#eachLive(seg, (lo, hi, r) => this.#docs.set(lo, hi, slot, r));
  }

  /** The segment and row of a live document, or undefined. */
  #locate(docId: bigint): { seg: Segment; row: number } | undefined {
    const [lo, hi] = idHalves(BigInt.asIntN(64, docId));
    const e = this.#docs.find(lo, hi);
    return e < 0 ? undefined : { seg: this.#bySlot[this.#docs.segmentAt(e)]!, row: this.#docs.rowAt(e) };
  }

  addBatch(docs: DocInput[]): void {
    if (!docs.length) return;
    const seen = new Set<bigint>();
    for (const d of docs) {
      const id = BigInt.asIntN(64, d.docId);
      if (this.has(id) || seen.has(id)) throw new SearchError('DUPLICATE_ID', `duplicate id '${id}'`);
      seen.add(id);
    }
    this.replaceBatch(docs);
  }

  /**
   * Deletes `gone`, then adds `docs` as one segment, all or nothing: the segment is built and placed
   * in the core first (where running out of memory throws), and only then does anything change, so a
   * failed REPLACE never leaves the old rows deleted without their new versions. Ids in both are
   * replaced; `docs` must not repeat an id, nor hold one that is live and not in `gone`.
   */
  replaceBatch(docs: DocInput[], gone: bigint[] = []): void {
    this.applyBatch(this.prepareBatch(docs), gone);
  }

  /**
   * The first half of replaceBatch, all that can fail: `docs` built as a segment and placed in the
   * core, not yet visible. A write prepares before its store commit, so an index that cannot take it
   * fails the write before anything is durable (Table.write, transaction-group.ts).
   */
  prepareBatch(docs: DocInput[]): PreparedBatch {
    return { seg: docs.length ? new Segment(this.core, this.schema, buildSegment(this.schema, invertDocs(this.schema, docs))) : undefined };
  }

  /** Frees a prepared batch that will not be applied (its store write failed). */
  discardBatch(batch: PreparedBatch): void {
    batch.seg?.free();
  }

  /** Keeps rows of a prepared batch (by their place in its `docs`) from ever becoming visible. */
  withholdRows(batch: PreparedBatch, rows: number[]): void {
    for (const r of rows) batch.seg?.markDeleted(r);
  }

  /**
   * The second half of replaceBatch, which cannot fail: deletes `gone`, then makes the prepared
   * segment's live rows visible (replacing older copies of their ids). A merge the write triggers
   * runs after; its failure leaves the segments as they were and is logged, not thrown.
   */
  applyBatch(batch: PreparedBatch, gone: bigint[] = []): void {
    if (gone.length) this.delete(gone);
    if (!batch.seg) return;
    this.#attach(batch.seg);
    if (this.#held) return;
    if (this.#autoMerge === 'deferred') this.#scheduleMerge();
    else if (this.#autoMerge) {
      try {
        this.maybeMerge();
      } catch (e) {
        console.error('quarry: segment merge failed:', e);
      }
    }
  }

  /**
   * A bulk load: until the returned release() each batch stays its own segment (no tiered merge
   * re-merging the same rows at every level as they pile up); release() then runs the policy once
   * over them all and resolves when it has settled. Writes stay searchable and durable throughout.
   */
  holdMerges(): () => Promise<void> {
    this.#held++;
    let released = false;
    return () => {
      if (!released) {
        released = true;
        if (--this.#held === 0 && this.#autoMerge === 'deferred') this.#scheduleMerge();
        else if (this.#held === 0 && this.#autoMerge) this.maybeMerge();
      }
      return this.whenMerged();
    };
  }

  /** Resolves once the deferred merge pass scheduled by earlier writes (if any) has run. */
  whenMerged(): Promise<void> {
    return this.#pendingMerge ?? Promise.resolve();
  }

  /**
   * Merges one range at a time until the policy asks for nothing more, each in a later event-loop
   * turn: on the merge thread when the host gave one (merge-job.ts; the protocol thread only swaps
   * the result in), else inline, where requests waiting in between are served between two merges.
   */
  #scheduleMerge(): void {
    if (this.#pendingMerge) return;
    const pass = async () => {
      for (;;) {
        await new Promise<void>((r) => later(r));
        let merged = false;
        try {
          merged = await this.#mergeNext();
        } catch (e) {
          // the segments stay as they were (a merge swaps them in only once built): log, stop
          console.error('quarry: segment merge failed:', e);
        }
        if (!merged) {
          // cleared in the same turn as the policy's last look: a write after it schedules a new pass
          this.#pendingMerge = undefined;
          return;
        }
      }
    };
    this.#pendingMerge = pass();
  }

  /** The policy's next merge, on the merge thread if there is one; false when none is due. */
  async #mergeNext(): Promise<boolean> {
    const range = this.#policy.findMerge(this.#segments.map((s) => s.live));
    if (!range) return false;
    const runner = this.#threadless ? null : mergeRunner(this.core);
    if (!runner) {
      this.#mergeRange(range[0], range[1]);
      return true;
    }
    const parts = this.#segments.slice(range[0], range[1]);
    const snap = parts.map((p) => ({ deleted: p.deletedBitmap(), version: p.version }));
    // pinned: a TRUNCATE or OPTIMIZE meanwhile frees them only once the thread is done reading
    for (const p of parts) p.pin();
    let built: BuiltSegment;
    try {
      built = await runner({ schema: this.schema, parts: parts.map((p, i) => ({ blobPtr: p.blobPtr, deleted: snap[i].deleted, terms: p.terms })) });
    } catch (e) {
      console.error('quarry: the merge thread failed, merging inline from now on:', e);
      this.#threadless = true;
      return true;
    } finally {
      for (const p of parts) p.unpin();
    }
    // the parts may be gone (TRUNCATE, OPTIMIZE, another merge): then the result is dropped
    const start = this.#segments.indexOf(parts[0]);
    if (start < 0 || parts.some((p, i) => this.#segments[start + i] !== p)) return true;
    this.#swapIn(start, parts, built, snap);
    return true;
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
    this.#swapIn(start, parts, mergeSegments(this.schema, parts));
  }

  /**
   * Replaces `parts` (at `start` in the list) by the segment merged from them. `snap`: the parts'
   * deleted rows and versions the merge read when it ran on the merge thread; rows deleted since
   * are deleted in the merged segment too, and attributes updated since are copied over, so the swap
   * loses no write that came in while the thread worked. Synchronous: no query sees a gap.
   */
  #swapIn(start: number, parts: Segment[], built: BuiltSegment, snap?: PartSnapshot[]): void {
    const end = start + parts.length;
    const merged = mergedRows(parts, snap);
    const n = merged.part.length;
    // the merged rows are the parts' rows that were live for the merge, in order: their id halves
    const ids = new Int32Array(2 * n);
    const gone = new Uint8Array(n);
    const fix: { row: number; values: AttrValue[] }[] = [];
    for (let row = 0; row < n; row++) {
      const p = parts[merged.part[row]];
      const r = merged.row[row];
      const c = p.columnPtr(0) >>> 2;
      ids[2 * row] = p.core.i32[c + 2 * r];
      ids[2 * row + 1] = p.core.i32[c + 2 * r + 1];
      if (!snap) continue;
      if (p.isDeleted(r)) gone[row] = 1;
      else if (p.version !== snap[merged.part[row]].version) fix.push({ row, values: this.schema.attrs.map((_, a) => p.attr(a, r)) });
    }
    // the thread has no host columns (JS values): taken from the parts now, with their current values
    if (snap) built.hostCols = this.schema.attrs.map((_, a) => (parts[0].hostCols[a] ? Array.from(merged.part, (p, row) => parts[p].hostCols[a]![merged.row[row]]) : null));
    // The parts go before the merged blob is placed, so the allocator reuses their space: placing
    // first held both in linear memory at once, and a wasm memory never shrinks, so that peak stayed
    // resident (88 MiB of linear memory for 35 MiB of segments at 100k gcide documents, 47 MiB
    // after). Placing can only fail near the wasm32 cap: there, copies of the parts (JS memory) put
    // them back if it does.
    const nearCap = this.core.exports.memory.buffer.byteLength + 2 * built.blob.length > CORE_MEMORY_LIMIT.bytes;
    const copies = nearCap ? parts.map((p) => ({ built: { blob: p.blobBytes(), terms: p.terms, hostCols: p.hostCols }, deleted: p.deletedBitmap() })) : [];
    for (const p of parts) { p.free(); this.#dropSlot(p); }
    let placed: Segment[];
    try {
      placed = n ? [new Segment(this.core, this.schema, built)] : [];
    } catch (e) {
      if (!nearCap) {
        // not expected below the cap (the host refused memory): drop the rows rather than keep
        // freed segments listed; a restart re-indexes them from the store of record
        for (let row = 0; row < n; row++) if (!gone[row]) this.#docs.delete(ids[2 * row], ids[2 * row + 1]);
        this.#segments.splice(start, end - start);
        throw new Error(`quarry: merged segment could not be placed, ${n} rows unavailable until restart`, { cause: e });
      }
      placed = copies.map((c) => new Segment(this.core, this.schema, c.built, c.deleted));
      placed.forEach((seg) => this.#point(seg));
      this.#segments.splice(start, end - start, ...placed);
      throw e;
    }
    this.#segments.splice(start, end - start, ...placed);
    if (!placed.length) return;
    const seg = placed[0];
    const slot = this.#newSlot(seg);
    for (let row = 0; row < n; row++) {
      if (gone[row]) seg.markDeleted(row);
      else this.#docs.set(ids[2 * row], ids[2 * row + 1], slot, row);
    }
    for (const f of fix) f.values.forEach((v, a) => { if (!seg.hostCols[a]) seg.setAttr(a, f.row, v); });
  }

  delete(docIds: bigint[]): number {
    let n = 0;
    for (const raw of docIds) {
      const ref = this.#locate(raw);
      if (!ref) continue;
      ref.seg.markDeleted(ref.row);
      this.#docs.delete(...idHalves(BigInt.asIntN(64, raw)));
      n++;
    }
    return n;
  }

  has(docId: bigint): boolean {
    const [lo, hi] = idHalves(BigInt.asIntN(64, docId));
    return this.#docs.find(lo, hi) >= 0;
  }

  updateAttrs(docId: bigint, values: Map<string, AttrValue>): boolean {
    const ref = this.#locate(docId);
    if (!ref) return false;
    for (const [name, v] of values) {
      const a = this.schema.attrs.findIndex((x) => x.name.toLowerCase() === name.toLowerCase());
      if (a < 0) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
      ref.seg.setAttr(a, ref.row, v);
    }
    return true;
  }

  getAttrs(docId: bigint): AttrValue[] | undefined {
    const ref = this.#locate(docId);
    if (!ref) return undefined;
    return this.schema.attrs.map((_, a) => ref.seg.attr(a, ref.row));
  }

  count(): number {
    return this.#docs.size;
  }

  search(req: SearchRequest): SearchResult {
    return searchSegments(this.schema, this.#segments, this.count(), req);
  }

  /**
   * search() on the query worker threads when there are some, as handOver decides by the query's cost,
   * whether this thread is saturated and whether the machine has a core to spare; on this thread
   * otherwise, where a cheap query answers sooner than a hand-over would. Same answers either way (a
   * property test holds every path to it).
   */
  async searchAsync(req: SearchRequest): Promise<SearchResult> {
    const pool = queryPool(this.core);
    if (!pool) return this.search(req);
    const p = prepareSearch(this.schema, this.#segments.slice(), this.count(), req);
    // max_query_time stops between segments, in order: that stays on this thread
    if (p.deadline !== Infinity) return runPrepared(p, req);
    const where = handOver(searchCost(p), pool);
    if (where === 'inline') return runPrepared(p, req);
    return runPreparedParallel(pool, p, where === 'whole' ? { ...req, threads: 1 } : req);
  }

  /** Every match of the request, segment by segment (GROUP BY); `hits` of the result is empty. */
  searchAll(req: SearchRequest, visit: SegmentMatches): SearchResult {
    return searchSegments(this.schema, this.#segments, this.count(), req, visit);
  }

  /**
   * Grouping over every match: one core call per segment matches and folds by the groupings the core
   * can fold there (search-groups.ts); `hits` of the result is empty.
   */
  groupAll(req: SearchRequest, grouping: SegmentGrouping): SearchResult {
    return groupPrepared(prepareSearch(this.schema, this.#segments, this.count(), req), req, grouping);
  }

  /** groupAll() on the query worker threads when there are some and the query is big enough (as searchAsync). */
  async groupAllAsync(req: SearchRequest, grouping: SegmentGrouping): Promise<SearchResult> {
    const pool = queryPool(this.core);
    if (!pool) return this.groupAll(req, grouping);
    const p = prepareSearch(this.schema, this.#segments.slice(), this.count(), req);
    if (searchCost(p) < parallelMinCost() || p.deadline !== Infinity) return groupPrepared(p, req, grouping);
    return groupPreparedParallel(pool, p, req, grouping);
  }

  truncate(): void {
    for (const s of this.#segments) s.free();
    this.#segments = [];
    this.#docs.clear();
    this.#bySlot = [];
    this.#slotOf.clear();
  }
}
