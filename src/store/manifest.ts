/** A table generation's manifest: which segment files make up its checkpoint, up to which seq. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { SearchError } from '../util/errors.js';
import { replaceFileAtomic } from './durable-fs.js';

export const MANIFEST_FILE = 'manifest.json';
/** Bumped when the manifest's shape changes; a newer one is refused rather than misread. */
export const MANIFEST_VERSION = 1;

export interface ManifestSegment {
  name: string;
  /** File size in bytes, checked on load. */
  size: number;
  /** CRC-32 of the file's bytes, checked on load. */
  crc32: number;
}

export interface Manifest {
  version: number;
  /** The table generation this checkpoint belongs to (a guard against a misplaced directory). */
  gen: number;
  /** Every op with seq <= lastSeq is reflected in the segments. */
  lastSeq: bigint;
  segments: ManifestSegment[];
}

/** Segment file names: plain, portable, and never the manifest or its temporary file. */
const SEGMENT_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

export function isSegmentName(name: string): boolean {
  return SEGMENT_NAME.test(name) && !name.startsWith('manifest') && !name.endsWith('.tmp');
}

export function emptyManifest(gen: number, lastSeq: bigint): Manifest {
  return { version: MANIFEST_VERSION, gen, lastSeq, segments: [] };
}

/** The manifest in `dir`, or undefined when none was ever saved there. */
export function readManifest(dir: string): Manifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(dir, MANIFEST_FILE), 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
  return parseManifest(text, dir);
}

export function parseManifest(text: string, where: string): Manifest {
  const bad = (why: string) => new SearchError('STORAGE_ERROR', `bad manifest in ${where}: ${why}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw bad('not JSON');
  }
  const m = raw as { version?: unknown; gen?: unknown; lastSeq?: unknown; segments?: unknown; crc32?: unknown };
  if (m.version !== MANIFEST_VERSION) throw bad(`version ${String(m.version)}`);
  const { crc32: check, ...body } = m;
  if (check !== crc32(JSON.stringify(body))) throw bad('checksum mismatch');
  if (typeof m.gen !== 'number' || typeof m.lastSeq !== 'string' || !/^\d+$/.test(m.lastSeq)) {
    throw bad('gen/lastSeq');
  }
  if (!Array.isArray(m.segments)) throw bad('segments');
  const segments = m.segments.map((s: { name?: unknown; size?: unknown; crc32?: unknown }) => {
    if (typeof s?.name !== 'string' || !isSegmentName(s.name) || typeof s.size !== 'number' || typeof s.crc32 !== 'number') {
      throw bad('segment entry');
    }
    return { name: s.name, size: s.size, crc32: s.crc32 };
  });
  return { version: MANIFEST_VERSION, gen: m.gen, lastSeq: BigInt(m.lastSeq), segments };
}

/** JSON with a CRC-32 of the rest (a damaged manifest is refused, not misread). */
export function serializeManifest(m: Manifest): string {
  const body = { version: m.version, gen: m.gen, lastSeq: m.lastSeq.toString(), segments: m.segments };
  return JSON.stringify({ ...body, crc32: crc32(JSON.stringify(body)) }) + '\n';
}

/** Atomically replaces the manifest in `dir` (temp file, fsync, rename, fsync dir). */
export async function writeManifest(dir: string, m: Manifest, swapDelayMs = 0): Promise<void> {
  await replaceFileAtomic(join(dir, MANIFEST_FILE), Buffer.from(serializeManifest(m)), swapDelayMs);
}
