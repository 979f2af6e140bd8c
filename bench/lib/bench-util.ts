/** Shared bits of the benchmarks: a seeded RNG, percentiles, a timer, disk usage. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { installNodeHost } from '../../src/engine/node-host.js';
import type { CorpusDoc } from './corpus.js';

// Benches drive src/index and src/wasm directly: give them Node's file access (the WASM core from build/).
installNodeHost();

/** mulberry32: small, fast, seeded; every benchmark names its seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function percentile(sortedMs: number[], p: number): number {
  if (!sortedMs.length) return 0;
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor((p / 100) * sortedMs.length))];
}

/** Bytes under a directory, recursively. */
export function diskBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    n += e.isDirectory() ? diskBytes(p) : statSync(p).size;
  }
  return n;
}

export function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
}

/** `--name value` as text, or null when not given. */
export function argString(name: string): string | null {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] ?? null : null;
}

/** SQL single-quoted string literal. */
export function sqlString(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The benches' gcide table, as the side-by-side creates it. */
export const GCIDE_CREATE = "CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'";

/** `docs` as INSERTs into GCIDE_CREATE's table of `batch` rows each (the side-by-side loads 1000 a statement). */
export function gcideInserts(docs: readonly CorpusDoc[], batch = 1000): string[] {
  const out: string[] = [];
  for (let i = 0; i < docs.length; i += batch) {
    const rows = docs.slice(i, i + batch).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    out.push(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
  return out;
}
