// The two index-time inversions, invertFields (a bulk load's build thread: fields written into the
// token arrays as they are tokenized) and invertDocs (rows as DocInputs), over random documents and
// random tokenizing settings: the same segment bytes, so a table reads the same whichever path built
// it. Their field-end bits once differed where positions go back (phrase_boundary_step -1 after
// stopwords of stopword_step 0): both now mark Manticore's tail hits (doc-inverter.ts fieldEndFrom).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { invertFields } from '../../../../src/index/segment/invert-fields.js';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';
import { pairSettings } from '../../../../src/index/segment/segment-pairs.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { setFieldScannerFactory } from '../../../../src/text/field-scanner.js';
import { coreFieldScanners } from '../../../../src/wasm/field-scanner.js';
import { ScannedFields } from '../../../../src/engine/background/scanned-fields.js';

const dir = mkdtempSync(join(tmpdir(), 'invert-paths-'));
const stopwords = join(dir, 'stop.txt');
writeFileSync(stopwords, 'the\na\nof\nand\n');

// words, stopwords, short words, numbers, blended and boundary characters, accents, an astral letter
const WORDS = ['run', 'running', 'runs', 'dog', 'dogs', 'the', 'a', 'of', 'and', 'x', 'is', '42', 'caf\u00e9', '\u00dcber',
  'hello,', 'world.', 'end!', 'well-known', 'a+b', 'C++', 'dog;', '\u{1d400}bc', 'Mr.', '...', ',', 'e-mail', 'the,', "don't",
  '<h1>', '</h1>', '<b>x</b>', '<p>', '&amp;', '\n\n', '\u4e2d\u6587', '<!-- c -->'];
const textArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }).map((w) => w.join(' '));
const rowsArb = fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 12 });

// positions: boundaries, stopwords and their steps, short words, blending, stemming (where the paths once
// differed: half the runs), and those with markup, zones, ignored characters and charsets
const positionSettings = {
  morphology: fc.constantFrom('none', 'stem_en'),
  phrase_boundary: fc.constantFrom('', 'U+2C', 'U+2C, U+2E, U+3B'),
  phrase_boundary_step: fc.constantFrom('-1', '0', '1', '3'),
  stopwords: fc.constantFrom('', stopwords),
  stopword_step: fc.constantFrom('0', '1'),
  stopwords_unstemmed: fc.constantFrom('0', '1'),
  min_word_len: fc.constantFrom('1', '2', '3'),
  overshort_step: fc.constantFrom('0', '1'),
  blend_chars: fc.constantFrom('', '-, +'),
  blend_mode: fc.constantFrom('trim_none', 'trim_none, trim_both, skip_pure'),
  index_exact_words: fc.constantFrom('0', '1'),
  bigram_index: fc.constantFrom('none', 'all'),
};
const settingsArb = fc.oneof(fc.record(positionSettings), fc.record({
  ...positionSettings,
  html_strip: fc.constantFrom('0', '1'),
  index_sp: fc.constantFrom('0', '1'),
  index_zones: fc.constantFrom('', 'h1, b'),
  ignore_chars: fc.constantFrom('', 'U+27'),
  min_stemming_len: fc.constantFrom('1', '5'),
  charset_table: fc.constantFrom('', 'non_cont', '0..9, a..z, A..Z->a..z, U+E9'),
})).map((s) => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== '')) as Record<string, string>);

// the fields' texts one after another, as a build job holds them (ScannedFields reads runs of them)
const jobText = (rows: [string, string][]) => ({ text: rows.flat().join(''), lengths: Uint32Array.from(rows.flat().map((t) => t.length)) });

