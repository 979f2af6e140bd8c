/**
 * The synchronous swap of a merged segment for its parts in an RT table's segment list (the merge
 * scheduler's, merge-scheduler.ts, for a merge run inline or on the merge thread): the doc map re-pointed,
 * writes that came in meanwhile carried over, and the placement in core memory, with what keeps the rows
 * when the core refuses it.
 */
import type { AttrValue, IndexSchema } from './types.js';
import type { Core } from '../wasm/core.js';
import { Segment } from './segment/segment.js';
import type { BuiltSegment } from './segment/segment-builder.js';
import { blobIds, mergedRows, rowsFromForward, type MergedSegment, type PartSnapshot } from './parallel/merge-job.js';
import type { DocMap } from './doc-map.js';

/**
 * Linear memory beyond which placing a merged segment may fail: wasm32's 4 GiB less a margin for the
 * allocator's own growth. Tests lower it to exercise the failure path.
 */
export const CORE_MEMORY_LIMIT = { bytes: 4 * 1024 ** 3 - (64 << 20) };

/** What the merges need of the index: its segments and the bookkeeping that points documents at them. */
export interface MergeHost {
  readonly schema: IndexSchema;
  readonly core: Core;
  /** The live segment list, oldest first: the array itself, which a merge splices. */
  segments(): Segment[];
  /** Where each live document is: docId halves -> (segment slot, row). */
  readonly docs: DocMap;
  /** Frees `seg`'s doc-map slot (segment-slots.ts drop). */
  dropSlot(seg: Segment): void;
  /** Swaps merged `seg` in for `parts` in the doc map (segment-slots.ts): `forward[i]` maps part i's rows. */
  retire(parts: readonly Segment[], seg: Segment, forward: readonly Int32Array[], ids: Int32Array): void;
  /** Points every live row of `seg` (whose ids the map already holds) at it. */
  point(seg: Segment): void;
}

/**
 * Replaces `parts` (at `start` in the list) by the segment merged from them. `snap`: the parts'
 * deleted rows and versions the merge read when it ran on the merge thread; rows deleted since
 * are deleted in the merged segment too, and attributes updated since are copied over, so the swap
 * loses no write that came in while the thread worked. Synchronous: no query sees a gap.
 */
