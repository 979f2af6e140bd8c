/** The index walk's plain path packed: a field's scanner tokens to term numbers or a batch's ids at their positions. */
import { SCAN_RECORD_WORDS, type FieldScanner } from './field-scanner.js';
import { TermNumbers, type PackedField, type PackedWriter } from './packed-terms.js';
import type { BatchSink } from './batch-sink.js';
import type { TermDictionary } from './term-dictionary.js';
import type { TextSettings } from './text-settings.js';

/** scanNums entries: a token not looked up yet, and a stopword. */
const UNNUMBERED = -1;
const STOPWORD = -2;
/** Scanner ids numbered together by numberNew (their table lines, 64 bytes each, well inside a core's L2). */
const NUMBER_BLOCK = 1024;

/**
 * FieldWalker's positions (field-walk.ts walkScanned) for the plain scanner path, written as numbers
 * or ids: no string or object per word.
 */
export class FieldPacker {
  constructor(
    private readonly settings: TextSettings,
    private readonly dict: TermDictionary,
    /** The whole-field scanner, null where the plain path does not apply (exceptions, multi-word forms, blending). */
    private readonly scanner: FieldScanner | null,
  ) {}

  private scanGeneration = -1;
  /**
   * Per scanner token id, side by side at 2 * id: its batch id for packBatch() (UNNUMBERED, STOPWORD or
   * the sink's id, for batch `idsBatch`), and at 2 * id + 1 its term number (UNNUMBERED, STOPWORD or a
   * number of `numbers`; pack() reads only these). A token's first sight in a batch reads its number
   * from the cache line its batch id came from: two arrays were two misses (a large vocabulary's
   * tables are out of cache).
   */
  private memo = new Int32Array(0);
  private numbers = new TermNumbers();
  private idsBatch = -1;

  /**
   * indexField's fast path: the field's terms as numbers and positions written by `out`, one term
   * lookup per distinct scanner token and no string or object per word. Null (nothing written) where
   * the plain scanner path does not apply (exceptions, multi-word forms, blending, text the scanner
   * does not take): the caller walks the field instead.
   */
  pack(text: string, out: PackedWriter): PackedField | null {
    if (this.numbers.full) {
      this.numbers = new TermNumbers();
      this.memo.fill(UNNUMBERED);
    }
    const scan = this.batchScanner()?.scan(text);
    if (!scan) return null;
    this.sameGeneration(scan.generation);
    const memo = this.memoFor(scan.texts.length);
    const { records, texts, count } = scan;
    const { overshortStep, phraseBoundaryStep, stopwordStep } = this.settings;
    out.begin(count);
    // walkScanned's positions, in locals and written straight into the writer's arrays: this loop runs
    // for every token of a bulk load (the general walk's state object and calls were a tenth of a
    // gcide build thread's profile)
    const outNums = out.nums;
    const outPos = out.positions;
    let used = out.used;
    let pos = 0;
    let step = 1;
    let last = 0;
    for (let k = 0; k < count * SCAN_RECORD_WORDS; k += SCAN_RECORD_WORDS) {
      const extra = records[k + 3];
      const advance = step + (extra >> 1) * overshortStep;
      if (advance > 0) pos += advance;
      if ((extra & 1) !== 0) pos += phraseBoundaryStep;
      const id = records[k + 2];
      let num = memo[2 * id + 1];
      if (num === UNNUMBERED) num = memo[2 * id + 1] = this.numberOf(texts[id]);
      if (num !== STOPWORD) {
        outNums[used] = num;
        outPos[used++] = pos;
        step = 1;
        last = pos;
      } else {
        step = stopwordStep;
      }
    }
    out.used = used;
    return out.finish(this.numbers, last);
  }

  /**
   * pack() for a bulk load's batch: the field's tokens written into `sink` as the batch's term ids
   * (one look-up per token: scanner id -> batch id, where pack() takes scanner id -> number and the
   * inverter number -> id), the same positions. The field's length (its last term's position), or
   * null (nothing written) where pack() gives null.
   */
  packBatch(text: string, sink: BatchSink): number | null {
    const scan = this.batchScanner()?.scan(text);
    return scan ? this.packScanned(scan.records, 0, scan.count, scan.texts, scan.generation, sink) : null;
  }

  /** The scanner pack(), packBatch() and packScanned() take their tokens from; null: none applies. */
  batchScanner(): FieldScanner | null {
    return this.scanner;
  }

  /**
   * Numbers the scanner's ids added since the last call (`texts`, `generation` as packScanned takes
   * them) ahead of packing them: the caller calls it before packScanned of a freshly scanned run. Out
   * of packScanned, whose loop runs for every token (this runs once a run).
   */
  numberScanned(texts: readonly string[], generation: number): void {
    if (texts.length <= this.numberedTo && generation === this.scanGeneration) return;
    if (this.numbers.full) {
      this.numbers = new TermNumbers();
      this.memo.fill(UNNUMBERED);
    }
    this.sameGeneration(generation);
    this.numberNew(texts, this.memoFor(texts.length));
  }

