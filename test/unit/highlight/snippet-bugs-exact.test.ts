// HIGHLIGHT / CALL SNIPPETS read `=word` as the table's search does: exact only with exact words.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { buildSnippets, packSnippets } from '../../../src/highlight/snippet-builder.js';
import { snippetOptions } from '../../../src/highlight/snippet-options.js';

function snip(settings: Record<string, string>, text: string, query: string): string {
  const pipeline = createTextPipeline(settings);
  const o = snippetOptions([]);
  const root = parseQuery(query, { fields: ['body'], notTermsOnlyAllowed: true }).root;
  return packSnippets(buildSnippets(root, [{ name: '', text }], o, { pipeline, settings }, { ignoreFields: true, textFromIndex: false, packFields: false }), o);
}

describe('=word in highlighting follows index_exact_words', () => {
  it('stem_en without index_exact_words: =running is stemmed, every form of run is marked', () => {
    expect(snip({ morphology: 'stem_en' }, 'he runs and running', '=running')).toBe('he <b>runs</b> and <b>running</b>');
    expect(snip({ morphology: 'stem_en' }, 'run away', '=running')).toBe('<b>run</b> away');
  });

  it('stem_en with index_exact_words: =running marks only running', () => {
    const s = { morphology: 'stem_en', index_exact_words: '1' };
    expect(snip(s, 'he runs and running', '=running')).toBe('he runs and <b>running</b>');
    expect(snip(s, 'run away', '=running')).toBe('run away');
  });
});
