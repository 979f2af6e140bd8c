// Rows for the build-job tests (build-job, primed-fields): a stem_en table of a short title and a longer
// body, each row's words a different mix of `words` (digits appended to some), as buildJobOf ships them.
import { buildJobOf, type BuildJob } from '../../../../src/engine/background/build-job.js';
import type { IndexSchema } from '../../../../src/index/types.js';

export const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'n', type: 'uint' }] };
export const settings = { morphology: 'stem_en' };

/** jobOf(from, n): the job of rows from..from+n-1 (their ids), made of `words`. */
export function jobMaker(words: readonly string[]): (from: number, n: number) => BuildJob {
  const docs = (from: number, n: number) => Array.from({ length: n }, (_, k) => {
    const r = from + k;
    const text = (len: number) => Array.from({ length: len }, (_, i) => `${words[(r * 5 + i * i) % words.length]}${(r + i) % 7 === 0 ? r % 13 : ''}`).join(' ');
    return { title: text(3), body: text(25), n: r };
  });
  return (from, n) => buildJobOf(schema, settings, Array.from({ length: n }, (_, i) => BigInt(from + i)), docs(from, n));
}