  /**
   * packBatch() of a field batchScanner() scanned: its `count` token records from record `from` of
   * `records` (scanner ids of `generation`, named by `texts`).
   */
  packScanned(records: Int32Array, from: number, count: number, texts: readonly string[], generation: number, sink: BatchSink): number {
    if (this.numbers.full) {
      this.numbers = new TermNumbers();
      this.memo.fill(UNNUMBERED);
    }
    this.sameGeneration(generation);
    if (this.idsBatch !== sink.batch) {
      this.idsBatch = sink.batch;
      forgetIds(this.memo);
    }
    const memo = this.memoFor(texts.length);
    const { overshortStep, phraseBoundaryStep, stopwordStep } = this.settings;
    sink.reserve(count);
    // pack()'s loop, the id looked up by scanner id; positions tagged and ids counted as the sink asks
    const outIds = sink.ids;
    const outPos = sink.positions;
    const { tag, posMask, counts } = sink;
    let used = sink.used;
    let pos = 0;
    let step = 1;
    let last = 0;
    for (let k = from * SCAN_RECORD_WORDS, end = (from + count) * SCAN_RECORD_WORDS; k < end; k += SCAN_RECORD_WORDS) {
      const extra = records[k + 3];
      const advance = step + (extra >> 1) * overshortStep;
      if (advance > 0) pos += advance;
      if ((extra & 1) !== 0) pos += phraseBoundaryStep;
      const at = 2 * records[k + 2];
      let id = memo[at];
      if (id === UNNUMBERED) {
        let num = memo[at + 1];
        if (num === UNNUMBERED) num = memo[at + 1] = this.numberOf(texts[at >> 1]);
        id = memo[at] = num === STOPWORD ? STOPWORD : sink.idOf(this.numbers, num);
      }
      if (id !== STOPWORD) {
        outIds[used] = id;
        outPos[used++] = tag | (pos & posMask);
        if (counts !== null) counts[id]++;
        step = 1;
        last = pos;
      } else {
        step = stopwordStep;
      }
    }
    sink.used = used;
    return last;
  }

  /** Forgets the scanner-id memos when the scanner renumbered its ids. */
  private sameGeneration(generation: number): void {
    if (generation === this.scanGeneration) return;
    this.scanGeneration = generation;
    this.memo.fill(UNNUMBERED);
    this.numberedTo = 0;
  }

  /** Scanner ids below this were numbered by numberNew (or are left to the packing loop's first sight). */
  private numberedTo = 0;
  private readonly newTerms: string[] = [];
  private newIds = new Int32Array(0);
  private newNums = new Int32Array(0);

  /**
   * The term numbers of the ids the scanner added since the last call (a run's new tokens), before the
   * run is packed: their stems (stem_en's made by the scanner's core for the whole block in one call,
   * where the dictionary is stem_en alone), then all their numbers in one TermNumbers.numbersOf, whose table reads
   * overlap (a new name's probe, one at a time from the packing loop, was a cache miss each: ~0.4 us of
   * a distinct token on a bulk load's first batch). In blocks, so a block's table lines stay in cache.
   */
  private numberNew(texts: readonly string[], memo: Int32Array): void {
    const to = texts.length;
    for (let from = this.numberedTo; from < to; from += NUMBER_BLOCK) this.numberBlock(texts, memo, from, Math.min(to, from + NUMBER_BLOCK));
    this.numberedTo = to;
  }

  private numberBlock(texts: readonly string[], memo: Int32Array, from: number, to: number): void {
    if (this.newIds.length < NUMBER_BLOCK) {
      this.newIds = new Int32Array(NUMBER_BLOCK);
      this.newNums = new Int32Array(NUMBER_BLOCK);
    }
    const terms = this.newTerms;
    const ids = this.newIds;
    terms.length = 0;
    const dict = this.dict;
    const core = dict.stemEnAlone ? this.scanner?.stemEnIds?.(from, to, this.scanGeneration, dict.minStemmingLen) ?? null : null;
    let tailAt = 0;
    for (let id = from; id < to; id++) {
      // the core's stem: its length and the prefix it shares with the token, then its own tail units
      // (every stemmed id's tail lies in `tails`, in id order: passed over for an id already numbered)
      const r = core !== null ? core.stems[id - from] : -1;
      const at = tailAt;
      if (r >= 0) tailAt += (r >> 8) - (r & 0xff);
      if (memo[2 * id + 1] !== UNNUMBERED) continue;
      let stemmed = '';
      if (r >= 0) {
        const token = texts[id];
        const len = r >> 8;
        const same = r & 0xff;
        stemmed = same === len ? (len === token.length ? token : token.slice(0, len)) : token.slice(0, same) + tailOf(core!.tails, at, len - same);
      }
      const term = stemmed !== '' ? dict.termOfStem(texts[id], stemmed) : dict.termUncached(texts[id]);
      if (term === '') {
        memo[2 * id + 1] = STOPWORD;
      } else {
        ids[terms.length] = id;
        terms.push(term);
      }
    }
    const nums = this.newNums;
    this.numbers.numbersOf(terms, nums);
    for (let k = 0; k < terms.length; k++) memo[2 * ids[k] + 1] = nums[k];
    terms.length = 0;
  }

  /** The scanner-id memo pairs, grown to hold `ids` ids. */
  private memoFor(ids: number): Int32Array {
    if (this.memo.length < 2 * ids) {
      const grown = new Int32Array(2 * Math.max(ids, this.memo.length, 1024)).fill(UNNUMBERED);
      grown.set(this.memo);
      this.memo = grown;
    }
    return this.memo;
  }

  private numberOf(token: string): number {
    const term = this.dict.termUncached(token);
    return term === '' ? STOPWORD : this.numbers.numberOf(term);
  }
}

/** `n` units of `tails` from `at` as a string (a stem's tail: mostly one to three letters). */
function tailOf(tails: Uint16Array, at: number, n: number): string {
  let out = '';
  for (let k = at; k < at + n; k++) out += String.fromCharCode(tails[k]);
  return out;
}

/** Forgets the batch ids of the memo pairs (a new batch), keeping their term numbers. */
function forgetIds(memo: Int32Array): void {
  for (let i = 0; i < memo.length; i += 2) memo[i] = UNNUMBERED;
}
