/**
 * Where a bulk load's build writes a batch's tokens straight from the scanner (FieldPacker.packBatch):
 * the inverter's own token arrays, each token as the batch's id of its term and its position, with no
 * object per field or document between the scan and the inversion (src/index/segment/doc-inverter.ts,
 * invertFields). The walker asks for a term's batch id once per distinct scanner token and batch.
 */
import type { TermNumbering } from '../index/types.js';

export interface BatchSink {
  /** Ids and positions of the tokens written so far, [0, used); a field's go at `used` on. */
  ids: Uint32Array;
  positions: Uint32Array;
  used: number;
  /** Makes room for `entries` more tokens (the arrays may be replaced: read them after). */
  reserve(entries: number): void;
  /** The batch's id of term `num` of `numbering`. */
  idOf(numbering: TermNumbering, num: number): number;
  /** Names the batch: ids the walker remembers are for this batch only. */
  readonly batch: number;
  /**
   * A position is written as `tag | (position & posMask)`, and each id written bumps `counts[id]`
   * (null: no counts kept): the inversion's hit word, less the field-end bit (which needs the field's
   * length), and its term counts, made in the writer's loop where a second pass over every token of
   * the batch made them after (invert-fields.ts). A sink that keeps plain positions: tag 0, posMask -1.
   */
  readonly tag: number;
  readonly posMask: number;
  readonly counts: Uint32Array | null;
}
