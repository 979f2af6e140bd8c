/**
 * The RAM tail's rows handed to another thread to become a segment (TailBuilder.buildElsewhere), so a
 * stream of small writes has its rows tokenized and its segments built off the protocol thread: the
 * tail starts again empty while the handed rows stay live for the index (has, count, delete, REPLACE)
 * until their segment lands, placed in the core without the rows deleted or replaced meanwhile. A read
 * that needs them sooner seals them on its own thread (RtIndex's #sealed) and the landing segment is
 * dropped. One hand-off is in flight at a time.
 */
import { RamTail } from './ram-tail.js';
import type { TailBuilder } from './rt-index-options.js';
import { Segment } from './segment/segment.js';
import type { BuiltSegment } from './segment/segment-builder.js';
import type { DocInput, IndexSchema } from './types.js';
import type { Core } from '../wasm/core.js';

interface Handed {
  rows: RamTail;
  /** The segment's rows' ids, in its row order (the rows' order when handed). */
  ids: bigint[];
  /** False once the other thread failed them: then they wait to be sealed here. */
  landing: boolean;
}

export class TailHandoff {
  #handed: Handed | null = null;

  /**
   * `land`: makes a landed segment visible (the index attaches it); `failed`: the handed rows are to
   * be sealed here (the index arms its idle seal).
   */
  constructor(
    readonly builder: TailBuilder,
    private readonly schema: IndexSchema,
    private readonly core: Core,
    private readonly land: (seg: Segment) => void,
    private readonly failed: () => void,
  ) {}

  /** Rows handed and not yet landed (deleted ones not counted). */
  get size(): number { return this.#handed?.rows.size ?? 0; }
  /** A hand-off holds rows (in flight, or failed and waiting to be sealed here). */
  get active(): boolean { return this.#handed !== null; }
  /** A hand-off is in flight. */
  get landing(): boolean { return !!this.#handed?.landing; }

  has(id: bigint): boolean { return !!this.#handed?.rows.has(id); }

  /** Drops a handed row (deleted, or replaced by a newer write); whether there was one. */
  delete(id: bigint): boolean { return !!this.#handed?.rows.delete(id); }

  /** The handed rows still live, in their order. */
  live(): DocInput[] { return this.#handed?.rows.live() ?? []; }

  /** Forgets the hand-off (its rows were sealed here, or the index truncated): its segment is dropped when it lands. */
  drop(): void { this.#handed = null; }

  /** Hands the tail's live rows over and empties it; false (nothing done) when none or they cannot go (one in flight, no thread). */
  takeFrom(tail: RamTail): boolean {
    if (this.#handed || !tail.size) return false;
    const rows = tail.live();
    const pending = this.builder.buildElsewhere(this.schema, rows);
    if (!pending) return false;
    const handed: Handed = { rows: new RamTail(), ids: rows.map((d) => BigInt.asIntN(64, d.docId)), landing: true };
    rows.forEach((d, i) => handed.rows.add(handed.ids[i]!, d));
    this.#handed = handed;
    tail.clear();
    pending.then((built) => this.#landed(handed, built), () => this.#landed(handed, null));
    return true;
  }

  #landed(handed: Handed, built: BuiltSegment | null): void {
    if (this.#handed !== handed) return;
    let seg: Segment | null = null;
    try {
      if (built) seg = new Segment(this.core, this.schema, built);
    } catch {
      // the core out of memory: as a failed seal, the rows stay live here
    }
    if (!seg) {
      handed.landing = false;
      this.failed();
      return;
    }
    handed.ids.forEach((id, r) => { if (!handed.rows.has(id)) seg.markDeleted(r); });
    this.#handed = null;
    this.land(seg);
  }
}
