// Rows as texts (Table.prepareDocs -> TextRow): a write too big for the RAM tail builds its segment from the
// rows' texts at once (text-row.ts, buildOfJob: the build thread's code, run on this thread). Checked: each
// such segment is the one the rows' tokenized fields build (invertDocs; blob, dictionary, host columns),
// over SQL INSERTs, Table.write (as /bulk calls it) and a group round mixing a big INSERT with small ones;
// the table answers as one loaded in small INSERTs; which tables take the path.
import { describe, expect, it } from 'vitest';
import { buildSegment, invertDocs } from '../../../src/index/segment/segment-builder.js';
import { TextRow } from '../../../src/engine/text-row.js';
import type { Segment } from '../../../src/index/segment/segment.js';
import type { Table } from '../../../src/engine/table.js';
import type { StoredDoc } from '../../../src/engine/durability/table-store.js';
import { newSession } from '../../../src/engine/index.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const COLS = '(title text, body text, tag string, n uint, big bigint, m multi, j json)';
const WORDS = ['running', 'runner', 'quick', 'brown', 'foxes', 'jumped', 'over', 'lazy', 'dogs', 'café', 'naïve', 'the', 'a', 'x2y'];
const text = (r: number, len: number) => Array.from({ length: len }, (_, i) => WORDS[(r * 7 + i * i) % WORDS.length]).join(' ');
const row = (r: number) => `(${r},'${text(r, 3)}','${text(r + 1, 20)}. ${text(r + 2, 9)}','t${r % 5}',${r * 3},${-r},(${r % 7},1),'{"r":${r}}')`;
const insert = (name: string, from: number, n: number) =>
  `insert into ${name} (id, title, body, tag, n, big, m, j) values ${Array.from({ length: n }, (_, k) => row(from + k)).join(',')}`;
const QUERIES = ['running', 'quick brown', '"lazy dogs"', 'café | naïve', '@title foxes', '"the a"~3', 'x2y -dogs'];

const t = useTempEngine('direct-build');
const tableOf = (name: string) => (t.engine as unknown as { ctx: { catalog: { get(n: string): Table } } }).ctx.catalog.get(name);

/** Each segment of `name` against the one prepareBatch's path builds from the same stored rows. */
function expectAsFromInputs(name: string): void {
  const table = tableOf(name);
  for (const seg of table.index.segments as readonly Segment[]) {
    const ids = Array.from({ length: seg.rows }, (_, r) => seg.docId(r));
    const docs = table.store.getDocs(ids) as StoredDoc[];
    const own = buildSegment(table.index.schema, invertDocs(table.index.schema, table.prepareDocs(docs, ids).inputs));
    expect(Buffer.from(seg.blobBytes()).equals(Buffer.from(own.blob))).toBe(true);
    expect(seg.terms).toEqual(own.terms);
    expect(seg.hostCols).toEqual(own.hostCols);
  }
}

/** What `name` answers: each query's ids and weights, and every row's values. */
async function answers(name: string): Promise<unknown[]> {
  const out: unknown[] = [await t.rows(`select * from ${name} order by id asc limit 1000`)];
  for (const q of QUERIES) out.push(await t.rows(`select id, weight() from ${name} where match('${q}') order by id asc limit 1000`));
  return out;
}

