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
  // after). Placing can only fail near the wasm32 cap: there, copies of the parts (JS memory) put
  // them back if it does.
  const nearCap = host.core.exports.memory.buffer.byteLength + 2 * built.blob.length > CORE_MEMORY_LIMIT.bytes;
  const copies = nearCap ? parts.map((p) => ({ built: { blob: p.blobBytes(), terms: p.terms, hostCols: p.hostCols }, deleted: p.deletedBitmap() })) : [];
  // A pinned part (a query on a worker, a checkpoint writing its file) keeps its memory until
  // unpinned, so freeing first gains no space: then the merged segment is placed first, and if it
  // does not fit the parts stay listed as they were (this merge is lost, no row).
  let early: Segment[] | undefined;
  if (parts.some((p) => p.pinned)) early = n ? [new Segment(host.core, host.schema, built)] : [];
  // their slots stay until retire(): the doc map's entries still point at them
  for (const p of parts) p.free();
  let placed: Segment[];
  try {
    placed = early ?? (n ? [new Segment(host.core, host.schema, built)] : []);
  } catch (e) {
    for (const p of parts) host.dropSlot(p);
    // the copies can fail to place too: then none stays (a freed part listed is read as garbage by
    // the next merge thread, 'Invalid typed array length' at 10M under load)
    const restored = nearCap ? placeCopies(host.core, host.schema, copies) : undefined;
    if (!restored) {
      // not expected below the cap (the host refused memory): drop the rows rather than keep
      // freed segments listed; a restart re-indexes them from the store of record
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
