/**
 * A bulk load's segment built on another thread: the rows' field texts and attribute values as stored
 * go to a build thread (build-thread.ts), which tokenizes, inverts and encodes them with the table's
 * own settings and sends the segment back, while this thread reads the next batch and writes the one
 * before. `quarry import --data` installs the thread (setBuildRunner); without one, rows build inline.
 */
import type { AttrValue, DocInput, IndexSchema } from '../../index/types.js';
import { buildSegment, invertDocs, type BuiltSegment } from '../../index/segment/segment-builder.js';
import { invertFields } from '../../index/segment/invert-fields.js';
import { exactWordsEnabled } from '../../index/exact-forms.js';
import type { TableSettings } from '../../schema/types.js';
import type { TextPipeline } from '../../text/text-pipeline.js';
import type { StoredDoc } from '../durability/table-store.js';
import { indexedField } from '../field-input.js';
import { PrimedFields } from './primed-fields.js';
import { ScannedFields } from './scanned-fields.js';

/** One batch's segment to build: what a structured clone carries (strings, typed arrays, plain values). */
export interface BuildJob {
  settings: TableSettings;
  schema: IndexSchema;
  ids: BigUint64Array;
  /**
   * Field texts row by row, one after another in one string: row r's field f is the (r * fields + f)-th
   * piece, its length in `lengths`. One string is one copy through the structured clone and one object
   * in the build thread's large-object space, where a string per field was 50k young objects a batch
   * (7 MB of gcide text) that every scavenge before the build's end copied and then promoted.
   */
  text: string;
  lengths: Uint32Array;
  /** Attribute values column by column (IndexSchema.attrs order), one per row. */
  attrs: AttrValue[][];
}

/** Builds a job's segment on a build thread. */
export type BuildRunner = (job: BuildJob) => Promise<BuiltSegment>;

/**
 * Field texts of rows a bulk load is still reading, for a build thread to tokenize meanwhile
 * (primeFields): its first batch then finds their words already stemmed and numbered.
 */
export type BuildPart = Pick<BuildJob, 'settings' | 'text' | 'lengths'>;
export type BuildPrimer = (part: BuildPart) => void;

let runner: BuildRunner | null = null;
let primer: BuildPrimer | null = null;

/** Installs (or with null removes) the build thread row loads use from now on, and what primes it. */
export function setBuildRunner(r: BuildRunner | null, p: BuildPrimer | null = null): void {
  runner = r;
  primer = r ? p : null;
}

/** What primes the installed build thread; null: none. */
export function buildPrimer(): BuildPrimer | null {
  return primer;
}

/** The installed build thread; null: build inline. */
export function buildRunner(): BuildRunner | null {
  return runner;
}

/** The job of stored documents `docs` with ids `ids`, for a table of `schema` and `settings`. */
export function buildJobOf(schema: IndexSchema, settings: TableSettings, ids: bigint[], docs: StoredDoc[]): BuildJob {
  const fields = schema.fields;
  const texts: string[] = new Array(docs.length * fields.length);
  const lengths = new Uint32Array(texts.length);
  fieldTexts(docs, fields, texts, lengths);
  const attrs = schema.attrs.map((a) => docs.map((d) => (d[a.name] ?? null) as AttrValue));
  return { settings, schema, ids: BigUint64Array.from(ids), text: texts.join(''), lengths, attrs };
}

/**
 * Each row's fields' texts and lengths, row by row. A loop of its own (as the inversion's loops,
 * doc-inverter.ts says why): in buildJobOf, V8 optimized it on the stack and the code after it, never
 * run by then, deoptimized buildJobOf at every job (7 deopts over a gcide import, on the main thread).
 */
function fieldTexts(docs: StoredDoc[], fields: readonly string[], texts: string[], lengths: Uint32Array): void {
  for (let r = 0, k = 0; r < docs.length; r++) {
    const doc = docs[r];
    for (let f = 0; f < fields.length; f++, k++) {
      texts[k] = String(doc[fields[f]] ?? '');
      lengths[k] = texts[k].length;
    }
  }
}

/**
 * Tokenizes a part's fields with `pipeline`. The pipeline remembers the scanner's ids, stems and term
 * numbers, so a later build of the same words is cheaper; with `keep`, the fields' tokens are kept
 * too, for the job of these rows to copy (primed-fields.ts). No segment depends on either. The same
 * path buildOfJob takes, so its code is warm too. Stops early once `stop[0]` is set (a job was sent:
 * priming is for the time before it, never in its way).
 */
