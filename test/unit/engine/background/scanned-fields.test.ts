// ScannedFields (a build job's fields scanned a run at a time) against indexFieldInto field by field:
// the same term ids and positions in the sink, the same field lengths, and the per-field path (null)
// for exactly the fields the scanner does not take (surrogates), the runs after them scanned again.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ScannedFields } from '../../../../src/engine/background/scanned-fields.js';
import type { BatchSink } from '../../../../src/text/batch-sink.js';
import type { TermNumbering } from '../../../../src/index/types.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';

const WORDS = ['running', 'the', 'Dogs', 'caf\u00e9', 'of', '\u{1d400}x', 'generously', 'a', '42', 'x'.repeat(50), 'hello, world'];
const fieldArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }).map((w) => w.join(' '));

/** A sink naming each term by its text (ids stand for terms, whatever numbering the walker keeps). */
function sink(): BatchSink & { terms: string[] } {
  const byName = new Map<string, number>();
  const terms: string[] = [];
  return {
    ids: new Uint32Array(16), positions: new Uint32Array(16), used: 0, batch: 1, terms, tag: 0, posMask: -1, counts: null,
    reserve(n: number) {
      if (this.used + n <= this.ids.length) return;
      const ids = new Uint32Array((this.used + n) * 2);
      const positions = new Uint32Array((this.used + n) * 2);
      ids.set(this.ids.subarray(0, this.used));
      positions.set(this.positions.subarray(0, this.used));
      this.ids = ids;
      this.positions = positions;
    },
    idOf(numbering: TermNumbering, num: number) {
      const name = numbering.names[num];
      let id = byName.get(name);
      if (id === undefined) byName.set(name, (id = terms.push(name) - 1));
      return id;
    },
  };
}

const tokens = (s: ReturnType<typeof sink>) => Array.from(s.ids.subarray(0, s.used), (id, i) => `${s.terms[id]}@${s.positions[i]}`);

describe('ScannedFields', () => {
  it('writes each field as indexFieldInto does, and leaves the fields it leaves', () => {
    fc.assert(fc.property(fc.array(fieldArb, { maxLength: 80 }), fc.integer({ min: 0, max: 3 }), (fields, pad) => {
      // some fields long enough that a job is several runs
      const texts = fields.map((f, i) => (i % 7 === pad ? `${f} ${'word '.repeat(4000)}` : f));
      const lengths = Uint32Array.from(texts.map((t) => t.length));
      const text = texts.join('');
      const a = createTextPipeline({ morphology: 'stem_en' });
      const b = createTextPipeline({ morphology: 'stem_en' });
      const runs = ScannedFields.of(a, text, lengths)!;
      expect(runs).not.toBeNull();
      const got = sink();
      const want = sink();
      for (let k = 0, at = 0; k < texts.length; at += lengths[k], k++) {
        const len = runs.into(k, at, got);
        const alone = b.indexFieldInto!(texts[k], want);
        expect(len === null).toBe(alone === null);
        if (len === null) expect(a.indexFieldInto!(texts[k], got)).toBeNull(); // as the build does
        else expect(len).toBe(alone);
      }
      expect(tokens(got)).toEqual(tokens(want));
    }), { numRuns: 60 });
  });

  it('scans the fields after one it leaves afresh (the per-field path may move core memory or renumber ids)', () => {
    const texts = ['the dogs', 'running', 'a \u{1d400} b', 'caf\u00e9 dogs', 'of the running', 'x'.repeat(70_000), 'dogs'];
    const lengths = Uint32Array.from(texts.map((t) => t.length));
    const real = createTextPipeline({ morphology: 'stem_en' });
    const scanner = real.fieldsScanner!()!;
    const calls: string[] = [];
    const spying = {
      fieldsScanner: () => ({ ...scanner, scanFields: (t: string, l: Uint32Array) => { calls.push(`${l.length}:${t.slice(0, 4)}`); return scanner.scanFields!(t, l); } }),
      indexScannedInto: real.indexScannedInto!.bind(real),
    } as unknown as Parameters<typeof ScannedFields.of>[0];
    const runs = ScannedFields.of(spying, texts.join(''), lengths)!;
    const got = sink();
    const want = sink();
    const b = createTextPipeline({ morphology: 'stem_en' });
    for (let k = 0, at = 0; k < texts.length; at += lengths[k], k++) {
      const len = runs.into(k, at, got) ?? real.indexFieldInto!(texts[k], got) ?? -1;
      expect(len).toBe(b.indexFieldInto!(texts[k], want) ?? -1);
    }
    expect(tokens(got)).toEqual(tokens(want));
    // a run up to the long field, the rest again after the left one, the long field alone, then the last
    expect(calls).toEqual(['5:the ', '2:café', '1:xxxx', '1:dogs']);
  });

  it('is not made for a pipeline that strips HTML (its fields go one by one)', () => {
    expect(ScannedFields.of(createTextPipeline({ html_strip: '1' }), 'ab', Uint32Array.of(1, 1))).toBeNull();
  });
});
