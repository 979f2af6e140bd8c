/**
 * An RT index's RAM tail (as Manticore's RAM chunk takes small commits): the rows of small writes,
 * kept as they came (DocInput, their ids in a Map; an engine table's rows as texts, tokenized only when
 * the tail is sealed, all in one batch: engine/text-row.ts) instead of a segment built per write and
 * merged later. The rows are live for the index (has, count, delete, replace) but not segments yet: the
 * index seals the tail into one segment before anything reads segments (a search, an attribute
 * read or update, a checkpoint), when it has grown to TAIL_ROWS / TAIL_TOKENS (up to TAIL_GROWTH_MAX times
 * that under a stream of writes no read interrupts), or when writes pause.
 * Each row is already durable in the store when it lands here (the write's commit came first), so a
 * restart rebuilds the tail's rows from the store's op log like any write after the last checkpoint.
 */
import type { DocInput } from './types.js';

/**
 * Writes of up to this many rows go to the tail; bigger ones build a segment of their own at once
 * (a 1000-row load batch is already a segment of a useful size).
 */
export const TAIL_BATCH_ROWS = 256;
/**
 * The tail is sealed before it would pass this many rows or tokens (times its growth under a write
 * stream: TAIL_GROWTH_MAX): the segment it becomes is the size of a load's 1000-row batch, so it is not
 * merged again at the smallest level, and sealing it (in a write's prepare, or the first read after
 * writes) stays a few milliseconds.
 */
export const TAIL_ROWS = 1000;
export const TAIL_TOKENS = 1 << 18;
/**
 * Under a stream of writes that no read interrupts, each seal the stream forces (the tail full) doubles
 * the tail's bounds, up to this many times TAIL_ROWS / TAIL_TOKENS (4,000 gcide rows: a few MB of texts);
 * a seal for a read brings them back to TAIL_ROWS. The stream then seals at its pause, not in a write's
 * prepare while 16 clients wait (a 1000-row seal is 15-40 ms of the protocol thread), and as fewer,
 * bigger segments that merge less. The price, paid only after a burst without reads: the first read
 * seals up to 4x the rows (session 16, tail16: 14 ms at 1x, 66 at 4x); reads among the writes seal the
 * tail small as before (each read seals it).
 */
export const TAIL_GROWTH_MAX = 4;
/** Writes paused this long seal the tail (its rows then take a segment's memory, not JS objects'). */
export const TAIL_IDLE_MS = 200;

/** Tokens of a row (its fields' lengths), what sealing it costs and what its segment holds. */
export function rowTokens(doc: DocInput): number {
  let n = 0;
  // a row of texts not tokenized yet: about a token per 4 characters (as build-job.ts guesses), so
  // counting never tokenizes it here
  if (doc.texts) for (const t of doc.texts) n += (t.length >> 2) + 1;
  else for (const f of doc.fields) n += f.packed ? f.packed.to - f.packed.from : f.terms.length;
  return n;
}

export class RamTail {
  /** Rows in arrival order; a deleted or replaced row's slot is undefined. */
  #rows: (DocInput | undefined)[] = [];
  #byId = new Map<bigint, number>();
  #tokens = 0;
  /** The pending idle seal, and when the last write came (sealWhenIdle). */
  #idleTimer: NodeJS.Timeout | undefined;
  #written = 0;
  /** The bounds' multiple of TAIL_ROWS / TAIL_TOKENS now (1..TAIL_GROWTH_MAX; see TAIL_GROWTH_MAX). */
  #growth = 1;

  /** Live rows. */
  get size(): number { return this.#byId.size; }
  /** Tokens of the rows taken so far (deleted ones too: they were inverted for nothing until sealed). */
  get tokens(): number { return this.#tokens; }
  /** Row slots, deleted ones included (what a seal would go through). */
  get slots(): number { return this.#rows.length; }

  has(id: bigint): boolean {
    return this.#byId.has(id);
  }

  /** Appends `doc` (its id normalized to int64 by the caller); an older row of the id is dropped. */
  add(id: bigint, doc: DocInput): void {
    const old = this.#byId.get(id);
    if (old !== undefined) this.#rows[old] = undefined;
    this.#byId.set(id, this.#rows.push(doc) - 1);
    this.#tokens += rowTokens(doc);
  }

  /** Drops the row of `id`; whether there was one. */
  delete(id: bigint): boolean {
    const at = this.#byId.get(id);
    if (at === undefined) return false;
    this.#rows[at] = undefined;
    this.#byId.delete(id);
    if (!this.#byId.size) this.clear();
    return true;
  }

  /** The live rows, in arrival order (the order a segment of them keeps). */
  live(): DocInput[] {
    const out: DocInput[] = [];
    for (const d of this.#rows) if (d) out.push(d);
    return out;
  }

  clear(): void {
    this.#rows = [];
    this.#byId.clear();
    this.#tokens = 0;
  }

  /** Whether `rows` more rows of `tokens` tokens stay within the bounds (TAIL_ROWS / TAIL_TOKENS, grown; else seal first). */
  fits(rows: number, tokens: number): boolean {
    return this.slots + rows <= TAIL_ROWS * this.#growth && this.#tokens + tokens <= TAIL_TOKENS * this.#growth;
  }

  /** The tail was sealed because a write would not fit: the stream is not read meanwhile, so the bounds double (to TAIL_GROWTH_MAX). */
  grow(): void {
    this.#growth = Math.min(TAIL_GROWTH_MAX, this.#growth * 2);
  }

  /** The tail was sealed for a read: back to TAIL_ROWS / TAIL_TOKENS. */
  shrink(): void {
    this.#growth = 1;
  }

  /**
   * About the core memory sealing the tail with `rows` more rows of `tokens` tokens will take (postings
   * and positions per token, id and attribute columns per row): what a small write asks the core for
   * before its commit, so an index that could not seal them fails the write before it is durable.
   */
  sealBytes(rows: number, tokens: number, attrs: number): number {
    return (this.#tokens + tokens) * 16 + (this.slots + rows) * (32 + 8 * attrs);
  }

  /** Calls `seal` once writes have paused TAIL_IDLE_MS, counted from this call (a timer per pause, not per write). */
  sealWhenIdle(seal: () => void): void {
    this.#written = performance.now();
    if (this.#idleTimer) return;
    const check = () => {
      const left = this.#written + TAIL_IDLE_MS - performance.now();
      if (left > 0) {
        this.#idleTimer = setTimeout(check, left).unref();
        return;
      }
      this.#idleTimer = undefined;
      seal();
    };
    this.#idleTimer = setTimeout(check, TAIL_IDLE_MS).unref();
  }

  /** Drops the pending idle seal (the index emptied). */
  stopIdle(): void {
    clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }
}
