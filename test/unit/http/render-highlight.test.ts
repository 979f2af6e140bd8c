import { describe, expect, it } from 'vitest';
import { highlightJsonText } from '../../../src/http/render-highlight.js';

describe('highlightJsonText', () => {
  it('writes what JSON.stringify writes for a hit highlight', () => {
    const cases: Record<string, string[]>[] = [
      {},
      { title: [] },
      { title: ['<b>cat</b>'], body: [' ... a <b>cat</b> "quoted" \\ back ... ', 'second'] },
      { 'we"ird': ['tab\there', 'nl\nhere', 'ctl\u0001', 'lone \ud800 surrogate', 'emoji \u{1f600}'] },
      { a: [''], b: ['', ''] },
    ];
    for (const hl of cases) expect(highlightJsonText(hl)).toBe(JSON.stringify(hl));
  });
});
