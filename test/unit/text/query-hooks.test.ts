// The pipeline's query lexer hooks (exceptions, multi-word wordforms) and a parsed query's words in dictionary form.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { QueryNode } from '../../../src/query/ast.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline, type TextPipeline } from '../../../src/text/text-pipeline.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-query-hooks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function pipeline(exceptions: string, wordforms: string): TextPipeline {
  const exc = join(dir, `exc-${Math.random()}.txt`);
  const wf = join(dir, `wf-${Math.random()}.txt`);
  writeFileSync(exc, exceptions);
  writeFileSync(wf, wordforms);
  return createTextPipeline({ exceptions: exc, wordforms: wf, morphology: 'stem_en' });
}

const p = pipeline('AT&T => att\nC++ => cplusplus\nMS Windows => mswin\n', 'core 2 duo > c2d\nnew york > nyc\nmice > mouse\n');

/** The query's keywords in dictionary form, as the engine normalizes them (one list per keyword). */
function terms(q: string): string[][] {
  const out: string[][] = [];
  const walk = (n: QueryNode): void => {
    if (n.kind === 'term') out.push(p.normalizeWord(n.text));
    else if (n.kind === 'phrase' || n.kind === 'proximity' || n.kind === 'quorum') n.terms.forEach(walk);
    else if ('children' in n) n.children.forEach(walk);
    else if ('child' in n) walk(n.child);
  };
  walk(parseQuery(q, { isWordChar: (cp) => p.isWordChar(cp), textHooks: p }).root);
  return out;
}

describe('exceptionAt', () => {
  it('finds an exception on the raw, case-sensitive text, before a separator', () => {
    expect(p.exceptionAt('AT&T phones', 0)).toBe(4);
    expect(p.exceptionAt('at&t', 0)).toBe(-1);
    expect(p.exceptionAt('AT&Tx', 0)).toBe(-1);
    expect(p.exceptionAt('MS   Windows', 0)).toBe(12);
    expect(p.exceptionAt('x C++', 2)).toBe(5);
  });

  it('skips query escapes', () => {
    expect(p.exceptionAt('C\\+\\+ code', 0)).toBe(5);
  });

  it('finds nothing on a table without exceptions', () => {
    expect(createTextPipeline({}).exceptionAt('AT&T', 0)).toBe(-1);
  });
});

describe('multiWordSpan', () => {
  it('counts the folded words of the longest multi-word source', () => {
    expect(p.maxMultiWords).toBe(3);
    expect(p.multiWordSpan(['Core', '2', 'DUO'])).toBe(3);
    expect(p.multiWordSpan(['new', 'York', 'city'])).toBe(2);
    expect(p.multiWordSpan(['core', '2'])).toBe(0);
    expect(createTextPipeline({}).maxMultiWords).toBe(0);
  });
});

describe('query words through the hooks and the dictionary', () => {
  it('maps exceptions and multi-word wordforms typed in a query', () => {
    expect(terms('AT&T C++ phones')).toEqual([['att'], ['cplusplus'], ['phone']]);
    expect(terms('"Core 2 Duo" laptops')).toEqual([['c2d'], ['laptop']]);
    expect(terms('New York | mice')).toEqual([['nyc'], ['mouse']]);
    expect(terms('MS Windows')).toEqual([['mswin']]);
  });

  it('leaves text that is no exception to the charset', () => {
    expect(terms('at&t')).toEqual([['at'], ['t']]);
  });
});
