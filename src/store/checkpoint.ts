/** Checkpoints of one table generation: segment files plus the manifest that lists them. */
import { readdirSync, readFileSync, rmSync, statfsSync } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SearchError } from '../util/errors.js';
import { fsyncDir, mkdirDurable, writePiecesDurable } from './durable-fs.js';
import {
  emptyManifest, isSegmentName, MANIFEST_FILE, MANIFEST_VERSION, readManifest, serializeManifest, writeManifest,
  type Manifest,
} from './manifest.js';
import type { Checkpoint, SegmentEntry } from './types.js';

/**
 * Free space a checkpoint leaves untouched: it never writes its files into the room lmdb's commits keep
 * for themselves (lmdb-env.ts: 1 MiB plus twice a commit's documents, checked just before each commit;
 * lmdb must never meet a full disk). Segment files written side by side until ENOSPC used to fill the
 * disk to its last byte for a moment, between a commit's check and its write (the fresh-clone CI's
 * disk-full test saw lmdb's own write error once).
 */
const CHECKPOINT_RESERVE_BYTES = 16 << 20;

/** Refuses a checkpoint whose new files would leave less than CHECKPOINT_RESERVE_BYTES free, before writing any. */
function checkRoom(dir: string, fresh: SegmentEntry[]): void {
  let bytes = 0;
  for (const e of fresh) bytes += e.bytes instanceof Uint8Array ? e.bytes.byteLength : e.bytes!.reduce((n, p) => n + p.byteLength, 0);
  let free: number;
  try {
    const fs = statfsSync(dir);
    free = fs.bavail * fs.bsize;
  } catch {
    return; // no answer about space: the writes report what they meet
  }
  if (free >= bytes + CHECKPOINT_RESERVE_BYTES) return;
  throw Object.assign(new Error(`ENOSPC: no space left on device, checkpoint of ${bytes} bytes with ${free} free`), { code: 'ENOSPC' });
}

/**
 * Writes the new segments of `entries` (each fsynced, all at once), then swaps in a manifest listing all of
 * them, then deletes the files the old manifest listed that the new one does not. A crash before
 * the swap leaves the old checkpoint whole (new files are orphans, removed on the next open); after
 * it, the new one. Returns the new manifest.
 */
export async function saveSegments(
  dir: string, gen: number, current: Manifest | undefined, entries: SegmentEntry[], lastSeq: bigint,
  swapDelayMs = 0,
): Promise<Manifest> {
  const listed = new Map((current?.segments ?? []).map((s) => [s.name, s]));
  checkEntries(entries, listed);
  mkdirDurable(dir);
  const fresh = entries.filter((e) => e.bytes);
  checkRoom(dir, fresh);
  const sums = new Map<string, { size: number; crc32: number }>();
  let next: Manifest | undefined;
  try {
    // the new files are written and fsynced side by side (the thread pool overlaps their flushes), each
    // checksummed as it is written
    const written = await Promise.allSettled(fresh.map(async (e) => {
      sums.set(e.name, await writePiecesDurable(join(dir, e.name), e.bytes instanceof Uint8Array ? [e.bytes] : e.bytes!));
    }));
    const failed = written.find((w): w is PromiseRejectedResult => w.status === 'rejected');
    if (failed) throw failed.reason;
    const segments = entries.map((e) => (e.bytes ? { name: e.name, ...sums.get(e.name)! } : listed.get(e.name)!));
    next = { version: MANIFEST_VERSION, gen, lastSeq, segments };
    // the new files' directory entries must be durable before a manifest can name them
    if (fresh.length) await fsyncDir(dir);
    await writeManifest(dir, next, swapDelayMs);
  } catch (e) {
    // a full disk: give back the space of what was written (the old checkpoint stays whole)
    if (!next || !swappedIn(dir, next)) await Promise.all(fresh.map((f) => unlink(join(dir, f.name)).catch(() => undefined)));
    throw e;
  }
  const keep = new Set(entries.map((e) => e.name));
  for (const name of listed.keys()) {
    if (!keep.has(name)) await unlink(join(dir, name)).catch(() => undefined);
  }
  return next;
}

/** Whether `m` is the manifest on disk (a failure after the rename, e.g. of the directory fsync). */
function swappedIn(dir: string, m: Manifest): boolean {
  try {
    const now = readManifest(dir);
    return now !== undefined && serializeManifest(now) === serializeManifest(m);
  } catch {
    return false;
  }
}

function checkEntries(entries: SegmentEntry[], listed: Map<string, unknown>): void {
  const seen = new Set<string>();
  for (const e of entries) {
    const bad = (why: string) => new SearchError('BAD_VALUE', `checkpoint segment '${e.name}': ${why}`);
    if (typeof e.name !== 'string' || !isSegmentName(e.name)) throw bad('invalid file name');
    if (seen.has(e.name)) throw bad('listed twice');
    seen.add(e.name);
    if (e.bytes && listed.has(e.name)) throw bad('already in the checkpoint; segment files are immutable');
    if (!e.bytes && !listed.has(e.name)) throw bad('kept but not in the current checkpoint');
  }
}

/** Reads the checkpoint in `dir`; with no manifest, an empty one covering ops up to `baseSeq`. */
export function loadSegments(dir: string, gen: number, baseSeq: bigint): Checkpoint {
  const m = readManifest(dir) ?? emptyManifest(gen, baseSeq);
  if (m.gen !== gen) {
    throw new SearchError('STORAGE_ERROR', `manifest in ${dir} belongs to generation ${m.gen}, not ${gen}`);
  }
  const segments = m.segments.map((s) => {
    const damaged = (why: string) => new SearchError('STORAGE_ERROR', `segment ${s.name} in ${dir} ${why}`);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(readFileSync(join(dir, s.name)));
    } catch (e) {
      throw damaged(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    if (bytes.length !== s.size) throw damaged(`has ${bytes.length} bytes, manifest says ${s.size}`);
    if (crc32(bytes) !== s.crc32) throw damaged('fails its checksum');
    return { name: s.name, bytes };
  });
  return { segments, lastSeq: m.lastSeq };
}

/**
 * Deletes files in `dir` that its manifest does not list: segments of a checkpoint that crashed
 * before its swap, and a stale temporary manifest. Returns the manifest (undefined if none).
 */
export function removeUnlisted(dir: string): Manifest | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  let m: Manifest | undefined;
  try {
    m = readManifest(dir);
  } catch {
    return undefined; // damaged: recovery reports it and discards the whole checkpoint
  }
  const keep = new Set([MANIFEST_FILE, ...(m?.segments ?? []).map((s) => s.name)]);
  for (const name of names) {
    if (!keep.has(name)) rmSync(join(dir, name), { recursive: true, force: true });
  }
  return m;
}
