/**
 * An import's input: a file or standard input (`-`), gunzipped when it starts with gzip's magic bytes
 * (1f 8b), whatever its name. Counts the bytes read before decompression, so progress compares them
 * with the file's size for an ETA.
 */
import { createReadStream, statSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

export interface ImportInput {
  /** The path as given (`-` for standard input). */
  name: string;
  /** The decoded bytes in order. */
  chunks: AsyncIterable<Buffer>;
  /** Bytes read from the file or pipe so far (compressed bytes for gzip). */
  bytesRead(): number;
  /** The file's size when it is a regular file (undefined for pipes and standard input). */
  totalBytes?: number;
  gzip: boolean;
}

const GZIP_MAGIC = [0x1f, 0x8b];

function sizeOf(path: string): number | undefined {
  const st = statSync(path);
  return st.isFile() ? st.size : undefined;
}

/** Opens `path` (or stdin for `-`); reads its first chunk to tell gzip from plain text. */
export async function openInput(path: string): Promise<ImportInput> {
  const totalBytes = path === '-' ? undefined : sizeOf(path);
  const raw: Readable = path === '-' ? process.stdin : createReadStream(path, { highWaterMark: 1 << 20 });
  const it = raw[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  let first = await it.next();
  // a pipe may deliver a single byte first: gzip's magic needs two
  if (!first.done && first.value.length < 2) {
    const more = await it.next();
    if (!more.done) first = { done: false, value: Buffer.concat([first.value, more.value]) };
  }
  let bytes = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    if (first.done) return;
    bytes += first.value.length;
    yield first.value;
    for (let n = await it.next(); !n.done; n = await it.next()) {
      bytes += n.value.length;
      yield n.value;
    }
  }
  const gzip = !first.done && first.value[0] === GZIP_MAGIC[0] && first.value[1] === GZIP_MAGIC[1];
  const source = Readable.from(counted(), { objectMode: false });
  // pipeline forwards a read or inflate error to the stream being iterated
  const chunks: AsyncIterable<Buffer> = gzip ? pipeline(source, createGunzip(), () => {}) : source;
  return { name: path, chunks, bytesRead: () => bytes, totalBytes, gzip };
}
