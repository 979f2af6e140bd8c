// Checkpoints: incremental segment files, atomic manifest, cleanup of unlisted files, op pruning.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { Store } from '../../../src/store/store.js';
import { parseManifest, serializeManifest } from '../../../src/store/manifest.js';

let dir: string;
let store: Store;
const bytes = (...b: number[]) => new Uint8Array(b);
/** The one generation directory of table t. */
const tableDir = () => {
  const dirs = readdirSync(join(dir, 'tables')).filter((d) => d.startsWith('t.'));
  expect(dirs.length).toBeLessThanOrEqual(1);
  return join(dir, 'tables', dirs[0] ?? 'none');
};

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'quarry-ckpt-'));
  store = Store.open(dir);
  await store.createTable({ name: 't', columns: [], settings: {} });
  // five write calls of two ops: op records end at seqs 2, 4, 6, 8, 10
  for (let i = 0; i < 10; i += 2) {
    await store.write('t', [i, i + 1].map((k) => ({ op: 'put' as const, docId: BigInt(k), doc: { k } })));
  }
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Store checkpoints', () => {
  it('starts empty at the base sequence', () => {
    expect(store.loadCheckpoint('t')).toEqual({ segments: [], lastSeq: 0n });
  });

  it('saves new segments, keeps listed ones by name, deletes the dropped ones', async () => {
    await store.saveCheckpoint('t', [{ name: 's1', bytes: bytes(1) }, { name: 's2', bytes: bytes(2, 2) }], 4n);
    await store.saveCheckpoint('t', [{ name: 's2' }, { name: 's3', bytes: bytes(3, 3, 3) }], 7n);
    expect(store.loadCheckpoint('t')).toEqual({
      segments: [{ name: 's2', bytes: bytes(2, 2) }, { name: 's3', bytes: bytes(3, 3, 3) }], lastSeq: 7n,
    });
    expect(readdirSync(tableDir()).sort()).toEqual(['manifest.json', 's2', 's3']);
    await store.close();
    store = Store.open(dir);
    expect(store.loadCheckpoint('T').lastSeq).toBe(7n);
  });

  it('writes a segment given as pieces as their concatenation, its manifest checksum that of the whole file', async () => {
    // pieces across the 8 MiB write step (writePiecesDurable): an empty one, one smaller, one over two steps
    const big = new Uint8Array((8 << 20) * 2 + 12345).map((_, i) => (i * 7 + (i >>> 13)) & 255);
    const pieces = [bytes(1, 2, 3), new Uint8Array(0), big, bytes(9)];
    const whole = Buffer.concat(pieces);
    await store.saveCheckpoint('t', [{ name: 's1', bytes: pieces }], 4n);
    expect(readFileSync(join(tableDir(), 's1')).equals(whole)).toBe(true);
    expect(parseManifest(readFileSync(join(tableDir(), 'manifest.json'), 'utf8'), 'manifest.json').segments)
      .toEqual([{ name: 's1', size: whole.length, crc32: crc32(whole) }]);
    expect(Buffer.from(store.loadCheckpoint('t').segments[0].bytes).equals(whole)).toBe(true);
  });

  it('refuses bad checkpoints without touching the current one', async () => {
    await store.saveCheckpoint('t', [{ name: 's1', bytes: bytes(1) }], 4n);
    const bad: [Parameters<Store['saveCheckpoint']>[1], bigint, RegExp][] = [
      [[{ name: 's1', bytes: bytes(9) }], 5n, /immutable/],
      [[{ name: 'nope' }], 5n, /not in the current/],
      [[{ name: '../x', bytes: bytes(1) }], 5n, /invalid file name/],
      [[{ name: 'manifest.json', bytes: bytes(1) }], 5n, /invalid file name/],
      [[{ name: 'a', bytes: bytes(1) }, { name: 'a', bytes: bytes(1) }], 5n, /twice/],
      [[{ name: 's1' }], 3n, /outside 4\.\.10/],
      [[{ name: 's1' }], 11n, /outside 4\.\.10/],
    ];
    for (const [segs, seq, msg] of bad) await expect(store.saveCheckpoint('t', segs, seq)).rejects.toThrow(msg);
    expect(store.loadCheckpoint('t')).toEqual({ segments: [{ name: 's1', bytes: bytes(1) }], lastSeq: 4n });
  });

  it('removes files a crashed checkpoint left behind when reopening', async () => {
    await store.saveCheckpoint('t', [{ name: 's1', bytes: bytes(1) }], 4n);
    writeFileSync(join(tableDir(), 's9'), 'orphan');
    writeFileSync(join(tableDir(), 'manifest.json.tmp'), '{torn');
    writeFileSync(join(dir, 'tables', 'x.99'), 'stray');
    await store.close();
    store = Store.open(dir);
    expect(readdirSync(tableDir()).sort()).toEqual(['manifest.json', 's1']);
    expect(existsSync(join(dir, 'tables', 'x.99'))).toBe(false);
  });

  it('detects a segment whose size differs from the manifest', async () => {
    await store.saveCheckpoint('t', [{ name: 's1', bytes: bytes(1, 2, 3) }], 4n);
    writeFileSync(join(tableDir(), 's1'), 'ab');
    expect(() => store.loadCheckpoint('t')).toThrow(/has 2 bytes, manifest says 3/);
  });

  it('prunes whole write records, only up to the checkpoint', async () => {
    expect(await store.pruneOps('t', 5n)).toBe(0);
    await store.saveCheckpoint('t', [], 6n);
    expect(await store.pruneOps('t', 8n)).toBe(3);
    expect([...store.opsSince('t', 0n)].map((o) => o.seq)).toEqual([7n, 8n, 9n, 10n]);
    expect(await store.pruneOps('t', 3n)).toBe(0);
  });

  it('keeps a record straddling the checkpoint; opsSince skips its covered ops', async () => {
    await store.saveCheckpoint('t', [], 7n);
    expect(await store.pruneOps('t', 7n)).toBe(3);
    expect([...store.opsSince('t', 0n)].map((o) => o.seq)).toEqual([7n, 8n, 9n, 10n]);
    expect([...store.opsSince('t', 7n)]).toEqual([
      { seq: 8n, op: 'put', docId: 7n, doc: { k: 7 } },
      { seq: 9n, op: 'put', docId: 8n, doc: { k: 8 } },
      { seq: 10n, op: 'put', docId: 9n, doc: { k: 9 } },
    ]);
  });

  it('prunes in chunks when asked to', async () => {
    await store.close();
    store = Store.open(dir, { deleteChunk: 3 });
    await store.saveCheckpoint('t', [], 10n);
    expect(await store.pruneOps('t', 10n)).toBe(5);
    expect([...store.opsSince('t', 0n)]).toEqual([]);
  });

  it('drops segment files with the table', async () => {
    await store.saveCheckpoint('t', [{ name: 's1', bytes: bytes(1) }], 4n);
    const d = tableDir();
    await store.dropTable('t');
    await store.close(); // waits for garbage collection
    expect(existsSync(d)).toBe(false);
    store = Store.open(dir);
  });
});

