// An import's input: a plain file read a buffer at a time (chunks valid until the next is asked for),
// gzip told by its magic bytes whatever the name, bytes counted for progress.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { openInput } from '../../../src/import/input.js';
import { readRecords } from '../../../src/import/record-reader.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every chunk copied as it arrives (a chunk may be overwritten by the next read). */
async function readAll(path: string): Promise<{ bytes: Buffer; chunks: number; counted: number; gzip: boolean }> {
  const input = await openInput(path);
  const parts: Buffer[] = [];
  for await (const c of input.chunks) parts.push(Buffer.from(c));
  return { bytes: Buffer.concat(parts), chunks: parts.length, counted: input.bytesRead(), gzip: input.gzip };
}

describe('import input', () => {
  // 2.5 MiB of rows with a two-byte and a four-byte UTF-8 character on every line: chunk ends fall inside them
  const line = (i: number) => `${i}\tcafé ${i}\tword 😀 ${'x'.repeat(i % 97)}\n`;
  let text = '';
  for (let i = 0; text.length < 2.5 * (1 << 20); i++) text += line(i);
  const plain = join(dir, 'rows.tsv');
  writeFileSync(plain, text);

  it('reads a plain file of several chunks back byte for byte, counting its bytes', async () => {
    const r = await readAll(plain);
    expect(r.gzip).toBe(false);
    expect(r.chunks).toBeGreaterThan(2);
    expect(r.bytes.equals(Buffer.from(text))).toBe(true);
    expect(r.counted).toBe(Buffer.byteLength(text));
  });

  it('decodes rows whose characters a chunk boundary cuts, as the whole text reads', async () => {
    const input = await openInput(plain);
    const rows: string[][] = [];
    for await (const recs of readRecords(input.chunks, 'tsv')) for (const r of recs) if ('values' in r) rows.push(r.values);
    const expected = text.split('\n').slice(0, -1).map((l) => l.split('\t'));
    expect(rows.length).toBe(expected.length);
    expect(rows).toEqual(expected);
  });

  it('gunzips a gzip file whatever its name, counting compressed bytes', async () => {
    const gz = join(dir, 'rows-no-gz-suffix.tsv');
    const packed = gzipSync(text);
    writeFileSync(gz, packed);
    const r = await readAll(gz);
    expect(r.gzip).toBe(true);
    expect(r.bytes.equals(Buffer.from(text))).toBe(true);
    expect(r.counted).toBe(packed.length);
  });

  it('closes a plain file once read, stopped early, or found to be gzip', async () => {
    const fds = () => readdirSync('/proc/self/fd').length;
    const before = fds();
    await readAll(plain);
    const stopped = await openInput(plain);
    for await (const c of stopped.chunks) if (c.length > 0) break; // the import stopped at a bad line
    const gz = join(dir, 'closed.tsv');
    writeFileSync(gz, gzipSync(text));
    await readAll(gz);
    expect(fds()).toBe(before);
  });

  it('reads an empty file as no chunks', async () => {
    const empty = join(dir, 'empty.tsv');
    writeFileSync(empty, '');
    const r = await readAll(empty);
    expect(r.chunks).toBe(0);
    expect(r.counted).toBe(0);
  });
});
