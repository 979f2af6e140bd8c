// bench/insert/queries-under-writes.ts: query latency while a stream of durable single-row INSERTs goes on:
// WRITERS clients insert one row per statement while READERS clients run full-text queries on the same
// table, for the insert bench (npm run bench -- insert). A server that stalls its protocol thread on a
// commit's fsync shows it here as query p99, which a query run on an idle server never sees.
import type { CorpusDoc } from '../lib/corpus.js';
import { percentile, sqlString } from '../lib/bench-util.js';
import type { Peer } from '../side-by-side/side-by-side.bench.js';

export const WRITERS = 16;
export const READERS = 8;

/** A few words of the documents' titles, the query terms (deterministic: corpus order). */
function terms(docs: CorpusDoc[]): string[] {
  const words = new Set<string>();
  for (const d of docs) for (const w of d.title.toLowerCase().split(/[^a-z]+/)) if (w.length > 3) words.add(w);
  return [...words].slice(0, 200);
}

/**
 * `statements` single-row INSERTs from WRITERS clients (ids from `idBase`), READERS clients querying
 * until the writers are done; query p50/p99 in ms, queries answered and the insert rate meanwhile.
 */
export async function queriesUnderWrites(peer: Peer, docs: CorpusDoc[], idBase: number, statements: number): Promise<{ insertsPerS: number; queries: number; p50: number; p99: number }> {
  const writers = await Promise.all(Array.from({ length: WRITERS }, () => peer.open()));
  const readers = await Promise.all(Array.from({ length: READERS }, () => peer.open()));
  const words = terms(docs);
  const n = Math.min(statements, docs.length);
  let next = 0;
  let done = false;
  const latencies: number[] = [];
  const t0 = performance.now();
  const writing = Promise.all(writers.map(async (c) => {
    while (next < n) {
      const d = docs[next++];
      await c.exec(`INSERT INTO gcide (id, title, body, len) VALUES (${idBase + d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    }
  })).then(() => performance.now() - t0).finally(() => { done = true; });
  const reading = Promise.all(readers.map(async (c, r) => {
    for (let k = r; !done; k += READERS) {
      const q0 = performance.now();
      await c.exec(`SELECT id FROM gcide WHERE MATCH(${sqlString(words[k % words.length])}) LIMIT 20`);
      latencies.push(performance.now() - q0);
    }
  }));
  const ms = await writing;
  await reading;
  await Promise.all([...writers, ...readers].map((c) => c.close()));
  latencies.sort((a, b) => a - b);
  const round = (x: number) => Number(x.toFixed(2));
  return { insertsPerS: Math.round(n / (ms / 1000)), queries: latencies.length, p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)) };
}
