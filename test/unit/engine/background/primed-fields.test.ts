// PrimedFields (a build thread's first rows' tokens kept from priming for their job): a job built
// from kept tokens is the segment a fresh pipeline builds, whether all, some or none of its fields were
// primed, priming stopped part-way, or the primed rows are not the job's (then nothing is copied).
import { describe, expect, it } from 'vitest';
import { buildOfJob, primeFields } from '../../../../src/engine/background/build-job.js';
import { PrimedFields } from '../../../../src/engine/background/primed-fields.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { jobMaker, settings } from './helpers.js';

// a surrogate (the scanner leaves such fields to the TS path), stopwords, stems, digits
const WORDS = ['running', 'runners', 'the', 'quickly', 'brown', 'foxes', 'jumped', 'caf\u00e9', 'of', '\u{1d400}x', 'generously', 'a'];
const jobOf = jobMaker(WORDS);
/** Field texts and lengths of rows [from, from + n), as primeRows sends them. */
const partOf = (from: number, n: number) => { const j = jobOf(from, n); return { settings, text: j.text, lengths: j.lengths }; };

function copies(kept: PrimedFields): () => number {
  let n = 0;
  const into = kept.into.bind(kept);
  kept.into = (k, sink) => { n++; return into(k, sink); };
  return () => n;
}

describe('PrimedFields', () => {
  const job = jobOf(1, 400);
  const want = buildOfJob(createTextPipeline(settings), job);
  const same = (built: ReturnType<typeof buildOfJob>) => {
    expect(built.terms).toEqual(want.terms);
    expect(Buffer.from(built.blob).equals(Buffer.from(want.blob))).toBe(true);
  };

  it("builds the job's segment from its primed fields, primed in parts, all or some of them", () => {
    for (const parts of [[[1, 400]], [[1, 150]], [[1, 100], [101, 120], [221, 30]]]) {
      const p = createTextPipeline(settings);
      const kept = new PrimedFields(p);
      for (const [from, n] of parts) primeFields(p, partOf(from, n), undefined, kept);
      const copied = copies(kept);
      same(buildOfJob(p, job, kept));
      // every primed field copied but those priming left (the surrogate's, taken by the job itself)
      expect(copied()).toBe(kept.fields);
      expect(kept.fields).toBe(parts.reduce((s, [, n]) => s + n * 2, 0));
    }
  });

  it('copies nothing when the primed rows are not the job\'s first rows (another text, same lengths too)', () => {
    const other = jobOf(1, 50);
    const swapped = { settings, text: other.text.replace(/running/g, 'runnink'), lengths: other.lengths };
    for (const part of [partOf(900, 300), partOf(2, 50), swapped]) {
      const p = createTextPipeline(settings);
      const kept = new PrimedFields(p);
      primeFields(p, part, undefined, kept);
      const copied = copies(kept);
      same(buildOfJob(p, job, kept));
      expect(copied()).toBe(0);
    }
  });

  it('keeps the fields primed before a job was sent, and a job of another pipeline copies none', () => {
    const p = createTextPipeline(settings);
    const kept = new PrimedFields(p);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    primeFields(p, partOf(1, 100), stop, kept);
    Atomics.store(stop, 0, 1);
    primeFields(p, partOf(101, 100), stop, kept);
    expect(kept.fields).toBe(200);
    const copied = copies(kept);
    same(buildOfJob(p, job, kept));
    expect(copied()).toBe(200);
    const other = createTextPipeline(settings);
    const copiedOther = copies(kept);
    same(buildOfJob(other, job, kept));
    expect(copiedOther()).toBe(0);
  });
});
