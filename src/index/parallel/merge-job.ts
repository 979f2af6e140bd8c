/**
 * Merges on another thread: what the index hands over (a MergeJob: addresses of the parts' blobs in
 * the core's shared memory, snapshots of their deleted rows, their dictionaries), and the hook through
 * which the host supplies that thread (src/engine/background/merge-thread.ts in Node). src/index imports no Node
 * built-in: without a host thread, or over a core whose memory is not shared, merges run inline.
 */
import type { Core } from '../../wasm/core.js';
import type { Segment } from '../segment/segment.js';
import type { BuiltSegment } from '../segment/segment-builder.js';
import type { IndexSchema } from '../types.js';
import { H } from '../segment/segment-layout.js';

/** One part of a merge as the merge thread reads it. */
export interface MergeJobPart {
  blobPtr: number;
  /** The deleted-rows bitmap when the job was made: the rows merged are the others. */
  deleted: Uint8Array;
  terms: readonly string[];
}

export interface MergeJob {
  schema: IndexSchema;
  parts: MergeJobPart[];
}

/** A part as the merge thread read it: its deleted rows then, and its version (Segment.version) then. */
export interface PartSnapshot {
  deleted: Uint8Array;
  version: number;
}

/** The rows of a merge of some parts, as the swap needs them (mergedRows). */
export interface MergedRows {
  /** Rows merged. */
  n: number;
  /** Id halves of merged row i at 2i (low) and 2i + 1 (high), as the id column holds them. */
  ids: Int32Array;
  /** 1 for a merged row deleted since the snapshot (the swap deletes it in the merged segment too). */
  gone: Uint8Array;
  /** Merged rows of parts written to since the snapshot, still live: (merged row, part, part row) triples. */
  stale: number[];
  /** Part and row of each merged row: only when asked for (sources), else empty. */
  part: Uint32Array;
  row: Uint32Array;
  /** Per part, each part row's merged row, -1 for one not carried over (segment-slots.ts forwards lookups with it). */
  forward: Int32Array[];
}

/** A merge thread's result: the merged segment, and each part's old row -> merged row map it built it with. */
export interface MergedSegment extends BuiltSegment {
  forward?: Int32Array[];
}

/**
 * The rows of a merge of `parts`: those live for the merge (in the snapshot it read, or now), in
 * order, as mergeSegments numbers them. Ids are copied run by run of live rows (TypedArray#set),
 * not row by row: the swap that needs them runs on the protocol thread, where a 410k-row merge's
 * per-row loop stalled queries. A part whose version did not move since the snapshot had no row
 * deleted or updated (Segment.markDeleted and the attribute writes bump it): its rows are not looked at.
 */
export function mergedRows(parts: readonly Segment[], snap?: readonly PartSnapshot[], sources = false): MergedRows {
  let cap = 0;
  for (const p of parts) cap += p.rows;
  const ids = new Int32Array(2 * cap);
  const gone = new Uint8Array(cap);
  const stale: number[] = [];
  const part = new Uint32Array(sources ? cap : 0);
  const row = new Uint32Array(sources ? cap : 0);
  const forward = parts.map((p) => new Int32Array(p.rows).fill(-1));
  let at = 0;
  parts.forEach((p, pi) => {
    const fwd = forward[pi];
    const was = snap ? snap[pi].deleted : p.deletedBitmap();
    const now = snap && p.version !== snap[pi].version ? p.deletedBitmap() : null;
    const i32 = p.core.i32;
    const col = p.columnPtr(0) >>> 2;
    const rows = p.rows;
    for (let r = 0; r < rows;) {
      if ((r & 7) === 0 && was[r >>> 3] === 0xff) { r += 8; continue; }
      if ((was[r >>> 3] >>> (r & 7)) & 1) { r++; continue; }
      // a run of live rows [r, e): whole bytes of live rows at once
      let e = r + 1;
      while (e < rows) {
        if ((e & 7) === 0 && e + 8 <= rows && was[e >>> 3] === 0) e += 8;
        else if (((was[e >>> 3] >>> (e & 7)) & 1) === 0) e++;
        else break;
      }
      ids.set(i32.subarray(col + 2 * r, col + 2 * e), 2 * at);
      const base = at - r; // merged row of part row k: base + k
      for (let k = r; k < e; k++) fwd[k] = base + k;
      if (sources) for (let k = r; k < e; k++) { part[base + k] = pi; row[base + k] = k; }
      if (now) {
        for (let k = r; k < e; k++) {
          if ((now[k >>> 3] >>> (k & 7)) & 1) gone[base + k] = 1;
          else stale.push(base + k, pi, k);
        }
      }
      at += e - r;
      r = e;
    }
  });
  return { n: at, ids: ids.subarray(0, 2 * at), gone: gone.subarray(0, at), stale, part: part.subarray(0, sources ? at : 0), row: row.subarray(0, sources ? at : 0), forward };
}

