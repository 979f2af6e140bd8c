/**
 * RtIndex: an RT table's full-text index: immutable segments in the WASM core, a deleted-rows
 * bitmap per segment, attribute columns updated in place, a docId -> (segment, row) map, and a
 * tiered merge after each batch. Implements RtIndexApi (types.ts).
 */
import type { AttrValue, DocInput, IndexSchema, RtIndexApi, SearchRequest, SearchResult } from './types.js';
import { Core, sharedCore } from '../wasm/core.js';
import { MergeScheduler } from './merge-scheduler.js';
import { SearchError } from '../util/errors.js';
import { Segment } from './segment/segment.js';
import { buildSegment, invertDocs, type BuiltSegment } from './segment/segment-builder.js';
import { TieredMergePolicy, type MergePolicy } from './merge-policy.js';
import { loadSegment, serializeSegment } from './segment/segment-codec.js';
import { prepareSearch, runPrepared, searchSegments, type SegmentMatches } from './search.js';
import { runPreparedParallel } from './parallel/search-parallel.js';
import { groupPrepared, type SegmentGrouping } from './search-groups.js';
import { groupPreparedParallel } from './parallel/search-groups-parallel.js';
import { queryThreadsFor } from './parallel/query-threads.js';
import { placeQuery } from './parallel/place-query.js';
import { SegmentSlots } from './segment-slots.js';
import { DocMap, idHalves } from './doc-map.js';
import { RamTail, TAIL_BATCH_ROWS, rowTokens } from './ram-tail.js';
import type { PreparedBatch, RtIndexOptions, TailBuilder } from './rt-index-options.js';
import { indexTrace } from './index-trace.js';

export type { PreparedBatch, RtIndexOptions } from './rt-index-options.js';

export class RtIndex implements RtIndexApi {
  readonly schema: IndexSchema;
  readonly core: Core;
  #segments: Segment[] = [];
  /** Where each live document is: docId -> (segment slot, row). */
  #docs = new DocMap();
  /** Segments by slot (a slot is reused once its segment is gone and nothing forwards from it). */
  #slots = new SegmentSlots(this.#docs);
  readonly #merges: MergeScheduler;
  /** Rows of small writes not yet in a segment (null: no tail, every write is a segment). */
  readonly #tail: RamTail | null;
  /** Builds a batch of rows from their texts when it can (the engine's: text-row.ts), else null. */
  readonly #builder: TailBuilder | null;