export function primeFields(pipeline: TextPipeline, part: BuildPart, stop?: Int32Array, keep?: PrimedFields): void {
  const into = pipeline.indexFieldInto;
  const { text, lengths } = part;
  const sink = keep ?? primeSink;
  const runs = ScannedFields.of(pipeline, text, lengths);
  let k = 0;
  let at = 0;
  for (; k < lengths.length; k++) {
    if ((k & 63) === 0 && stop && Atomics.load(stop, 0) !== 0) break;
    if (keep) keep.begin();
    else sink.used = 0;
    let length = runs ? runs.into(k, at, sink) : null;
    if (length !== null) {
      at += lengths[k];
    } else {
      const field = text.slice(at, (at += lengths[k]));
      length = into ? into.call(pipeline, field, sink) : null;
      if (length === null) pipeline.indexField(field);
    }
    keep?.written(length);
  }
  keep?.partDone(text.slice(0, at), lengths.subarray(0, k));
}

/** A sink that numbers nothing: every term id 0, the tokens overwritten field by field. */
const primeSink = {
  ids: new Uint32Array(1024), positions: new Uint32Array(1024), used: 0, batch: -1, tag: 0, posMask: -1, counts: null,
  reserve(entries: number): void {
    if (entries <= this.ids.length) return;
    this.ids = new Uint32Array(entries);
    this.positions = new Uint32Array(entries);
  },
  idOf: (): number => 0,
};

/**
 * Whether buildOfJob scans the fields of `pipeline` (with table `settings`) straight into the inversion:
 * the pipeline has indexFieldInto and no exact word forms are indexed. Otherwise it makes a DocInput per
 * row as Table.docInput does, and building from the job saves nothing.
 */
function scansDirect(pipeline: TextPipeline, settings: TableSettings): boolean {
  return pipeline.indexFieldInto !== undefined && !exactWordsEnabled(pipeline.settings.morphology.length > 0, settings);
}

/**
 * Builds a job's segment with `pipeline` (the table's settings'): what Table.docInput and
 * RtIndex.prepareBatch make of the same rows. `primed`: tokens of its first fields primed with the same
 * pipeline, copied where they are the job's (PrimedFields.matches).
 */
export function buildOfJob(pipeline: TextPipeline, job: BuildJob, primed?: PrimedFields | null): BuiltSegment {
  const { schema, settings, ids, text, lengths, attrs } = job;
  const into = pipeline.indexFieldInto;
  if (into && scansDirect(pipeline, settings)) {
    // each field scanned straight into the inversion's token arrays: no FieldTokens, DocInput or
    // packed chunk per field, one id look-up per token (a tenth of the gcide build thread's CPU went to
    // making and collecting those, and to their scavenges); a field the scanner does not take is
    // indexed as indexedField does. About a token per 4 characters of text to start with.
    // (the fields scanned a run at a time where the pipeline can: scanned-fields.ts)
    let at = 0;
    const guess = (text.length >> 2) + lengths.length;
    const runs = ScannedFields.of(pipeline, text, lengths);
    const nf = schema.fields.length;
    const kept = primed && primed.pipeline === pipeline && primed.matches(job) ? primed : null;
    const keptFields = kept?.fields ?? 0;
    return buildSegment(schema, invertFields(schema, ids, attrs, guess, (r, f, sink) => {
      const k = r * nf + f;
      const scanned = k < keptFields ? kept!.into(k, sink) : runs?.into(k, at, sink);
      if (scanned != null) {
        at += lengths[k];
        return scanned;
      }
      const field = text.slice(at, (at += lengths[k]));
      return into.call(pipeline, field, sink) ?? indexedField(pipeline, settings, field);
    }));
  }
  const nf = schema.fields.length;
  const inputs: DocInput[] = new Array(ids.length);
  const noAttrs: AttrValue[] = [];
  for (let r = 0, at = 0; r < ids.length; r++) {
    const fields = new Array(nf);
    for (let f = 0; f < nf; f++) {
      const end = at + lengths[r * nf + f];
      fields[f] = indexedField(pipeline, settings, text.slice(at, end));
      at = end;
    }
    // a row's values without a closure per row, and one shared empty list for a table of no attributes
    let values = noAttrs;
    if (attrs.length > 0) {
      values = new Array(attrs.length);
      for (let a = 0; a < attrs.length; a++) values[a] = attrs[a][r];
    }
    inputs[r] = { docId: ids[r], fields, attrs: values };
  }
  return buildSegment(schema, invertDocs(schema, inputs));
}