describe('manifest text', () => {
  it('round-trips and rejects damaged text', () => {
    const m = { version: 1, gen: 3, lastSeq: (1n << 64n) - 1n, segments: [{ name: 'a', size: 4, crc32: 77 }] };
    const text = serializeManifest(m);
    expect(parseManifest(text, 'x')).toEqual(m);
    expect(() => parseManifest('{"version":1,', 'x')).toThrow(/not JSON/);
    expect(() => parseManifest(JSON.stringify({ ...m, version: 2, lastSeq: '1' }), 'x')).toThrow(/version 2/);
    // any change that still parses (a digit of lastSeq, a size) fails the manifest's checksum
    expect(() => parseManifest(text.replace('"size":4', '"size":5'), 'x')).toThrow('bad manifest in x: checksum mismatch');
    expect(() => parseManifest(text.replace('18446744073709551615', '18446744073709551614'), 'x')).toThrow(/checksum mismatch/);
    expect(() => parseManifest(JSON.stringify({ ...m, lastSeq: '5' }), 'x')).toThrow(/checksum mismatch/);
  });

  it('is what saveCheckpoint leaves on disk', async () => {
    await store.saveCheckpoint('t', [{ name: 's1', bytes: bytes(1, 2) }], 2n);
    const m = parseManifest(readFileSync(join(tableDir(), 'manifest.json'), 'utf8'), 'disk');
    expect(m.lastSeq).toBe(2n);
    expect(m.segments).toEqual([{ name: 's1', size: 2, crc32: crc32(bytes(1, 2)) }]);
  });
});
