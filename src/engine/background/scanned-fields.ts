/**
 * A build job's fields scanned in runs (FieldScanner.scanFields): some 64K UTF-16 units of fields
 * one after another in one call to the core, then each field's tokens written into the inversion's
 * sink from that scan. A call per field, and the core's look-up batch cut short at each field's end,
 * were a third of the scanner's time over gcide's short fields. A field the core does not take goes
 * the per-field path, and the run after it is scanned afresh (that path may move core memory or
 * renumber the scanner's ids).
 */
import type { BatchSink } from '../../text/batch-sink.js';
import type { FieldScanner, FieldsScan } from '../../text/field-scanner.js';
import type { TextPipeline } from '../../text/text-pipeline.js';
import { keepShape } from '../../util/shape-keeper.js';

/** UTF-16 units of a run (more only when one field is longer). */
const RUN_UNITS = 1 << 16;

export class ScannedFields {
  /** Fields [from, to) of the job are in `scan`; the next field's records start at `record`. */
  private from = 0;
  private to = 0;
  private record = 0;
  private scan: FieldsScan | null = null;

  private constructor(
    private readonly pipeline: TextPipeline,
    private readonly scanner: FieldScanner,
    private readonly text: string,
    private readonly lengths: Uint32Array,
  ) {}

  static {
    // the map kept between seals (util/shape-keeper.ts): one is made per build job and dropped with it
    keepShape(new ScannedFields(null as unknown as TextPipeline, null as unknown as FieldScanner, '', new Uint32Array(0)));
  }

  /** Runs over the job's fields (`text`, `lengths` as BuildJob's), or null when the pipeline does not scan so. */
  static of(pipeline: TextPipeline, text: string, lengths: Uint32Array): ScannedFields | null {
    const scanner = pipeline.fieldsScanner?.();
    if (!scanner?.scanFields || !pipeline.indexScannedInto) return null;
    return new ScannedFields(pipeline, scanner, text, lengths);
  }

  /**
   * Field `k` (its text at `at` in the job's text; fields come in order) written into `sink`: its
   * length, or null when it takes the per-field path.
   */
  into(k: number, at: number, sink: BatchSink): number | null {
    if (k >= this.to || k < this.from) this.scanRun(k, at);
    const scan = this.scan;
    if (!scan) return null;
    const count = scan.counts[k - this.from];
    if (count < 0) {
      // the per-field path runs the core on its own scratch: the fields after it are scanned again
      this.to = k + 1;
      return null;
    }
    const from = this.record;
    this.record += count;
    return this.pipeline.indexScannedInto!(scan, from, count, sink);
  }

  /** Scans the run of fields from `k` (text at `at`). */
  private scanRun(k: number, at: number): void {
    const { lengths } = this;
    let end = k;
    let units = 0;
    while (end < lengths.length && (end === k || units + lengths[end] <= RUN_UNITS)) units += lengths[end++];
    this.from = k;
    this.to = end;
    this.record = 0;
    this.scan = this.scanner.scanFields!(this.text.slice(at, at + units), lengths.subarray(k, end));
  }
}
