/**
 * Working arrays of a batch's inversion (doc-inverter.ts, pair-builder.ts), reused from batch to batch
 * by purpose: a 1000-document batch needs about 30 bytes per token (9 MiB for 300k tokens), and fresh
 * arrays of that size are fresh mappings (the malloc tuning of bin/quarry.js maps every block over
 * 128 KiB), page-faulted in and unmapped per batch. What invertDocs returns lives in them too: it is
 * valid until the next inversion (replaceBatch and the build thread build the segment from it at once).
 */
const scratch = new Map<string, Uint32Array>();

/**
 * The largest array kept for the next batch. A server keeps 2 MiB (a 1000-document batch of 500 tokens
 * a document): a bigger batch (a huge `/bulk`) gets fresh arrays, so one big write does not stay
 * resident. A bulk load's build thread raises it (keepInversionScratch).
 */
const SMALL_WORDS = 1 << 19;
let keepWords = SMALL_WORDS;

/**
 * Keeps arrays up to `maxWords` words for the next batch: for a thread that inverts one large batch
 * after another (the build thread of `quarry import`, 25,000 documents a batch, over a million tokens),
 * where fresh arrays each batch were ten zero-filled mappings of 5-7 MiB, faulted in and left to
 * the GC, whose external-memory accounting then pressed for full collections.
 */
export function keepInversionScratch(maxWords: number): void {
  keepWords = maxWords;
}

/** `n` words of the `purpose` scratch, contents undefined. */
export function scratchWords(purpose: string, n: number): Uint32Array {
  if (n > keepWords) return new Uint32Array(n);
  let a = scratch.get(purpose);
  if (!a || a.length < n) {
    // room to grow by half for a server's small batches; an eighth above them, where the next batch of
    // a bulk load is about as big and each word more is resident for the rest of the load
    const room = n > SMALL_WORDS ? n >> 3 : n >> 1;
    a = new Uint32Array(Math.min(Math.max(n + room, 1024), keepWords));
    scratch.set(purpose, a);
  }
  return a.subarray(0, n);
}
