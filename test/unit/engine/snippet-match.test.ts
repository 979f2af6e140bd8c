import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { FIELD_SHIFT, matchDocument } from '../../../src/engine/snippet-match.js';

const p = createTextPipeline({});
const ctx = { normalize: (w: string) => p.normalizeWord(w), ignoreFields: false, expandInfix: false, expandPrefix: false };

/** The matched words of each field, by query. */
function marked(query: string, fields: Record<string, string>, ignoreFields = false): string[][] {
  const list = Object.entries(fields).map(([name, text]) => ({ name, tokens: p.tokenize(text) }));
  const root = parseQuery(query, { fields: Object.keys(fields), notTermsOnlyAllowed: true }).root;
  const r = matchDocument(root, list, { ...ctx, ignoreFields });
  return list.map((f, fi) => f.tokens.filter((t) => r.hits.includes(fi * FIELD_SHIFT + t.pos)).map((t) => t.text));
}

const text = { body: 'sphinx clusters scale to billions of documents and billions of queries per month' };

describe('snippet matcher', () => {
  it('marks phrases only where they occur', () => {
    expect(marked('"billions of queries"', text)).toEqual([['billions', 'of', 'queries']]);
    expect(marked('"billions queries"', text)).toEqual([[]]);
  });

  it('marks ^ and $ only at field edges', () => {
    expect(marked('^sphinx month$', text)).toEqual([['sphinx', 'month']]);
    expect(marked('^clusters month$', text)).toEqual([[]]);
  });

  it('marks << only in order and proximity only within its window', () => {
    expect(marked('documents << queries', text)).toEqual([['documents', 'queries']]);
    expect(marked('queries << documents', text)).toEqual([[]]);
    expect(marked('"sphinx scale"~3', text)).toEqual([['sphinx', 'scale']]);
    expect(marked('"sphinx billions"~3', text)).toEqual([[]]);
  });

  it('counts quorum words and lets NOT suppress the whole document', () => {
    expect(marked('"silly documents month"/2', text)).toEqual([['documents', 'month']]);
    expect(marked('"silly documents month"/3', text)).toEqual([[]]);
    expect(marked('documents -queries', text)).toEqual([[]]);
    expect(marked('documents -silly', text)).toEqual([['documents']]);
  });

  it('honours field operators per field unless told to ignore them; @f[N] always', () => {
    const two = { title: 'sphinx search', body: 'sphinx body text' };
    expect(marked('@title sphinx', two)).toEqual([['sphinx'], []]);
    expect(marked('@title sphinx', two, true)).toEqual([['sphinx'], ['sphinx']]);
    expect(marked('@body[2] text', two)).toEqual([[], []]);
    expect(marked('@body[3] text', two)).toEqual([[], ['text']]);
  });

  it('matches wildcards against the folded words', () => {
    expect(marked('*illion*', text)).toEqual([['billions', 'billions']]);
    expect(marked('SPH*', text)).toEqual([['sphinx']]);
  });
});

describe('exact forms', () => {
  it('=word marks only that form, a plain word every form with its stem', () => {
    const sp = createTextPipeline({ morphology: 'stem_en' });
    const doc = [{ name: 'body', tokens: sp.tokenize('running runs ran running') }];
    const c = { normalize: (w: string) => sp.normalizeWord(w), ignoreFields: false, expandInfix: false, expandPrefix: false };
    const words = (q: string) => { const r = matchDocument(parseQuery(q, {}).root, doc, c); return doc[0].tokens.filter((t) => r.hits.includes(t.pos)).map((t) => t.text); };
    expect(words('=running')).toEqual(['running', 'running']);
    expect(words('running')).toEqual(['running', 'runs', 'running']);
  });
});
