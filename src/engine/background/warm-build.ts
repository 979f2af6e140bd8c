/**
 * A build thread's code given its type feedback before the first real job: a few hundred rows of
 * made-up English built (primed, then two jobs) with a stem_en pipeline of their own, while the loading
 * thread reads its first batch. Without it, V8 optimized the stemmer's and the inverter's functions on
 * the first batch's feedback and threw that code away at the first branch the batch had not taken
 * ("Insufficient type feedback" deopts: stemEn, stemBuffer, step1b, step2i, termStarts, mergeOrder,
 * idOf, ...), then compiled them again: over a gcide import ~300 TurboFan compiles on V8's helper
 * threads, a sixth of the process's CPU on a machine of 2 cores whose other core the build thread
 * needs. No segment depends on it: its pipeline, scanner ids and term numbers are its own. The build
 * thread runs it at the first priming (build-worker.ts): a load of one small batch, whose job is sent
 * at once, skips it.
 */
import type { IndexSchema } from '../../index/types.js';
import { createTextPipeline } from '../../text/text-pipeline.js';
import { buildJobOf, buildOfJob, primeFields } from './build-job.js';
import { PrimedFields } from './primed-fields.js';

/**
 * Rows built: enough for the feedback (build-job bench, CPU of the gcide jobs after it, load 10-13: 60
 * rows -8%, 200 -11%, 600 -13%) at little cost of its own (~37, ~85, ~140 ms, on the thread's wait for
 * its first batch).
 */
const WARM_ROWS = 240;

/** Word stems the suffixes go on: short and long regions, vowels and consonants before the suffix. */
const STEMS = ['gener', 'nat', 'relat', 'condit', 'hop', 'fil', 'cry', 'tri', 'agre', 'feed', 'bleed', 'sing', 'communic',
  'arsen', 'reason', 'electr', 'formal', 'sens', 'adjust', 'depend', 'activ', 'effect', 'hope', 'ski', 'dy', 'lie', 'news'];
/** The stemmer's suffixes (stem-en.ts steps 1-5) and a few endings with none. */
const SUFFIXES = ['', 's', 'es', 'sses', 'ied', 'ies', 'us', 'ss', 'eed', 'eedly', 'ed', 'edly', 'ing', 'ingly', 'at', 'bl', 'iz',
  'tional', 'ational', 'enci', 'anci', 'abli', 'bli', 'entli', 'aliti', 'ousli', 'iviti', 'biliti', 'fulli', 'lessli', 'ogi', 'li',
  'alism', 'ization', 'ation', 'izer', 'ator', 'fulness', 'ousness', 'iveness', 'alize', 'icate', 'ative', 'iciti', 'ical', 'ful',
  'ness', 'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
  'sion', 'tion', 'e', 'll', 'y', 'ly', "'s", 'ies'];
