// The seal thread (the compiled build worker in dist/, as the server runs it): a table taking single-row
// INSERTs past a full RAM tail hands its rows to the thread and answers as a table that sealed them on
// its own thread, every row readable right after its INSERT returned, also while a hand-off is in
// flight; an idle thread ends and a later seal starts another.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { setSealRunner } from '../../../../src/engine/text-row.js';
import { sealThreadOf } from '../../../../src/engine/background/seal-thread.js';
import { TAIL_ROWS } from '../../../../src/index/ram-tail.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const WORKER = new URL('../../../../dist/src/engine/background/build-worker.js', import.meta.url);
const WORDS = ['running', 'runner', 'quick', 'brown', 'foxes', 'jumped', 'over', 'lazy', 'dogs', 'café', 'the'];
const text = (r: number, n: number) => Array.from({ length: n }, (_, i) => WORDS[(r * 7 + i * i) % WORDS.length]).join(' ');
const insert = (table: string, r: number) => `insert into ${table} (id, title, body, n) values (${r}, '${text(r, 2)}', '${text(r + 1, 12)}', ${r % 9})`;
const QUERIES = ['running', 'quick brown', '"lazy dogs"', 'café | foxes', '@title runner'];

const t = useTempEngine('seal-thread', async (t) => {
  for (const name of ['inline', 'threaded']) await t.exec(`create table ${name} (title text, body text, n uint) morphology='stem_en'`);
});

afterEach(() => setSealRunner(null));

/** INSERTs of rows from..to-1, `clients` statements at a time (each its own statement, as clients send them). */
async function insertRows(table: string, from: number, to: number, clients = 32): Promise<void> {
  for (let r = from; r < to; r += clients) {
    await Promise.all(Array.from({ length: Math.min(clients, to - r) }, (_, k) => t.exec(insert(table, r + k))));
  }
}

describe('the seal thread', () => {
  it('finds the compiled worker (npm test builds it first)', () => {
    expect(existsSync(fileURLToPath(WORKER))).toBe(true);
  });

  it('builds full tails off the protocol thread into tables that answer as one sealed inline', async () => {
    const jobs: Promise<unknown>[] = [];
    const thread = sealThreadOf(WORKER, 60_000);
    setSealRunner((job) => {
      const built = thread(job);
      jobs.push(built);
      return built;
    });
    const n = TAIL_ROWS * 2 + 150;
    // each full tail's segment landed before the next fills (else that write seals both here)
    for (const [from, to] of [[1, TAIL_ROWS + 75], [TAIL_ROWS + 75, n]]) {
      await insertRows('threaded', from!, to!);
      await Promise.all(jobs);
      await new Promise((r) => setTimeout(r, 20));
    }
    setSealRunner(null);
    await insertRows('inline', 1, n);
    // the first full tail went to the thread (later ones too, and idle tails, unless a hand-off was in flight)
    expect(jobs.length).toBeGreaterThanOrEqual(1);
    expect(await t.rows('select count(*) from threaded')).toEqual(await t.rows('select count(*) from inline'));
    for (const q of QUERIES) {
      const sql = (name: string) => `select id, weight(), n from ${name} where match('${q}') order by id asc limit 5000`;
      expect(await t.rows(sql('threaded')), q).toEqual(await t.rows(sql('inline')));
    }
  });

  it('shows every row right after its INSERT, also while its tail is on the thread', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((r) => { release = r; });
    const thread = sealThreadOf(WORKER, 60_000);
    setSealRunner(async (job) => {
      await held; // the hand-off stays in flight until the reads below are done
      return thread(job);
    });
    await insertRows('threaded', 1, TAIL_ROWS + 1);
    await t.exec(insert('threaded', TAIL_ROWS + 1)); // the tail was full: its rows went to the thread
    await t.exec(`delete from threaded where id = 5`);
    await t.exec(`replace into threaded (id, title, body, n) values (6, 'zebra', 'zebra', 1)`);
    expect(await t.rows("select id from threaded where match('zebra')")).toEqual([[6n]]);
    expect(await t.rows('select count(*) from threaded')).toEqual([[BigInt(TAIL_ROWS)]]); // 1001 rows, one deleted
    expect(await t.rows('select id from threaded where id = 5')).toEqual([]);
    release();
    await new Promise((r) => setTimeout(r, 300)); // the landing segment is dropped: its rows were sealed here
    expect(await t.rows('select count(*) from threaded')).toEqual([[BigInt(TAIL_ROWS)]]); // 1001 rows, one deleted
    expect(await t.rows("select id from threaded where match('zebra')")).toEqual([[6n]]);
  });

  it('ends once idle and starts again on the next seal', async () => {
    const thread = sealThreadOf(WORKER, 50);
    await insertRows('inline', 1, 40);
    const schema = { fields: ['title'], attrs: [], settings: {} } as never;
    const job = (id: bigint) => ({ settings: {}, schema, ids: BigUint64Array.of(id), text: 'quick brown', lengths: Uint32Array.of(11), attrs: [] });
    const first = await thread(job(1n));
    await new Promise((r) => setTimeout(r, 400));
    const second = await thread(job(1n));
    expect(Buffer.from(second.blob).equals(Buffer.from(first.blob))).toBe(true);
  });
});