export function swapIn(host: MergeHost, start: number, parts: Segment[], built: MergedSegment, snap?: PartSnapshot[]): void {
  const end = start + parts.length;
  const attrs = host.schema.attrs;
  // the thread has no host columns (JS values): taken from the parts now, with their current values
  const hostAttrs = snap ? attrs.map((_, a) => Boolean(parts[0].hostCols[a])) : [];
  // a merge thread's result comes with its row maps: no pass over every part row here (its ids are
  // read in the merged segment once placed)
  const merged = snap && built.forward ? rowsFromForward(parts, snap, built.forward, hostAttrs.some(Boolean)) : mergedRows(parts, snap, hostAttrs.some(Boolean));
  const { n, gone } = merged;
  let ids = merged.ids;
  // attributes updated since the snapshot, read before the parts go
  const fix: { row: number; values: AttrValue[] }[] = [];
  for (let i = 0; i < merged.stale.length; i += 3) {
    const p = parts[merged.stale[i + 1]], r = merged.stale[i + 2];
    fix.push({ row: merged.stale[i], values: attrs.map((_, a) => p.attr(a, r)) });
  }
  if (snap) built.hostCols = attrs.map((_, a) => (hostAttrs[a] ? Array.from(merged.part, (p, row) => parts[p].hostCols[a]![merged.row[row]]) : null));
  // The parts go before the merged blob is placed, so the allocator reuses their space: placing
  // first held both in linear memory at once, and a wasm memory never shrinks, so that peak stayed
  // resident (88 MiB of linear memory for 35 MiB of segments at 100k gcide documents, 47 MiB
  // after). Near the wasm32 cap, copies of the parts (JS memory) put them back if placing fails.
  const nearCap = host.core.exports.memory.buffer.byteLength + 2 * built.blob.length > CORE_MEMORY_LIMIT.bytes;
  const copies = nearCap ? parts.map((p) => ({ built: { blob: p.blobBytes(), terms: p.terms, hostCols: p.hostCols }, deleted: p.deletedBitmap() })) : [];
  // A pinned part (a query on a worker, a checkpoint writing its file) keeps its memory until
  // unpinned, so freeing first gains no space: then the merged segment is placed first, and if it
  // does not fit the parts stay listed as they were (this merge is lost, no row).
  let early: Segment[] | undefined;
  if (parts.some((p) => p.pinned)) early = n ? [new Segment(host.core, host.schema, built)] : [];
  // Below the cap, a core that refuses the memory (the host refused its growth) throws before the
  // parts go, so they stay listed and whole (before, they were freed first and their rows dropped until
  // a restart). A hole below the heap's top (resident already) that holds the merged segment takes it
  // at once, the parts' space becoming the hole; else room is reserved (at the top, untouched, or where
  // the memory grew) while the parts go, so that the placement after them needs no memory the core has not.
  let room: number[] | null = null;
  if (!early && n && !nearCap) {
    if (fitsHole(host.core, built.blob.length, n)) early = [new Segment(host.core, host.schema, built)];
    else room = reserveRoom(host.core, built.blob.length, n);
  }
  // their slots stay until retire(): the doc map's entries still point at them
  for (const p of parts) p.free();
  // The room goes back before the placement, not after: it has done its work (the memory grew, or the
  // core refused, while the parts were whole), and its blocks now free stay room enough. Held, it split
  // the untouched top block into a smaller size class than the parts' hole, and TLSF (good-fit: the
  // smallest class that fits) put the merged segment there, on fresh pages, beside the parts' resident
  // ones left free (rt-index-merges' 4 x 4000 rows: touched extent 3.6 -> 7.9 MB held, -> 2.3 given back).
  // 3M documents (engine bench, in process, one run each): wasm PSS 1706 MiB held, 1302 given back first
  // (1523 with no reserve), the core's linear memory (its peak) 2496 in all three.
  if (room) release(host.core, room);
  let placed: Segment[];
  try {
    placed = early ?? (n ? [placeWithRoom(host.core, host.schema, built, room)] : []);
  } catch (e) {
    for (const p of parts) host.dropSlot(p);
    // the copies can fail to place too: then none stays (a freed part listed is read as garbage by
    // the next merge thread, 'Invalid typed array length' at 10M under load)
    const restored = nearCap ? placeCopies(host.core, host.schema, copies) : undefined;
    if (!restored) {
      // not expected below the cap (the core refused the room it had just given back): drop the rows
      // rather than keep freed segments listed; a restart re-indexes them from the store of record
      if (ids.length < 2 * n) ids = blobIds(built.blob, n);
      for (let row = 0; row < n; row++) if (!gone[row]) host.docs.delete(ids[2 * row], ids[2 * row + 1]);
      host.segments().splice(start, end - start);
      throw new Error(`quarry: merged segment could not be placed, ${n} rows unavailable until restart`, { cause: e });
    }
    placed = restored;
    placed.forEach((seg) => host.point(seg));
    host.segments().splice(start, end - start, ...placed);
    throw e;
  }
  host.segments().splice(start, end - start, ...placed);
  if (!placed.length) {
    for (const p of parts) host.dropSlot(p); // every row deleted: no entry points at them
    return;
  }
  const seg = placed[0];
  // the merged ids where the segment holds them (core memory is shared where a thread merged: the
  // view stays valid; segment-slots.ts stops reading it once the segment is gone)
  if (ids.length < 2 * n) ids = seg.core.i32.subarray(seg.columnPtr(0) >>> 2, (seg.columnPtr(0) >>> 2) + 2 * n);
  // look-ups follow the parts' rows to the merged ones at once; entries re-pointed in later turns
  host.retire(parts, seg, merged.forward, ids);
  for (let row = 0; row < n; row++) if (gone[row]) seg.markDeleted(row);
  for (const f of fix) f.values.forEach((v, a) => { if (!seg.hostCols[a]) seg.setAttr(a, f.row, v); });
}

/**
 * Whether the core's largest free block below its top holds a segment of `rows` rows and a `blobBytes`
 * blob with room to spare (the allocator may look for a block a size class up).
 */
function fitsHole(core: Core, blobBytes: number, rows: number): boolean {
  return core.heapStats().largestFree >= blobBytes + (blobBytes >>> 4) + ((rows + 7) >>> 3) + 1024;
}

/**
 * Core memory for a merged segment of `rows` rows and a `blobBytes` blob: its blob, deleted bitmap and
 * descriptor as the Segment constructor allocates them; nothing taken when one is refused (throws).
 */
function reserveRoom(core: Core, blobBytes: number, rows: number): number[] {
  const room: number[] = [];
  try {
    for (const bytes of [blobBytes, Math.max(16, (rows + 7) >>> 3), 16]) room.push(core.alloc(bytes));
    return room;
  } catch (e) {
    release(core, room);
    throw e;
  }
}

function release(core: Core, room: number[]): void {
  for (const ptr of room.splice(0)) core.free(ptr);
}

/**
 * The merged segment placed with its parts freed, `room` (reserveRoom's, or null): swapIn gives the room
 * back before, so its blocks are free already and a refused placement is only tried once more (on a
 * real core the same state: it throws again, and swapIn drops the rows); a room still held is given
 * back before that second try.
 */
function placeWithRoom(core: Core, schema: IndexSchema, built: BuiltSegment, room: number[] | null): Segment {
  try {
    return new Segment(core, schema, built);
  } catch (e) {
    if (!room) throw e;
    release(core, room);
    return new Segment(core, schema, built);
  } finally {
    if (room) release(core, room);
  }
}

/** The parts' copies placed back in core memory, or undefined (none left placed) when one does not fit. */
function placeCopies(core: Core, schema: IndexSchema, copies: { built: BuiltSegment; deleted: Uint8Array }[]): Segment[] | undefined {
  const placed: Segment[] = [];
  try {
    for (const c of copies) placed.push(new Segment(core, schema, c.built, c.deleted));
    return placed;
  } catch {
    for (const seg of placed) seg.free();
    return undefined;
  }
}
