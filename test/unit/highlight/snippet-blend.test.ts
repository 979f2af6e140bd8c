// Tests for splitting blended tokens into their parts where only a part is hit (snippet-blend.ts).
import { describe, expect, it } from 'vitest';
import { splitHitParts } from '../../../src/highlight/snippet-blend.js';
import { FIELD_SHIFT } from '../../../src/highlight/snippet-doc-index.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

const pipeline = createTextPipeline({ blend_chars: '/', charset_table: '0..9, a..z, A..Z->a..z' });

describe('splitHitParts', () => {
  const tokens = pipeline.analyze('know dude/buddy now').tokens;
  const blended = tokens[1];

  it('analyze gives the blended token its parts as inner tokens', () => {
    expect(tokens.map((t) => t.text)).toEqual(['know', 'dude/buddy', 'now']);
    const parts = blended.inner!.filter((x) => x.part).map((x) => [x.term, x.pos]);
    expect(parts).toEqual([['dude', blended.pos], ['buddy', blended.pos + 1]]);
  });

  it('splits the token when a part beyond its position is hit', () => {
    const out = splitHitParts(tokens, [blended.pos + 1], 0);
    expect(out.map((t) => [t.text, t.pos])).toEqual([['know', 1], ['dude', 2], ['buddy', 3], ['now', 4]]);
    // the whole token's term stays with the first part, so the document indexes as before
    expect(out[1].inner!.map((x) => x.term)).toContain('dude/buddy');
  });

  it('keeps the token whole when its own position is hit, or nothing of it', () => {
    expect(splitHitParts(tokens, [blended.pos, blended.pos + 1], 0)).toBe(tokens);
    expect(splitHitParts(tokens, [1], 0)).toBe(tokens);
    expect(splitHitParts(tokens, [FIELD_SHIFT + blended.pos + 1], 0)).toBe(tokens);
  });
});
