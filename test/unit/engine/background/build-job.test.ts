// Priming a build thread's pipeline (build-job.ts primeFields): a job built after its rows (or others)
// were primed is the segment a fresh pipeline builds, and priming stops once a job was sent.
import { describe, expect, it } from 'vitest';
import { buildOfJob, primeFields } from '../../../../src/engine/background/build-job.js';
import { createTextPipeline, type TextPipeline } from '../../../../src/text/text-pipeline.js';
import { jobMaker, settings } from './helpers.js';

const WORDS = ['running', 'runners', 'the', 'quickly', 'brown', 'foxes', 'jumped', 'caf\u00e9', 'na\u00efve', 'of', '\u{1d400}x', 'generously'];
const jobOf = jobMaker(WORDS);

describe('primeFields', () => {
  it('leaves the segment a job builds as a fresh pipeline builds it', () => {
    const job = jobOf(1, 400);
    const want = buildOfJob(createTextPipeline(settings), job);
    for (const primed of [jobOf(1, 400), jobOf(1, 150), jobOf(900, 300)]) {
      const p = createTextPipeline(settings);
      primeFields(p, primed);
      const built = buildOfJob(p, job);
      expect(built.terms).toEqual(want.terms);
      expect(Buffer.from(built.blob).equals(Buffer.from(want.blob))).toBe(true);
    }
  });

  it('tokenizes every field until a job is sent, then stops', () => {
    const part = jobOf(1, 200); // 400 fields
    let fields = 0;
    const real = createTextPipeline(settings);
    const counting = {
      settings: real.settings,
      indexFieldInto: (text: string, sink: Parameters<NonNullable<TextPipeline['indexFieldInto']>>[1]) => { fields++; return real.indexFieldInto!(text, sink); },
      indexField: (text: string) => real.indexField(text),
    } as unknown as TextPipeline;
    const stop = new Int32Array(new SharedArrayBuffer(4));
    primeFields(counting, part, stop);
    expect(fields).toBe(400);
    fields = 0;
    Atomics.store(stop, 0, 1);
    primeFields(counting, part, stop);
    expect(fields).toBe(0);
  });
});