describe('INSERTs built from their stored documents', () => {
  it('take the path without token counts', async () => {
    await t.exec(`create table plain ${COLS} morphology='stem_en'`);
    await t.exec(`create table counted ${COLS} index_field_lengths='1'`);
    await t.exec(`create table exact ${COLS} morphology='stem_en' index_exact_words='1'`);
    const ids = Array.from({ length: 300 }, (_, k) => BigInt(k + 1));
    const docs: StoredDoc[] = ids.map((_, k) => ({ title: text(k, 3), body: text(k, 20) }));
    const asTexts = (name: string) => tableOf(name).prepareDocs(docs, ids).inputs.every((r) => r instanceof TextRow);
    expect(asTexts('plain')).toBe(true);
    expect(asTexts('exact')).toBe(true); // buildOfJob makes each row's fields as Table.docInput would
    expect(asTexts('counted')).toBe(false);
    expect(tableOf('plain').prepareDocs([{ title: 'a' }], [1n]).inputs[0]).toBeInstanceOf(TextRow);
  });

  it('build the segment prepareBatch builds, and answer as small INSERTs do', async () => {
    for (const name of ['big', 'small']) await t.exec(`create table ${name} ${COLS} morphology='stem_en' bigram_index='all'`);
    await t.exec(insert('big', 1, 300));
    await t.exec(insert('big', 301, 400));
    for (let r = 1; r <= 700; r += 100) await t.exec(insert('small', r, 100));
    expect(tableOf('big').index.segments.length).toBe(2);
    expectAsFromInputs('big');
    expect(await answers('big')).toEqual(await answers('small'));
  });

  it('build so through Table.write (as /bulk writes) and in a round shared with small INSERTs', async () => {
    for (const name of ['mixed', 'small']) await t.exec(`create table ${name} ${COLS} morphology='stem_en'`);
    for (let r = 1; r <= 700; r += 100) await t.exec(insert('small', r, 100));
    // three statements sent at once: a big INSERT and two small ones may share a round
    const sessions = [newSession(), newSession(), newSession()];
    await Promise.all([insert('mixed', 1, 300), insert('mixed', 301, 2), insert('mixed', 303, 98)].map((sql, i) => t.engine.execute(sql, sessions[i])));
    // the last 300 rows as /bulk writes them: stored documents (as coerced for 'small') through Table.write
    const table = tableOf('mixed');
    const ids = Array.from({ length: 300 }, (_, k) => BigInt(401 + k));
    const prepared = table.prepareDocs(tableOf('small').store.getDocs(ids) as StoredDoc[], ids);
    expect(prepared.inputs.every((r) => r instanceof TextRow)).toBe(true);
    await table.mutex.run(() => table.write(ids, prepared.docs, prepared.inputs, false));
    expectAsFromInputs('mixed');
    expect(await answers('mixed')).toEqual(await answers('small'));
  });

  it('build the segment prepareBatch builds under other text settings', async () => {
    const SETTINGS = [
      "html_strip='1' index_sp='1'", "blend_chars='+, &' morphology='stem_en'", "min_word_len='3' ngram_len='1' ngram_chars='U+4E00..U+9FFF'",
      "charset_table='non_cjk' min_prefix_len='2'", "morphology='stem_en' bigram_index='first_freq' bigram_freq_words='the, a'",
    ];
    const TEXTS = ['<p>Running <b>quick</b> brown</p> foxes. Lazy dogs!', 'AT&T c++ x+y a&b the runner', '中文字 mixed naïve café 42 x2y',
      'the a the a quick the lazy', "l'été — Ünïcödé ÀÉÎ résumé; e-mail @home", ''];
    const ids = Array.from({ length: 300 }, (_, k) => BigInt(k + 1));
    const docs: StoredDoc[] = ids.map((_, k) => ({ title: TEXTS[k % TEXTS.length]!, body: `${TEXTS[(k * 7) % TEXTS.length]} ${text(k, 12)} ${TEXTS[(k * 3) % TEXTS.length]}` }));
    for (const [i, settings] of SETTINGS.entries()) {
      await t.exec(`create table s${i} (title text, body text) ${settings}`);
      const table = tableOf(`s${i}`);
      const inputs = table.prepareDocs(docs, ids).inputs;
      expect(inputs.every((r) => r instanceof TextRow)).toBe(true);
      const direct = table.index.prepareBatch(inputs).seg!;
      const own = buildSegment(table.index.schema, invertDocs(table.index.schema, table.prepareDocs(docs, ids).inputs));
      expect(Buffer.from(direct.blobBytes()).equals(Buffer.from(own.blob))).toBe(true);
      expect(direct.terms).toEqual(own.terms);
      direct.free();
    }
  });
});
