// A table fetched in chunks answers as the whole image does, the server's engine too, while a
// one-word query fetches a small part of the chunks (the page's code, run in Node on the export's files).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/lib/bench-util.js';
import { ChunkedSource } from '../../../src/browser/chunked-source.js';
import { PageIndex } from '../../../src/browser/page-index.js';
import { ImageSource } from '../../../src/browser/table-source.js';
import { exportTable } from '../../../src/engine/export/export-table.js';
import { CHUNK_FILES, type ChunksManifest } from '../../../src/index/table-chunks.js';
import { decodeImage } from '../../../src/index/table-image.js';
import { open } from '../../../src/index.js';
import { sharedCore } from '../../../src/wasm/core.js';

const VOCAB = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}x`);
const QUERIES = [
  'w1x', 'w1x w2x', 'w1x | w5x', '"w1x w2x"', 'w3x -w1x', '"w1x w2x w3x w4x"/2', '@title w7x', 'w1x NEAR/4 w9x', 'nosuch',
  'w1*', 'w2a*', 'w*', '*2x', 'w4* w1x', 'w1?x', 'zz*',
];

describe('chunked source', () => {
  let dir: string;
  let out: string;
  let server: Map<string, { ids: string[]; weights: number[] }>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-chunks-'));
    const db = await open(join(dir, 'data'));
    await db.sql("CREATE TABLE t (title text, body text, n int) min_prefix_len='1'");
    const rnd = mulberry32(7);
    // Zipf-like: low word numbers are frequent, so the queries hit lists of every length
    const word = () => VOCAB[Math.floor(VOCAB.length * rnd() ** 3)];
    for (let b = 0; b < 6; b++) {
      const rows = Array.from({ length: 500 }, (_, i) => {
        const body = Array.from({ length: 20 + Math.floor(rnd() * 60) }, word).join(' ');
        return `(${b * 500 + i + 1}, '${word()} ${word()}', '${body}', ${i})`;
      });
      await db.sql(`INSERT INTO t (id, title, body, n) VALUES ${rows.join(',')}`);
    }
    // one segment, as the export: ties come in the same order
    await db.sql('OPTIMIZE TABLE t');
    server = new Map();
    for (const q of QUERIES) {
      const [r] = await db.sql(`SELECT id, weight() FROM t WHERE MATCH('${q}') LIMIT 1000 OPTION max_matches=1000`);
      if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
      server.set(q, { ids: r.rows.map((x) => String(x[0])), weights: r.rows.map((x) => Number(x[1])) });
    }
    await db.close();
    out = join(dir, 'site');
    await exportTable(join(dir, 'data'), 't', out);
  }, 120_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const fetcher = (counter: { bytes: number; dict?: number }) => async (name: string) => {
    const b = readFileSync(join(out, name));
    counter.bytes += b.length;
    if (name.startsWith('dict/')) counter.dict = (counter.dict ?? 0) + b.length;
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
  };

  async function chunked(counter: { bytes: number; dict?: number }): Promise<PageIndex> {
    const get = fetcher(counter);
    const manifest = JSON.parse(new TextDecoder().decode(await get(CHUNK_FILES.manifest))) as ChunksManifest;
    return new PageIndex(await ChunkedSource.open(manifest, sharedCore(), get));
  }

  it('answers every query as the image and the engine do', async () => {
    const image = new PageIndex(new ImageSource(decodeImage(readFileSync(join(out, 'table.qimg'))), sharedCore()));
    const pages = await chunked({ bytes: 0 });
    for (const q of QUERIES) {
      const opts = { limit: 1000, highlight: { limit: 60 } };
      const a = await pages.search(q, opts);
      const b = await image.search(q, opts);
      expect(a, q).toEqual(b);
      const s = server.get(q)!;
      expect({ ids: a.hits.map((h) => String(h.id)), weights: a.hits.map((h) => h.weight) }, q).toEqual(s);
    }
    expect((await image.search('w1x')).total).toBeGreaterThan(100);
    // highlights up to 1000 hits per query twice over: 1.6 s on a quiet machine, past 30 s at a load of 30
  }, 120_000);

  it('a page past max_matches is searchd\'s offset error, as /search answers it; the last page is not', async () => {
    const image = new PageIndex(new ImageSource(decodeImage(readFileSync(join(out, 'table.qimg'))), sharedCore()));
    await expect(image.search('w1x', { offset: 1000 })).rejects.toMatchObject({ code: 'QUERY_ERROR', message: 'offset out of bounds (offset=1000, max_matches=1000)' });
    const last = await image.search('w*', { offset: 990, limit: 20 });
    expect(last.hits.length).toBe(10);
  });

  it('a prefix query fetches only the dictionary chunks its prefix spans', async () => {
    const manifest = JSON.parse(readFileSync(join(out, CHUNK_FILES.manifest), 'utf8')) as ChunksManifest;
    expect(manifest.dictFirst.length).toBeGreaterThan(4);
    const got = { bytes: 0, dict: 0 };
    const idx = await chunked(got);
    expect((await idx.search('w4*')).total).toBeGreaterThan(0);
    let dict = 0;
    for (let c = 0; c < manifest.dictFirst.length; c++) dict += readFileSync(join(out, CHUNK_FILES.dict(c))).length;
    expect(got.dict).toBeGreaterThan(0);
    expect(got.dict).toBeLessThan(dict / 2);
  });

  it('a first one-word query fetches a small part of the table', async () => {
    const all = { bytes: 0 };
    const idx = await chunked(all);
    const opened = all.bytes;
    const r = await idx.search('w40x', { highlight: {} });
    expect(r.hits.length).toBeGreaterThan(0);
    const total = readFileSync(join(out, 'table.qimg')).length;
    expect(all.bytes - opened).toBeGreaterThan(0);
    expect(all.bytes).toBeLessThan(total * 0.3);
  });
});