  constructor(schema: IndexSchema, opts: RtIndexOptions = {}) {
    this.schema = schema;
    this.core = opts.core ?? sharedCore();
    const idx = this;
    this.#merges = new MergeScheduler({
      schema,
      core: this.core,
      segments: () => this.#segments,
      get docs() { return idx.#docs; },
      dropSlot: (seg) => this.#slots.drop(seg),
      retire: (parts, seg, forward, ids) => this.#slots.retire(parts, seg, forward, ids),
      point: (seg) => this.#point(seg),
    }, opts.mergePolicy ?? new TieredMergePolicy(), opts.autoMerge ?? 'deferred', opts.idleMergeCutoff);
    this.#tail = opts.ramTail ? new RamTail() : null;
    this.#builder = opts.tailBuilder ?? null;
  }

  /** An index over segments loaded from files (serializeSegment output), oldest first. */
  static fromSegments(schema: IndexSchema, files: Uint8Array[], opts: RtIndexOptions = {}): RtIndex {
    const idx = new RtIndex(schema, opts);
    for (const bytes of files) idx.#attach(loadSegment(bytes, schema, idx.core));
    idx.#merges.afterLoad();
    return idx;
  }

  /** The live segments, oldest first (for checkpoints): a copy, as a deferred merge may change the list. */
  get segments(): readonly Segment[] {
    return this.#sealed().slice();
  }

  /** Serialized form of every segment, oldest first. */
  serializeSegments(): Uint8Array[] {
    return this.#sealed().map(serializeSegment);
  }

  /**
   * The segments with the RAM tail sealed into the last one: what every reader of segments sees, so
   * a tail row answers exactly as a segment row. Throws (the core out of memory) leaving the tail as
   * it was, still live and counted; the caller's read fails.
   */
  #sealed(forRead = true): Segment[] {
    const tail = this.#tail;
    if (!tail?.slots) return this.#segments;
    // a read between writes: the next tail seals at the first bound again (ram-tail.ts TAIL_GROWTH_MAX)
    if (forRead) tail.shrink();
    const rows = tail.live();
    if (!rows.length) {
      tail.clear();
      return this.#segments;
    }
    indexTrace.mark?.('seal start');
    const t0 = indexTrace.mark ? performance.now() : 0;
    const seg = this.#build(rows);
    indexTrace.mark?.(`seal rows=${rows.length} tokens=${tail.tokens} ms=${(performance.now() - t0).toFixed(1)} segments=${this.#segments.length + 1}`);
    tail.clear();
    this.#attach(seg);
    this.#merges.afterBatch();
    return this.#segments;
  }

  /** `docs` as a segment: by the builder from the rows' texts when it can (every row a TextRow), else from their fields. */
  #build(docs: DocInput[]): Segment {
    const built = this.#builder?.build(this.schema, docs);
    return new Segment(this.core, this.schema, built ?? buildSegment(this.schema, invertDocs(this.schema, docs)));
  }

  /**
   * A small write's fallible half with a tail: the tail sealed first when the write would fill it,
   * and the core asked for about the memory sealing the tail with these rows will take, so an index
   * that could not take them fails the write before it is durable, as a segment's placing does.
   */
  #prepareTail(tail: RamTail, docs: DocInput[]): PreparedBatch {
    let tokens = 0;
    for (const d of docs) tokens += rowTokens(d);
    if (!tail.fits(docs.length, tokens)) {
      this.#sealed(false);
      tail.grow();
    }
    this.core.free(this.core.alloc(tail.sealBytes(docs.length, tokens, this.schema.attrs.length)));
    return { rows: docs };
  }

  /** Calls fn(lo, hi, row) for each live row of `seg`, with the halves of its document id. */
  #eachLive(seg: Segment, fn: (lo: number, hi: number, row: number) => void): void {
    const i32 = seg.core.i32; // valid for the loop: nothing in it allocates core memory
    const base = seg.columnPtr(0) >>> 2;
    for (let r = 0; r < seg.rows; r++) if (!seg.isDeleted(r)) fn(i32[base + 2 * r], i32[base + 2 * r + 1], r);
  }

  #attach(seg: Segment): void {
    this.#segments.push(seg);
    const slot = this.#slots.add(seg);
    const tail = this.#tail?.size ? this.#tail : null;
    this.#eachLive(seg, (lo, hi, r) => {
      if (tail) tail.delete(BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo >>> 0)));
      const e = this.#docs.find(lo, hi);
      if (e >= 0) { const at = this.#slots.at(e); at.seg.markDeleted(at.row); } // a later segment's copy wins
      this.#docs.set(lo, hi, slot, r);
    });
  }

  /** Points every live row of `seg` (whose ids the map already holds) at it. */
  #point(seg: Segment): void {
    const slot = this.#slots.add(seg);
    this.#eachLive(seg, (lo, hi, r) => this.#docs.set(lo, hi, slot, r));
  }

  /** The segment and row of a live document, or undefined. */
  #locate(docId: bigint): { seg: Segment; row: number } | undefined {
    const [lo, hi] = idHalves(docId); // the halves of a u64 and its int64 are the same
    const e = this.#docs.find(lo, hi);
    return e < 0 ? undefined : this.#slots.at(e);
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
    if (!docs.length) return {};
    if (this.#tail && docs.length <= TAIL_BATCH_ROWS) return this.#prepareTail(this.#tail, docs);
    this.#sealed(false); // the tail's rows are older: their segment comes first
    return { seg: this.#build(docs) };
  }

  /** A prepared batch of a segment built elsewhere (a bulk load's build thread): placed in the core, not yet visible. */
  preparedOf(built: BuiltSegment): PreparedBatch {
    this.#sealed(false);
    return { seg: new Segment(this.core, this.schema, built) };
  }

  /** Frees a prepared batch that will not be applied (its store write failed). */
  discardBatch(batch: PreparedBatch): void {
    batch.seg?.free();
  }

  /** Keeps rows of a prepared batch (by their place in its `docs`) from ever becoming visible. */
  withholdRows(batch: PreparedBatch, rows: number[]): void {
    if (batch.rows && rows.length) batch.withheld = new Set(rows);
    for (const r of rows) batch.seg?.markDeleted(r);
  }

  /**
   * The second half of replaceBatch, which cannot fail: deletes `gone`, then makes the prepared
   * segment's live rows visible (replacing older copies of their ids). A merge the write triggers
   * runs after; its failure leaves the segments as they were and is logged, not thrown.
   */
  applyBatch(batch: PreparedBatch, gone: bigint[] = []): void {
    if (gone.length) this.delete(gone);
    if (batch.rows) {
      this.#toTail(this.#tail!, batch.rows, batch.withheld);
      return;
    }
    if (!batch.seg) return;
    this.#attach(batch.seg);
    this.#merges.afterBatch();
  }

  /** Appends a prepared small write's rows (not those withheld) to the tail; a later row of an id replaces an earlier one. */
  #toTail(tail: RamTail, rows: DocInput[], withheld: Set<number> | undefined): void {
    rows.forEach((doc, r) => {
      if (withheld?.has(r)) return;
      const id = BigInt.asIntN(64, doc.docId);
      const [lo, hi] = idHalves(id);
      const e = this.#docs.find(lo, hi);
      if (e >= 0) {
        const at = this.#slots.at(e);
        at.seg.markDeleted(at.row);
        this.#docs.delete(lo, hi);
      }
      tail.add(id, doc);
    });
    if (tail.size) {
      this.#merges.noteWrite();
      tail.sealWhenIdle(() => {
        try {
          this.#sealed(false); // a pause keeps the bounds a stream grew
        } catch {
          // the core out of memory: the tail stays (live, counted), the next read seals it or fails
        }
      });
    }
  }

  /**
   * A bulk load: until the returned release() each batch stays its own segment (no tiered merge
   * re-merging the same rows at every level as they pile up); release() then runs the policy once
   * over them all and resolves when it has settled. Writes stay searchable and durable throughout.
   */
  holdMerges(): () => Promise<void> {
    return this.#merges.hold();
  }

  /** The idle compaction's segment count from now on (idleMergeCutoff; ALTER TABLE ... optimize_cutoff). */
  setIdleMergeCutoff(cutoff: number): void {
    this.#merges.setIdleCutoff(cutoff);
  }

  /** The table is closing: no idle compaction is started from now on (merge-scheduler.ts stopIdle). */
  stopIdleMerges(): void {
    this.#merges.stopIdle();
  }

  /** Resolves once the deferred merge pass scheduled by earlier writes (if any) has run. */
  whenMerged(): Promise<void> {
    return this.#merges.whenMerged();
  }

  /** Resolves once the merges and the idle compaction they arm have run (merge-scheduler.ts whenIdle). */
  whenIdle(): Promise<void> {
    return this.#merges.whenIdle();
  }

  /** Runs the merge policy until it asks for nothing more; returns how many merges ran. */
  maybeMerge(): number {
    return this.#merges.maybeMerge();
  }

  /** Merges every segment into one (Manticore's OPTIMIZE). */
  optimize(): void {
    this.#sealed();
    this.#merges.optimize();
  }

  delete(docIds: bigint[]): number {
    let n = 0;
    for (const raw of docIds) {
      const id = BigInt.asIntN(64, raw);
      if (this.#tail?.delete(id)) {
        n++;
        continue;
      }
      const ref = this.#locate(raw);
      if (!ref) continue;
      ref.seg.markDeleted(ref.row);
      this.#docs.delete(...idHalves(BigInt.asIntN(64, raw)));
      n++;
    }
    return n;
  }

  has(docId: bigint): boolean {
    const id = BigInt.asIntN(64, docId);
    const [lo, hi] = idHalves(id);
    return this.#docs.find(lo, hi) >= 0 || !!this.#tail?.has(id);
  }

  /** The segment and row of a live document, the tail sealed first when it holds the id. */
  #locateSealed(docId: bigint): { seg: Segment; row: number } | undefined {
    // an empty tail (a table at rest) needs no BigInt made for its look-up
    if (this.#tail?.size && this.#tail.has(BigInt.asIntN(64, docId))) this.#sealed();
    return this.#locate(docId);
  }

  updateAttrs(docId: bigint, values: Map<string, AttrValue>): boolean {
    const ref = this.#locateSealed(docId);
    if (!ref) return false;
    for (const [name, v] of values) {
      const a = this.schema.attrs.findIndex((x) => x.name.toLowerCase() === name.toLowerCase());
      if (a < 0) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
      ref.seg.setAttr(a, ref.row, v);
    }
    return true;
  }

  getAttrs(docId: bigint): AttrValue[] | undefined {
    const ref = this.#locateSealed(docId);
    if (!ref) return undefined;
    return this.schema.attrs.map((_, a) => ref.seg.attr(a, ref.row));
  }

  count(): number {
    return this.#docs.size + (this.#tail?.size ?? 0);
  }

  search(req: SearchRequest): SearchResult {
    return searchSegments(this.schema, this.#sealed(), this.count(), req);
  }

  /**
   * search() on the query worker threads when there are some, as placeQuery decides by the query's learnt time,
   * whether this thread is saturated and whether the machine has a core to spare; on this thread
   * otherwise, where a cheap query answers sooner than a hand-over would. Same answers either way (a
   * property test holds every path to it).
   */
  async searchAsync(req: SearchRequest): Promise<SearchResult> {
    // OPTION cutoff reads the segments in order, stopping at its N-th match: on this thread (search-cutoff.ts)
    if (!queryThreadsFor(this.core) || req.cutoff) return this.search(req);
    const p = prepareSearch(this.schema, this.#sealed().slice(), this.count(), req);
    // max_query_time stops between segments, in order: that stays on this thread
    if (p.deadline !== Infinity) return runPrepared(p, req);
    return placeQuery(
      this.core, p, req, req.query?.kind ?? 'scan', () => runPrepared(p, req), (pool, r, learn) => runPreparedParallel(pool, p, r, learn),
    );
  }

  /** Every match of the request, segment by segment (GROUP BY); `hits` of the result is empty. */
  searchAll(req: SearchRequest, visit: SegmentMatches): SearchResult {
    return searchSegments(this.schema, this.#sealed(), this.count(), req, visit);
  }

  /**
   * Grouping over every match: one core call per segment matches and folds by the groupings the core
   * can fold there (search-groups.ts); `hits` of the result is empty.
   */
  groupAll(req: SearchRequest, grouping: SegmentGrouping): SearchResult {
    return groupPrepared(prepareSearch(this.schema, this.#sealed(), this.count(), req), req, grouping);
  }

  /** groupAll() on the query worker threads when there are some, as handOver decides (as searchAsync). */
  async groupAllAsync(req: SearchRequest, grouping: SegmentGrouping): Promise<SearchResult> {
    if (!queryThreadsFor(this.core)) return this.groupAll(req, grouping);
    const p = prepareSearch(this.schema, this.#sealed().slice(), this.count(), req);
    if (p.deadline !== Infinity) return groupPrepared(p, req, grouping);
    return placeQuery(
      this.core, p, req, `group:${req.query?.kind ?? 'scan'}`,
      () => groupPrepared(p, req, grouping), (pool, r, learn) => groupPreparedParallel(pool, p, r, grouping, learn),
    );
  }

  truncate(): void {
    this.#tail?.clear();
    this.#tail?.stopIdle();
    for (const s of this.#segments) s.free();
    this.#segments = [];
    this.#docs.clear();
    this.#slots.clear();
  }
}
