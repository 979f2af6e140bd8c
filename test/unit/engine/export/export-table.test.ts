// quarry export: the folder's files, stored fields only, the setting files embedded, errors for a missing table.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_FILES, exportTable } from '../../../../src/engine/export/export-table.js';
import { newSession, openEngine } from '../../../../src/engine/index.js';
import { open } from '../../../../src/index.js';
import { CHUNK_FILES, type ChunksManifest, type DocsChunk } from '../../../../src/index/table-chunks.js';
import { decodeImage } from '../../../../src/index/table-image.js';
import { embeddedFiles } from '../../../../src/browser/embedded-files.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { setTextFiles } from '../../../../src/text/text-files.js';

describe('export table', () => {
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-export-'));
    const stop = join(dir, 'stop.txt');
    writeFileSync(stop, 'the\nand\n');
    const db = await open(join(dir, 'data'));
    await db.sql(`CREATE TABLE t (title text, secret text indexed, n bigint) stopwords='${stop}'`);
    await db.sql("INSERT INTO t (id, title, secret, n) VALUES (1, 'the cat', 'hidden words', 9007199254740993), (2, 'a dog', 'more', 2)");
    await db.sql('DELETE FROM t WHERE id = 2');
    await db.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the image, the chunks, the core and the module', async () => {
    const out = join(dir, 'site');
    const res = await exportTable(join(dir, 'data'), 'T', out);
    expect(res.table).toBe('t');
    expect(res.rows).toBe(1);
    for (const f of [...Object.values(EXPORT_FILES), CHUNK_FILES.manifest, CHUNK_FILES.dict(0), CHUNK_FILES.blob(0), CHUNK_FILES.docs(0)]) {
      expect(existsSync(join(out, f)), f).toBe(true);
    }
    const image = decodeImage(readFileSync(join(out, EXPORT_FILES.image)));
    // the deleted row is gone; non-stored text stays out; the bigint beyond 2^53 is a decimal string
    expect(image.docs).toEqual([{ title: 'the cat', n: '9007199254740993' }]);
    // the table's own copy of the file (CREATE TABLE copied it), under the path the settings name
    expect(image.manifest.files[image.manifest.settings.stopwords!]).toBe('the\nand\n');
    const manifest = JSON.parse(readFileSync(join(out, CHUNK_FILES.manifest), 'utf8')) as ChunksManifest;
    expect(manifest.rows).toBe(1);
    expect(manifest.dictFirst.length).toBe(1);
    const docs = JSON.parse(readFileSync(join(out, CHUNK_FILES.docs(0)), 'utf8')) as DocsChunk;
    expect(docs).toEqual([[1, { title: 'the cat', n: '9007199254740993' }]]);
  });

  it('carries a built-in stopword list under the page share folder, where the page resolves it', async () => {
    const db = await open(join(dir, 'builtin'));
    await db.sql("CREATE TABLE b (title text) stopwords='en'");
    await db.sql("INSERT INTO b (id, title) VALUES (1, 'the cat')");
    await db.close();
    await exportTable(join(dir, 'builtin'), 'b', join(dir, 'builtin-site'));
    const { files, settings } = decodeImage(readFileSync(join(dir, 'builtin-site', EXPORT_FILES.image))).manifest;
    // CREATE TABLE copied the bundled list into the table, as searchd does: the page carries the copy
    expect(Object.keys(files)).toEqual([settings.stopwords]);
    const before = setTextFiles(embeddedFiles(files));
    try {
      const page = createTextPipeline(settings);
      expect(page.keywords('the cat').map((k) => k.normalized)).toEqual(['cat']);
    } finally {
      setTextFiles(before);
    }
  });

  it('exports from a running engine', async () => {
    const engine = await openEngine({ dataDir: join(dir, 'live') });
    try {
      const session = newSession();
      await engine.execute('CREATE TABLE live (title text)', session);
      await engine.execute("INSERT INTO live (id, title) VALUES (5, 'running')", session);
      const res = await engine.exportTable!('live', join(dir, 'live-site'));
      expect(res.rows).toBe(1);
      const docs = JSON.parse(readFileSync(join(dir, 'live-site', CHUNK_FILES.docs(0)), 'utf8')) as DocsChunk;
      expect(docs).toEqual([[5, { title: 'running' }]]);
      await expect(engine.exportTable!('nope', join(dir, 'x'))).rejects.toThrow("unknown table 'nope'");
    } finally {
      await engine.close();
    }
  });

  it('refuses a table that does not exist', async () => {
    await expect(exportTable(join(dir, 'data'), 'nope', join(dir, 'x'))).rejects.toThrow("unknown table 'nope'");
  });
});
