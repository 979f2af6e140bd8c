// A JSON Lines line nested deeper than the parser's stack (lossless-json recurses): the bad line said
// 'invalid JSON: Maximum call stack size exceeded', V8's words for an internal failure. Now it says why.
import { describe, expect, it } from 'vitest';
import { jsonLineRecord } from '../../../src/import/record-reader.js';

describe('jsonLineRecord', () => {
  it('a line nested 100,000 deep is a bad line that says it is nested too deeply', () => {
    const deep = `{"id":1,"j":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(jsonLineRecord(deep, 7)).toEqual({ line: 7, error: 'invalid JSON: nested too deeply to parse' });
  });
  it('a line nested 1,000 deep is a document; a syntax error keeps the parser\'s words', () => {
    const r = jsonLineRecord(`{"id":1,"j":${'['.repeat(1000)}${']'.repeat(1000)}}`, 1);
    expect(r && 'object' in r).toBe(true);
    expect(jsonLineRecord('{"id":1,', 2)).toEqual({ line: 2, error: expect.stringMatching(/^invalid JSON: (?!nested)/) });
  });
});
