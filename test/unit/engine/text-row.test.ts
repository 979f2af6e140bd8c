// Rows bound for the RAM tail as texts (text-row.ts): tokenized on first read of their fields as
// Table.docInput tokenizes, and built by the tail builder in one batch into the very segment the index
// builds from their fields; rows it cannot build so (mixed, other pipelines) are left to the index.
import { describe, expect, it } from 'vitest';
import { TextRow, textRowBuilder } from '../../../src/engine/text-row.js';
import { indexedField } from '../../../src/engine/field-input.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { buildSegment, invertDocs } from '../../../src/index/segment/segment-builder.js';
import { pairSettings } from '../../../src/index/segment/segment-pairs.js';
import type { DocInput, IndexSchema } from '../../../src/index/types.js';

const WORDS = ['running', 'runner', 'quick', 'brown', 'foxes', 'jumped', 'the', 'café', 'naïve', '<b>bold</b>', 'a'];
const text = (r: number, n: number) => Array.from({ length: n }, (_, i) => WORDS[(r * 5 + i * i) % WORDS.length]).join(' ');

describe.each<{ name: string; settings: Record<string, string> }>([
  { name: 'stem_en', settings: { morphology: 'stem_en' } },
  { name: 'exact words, bigrams, html', settings: { morphology: 'stem_en', index_exact_words: '1', bigram_index: 'all', html_strip: '1' } },
  { name: 'plain', settings: {} },
])('text rows ($name)', ({ settings }) => {
  const schema: IndexSchema = {
    fields: ['title', 'body'], attrs: [{ name: 'n', type: 'uint' }, { name: 'tag', type: 'string' }], pairs: pairSettings(settings),
  };
  const pipeline = createTextPipeline(settings);
  const rows = (from: number, n: number, p = pipeline) => Array.from({ length: n }, (_, k) => {
    const r = from + k;
    return new TextRow(BigInt(r), [text(r, 3), `${text(r + 1, 30)}. ${text(r + 2, 7)}`], [r * 3, `t${r % 4}`], p, settings);
  });

  it('tokenize on first read of their fields as the table does', () => {
    const [row] = rows(7, 1);
    const plain = (f: { terms: string[]; positions: number[]; length: number }) => ({ terms: [...f.terms], positions: [...f.positions], length: f.length });
    expect(row.fields.map(plain)).toEqual(row.texts.map((t) => plain(indexedField(createTextPipeline(settings), settings, t))));
    expect(row.fields).toBe(row.fields); // once
  });

  it('build in one batch the segment built from their fields', () => {
    const batch = rows(1, 300);
    const built = textRowBuilder.build(schema, batch)!;
    const own = buildSegment(schema, invertDocs(schema, rows(1, 300, createTextPipeline(settings))));
    expect(Buffer.from(built.blob).equals(Buffer.from(own.blob))).toBe(true);
    expect(built.terms).toEqual(own.terms);
    expect(built.hostCols).toEqual(own.hostCols);
  });

  it('leave mixed rows and rows of two pipelines to the index', () => {
    const plain: DocInput = { docId: 9n, fields: rows(9, 1)[0]!.fields, attrs: [1, 'x'] };
    expect(textRowBuilder.build(schema, [...rows(1, 3), plain])).toBeNull();
    expect(textRowBuilder.build(schema, [...rows(1, 3), ...rows(4, 2, createTextPipeline(settings))])).toBeNull();
  });
});
