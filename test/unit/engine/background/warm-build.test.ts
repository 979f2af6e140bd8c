// The build thread's warm-up (warm-build.ts) runs the build's code on made-up rows before the first job:
// a job built after it is the segment a process that never warmed up builds, with or without primed
// rows, and a pipeline used before the warm-up goes on building the same segments after it.
import { describe, expect, it } from 'vitest';
import { buildOfJob, primeFields } from '../../../../src/engine/background/build-job.js';
import { PrimedFields } from '../../../../src/engine/background/primed-fields.js';
import { warmBuild } from '../../../../src/engine/background/warm-build.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { jobMaker, settings } from './helpers.js';

const WORDS = ['running', 'runners', 'the', 'quickly', 'brown', 'foxes', 'jumped', 'caf\u00e9', 'na\u00efve', 'of', 'generously',
  'ability', 'are', 'nationally', 'yellow', '\u03b1bility', 'hopefulness'];
const jobOf = jobMaker(WORDS);

describe('warmBuild', () => {
  it('leaves the segments jobs build as they are without it', () => {
    const before = createTextPipeline(settings);
    const want = [buildOfJob(before, jobOf(1, 300)), buildOfJob(createTextPipeline(settings), jobOf(301, 200))];
    warmBuild();
    const fresh = createTextPipeline(settings);
    const kept = new PrimedFields(fresh);
    primeFields(fresh, jobOf(1, 100), undefined, kept);
    const got = [buildOfJob(fresh, jobOf(1, 300), kept), buildOfJob(before, jobOf(301, 200))];
    for (let i = 0; i < want.length; i++) {
      expect(got[i].terms).toEqual(want[i].terms);
      expect(Buffer.from(got[i].blob).equals(Buffer.from(want[i].blob))).toBe(true);
    }
    expect(want[0].terms.length).toBeGreaterThan(10);
  });
});
