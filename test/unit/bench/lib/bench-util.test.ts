// The benches' gcide load (bench-util.ts gcideInserts): every document once, in order, `batch` rows a
// statement, titles and bodies quoted as SQL strings and len the body's length.
import { describe, expect, it } from 'vitest';
import { gcideInserts } from '../../../../bench/lib/bench-util.js';

const docs = [
  { id: 1, title: 'a', body: "it's" },
  { id: 2, title: 'b\\c', body: 'xy' },
  { id: 3, title: 'd', body: '' },
];

describe('gcideInserts', () => {
  it('splits the documents into statements of `batch` rows', () => {
    expect(gcideInserts(docs, 2)).toEqual([
      "INSERT INTO gcide (id, title, body, len) VALUES (1,'a','it\\'s',4),(2,'b\\\\c','xy',2)",
      "INSERT INTO gcide (id, title, body, len) VALUES (3,'d','',0)",
    ]);
  });

  it('gives one statement for up to 1000 rows, none for no rows', () => {
    expect(gcideInserts(docs)).toHaveLength(1);
    expect(gcideInserts([])).toEqual([]);
  });
});