/** The stemmer's listed exceptions and words of other shapes: non-ASCII, digits, capitals, long, one letter. */
const OTHERS = ['the', 'and', 'sky', 'news', 'howe', 'proceed', 'exceed', 'succeed', 'inning', 'outing', 'canning', 'innings',
  'cannings', 'idly', 'gently', 'singly', 'ugly', 'early', 'only', 'skis', 'dying', 'lying', 'tying', 'atlas', 'cosmos', 'bias',
  'andes', 'generous', 'commune', 'café', 'naïve', 'Œuvre', 'straße', 'élan', 'x', 'a1', '1066', '3.14', 'B.C.', 'NASA',
  'Yellow', 'sayYes', 'antidisestablishmentarianism', 'pneumonoultramicroscopicsilicovolcanoconiosis', 'ab', 'e.g.',
  'αbility', 'æsthetics', 'þorns', 'nationally', 'organizationally', 'conditionally', 'yes', 'yesterday', 'ayes', 'sayyid',
  // short words: the stemmer's rules for words of 3-4 letters (a short syllable, a vowel first)
  'are', 'ate', 'use', 'one', 'eye', 'ice', 'age', 'ago', 'axe', 'ode', 'eve', 'ore', 'awe', 'aye', 'isle', 'able', 'idle', 'ooze',
  'of', 'to', 'in', 'it', 'is', 'be', 'as', 'at', 'so', 'we', 'he', 'by', 'or', 'on', 'do', 'if', 'me', 'my', 'up', 'an', 'go', 'no',
  'us', 'am', 'was', 'his', 'not', 'all', 'can', 'had', 'him', 'has', 'may', 'day', 'way', 'saw', 'bye', 'dye', 'rye', 'lye', 'sly',
  'cry', 'fly', 'why', 'key', 'toy', 'boy', 'guy', 'pay', 'say', 'hope', 'made', 'time', 'like', 'make', 'come', 'take', 'life',
  'name', 'same', 'here', 'there', 'where', 'these', 'those', 'some', 'more', 'into', 'than', 'then', 'them', 'been', 'have', 'were',
  'what', 'when', 'which', 'their', 'would', 'other', 'about', 'could', 'people', 'little', 'very', 'after', 'words', 'called',
  'just', 'through', 'because', 'before', 'different', 'following', 'between', 'important', 'anything', 'everything', 'nothing',
  'sometimes', 'himself', 'itself', 'during', 'being', 'having', 'quickly', 'happily', 'probably', 'really', 'usually',
  'especially', 'actually', 'finally', 'certainly', 'easily', 'necessarily', 'particularly', 'international', 'operationally',
  'sensationally', 'educationally', 'rationality', 'generality', 'generalization', 'communication', 'beautiful', 'beautifully',
  'carefulness', 'happiness', 'business', 'witness', 'goodness', 'agreed', 'feeding', 'proceeding', 'exceedingly', 'shipping',
  'hopping', 'hoping', 'filing', 'filling', 'failing', 'sizing', 'seizing', 'controlling', 'rolling', 'tying', 'ties', 'cries',
  'flies', 'dies', 'lies', 'gas', 'this', 'bus', 'plus', 'class', 'glass', 'kiss', 'boss', 'caress', 'ponies', 'skies', 'dying'];

/**
 * Rows of made-up text (deterministic): the first row's body every word once, the rare shapes first (a
 * function optimized on the run before them would still be thrown away at the first), then rows of a
 * title of 1-3 words and a body of 5-44, some punctuated.
 */
function warmRows(rows: number): { title: string; body: string }[] {
  const words: string[] = [...OTHERS];
  for (const stem of STEMS) for (const sfx of SUFFIXES) words.push(stem + sfx);
  let seed = 12345;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed >>> 8) % n;
  };
  const phrase = (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(words[next(words.length)] + (next(9) === 0 ? ',' : next(17) === 0 ? '.' : ''));
    return out.join(' ');
  };
  const docs: { title: string; body: string }[] = [{ title: OTHERS.join(' '), body: words.join(' ') }];
  for (let r = 1; r < rows; r++) docs.push({ title: phrase(1 + next(3)), body: r % 50 === 7 ? '' : phrase(5 + next(40)) });
  return docs;
}

/**
 * Builds the made-up rows as a bulk load builds its batches (primed first rows, then jobs); the result
 * is dropped. Stops between its steps once `stop[0]` is set (a job was sent: as priming, never in its way).
 */
export function warmBuild(stop?: Int32Array): void {
  const stopped = () => stop !== undefined && Atomics.load(stop, 0) !== 0;
  if (stopped()) return;
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
  const settings = { morphology: 'stem_en' } as Parameters<typeof buildJobOf>[1];
  const docs = warmRows(WARM_ROWS);
  const jobOf = (from: number, to: number) => buildJobOf(schema, settings, docs.slice(from, to).map((_, i) => BigInt(from + i + 1)),
    docs.slice(from, to));
  const pipeline = createTextPipeline(settings);
  const kept = new PrimedFields(pipeline);
  const n = docs.length;
  primeFields(pipeline, jobOf(0, n / 6), undefined, kept);
  if (stopped()) return;
  buildOfJob(pipeline, jobOf(0, n / 2), kept);
  if (stopped()) return;
  buildOfJob(pipeline, jobOf(n / 2, n));
}
