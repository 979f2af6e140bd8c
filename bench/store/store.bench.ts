/**
 * bench/store/store.bench.ts: durable write and read rates of the store of record (lmdb, fsync per commit).
 * What's measured: puts/s for write() calls of 1, 100 and 1000 docs (~250 bytes encoded each),
 * awaited one at a time, and for single-doc writes with 64 in flight (writers share commits);
 * reads/s for getDoc (random ids), getDocs (pages of 20), docs() scans and opsSince scans.
 * Baseline rows ("lmdb raw") put and get pre-encoded buffers of the same size with the same
 * settings, to separate the store's own cost (codec, op log, keys) from lmdb's and the disk's.
 * Synthetic documents from a seeded generator (seed 42), in a fresh temporary data directory.
 * Run: npx tsc -p tsconfig.json && node dist/bench/store/store.bench.js [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store.js';
import { encodeValue } from '../../src/store/values/value-codec.js';
import { docKey } from '../../src/store/keys.js';
import { openDbs } from '../../src/store/lmdb-env.js';
import type { StoredDoc, WriteOp } from '../../src/store/types.js';

const SEED = 42;
const QUICK = process.argv.includes('--quick');
/** Documents written per scenario (the single-doc sequential one is fsync-bound: fewer). */
const DOCS = QUICK ? 20_000 : 100_000;
const SINGLE_SEQUENTIAL = QUICK ? 500 : 2_000;
const CONCURRENT_IN_FLIGHT = 64;
const READS = QUICK ? 100_000 : 500_000;

function mulberry32(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rng = mulberry32(SEED);
const WORDS = 'the quick brown fox jumps over lazy dog search index segment posting ranker snippet table query'.split(' ');
const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(' ');

/** A document of about 250 encoded bytes: two text fields and a few attributes. */
function makeDoc(i: number): StoredDoc {
  return {
    title: words(6), body: words(28), gid: BigInt(i) * 1_000_003n, price: rng() * 100,
    tags: [BigInt(i % 7), BigInt(i % 11)], flag: i % 2,
  };
}

/**
 * perSecond is wall-clock (what a client sees; writes wait for fsync). perCpuSecond divides by this
 * process's CPU time instead, so read figures stay comparable on a machine shared with other jobs.
 */
interface Row { scenario: string; ops: number; seconds: number; perSecond: number; perCpuSecond: number }
const rows: Row[] = [];
async function measure(scenario: string, ops: number, fn: () => Promise<void> | void): Promise<void> {
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await fn();
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  rows.push({
    scenario, ops, seconds: +seconds.toFixed(3), perSecond: Math.round(ops / seconds),
    perCpuSecond: Math.round(ops / cpuSeconds),
  });
}

async function writeScenarios(store: Store, next: { id: number }): Promise<void> {
  const puts = (n: number): WriteOp[] => Array.from({ length: n }, () => {
    const id = next.id++;
    return { op: 'put', docId: BigInt(id), doc: makeDoc(id) };
  });
  await measure('put, batch 1, sequential', SINGLE_SEQUENTIAL, async () => {
    for (let i = 0; i < SINGLE_SEQUENTIAL; i++) await store.write('b', puts(1));
  });
  await measure(`put, batch 1, ${CONCURRENT_IN_FLIGHT} in flight`, DOCS, async () => {
    let left = DOCS;
    await Promise.all(Array.from({ length: CONCURRENT_IN_FLIGHT }, async () => {
      while (left-- > 0) await store.write('b', puts(1));
    }));
  });
  for (const size of [100, 1000]) {
    await measure(`put, batch ${size}, sequential`, DOCS, async () => {
      for (let i = 0; i < DOCS / size; i++) await store.write('b', puts(size));
    });
  }
}

async function readScenarios(store: Store, maxId: number): Promise<void> {
  const ids = Array.from({ length: READS }, () => BigInt(Math.floor(rng() * maxId)));
  let found = 0;
  await measure('getDoc, random id', READS, () => {
    for (const id of ids) if (store.getDoc('b', id)) found++;
  });
  await measure('getDocs, pages of 20', READS, () => {
    for (let i = 0; i < READS; i += 20) found += store.getDocs('b', ids.slice(i, i + 20)).length;
  });
  await measure('docs() scan', maxId, () => {
    for (const _ of store.docs('b')) found++;
  });
  await measure('opsSince(0) scan', maxId, () => {
    for (const _ of store.opsSince('b', 0n)) found++;
  });
  if (found === 0) throw new Error('nothing read');
}

/** The same sizes straight into lmdb: one put per doc, values already encoded. */
async function rawBaseline(dir: string): Promise<void> {
  const dbs = openDbs(join(dir, 'raw'));
  try {
    const value = encodeValue(makeDoc(1));
    await measure('lmdb raw: put, batch 1000, sequential', DOCS, async () => {
      for (let b = 0; b < DOCS / 1000; b++) {
        await dbs.env.transaction(() => {
          for (let i = 0; i < 1000; i++) dbs.docs.putSync(docKey(1, BigInt(b * 1000 + i)), value);
        });
      }
    });
    const keys = Array.from({ length: READS }, () => docKey(1, BigInt(Math.floor(rng() * DOCS))));
    await measure('lmdb raw: get, random id', READS, () => {
      for (const k of keys) if (!dbs.docs.get(k)) throw new Error('missing');
    });
  } finally {
    await dbs.env.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-store-bench-'));
  const store = Store.open(dir);
  try {
    await store.createTable({ name: 'b', columns: [], settings: {} });
    const next = { id: 0 };
    await writeScenarios(store, next);
    await readScenarios(store, next.id);
    await rawBaseline(dir);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const docBytes = encodeValue(makeDoc(123456)).length;
  console.log(`store bench: ${docBytes}-byte docs, seed ${SEED}${QUICK ? ', quick' : ''}`);
  console.table(rows);
  console.log(JSON.stringify({ bench: 'store', docBytes, seed: SEED, results: rows }));
}

await main();
