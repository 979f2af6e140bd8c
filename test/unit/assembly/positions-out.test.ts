// The core's positionsOut export through its bridge: hits of row 0, growth past the first buffer, errors.
import { describe, expect, it } from 'vitest';
import { sharedCore } from '../../../src/wasm/core.js';
import { positionsOut } from '../../../src/wasm/positions-out.js';
import { documentHits } from '../../../src/highlight/snippet-doc-index.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import type { QueryNode, TermNode } from '../../../src/query/ast.js';

const p = createTextPipeline({});
const term = (text: string): TermNode => ({ kind: 'term', text });
const field = (text: string) => ({ name: 'body', tokens: p.tokenize(text) });

describe('positionsOut', () => {
  it('writes the root hits (field << 24 | pos, span) with the field-end bit cleared', () => {
    const hits = documentHits({ root: term('pie'), exactForms: false }, [field('apple pie'), field('pie x pie')]);
    expect([...hits]).toEqual([2, 1, (1 << 24) | 1, 1, (1 << 24) | 3, 1]);
  });

  it('gives a phrase hit the span of its words, and nothing when the whole query fails', () => {
    const phrase: QueryNode = { kind: 'phrase', terms: [term('apple'), term('pie')], offsets: [0, 1] };
    expect([...documentHits({ root: phrase, exactForms: false }, [field('x apple pie')])]).toEqual([2, 2]);
    const and: QueryNode = { kind: 'and', children: [term('apple'), term('tart')] };
    expect([...documentHits({ root: and, exactForms: false }, [field('x apple pie')])]).toEqual([]);
  });

  it('repeats the call with a bigger buffer when the row has more hits than the first guess', () => {
    const hits = documentHits({ root: term('apple'), exactForms: false }, [field(Array(700).fill('apple').join(' '))]);
    expect(hits.length).toBe(1400);
    expect(hits[1398]).toBe(700);
  });

  it('rejects a plan without the magic word', () => {
    const core = sharedCore();
    const seg = core.alloc(16);
    expect(() => positionsOut(core, seg, new Uint32Array(16), 0)).toThrow(/malformed/);
    core.free(seg);
  });
});