describe('invertFields and invertDocs', () => {
  // each field written into the sink on its own (indexFieldInto), and the build thread's runs of
  // fields scanned together (ScannedFields), where the pipeline scans so
  for (const scanner of [false, true]) {
    it(`build the same segment from random documents under random settings (${scanner ? 'runs of scanned fields' : 'field by field'})`, () => {
      setFieldScannerFactory(coreFieldScanners);
      let written = 0;
      let scannedRuns = 0;
      try {
        fc.assert(fc.property(settingsArb, rowsArb, (settings, rows) => {
          const schema: IndexSchema = { fields: ['title', 'body'], attrs: [], pairs: pairSettings({ bigram_index: settings.bigram_index }) };
          const p = createTextPipeline(settings);
          const ids = BigUint64Array.from(rows.map((_, i) => BigInt(i + 1)));
          const { text, lengths } = jobText(rows);
          const runs = scanner ? ScannedFields.of(p, text, lengths) : null;
          if (runs) scannedRuns++;
          const at = lengths.reduce<number[]>((a, n) => [...a, a[a.length - 1] + n], [0]);
          const fields = invertFields(schema, ids, [], 8, (r, f, sink) => {
            const k = r * 2 + f;
            const len = runs ? runs.into(k, at[k], sink) : p.indexFieldInto!(rows[r][f], sink);
            if (len !== null) written++;
            return len ?? p.indexField(rows[r][f]);
          });
          const q = createTextPipeline(settings);
          const docs: DocInput[] = rows.map((r, i) => ({ docId: ids[i], fields: [q.indexField(r[0]), q.indexField(r[1])], attrs: [] }));
          const built = buildSegment(schema, fields);
          const want = buildSegment(schema, invertDocs(schema, docs));
          expect(built.terms, JSON.stringify({ settings, rows })).toEqual(want.terms);
          expect(Buffer.from(built.blob).equals(Buffer.from(want.blob)), JSON.stringify({ settings, rows })).toBe(true);
        }), { numRuns: 1000 });
      } finally {
        setFieldScannerFactory(null);
      }
      expect(written).toBeGreaterThan(1000); // the sink's path was the one taken mostly
      if (scanner) expect(scannedRuns).toBeGreaterThan(200); // html_strip does not scan so
    });
  }

  // a build thread keeps its pipeline from batch to batch: the packer's memo of each scanner token then
  // holds its term number from a batch before but not its batch id (field-pack.ts), so each batch must
  // still build what a fresh pipeline builds
  it('build the same segments batch after batch with one pipeline', () => {
    setFieldScannerFactory(coreFieldScanners);
    try {
      fc.assert(fc.property(settingsArb, fc.array(rowsArb, { minLength: 2, maxLength: 4 }), (settings, batches) => {
        const schema: IndexSchema = { fields: ['title', 'body'], attrs: [], pairs: pairSettings({ bigram_index: settings.bigram_index }) };
        const p = createTextPipeline(settings);
        for (const rows of batches) {
          const ids = BigUint64Array.from(rows.map((_, i) => BigInt(i + 1)));
          const { text, lengths } = jobText(rows);
          const runs = ScannedFields.of(p, text, lengths);
          const at = lengths.reduce<number[]>((a, n) => [...a, a[a.length - 1] + n], [0]);
          const fields = invertFields(schema, ids, [], 8, (r, f, sink) => {
            const k = r * 2 + f;
            return (runs ? runs.into(k, at[k], sink) : p.indexFieldInto!(rows[r][f], sink)) ?? p.indexField(rows[r][f]);
          });
          const q = createTextPipeline(settings);
          const docs: DocInput[] = rows.map((r, i) => ({ docId: ids[i], fields: [q.indexField(r[0]), q.indexField(r[1])], attrs: [] }));
          const built = buildSegment(schema, fields);
          const want = buildSegment(schema, invertDocs(schema, docs));
          expect(built.terms, JSON.stringify({ settings, batches })).toEqual(want.terms);
          expect(Buffer.from(built.blob).equals(Buffer.from(want.blob)), JSON.stringify({ settings, batches })).toBe(true);
        }
      }), { numRuns: 300 });
    } finally {
      setFieldScannerFactory(null);
    }
  });
});
