import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newSession, openEngine, type Engine, type RowsResult } from '../../../../src/engine/index.js';
import { configureSnippetFiles, readInPool, resolveSnippetFile } from '../../../../src/engine/snippets/snippet-files.js';

let root: string;
let prefix: string;
let engine: Engine;
let dataDir: string;
const session = newSession();

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'quarry-snipfiles-'));
  prefix = join(root, 'docs');
  mkdirSync(join(prefix, 'sub'), { recursive: true });
  writeFileSync(join(root, 'secret.txt'), 'top secret text');
  writeFileSync(join(prefix, 'a.txt'), 'the quick brown fox');
  writeFileSync(join(prefix, 'sub', 'b.txt'), 'a lazy brown dog');
  symlinkSync(join(root, 'secret.txt'), join(prefix, 'leak.txt'));
  symlinkSync(join(prefix, 'a.txt'), join(prefix, 'inside.txt'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'quarry-snipfiles-db-'));
  // The engine takes searchd's snippets_file_prefix and max_threads_per_query from its options.
  engine = await openEngine({ dataDir, snippetsFilePrefix: `${prefix}/`, maxThreadsPerQuery: 2 });
  await engine.execute('CREATE TABLE t (body text)', session);
});
afterEach(async () => {
  configureSnippetFiles({ prefix: '' });
  await engine.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(sql: string): Promise<unknown[][]> {
  const out = await engine.execute(sql, session);
  const r = out[out.length - 1];
  if (r.kind === 'error') throw new Error(r.message);
  return (r as RowsResult).rows;
}

describe('CALL SNIPPETS load_files', () => {
  it('reads files under the prefix with a worker pool, in request order', async () => {
    expect(await call("CALL SNIPPETS(('a.txt','sub/b.txt','inside.txt'), 't', 'brown', 1 AS load_files)"))
      .toEqual([['the quick <b>brown</b> fox'], ['a lazy <b>brown</b> dog'], ['the quick <b>brown</b> fox']]);
  });

  it('scattered: a missing file gives an empty string; with load_files too it is an error', async () => {
    expect(await call("CALL SNIPPETS(('a.txt','nope.txt'), 't', 'fox', 1 AS load_files_scattered)")).toEqual([['the quick brown <b>fox</b>'], ['']]);
    await expect(call("CALL SNIPPETS(('a.txt','nope.txt'), 't', 'fox', 1 AS load_files, 1 AS load_files_scattered)")).rejects.toThrow('nope.txt');
    await expect(call("CALL SNIPPETS('nope.txt', 't', 'fox', 1 AS load_files)")).rejects.toThrow('failed to open');
  });

  it('never reads outside the prefix: .., absolute paths, symlinks leaving it, NUL bytes', async () => {
    await expect(call("CALL SNIPPETS('../secret.txt', 't', 'secret', 1 AS load_files)")).rejects.toThrow('escapes');
    await expect(call("CALL SNIPPETS('sub/../../secret.txt', 't', 'secret', 1 AS load_files)")).rejects.toThrow('escapes');
    await expect(call(`CALL SNIPPETS('${join(root, 'secret.txt')}', 't', 'secret', 1 AS load_files)`)).rejects.toThrow('escapes');
    await expect(call("CALL SNIPPETS('leak.txt', 't', 'secret', 1 AS load_files)")).rejects.toThrow('escapes');
    expect(() => resolveSnippetFile('a.txt\0../../secret.txt', prefix)).toThrow('escapes');
    await expect(call("CALL SNIPPETS('leak.txt', 't', 'secret', 1 AS load_files_scattered)")).rejects.toThrow('escapes');
  });

  it('is off without a configured prefix, and fails cleanly on a missing prefix directory', async () => {
    configureSnippetFiles({ prefix: '' });
    await expect(call("CALL SNIPPETS('a.txt', 't', 'fox', 1 AS load_files)")).rejects.toThrow('snippets_file_prefix');
    configureSnippetFiles({ prefix: join(root, 'missing/') });
    await expect(call("CALL SNIPPETS('a.txt', 't', 'fox', 1 AS load_files)")).rejects.toThrow('is not a readable directory');
  });

  it('the pool returns every file in order whatever the thread count', async () => {
    const paths = Array.from({ length: 9 }, (_, i) => join(prefix, i % 2 ? 'a.txt' : join('sub', 'b.txt')));
    const out = await readInPool(paths, 3);
    expect(out.map((r) => ('text' in r ? r.text : r.error))).toEqual(paths.map((p, i) => (i % 2 ? 'the quick brown fox' : 'a lazy brown dog')));
  });
});