/**
 * mergedRows for a merge thread's result, from the row maps it merged with (`forward`, against the
 * snapshot `snap`) instead of a pass over every part row: only parts written to since the snapshot
 * (their version moved) are looked at, and every part's rows when `sources` is asked for. `ids` is
 * empty: the swap reads them in the merged segment's id column (mergedIds).
 */
export function rowsFromForward(parts: readonly Segment[], snap: readonly PartSnapshot[], forward: Int32Array[], sources = false): MergedRows {
  let n = 0;
  for (const fwd of forward) {
    let r = fwd.length - 1;
    while (r >= 0 && fwd[r] < 0) r--;
    if (r >= 0) n = Math.max(n, fwd[r] + 1);
  }
  const gone = new Uint8Array(n);
  const stale: number[] = [];
  const part = new Uint32Array(sources ? n : 0);
  const row = new Uint32Array(sources ? n : 0);
  parts.forEach((p, pi) => {
    const fwd = forward[pi];
    const now = p.version !== snap[pi].version ? p.deletedBitmap() : null;
    if (!now && !sources) return;
    for (let r = 0; r < fwd.length; r++) {
      const m = fwd[r];
      if (m < 0) continue;
      if (sources) { part[m] = pi; row[m] = r; }
      if (now) {
        if ((now[r >>> 3] >>> (r & 7)) & 1) gone[m] = 1;
        else stale.push(m, pi, r);
      }
    }
  });
  return { n, ids: new Int32Array(0), gone, stale, part, row, forward };
}

/**
 * The id halves of a built segment's `n` rows, copied out of its blob's id column (column 0): what
 * the swap needs of a merge thread's result when it cannot read them in the placed segment.
 */
export function blobIds(blob: Uint8Array, n: number): Int32Array {
  const dv = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const at = dv.getUint32(dv.getUint32(4 * H.colTable, true) + 4, true);
  return new Int32Array(blob.slice(at, at + 8 * n).buffer);
}

/**
 * Runs a job on another thread over `core`'s memory; resolves with the merged segment, whose host
 * columns (string, json, mva: JS values the thread does not get) the caller fills in.
 */
export type MergeRunner = (job: MergeJob) => Promise<MergedSegment>;

/** Makes the runner for a core (null when there is no thread for it). */
export type MergeRunnerFactory = (core: Core) => MergeRunner | null;

let factory: MergeRunnerFactory | null = null;
const runners = new WeakMap<Core, MergeRunner | null>();

/** Installs (or with null removes) the merge threads indexes use from now on. */
export function setMergeRunnerFactory(f: MergeRunnerFactory | null): void {
  factory = f;
}

/** The merge thread of `core`, made on first use; null: merge inline. */
export function mergeRunner(core: Core): MergeRunner | null {
  if (!factory || !core.shared) return null;
  let r = runners.get(core);
  if (r === undefined) {
    r = factory(core);
    runners.set(core, r);
  }
  return r;
}
