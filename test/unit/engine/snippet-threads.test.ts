// Snippets built on a snippet thread (src/engine/snippet-worker.ts, the compiled one in dist/) equal
// the ones built on the calling thread, on random documents, queries and options; and a page spread
// by buildSnippetsBatch equals the page built here document by document.
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { configureSnippetThreads } from '../../../src/engine/snippet-threads.js';
import { installNodeHost } from '../../../src/engine/node-host.js';
import { buildSnippetsBatch, MIN_SPLIT_UNITS } from '../../../src/highlight/snippet-batch.js';
import { buildSnippets, type FieldInput } from '../../../src/highlight/snippet-builder.js';
import { snippetOptions, type RawOption } from '../../../src/highlight/snippet-options.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

installNodeHost();
const threads = configureSnippetThreads(1);
afterAll(() => { configureSnippetThreads(0); });

const settings = { morphology: 'stem_en', html_strip: '1' };
const env = { pipeline: createTextPipeline(settings), settings };
const WORDS = ['apple', 'apples', 'pie', 'tart', 'red', 'blue', 'the', 'of', 'running', 'runs'];
const SEPS = [' ', ' ', ' ', ', ', '. ', '; ', ' <b>', '</b> ', '\n'];

const text = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPS)), { minLength: 0, maxLength: 120 })
  .map((ws) => ws.map(([w, s]) => w + s).join(''));
const doc = fc.tuple(text, text).map(([t, b]): FieldInput[] => [{ name: 'title', text: t }, { name: 'body', text: b }]);
const word = fc.constantFrom(...WORDS);
const query = fc.oneof(
  word,
  fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
  fc.tuple(word, word).map(([a, b]) => `${a} | ${b}`),
  fc.tuple(word, word).map(([a, b]) => `"${a} ${b}"`),
  fc.tuple(word, word).map(([a, b]) => `${a} NEAR/2 ${b}`),
  fc.tuple(word, word).map(([a, b]) => `@title ${a} | @body ${b}`),
  fc.tuple(word, word).map(([a, b]) => `${a} -${b}`),
);
const options = fc.record({
  limit: fc.constantFrom(0, 20, 60, 256),
  around: fc.integer({ min: 0, max: 6 }),
  limit_words: fc.constantFrom(0, 3, 10),
  html_strip_mode: fc.constantFrom('index', 'none', 'strip', 'retain'),
  weight_order: fc.constantFrom(0, 1),
  force_all_words: fc.constantFrom(0, 1),
  allow_empty: fc.constantFrom(0, 1),
})
  // retain mode takes no limits (searchd's rule)
  .map((r) => (r.html_strip_mode === 'retain' ? { ...r, limit: 0, limit_words: 0 } : r))
  .map((r) => Object.entries(r).map(([name, value]): RawOption => ({ name, value })));
const flags = fc.constantFrom(
  { ignoreFields: false, textFromIndex: true, packFields: false, schemaFields: ['title', 'body'] },
  { ignoreFields: false, textFromIndex: true, packFields: true, schemaFields: ['title', 'body'] },
  { ignoreFields: true, textFromIndex: false, packFields: false },
);

describe('snippet threads', () => {
  it('the compiled worker is there (npm run build) and installed', () => {
    expect(threads).not.toBeNull();
  });

  it('a thread builds what the calling thread builds', async () => {
    await fc.assert(fc.asyncProperty(fc.array(doc, { minLength: 1, maxLength: 6 }), query, options, flags, async (docs, q, raw, f) => {
      const root = parseQuery(q, { fields: ['title', 'body'] }).root;
      const opts = snippetOptions(raw);
      const here = docs.map((d) => buildSnippets(root, d, opts, env, f));
      const there = await threads!.run({ settings, root, opts, flags: f, docs });
      expect(there).toEqual(here);
    }), { numRuns: 60 });
  });

  it('a page spread over the threads equals the page built document by document', async () => {
    await fc.assert(fc.asyncProperty(fc.array(doc, { minLength: 12, maxLength: 20 }), query, options, flags, async (docs, q, raw, f) => {
      const root = parseQuery(q, { fields: ['title', 'body'] }).root;
      const opts = snippetOptions(raw);
      // long enough to be spread: every document's text repeated up to past the threshold
      const big = docs.map((d) => d.map((x) => ({ ...x, text: x.text.repeat(Math.ceil(MIN_SPLIT_UNITS / 400)) })));
      const here = big.map((d) => buildSnippets(root, d, opts, env, f));
      expect(await buildSnippetsBatch(root, big, opts, env, f)).toEqual(here);
    }), { numRuns: 15 });
  });
});
