/**
 * Segments by slot, the DocMap's segment numbers, with forwards from the slots a merge retired: the
 * merge swap no longer re-points every merged row's doc-map entry on the protocol thread at once
 * (~50 ns a row: 65-73 ms for 1.6M rows, seconds at 10M). It records each part row's new row (an
 * Int32Array per part, filled by mergedRows), look-ups follow the forwards, and the entries are
 * re-pointed a slice per event-loop turn (REPOINT_TURN_MS), so no request waits long behind them.
 */
import type { DocMap } from './doc-map.js';
import type { Segment } from './segment/segment.js';

/**
 * Time one event-loop turn re-points for, at most (plus one chunk): measured at 1.6M rows, fixed
 * slices of 32k rows took 1.6-2.4 ms each once compiled but 12 and 22 ms for the first two (cold code).
 */
export const REPOINT_TURN_MS = 2;
/** Rows re-pointed between two looks at the clock (~50 ns a row once compiled). */
export const REPOINT_CHUNK = 2048;

interface Forward {
  /** The slot the retired segment's rows went to. */
  to: number;
  /** Each old row's row there, -1 for one not carried over (deleted: its entry is gone too). */
  rows: Int32Array;
}

export class SegmentSlots {
  #bySlot: (Segment | undefined)[] = [];
  #slotOf = new Map<Segment, number>();
  /** By retired slot: where its rows went. A slot is not reused while it forwards. */
  #fwd: (Forward | undefined)[] = [];
  /** By live slot: the retired slots forwarding into it (directly or through others) not yet re-pointed. */
  #sources = new Map<number, number[]>();
  /** Bumped by clear(): a re-pointing pass of an earlier generation stops. */
  #generation = 0;

  constructor(readonly docs: DocMap) {}

  /** Gives `seg` a free slot (never one still forwarding). */
  add(seg: Segment): number {
    let slot = 0;
    while (slot < this.#bySlot.length && (this.#bySlot[slot] || this.#fwd[slot])) slot++;
    this.#bySlot[slot] = seg;
    this.#slotOf.set(seg, slot);
    return slot;
  }

  /** Frees `seg`'s slot (its doc-map entries must be gone or re-pointed: no forward is kept). */
  drop(seg: Segment): void {
    const slot = this.#slotOf.get(seg)!;
    this.#bySlot[slot] = undefined;
    this.#slotOf.delete(seg);
    this.#sources.delete(slot);
  }

  /** The segment and row a doc-map entry (a DocMap.find result) is at, following forwards. */
  at(e: number): { seg: Segment; row: number } {
    let slot = this.docs.segmentAt(e), row = this.docs.rowAt(e);
    for (let f = this.#fwd[slot]; f; f = this.#fwd[slot]) {
      row = f.rows[row];
      slot = f.to;
    }
    return { seg: this.#bySlot[slot]!, row };
  }

  /**
   * Swaps the merged `seg` in for `parts` (already freed), whose rows' doc-map entries still point at
   * the parts' slots: `forward[i]` maps part i's rows to `seg`'s. Look-ups follow the forwards at
   * once; the entries are re-pointed in later turns, and the forwards dropped once they all are.
   */
  retire(parts: readonly Segment[], seg: Segment, forward: readonly Int32Array[], ids: Int32Array): void {
    const to = this.add(seg);
    const sources: number[] = [];
    parts.forEach((p, i) => {
      const from = this.#slotOf.get(p)!;
      sources.push(from, ...(this.#sources.get(from) ?? []));
      this.drop(p);
      this.#fwd[from] = { to, rows: forward[i] };
    });
    this.#sources.set(to, sources);
    this.#repoint(seg, to, ids, 0);
  }

  /** Whether (slot, row) forwards to (toSlot, toRow). */
  #lands(slot: number, row: number, toSlot: number, toRow: number): boolean {
    for (let f = this.#fwd[slot]; f; f = this.#fwd[slot]) {
      row = f.rows[row];
      slot = f.to;
    }
    return slot === toSlot && row === toRow;
  }

  /** Re-points entries of `seg`'s rows from `start` on, a slice per turn; drops the forwards when done. */
  #repoint(seg: Segment, slot: number, ids: Int32Array, start: number): void {
    const generation = this.#generation;
    setImmediate(() => {
      // merged again, dropped or cleared meanwhile: the next merge's pass (if any) covers these rows
      if (generation !== this.#generation || this.#bySlot[slot] !== seg) return;
      const n = ids.length >>> 1, until = performance.now() + REPOINT_TURN_MS;
      let end = start;
      do {
        const from = end;
        end = Math.min(n, end + REPOINT_CHUNK);
        // an entry that forwards elsewhere is a later copy of the id (REPLACE), one of a live slot too
        this.docs.repointRows(ids, from, end, slot, (at, row, to) => this.#lands(at, row, slot, to));
      } while (end < n && performance.now() < until);
      if (end < n) return this.#repoint(seg, slot, ids, end);
      for (const s of this.#sources.get(slot) ?? []) this.#fwd[s] = undefined;
      this.#sources.delete(slot);
    });
  }

  /** Whether look-ups still follow forwards (a merge's entries not all re-pointed yet). */
  get forwarding(): boolean {
    return this.#fwd.some(Boolean);
  }

  clear(): void {
    this.#bySlot = [];
    this.#slotOf.clear();
    this.#fwd = [];
    this.#sources.clear();
    this.#generation++;
  }
}
