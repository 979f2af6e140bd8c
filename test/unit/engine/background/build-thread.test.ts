// Segments built on the build threads of a bulk load (the compiled worker in dist/, as quarry import
// runs it): the same blob, dictionary and host columns the table's own write builds from the same rows,
// (also after the thread was primed with some of them), and a table loaded through them answers as one
// loaded inline; a failing thread falls back to inline.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { buildJobOf, buildOfJob, setBuildRunner } from '../../../../src/engine/background/build-job.js';
import { buildThreadsOf } from '../../../../src/engine/background/build-thread.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';
import type { Literal } from '../../../../src/engine/values/literal.js';
import type { Table } from '../../../../src/engine/table.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const WORKER = new URL('../../../../dist/src/engine/background/build-worker.js', import.meta.url);
const CREATE = (name: string) =>
  `create table ${name} (title text, body text, tag string, n uint, big bigint, m multi, j json) morphology='stem_en' index_exact_words=1 bigram_index='all'`;
const COLUMNS = ['id', 'title', 'body', 'tag', 'n', 'big', 'm', 'j'];
const WORDS = ['running', 'runner', 'quick', 'brown', 'foxes', 'jumped', 'over', 'lazy', 'dogs', 'café', 'naïve', 'the', 'a'];

const int = (v: bigint | number): Literal => ({ t: 'int', v: BigInt(v) });
const str = (v: string): Literal => ({ t: 'string', v });
const text = (r: number, len: number) => Array.from({ length: len }, (_, i) => WORDS[(r * 7 + i * i) % WORDS.length]).join(' ');
const rows = (from: number, n: number): Literal[][] => Array.from({ length: n }, (_, k) => {
  const r = from + k;
  return [int(r), str(text(r, 3)), str(`${text(r + 1, 20)}. ${text(r + 2, 9)}`), str(`t${r % 5}`), int(r * 3), int(-r),
    { t: 'tuple', v: [int(r % 7), int(1)] }, { t: 'json', v: `{"r":${r}}` }];
});

const t = useTempEngine('build-thread', async (t) => {
  await t.exec(CREATE('inline'));
  await t.exec(CREATE('threaded'));
});

const threads = buildThreadsOf(WORKER, 2);
afterAll(async () => {
  setBuildRunner(null);
  await threads.close();
});

const SELECT = (name: string) => `select id, title, body, tag, n, big, m, j from ${name} order by id asc`;
const QUERIES = ['running', '=running', 'quick brown', '"lazy dogs"', 'café | naïve', '@title foxes', '"the a"~3'];

