import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseBody, rawCellToText, rawReplyToSql } from './transport.js';

describe('raw-mode replies as MySQL text results', () => {
  it('turns typed JSON data into the strings the text protocol sends', () => {
    const body = parse(
      '[{"columns":[{"id":{"type":"long long"}},{"p":{"type":"float"}},{"f":{"type":"float"}},{"t":{"type":"string"}},{"j":{"type":"string"}}],' +
        '"data":[{"id":6775836565403860993,"p":1099.989990,"f":44.40000153,"t":"a\\nb","j":null}],"total":1,"error":"","warning":""}]',
    );
    expect(rawReplyToSql(200, body)).toEqual({
      kind: 'rows',
      columns: ['id', 'p', 'f', 't', 'j'],
      rows: [['6775836565403860993', '1099.989990', '44.400002', 'a\nb', null]],
    });
  });

  it('keeps a statement\'s further result sets (FACET) as `more`', () => {
    const set = (name: string, v: number) => `{"columns":[{"${name}":{"type":"long"}}],"data":[{"${name}":${v}}],"total":1,"error":"","warning":""}`;
    expect(rawReplyToSql(200, parse(`[${set('id', 1)},${set('cat', 2)}]`))).toEqual({
      kind: 'rows', columns: ['id'], rows: [['1']], more: [{ columns: ['cat'], rows: [['2']] }],
    });
  });

  it('reads OK replies and errors (errno assumed 1064)', () => {
    expect(rawReplyToSql(200, parse('[{"total":2,"error":"","warning":""}]'))).toEqual({ kind: 'ok', affected: 2 });
    expect(rawReplyToSql(500, parse('{"error":"unknown column: \'c\'"}'))).toEqual({ kind: 'error', error: "unknown column: 'c'", errno: 1064 });
    expect(rawReplyToSql(502, 'Bad gateway')).toMatchObject({ kind: 'error', errno: 0 });
  });

  it('keeps non-JSON bodies as text', () => {
    expect(parseBody('+--+\n')).toBe('+--+\n');
    expect(parseBody('{broken')).toBe('{broken');
    expect(rawCellToText(parse('5') as unknown, 'long')).toBe('5');
  });
});
