import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DelimitedParser, type DelimitedRecord } from '../../../src/import/delimited-parser.js';

/** Parses `text` fed in the given piece sizes. */
function parse(format: 'csv' | 'tsv', text: string, pieces: number[] = [text.length], delimiter?: string): DelimitedRecord[] {
  const p = new DelimitedParser(format, delimiter);
  const out: DelimitedRecord[] = [];
  let pos = 0;
  for (const n of pieces) {
    out.push(...p.feed(text.slice(pos, pos + n)));
    pos += n;
  }
  out.push(...p.feed(text.slice(pos)), ...p.end());
  return out;
}

/** RFC 4180 writing: every field quoted, quotes doubled, CRLF between records. */
const writeCsv = (rows: string[][]) => rows.map((r) => r.map((f) => `"${f.replace(/"/g, '""')}"`).join(',')).join('\r\n');

describe('DelimitedParser', () => {
  it('reads RFC 4180 CSV: quotes, doubled quotes, separators and line breaks inside quotes, CRLF', () => {
    expect(parse('csv', 'a,"b,c","say ""hi"""\r\n"two\nlines",,x\n')).toEqual([
      { line: 1, values: ['a', 'b,c', 'say "hi"'] },
      { line: 2, values: ['two\nlines', '', 'x'] },
    ]);
  });

  it('numbers records by the line they start on and skips empty lines', () => {
    expect(parse('csv', '\n"a\n\nb",1\n\n3,4')).toEqual([{ line: 2, values: ['a\n\nb', '1'] }, { line: 6, values: ['3', '4'] }]);
  });

  it('reports a malformed record once and resumes on the next line', () => {
    expect(parse('csv', '"ok",1\n"bad"x,2\n3,4\n"open,5')).toEqual([
      { line: 1, values: ['ok', '1'] },
      { line: 2, error: "unexpected 'x' after a closing quote" },
      { line: 3, values: ['3', '4'] },
      { line: 4, error: 'unterminated quoted field at the end of the input' },
    ]);
  });

  it('keeps a quote inside an unquoted field as text; TSV has no quoting; a custom delimiter', () => {
    expect(parse('csv', 'a"b,c\n')).toEqual([{ line: 1, values: ['a"b', 'c'] }]);
    expect(parse('tsv', '"a\tb"\tc,d\r\n')).toEqual([{ line: 1, values: ['"a', 'b"', 'c,d'] }]);
    expect(parse('csv', 'a;"b;c"\n', undefined, ';')).toEqual([{ line: 1, values: ['a', 'b;c'] }]);
  });

  it('reads back what an RFC 4180 writer wrote, however the input is cut', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', '\r', ' ', 'é', '\t') });
    const rows = fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 6 })
      .map((rs) => rs.map((r) => r.slice(0, rs[0]!.length)).filter((r) => r.length === rs[0]!.length));
    fc.assert(fc.property(rows, fc.array(fc.integer({ min: 1, max: 7 })), (rs, cuts) => {
      const got = parse('csv', writeCsv(rs), cuts);
      expect(got.map((r) => ('values' in r ? r.values : r.error))).toEqual(rs);
    }));
  });
  it('reads back unquoted TSV and CSV rows, LF or CRLF, however the input is cut', () => {
    const rowsOf = (units: string[]) => fc.array(fc.array(fc.string({ unit: fc.constantFrom(...units) }), { minLength: 2, maxLength: 4 }),
      { minLength: 1, maxLength: 6 });
    const cases = [
      { format: 'tsv' as const, sep: '\t', rows: rowsOf(['a', 'b', ',', '"', ' ', 'é']) },
      { format: 'csv' as const, sep: ',', rows: rowsOf(['a', 'b', '\t', ' ', 'é']) },
    ];
    for (const { format, sep, rows } of cases) {
      fc.assert(fc.property(rows, fc.boolean(), fc.array(fc.integer({ min: 1, max: 7 })), (rs, crlf, cuts) => {
        const text = rs.map((r) => r.join(sep)).join(crlf ? '\r\n' : '\n') + (crlf ? '\r\n' : '\n');
        const got = parse(format, text, cuts);
        expect(got.map((r) => ('values' in r ? r.values : r.error))).toEqual(rs);
      }));
    }
  });
});