describe('build threads', () => {
  it('finds the compiled worker (npm test builds it first)', () => {
    expect(existsSync(fileURLToPath(WORKER))).toBe(true);
  });

  it('build the segment the table builds from the same rows', async () => {
    await t.engine.loadRows!('inline', { columns: COLUMNS, rows: rows(1, 300) }, false);
    const table = (t.engine as unknown as { ctx: { catalog: { get(n: string): Table } } }).ctx.catalog.get('inline');
    const docs = rows(1, 300).map((r) => table.storedDocOf((_, i) => r[i + 1], 1, () => 0));
    const ids = docs.map((_, i) => BigInt(i + 1));
    const own = buildSegment(table.index.schema, invertDocs(table.index.schema, table.prepareDocs(docs, ids).inputs));
    const job = buildJobOf(table.index.schema, table.schema.settings, ids, docs);
    // primed first with half of the rows' texts, as quarry import does while it reads its first batch
    const lengths = job.lengths.slice(0, job.lengths.length >> 1);
    threads.prime({ settings: job.settings, text: job.text.slice(0, lengths.reduce((a, b) => a + b, 0)), lengths });
    const threaded = await threads.run(job);
    expect(Buffer.from(threaded.blob).equals(Buffer.from(own.blob))).toBe(true);
    expect(threaded.terms).toEqual(own.terms);
    expect(threaded.hostCols).toEqual(own.hostCols);
    // in this thread with a fresh pipeline, as the worker builds it
    expect(Buffer.from(buildOfJob(createTextPipeline(table.schema.settings), job).blob).equals(Buffer.from(own.blob))).toBe(true);
  });

  it('load a table that answers as one loaded inline, batches prepared ahead of their writes', async () => {
    for (let b = 0; b < 4; b++) await t.engine.loadRows!('inline', { columns: COLUMNS, rows: rows(1 + b * 250, 250) }, false);
    setBuildRunner(threads.run);
    try {
      // the next batch prepared (built on a thread) before the one before is written, as quarry import does
      let pending = await t.engine.prepareRows!('threaded', { columns: COLUMNS, rows: rows(1, 250) }, false);
      for (let b = 1; b < 4; b++) {
        const next = await t.engine.prepareRows!('threaded', { columns: COLUMNS, rows: rows(1 + b * 250, 250) }, false);
        expect(await pending.commit()).toEqual({ ok: true, written: 250 });
        pending = next;
      }
      expect(await pending.commit()).toEqual({ ok: true, written: 250 });
      // a duplicate id is found at commit, against the table as it is then
      const dup = await t.engine.prepareRows!('threaded', { columns: COLUMNS, rows: rows(1000, 2) }, false);
      expect(await dup.commit()).toMatchObject({ ok: false, failedIndex: 0, error: "duplicate id '1000'" });
    } finally {
      setBuildRunner(null);
    }
    expect(await t.rows(SELECT('threaded'))).toEqual(await t.rows(SELECT('inline')));
    for (const q of QUERIES) {
      const sql = (name: string) => `select id, weight() from ${name} where match('${q}') order by id asc limit 1000`;
      expect(await t.rows(sql('threaded')), q).toEqual(await t.rows(sql('inline')));
    }
  });

  it('commit the rows to the store while their segment is still being built', async () => {
    const table = (t.engine as unknown as { ctx: { catalog: { get(n: string): Table } } }).ctx.catalog.get('threaded');
    let release = () => {};
    // a build that ends only when released: the rows must be stored before it does
    setBuildRunner((job) => new Promise((resolve, reject) => { release = () => { threads.run(job).then(resolve, reject); }; }));
    try {
      const p = await t.engine.prepareRows!('threaded', { columns: COLUMNS, rows: rows(5001, 20) }, false);
      const committing = p.commit();
      const until = Date.now() + 5000;
      while (table.store.getDocs([5001n, 5020n]).some((d) => d === undefined) && Date.now() < until) await new Promise((r) => setTimeout(r, 5));
      expect(table.store.getDocs([5001n, 5020n]).every((d) => d !== undefined)).toBe(true);
      // stored, not yet searchable: the segment is applied when it is back
      expect(await t.rows("select id from threaded where id = 5001")).toEqual([]);
      release();
      expect(await committing).toEqual({ ok: true, written: 20 });
    } finally {
      setBuildRunner(null);
    }
    expect(await t.rows("select id from threaded where id = 5001")).toEqual([[5001n]]);
  });

  it('build inline when the thread fails', async () => {
    setBuildRunner(() => Promise.reject(new Error('gone')));
    try {
      const p = await t.engine.prepareRows!('threaded', { columns: COLUMNS, rows: rows(1, 10) }, false);
      expect(await p.commit()).toEqual({ ok: true, written: 10 });
    } finally {
      setBuildRunner(null);
    }
    expect(await t.rows("select id from threaded where match('running') order by id asc limit 1")).toEqual([[1n]]);
  });
});

describe('a build thread closed with a job on it', () => {
  it('fails the job instead of leaving it waiting', async () => {
    const thread = buildThreadsOf(WORKER, 1);
    const schema = { fields: ['title'], attrs: [], settings: {} } as unknown as Parameters<typeof buildJobOf>[0];
    const job = thread.run({ ...buildJobOf(schema, {}, [1n], [{ title: 'x '.repeat(100_000) }]) });
    await thread.close();
    await expect(job).rejects.toThrow(/build thread/);
  });
});
