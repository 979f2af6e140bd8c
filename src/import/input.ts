/**
 * An import's input: a file or standard input (`-`), gunzipped when it starts with gzip's magic bytes
 * (1f 8b), whatever its name. Counts the bytes read before decompression, so progress compares them
 * with the file's size for an ETA.
 */
import { closeSync, createReadStream, openSync, readSync, statSync } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';

export interface ImportInput {
  /** The path as given (`-` for standard input). */
  name: string;
  /** The decoded bytes in order; a chunk may be overwritten once the next is asked for. */
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

const CHUNK_BYTES = 1 << 20;

/**
 * A plain regular file's bytes read into one buffer, over and over: each chunk is valid until the
 * next is asked for (readRecords decodes a chunk before it asks). A read stream allocated a fresh
 * 1 MiB buffer per read, 36 MB of external memory over gcide that the main thread's young
 * generation was collected for (V8 counts external memory and starts a scavenge when it grows);
 * undefined for a gzip file or anything not a regular file, which the stream path reads.
 * Read synchronously: a regular file's 1 MiB read is well under a millisecond from the page cache,
 * where an asynchronous one went to libuv's thread pool and back, two thread wake-ups per chunk
 * that under load held up the first batch (process start to the first job on the build thread,
 * `import-ab --tail 1 --rounds 10` at load 14: median 2,117 -> 1,420 ms, 10 of 10 lower).
 */
function plainFile(path: string, totalBytes: number | undefined): ImportInput | undefined {
  if (path === '-' || totalBytes === undefined) return undefined;
  const fd = openSync(path, 'r');
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES);
    const first = readSync(fd, buf, 0, CHUNK_BYTES, null);
    if (first >= 2 && buf[0] === GZIP_MAGIC[0] && buf[1] === GZIP_MAGIC[1]) {
      close();
      return undefined;
    }
    let bytes = 0;
    async function* chunks(): AsyncGenerator<Buffer> {
      try {
        for (let n = first; n > 0; n = readSync(fd, buf, 0, CHUNK_BYTES, null)) {
          bytes += n;
          yield buf.subarray(0, n);
        }
      } finally {
        close();
      }
    }
    return { name: path, chunks: chunks(), bytesRead: () => bytes, totalBytes, gzip: false };
  } catch (e) {
    close();
    throw e;
  }
}

/**
 * Opens `path` (or stdin for `-`); reads its first chunk to tell gzip from plain text. A chunk is
 * valid until the next one is asked for.
 */
export async function openInput(path: string): Promise<ImportInput> {
  const totalBytes = path === '-' ? undefined : sizeOf(path);
  const plain = plainFile(path, totalBytes);
  if (plain) return plain;
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
