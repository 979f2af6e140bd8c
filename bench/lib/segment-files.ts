// bench/lib/segment-files.ts: the md5 of a data directory's segment files, for benches that check two builds
// (or two runs) wrote byte-identical segments. A checkpoint names a segment file seg-<seq>-<pass>-<i>.bin
// (src/engine/durability/checkpointer.ts): <seq> and <pass> say which checkpoint pass wrote it, and
// that moves with timing (a bulk load skips the pass its next batch would wait for: engine-target.ts),
// while <i>, the segment's place in the table, and the bytes do not. So files are hashed by table and
// place, never by name: by name, "seg-100000-4-2" sorts before "seg-25000-1-0" in one run and
// "seg-75000-3-2" after it in the next, and 1 of 30 identical gcide imports (imp19a) gave another md5
// for the same six segments.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The segment files under `dir` (names starting seg-: a folder above named "...seg..." pulls in nothing
 * else), by table directory, then by place in the table.
 */
export function segmentFiles(dir: string): string[] {
  const walk = (d: string): string[] => readdirSync(d, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(join(d, e.name)) : [join(d, e.name)]));
  const place = (f: string) => Number(/-(\d+)\.bin$/.exec(f)?.[1] ?? -1);
  return walk(dir).filter((p) => /^seg-/.test(basename(p)))
    .sort((a, b) => dirname(a).localeCompare(dirname(b)) || place(a) - place(b) || a.localeCompare(b));
}

/** md5 over the segment files' bytes in segmentFiles' order (names left out: they carry timing). */
export function segmentsMd5(dir: string): string {
  const md5 = createHash('md5');
  for (const f of segmentFiles(dir)) md5.update(readFileSync(f));
  return md5.digest('hex');
}
