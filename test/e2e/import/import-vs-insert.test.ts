// A table `quarry import --data` builds (the bulk load: batches inverted at once, pair postings, one merge
// at the end) answers as one built by INSERTs of the same rows: the same documents, weights and attributes
// for words, stems, phrases of common words (the pair postings' case), proximity, quorum, field limits and
// boolean queries, under several rankers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { dataDirRows } from '../../helpers/data-dir-rows.js';
import { runQuarry } from '../../helpers/run-quarry.js';

// common words first: drawn by a skewed pick, the first few stand in most rows (pairs qualify)
const VOCAB = ['the', 'of', 'and', 'a', 'to', 'in', 'is', 'running', 'runs', 'cat', 'dog', 'house', 'river', 'stone', 'light',
  'green', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'word', 'dictionary', 'entry', 'meaning', 'sense', 'old', 'new'];
const ROWS = 2500;
let seed = 7;
const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 2.5)]!;
const text = (min: number, span: number) => Array.from({ length: min + Math.floor(rand() * span) }, word).join(' ');
const rows = Array.from({ length: ROWS }, (_, i) => [i + 1, text(2, 5), text(8, 30), Math.floor(rand() * 100)] as const);

let dir = '';
const data = () => join(dir, 'data');
const CREATE = (name: string) => `CREATE TABLE ${name} (title text, body text, n uint) morphology='stem_en'`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-import-vs-insert-'));
  const db = await open(data(), { threads: 1 });
  try {
    for (const sql of [CREATE('imported'), CREATE('inserted')]) expect((await db.sql(sql))[0]?.kind).not.toBe('error');
    for (let i = 0; i < ROWS; i += 300) {
      const values = rows.slice(i, i + 300).map(([id, title, body, n]) => `(${id}, '${title}', '${body}', ${n})`).join(', ');
      expect((await db.sql(`INSERT INTO inserted (id, title, body, n) VALUES ${values}`))[0]?.kind).not.toBe('error');
    }
  } finally {
    await db.close();
  }
  const tsv = join(dir, 'rows.tsv');
  writeFileSync(tsv, rows.map((r) => r.join('\t')).join('\n') + '\n');
  // batches of 1,000: three segments, each with pair postings (auto pairs need 100 rows a batch)
  const r = await runQuarry(['import', '--table', 'imported', '--data', data(), '--format', 'tsv', '--no-header', '--columns', 'id,title,body,n',
    '--batch', '1000', '--quiet', tsv]);
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const QUERIES = ['the', 'running', 'run', 'cat dog', '"of the"', '"the cat"', '"and a to"', '"the of"~3', 'the | fox', '-the cat',
  '@title the', '@body "in the"', '"the of and a to"/3', 'quick NEAR/2 the', '"stone the"', 'lazy << the'];
const RANKERS = ['proximity_bm25', 'bm25', 'sph04', 'wordcount'];
/** A result as compared: rows and meta (total, per-word docs and hits), without the time it took. */
const answer = (r: unknown) => JSON.parse(JSON.stringify(r, (k, v) => (k === 'timeMs' ? undefined : typeof v === 'bigint' ? String(v) : v)));

describe('quarry import --data against INSERTs of the same rows', () => {
  it('holds the same documents', async () => {
    const all = 'SELECT id, title, body, n FROM {t} ORDER BY id ASC LIMIT 3000 OPTION max_matches=3000';
    const got = await dataDirRows(data(), all.replace('{t}', 'imported'));
    expect(got).toHaveLength(ROWS);
    expect(got).toEqual(await dataDirRows(data(), all.replace('{t}', 'inserted')));
  }, 60_000);

  it('answers every query with the same rows and weights, under each ranker', async () => {
    const db = await open(data(), { threads: 1 });
    try {
      for (const q of QUERIES) {
        for (const ranker of RANKERS) {
          const sql = (t: string) => `SELECT id, weight(), n FROM ${t} WHERE MATCH('${q}') ORDER BY weight() DESC, id ASC LIMIT 3000 OPTION max_matches=3000, ranker=${ranker}`;
          const [a] = await db.sql(sql('imported'));
          const [b] = await db.sql(sql('inserted'));
          expect(a?.kind, `${q} ${ranker}`).toBe('rows');
          expect(answer(a), `${q} ${ranker}`).toEqual(answer(b));
        }
      }
      // the phrases of common words found rows: the comparison is not of two empty answers
      const [some] = await db.sql(`SELECT COUNT(*) FROM imported WHERE MATCH('"of the"')`);
      expect(some?.kind === 'rows' && Number(some.rows[0]![0]) > 0).toBe(true);
    } finally {
      await db.close();
    }
  }, 60_000);
});
