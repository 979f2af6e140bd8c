/** File writes that survive a crash: fsync the data, rename into place, fsync the directory. */
import { mkdirSync, openSync, fsyncSync, closeSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';

/** Creates `path` and fsyncs the directory holding it, so the new entry survives a crash. */
export function mkdirDurable(path: string): void {
  if (mkdirSync(path, { recursive: true }) !== undefined) fsyncDirSync(dirname(path));
}

/** fsync of a directory: makes creations, renames and deletions inside it durable. */
export function fsyncDirSync(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const h = await open(dir, 'r');
  try {
    await h.sync();
  } finally {
    await h.close();
  }
}

/** Bytes written (and checksummed) per step of writePiecesDurable: a few ms of the protocol thread's CPU. */
const WRITE_STEP = 8 << 20;

/**
 * Writes `pieces` in order to `path` (replacing any old content), fsyncs it, and returns its size and CRC-32.
 * A step at a time: each write runs on the thread pool and the checksum of a step is a few ms of this
 * thread, so queries run between steps (a 10M table's checkpoint of a GiB segment, copied and checksummed in
 * one piece, took the first queries after a load from 7 to 99 ms). `pieces` must not change until it resolves.
 */
export async function writePiecesDurable(path: string, pieces: readonly Uint8Array[]): Promise<{ size: number; crc32: number }> {
  let size = 0, crc = 0;
  const h = await open(path, 'w');
  try {
    for (const piece of pieces) {
      for (let at = 0; at < piece.length; at += WRITE_STEP) {
        const step = piece.subarray(at, Math.min(piece.length, at + WRITE_STEP));
        for (let done = 0; done < step.length;) done += (await h.write(step, done)).bytesWritten;
        crc = crc32(step, crc);
        size += step.length;
      }
    }
    await h.sync();
  } finally {
    await h.close();
  }
  return { size, crc32: crc };
}

/** Writes `bytes` to `path` (replacing any old content) and fsyncs the file before returning. */
export async function writeFileDurable(path: string, bytes: Uint8Array): Promise<void> {
  // one piece of writePiecesDurable (its checksum of a small file is not worth a second write loop)
  await writePiecesDurable(path, [bytes]);
}

/**
 * Replaces `path` atomically: a reader (or a restart after a crash at any point) sees either the
 * old content or the new one, never a mix. `delayMs` widens the window between the fsynced
 * temporary file and the rename, for the crash tests only.
 */
export async function replaceFileAtomic(path: string, bytes: Uint8Array, delayMs = 0): Promise<void> {
  const tmp = `${path}.tmp`;
  try {
    await writeFileDurable(tmp, bytes);
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined); // a full disk: give its space back
    throw e;
  }
  if (delayMs > 0) await sleep(delayMs);
  await rename(tmp, path);
  await fsyncDir(dirname(path));
}

/** Removes a file or directory tree if present. */
export async function removePath(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}
