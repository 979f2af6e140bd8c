/**
 * The tokens of a bulk load's first rows as the build thread primed them (build-job.ts primeFields):
 * each field's term numbers and positions, kept for the job of those rows, whose build copies them
 * into the inversion instead of scanning the fields again. That first build waits for nothing but
 * the read of its rows, so it is the load's critical path; its fields were tokenized while they
 * were read. Used only by a job whose fields begin with the primed ones (same texts, same lengths).
 */
import type { TermNumbering } from '../../index/types.js';
import type { BatchSink } from '../../text/batch-sink.js';
import type { TextPipeline } from '../../text/text-pipeline.js';

/** Sink batches of primings: each its own, so a packer's remembered ids are never another's. */
let primings = 0;

export class PrimedFields implements BatchSink {
  /** The term numbers (of each field's numbering) and positions of the fields written, one after another. */
  ids = new Uint32Array(1 << 16);
  positions = new Uint32Array(1 << 16);
  used = 0;
  readonly batch = -2 - ++primings;
  /** Plain positions, no counts: the job's sink tags and counts them when they are copied (into()). */
  readonly tag = 0;
  readonly posMask = -1;
  readonly counts = null;
  /** Per field primed: its first token, token count (-1: left to the job), length, numbering. */
  private readonly starts: number[] = [];
  private readonly tokenCounts: number[] = [];
  private readonly lens: number[] = [];
  private readonly numberings: (TermNumbering | null)[] = [];
  private numbering: TermNumbering | null = null;
  private fieldStart = 0;
  /** The primed fields' texts and lengths, part by part (what the job's must begin with). */
  private readonly parts: { text: string; lengths: Uint32Array }[] = [];

  constructor(readonly pipeline: TextPipeline) {}

  /** Fields primed. */
  get fields(): number {
    return this.tokenCounts.length;
  }

  reserve(entries: number): void {
    const n = this.used + entries;
    if (n <= this.ids.length) return;
    const size = Math.max(n, this.ids.length * 2);
    const ids = new Uint32Array(size);
    const positions = new Uint32Array(size);
    ids.set(this.ids.subarray(0, this.used));
    positions.set(this.positions.subarray(0, this.used));
    this.ids = ids;
    this.positions = positions;
  }

  /** The walker names a term by its number; the field's numbering is the one it last named by. */
  idOf(numbering: TermNumbering, num: number): number {
    this.numbering = numbering;
    return num;
  }

  /** A field's tokens start here. */
  begin(): void {
    this.fieldStart = this.used;
  }

  /** The field begun was written (its length), or left (null: nothing written; the job tokenizes it). */
  written(length: number | null): void {
    this.starts.push(this.fieldStart);
    this.tokenCounts.push(length === null ? -1 : this.used - this.fieldStart);
    this.lens.push(length ?? 0);
    this.numberings.push(this.numbering);
  }

  /** A part's fields primed: its first `lengths.length` fields, `text` theirs. */
  partDone(text: string, lengths: Uint32Array): void {
    if (lengths.length > 0) this.parts.push({ text, lengths });
  }

  /** True when the job's fields begin with the primed ones. */
  matches(job: { text: string; lengths: Uint32Array }): boolean {
    if (this.fields > job.lengths.length) return false;
    let at = 0;
    let k = 0;
    for (const p of this.parts) {
      for (let i = 0; i < p.lengths.length; i++) if (job.lengths[k + i] !== p.lengths[i]) return false;
      if (job.text.slice(at, at + p.text.length) !== p.text) return false;
      at += p.text.length;
      k += p.lengths.length;
    }
    return true;
  }

  /** Field `k`'s primed tokens into `sink` (its length), or null when priming left it. */
  into(k: number, sink: BatchSink): number | null {
    const count = this.tokenCounts[k];
    if (count < 0) return null;
    sink.reserve(count);
    const numbering = this.numberings[k]!;
    const { ids, positions } = this;
    const outIds = sink.ids;
    const outPos = sink.positions;
    const { tag, posMask, counts } = sink;
    let used = sink.used;
    for (let i = this.starts[k], end = i + count; i < end; i++) {
      const id = sink.idOf(numbering, ids[i]);
      outIds[used] = id;
      outPos[used++] = tag | (positions[i] & posMask);
      if (counts !== null) counts[id]++;
    }
    sink.used = used;
    return this.lens[k];
  }
}
