/**
 * Highlight streams from the core's field scanner (assembly/snippet/scan-stream.ts): after the scan,
 * the ids not seen before by this dictionary get their term numbers (one look-up per distinct
 * token, ever), then one core call turns the token records into pieces, the picker's stream and
 * the keyword occurrences. Term numbers and keyword tables live in the scanner instance's memory.
 */
import { STREAM_OCC_WORDS, STREAM_PIECE_WORDS, STREAM_TOKEN_WORDS, type ScannedStream, type StreamRequest } from '../text/field-scanner.js';
import type { Core } from './core.js';

interface StreamExports {
  scanCount(): number;
  snipStream(
    text: number, len: number, records: number, n: number, idTerm: number, kw: number, kwMask: number,
    overshortStep: number, stopwordStep: number, boundaryStep: number, pieces: number, packed: number, occ: number,
  ): number;
  snipUnknownCount(): number;
  snipResults(): number;
}

/** One dictionary's term numbers: by scanner id in core memory (for the id generation `gen`), by term in `numbers`. */
interface DictTerms {
  ptr: number;
  cap: number;
  gen: number;
  numbers: Map<string, number>;
  /**
   * Keyword tables in core memory (pointer and slot mask) by their content, the most recent
   * MAX_TABLES: a query parsed again (each CALL SNIPPETS, each statement not cached) finds its
   * table, and the core memory of tables no longer used is freed, not left behind.
   */
  tables: Map<string, { ptr: number; mask: number }>;
}

/** Keyword tables kept per dictionary (a few hundred bytes of core memory each at most). */
const MAX_TABLES = 256;

/** A keywords map's content as a key (one per map, made once). */
const contentKeys = new WeakMap<ReadonlyMap<string, number>, string>();

function contentKey(keywords: ReadonlyMap<string, number>): string {
  let k = contentKeys.get(keywords);
  if (k === undefined) {
    k = '';
    for (const [term, i] of keywords) k += `${i}\u0000${term}\u0000`;
    contentKeys.set(keywords, k);
  }
  return k;
}

export class SnippetStreams {
  private readonly x: StreamExports;
  private readonly dicts = new WeakMap<object, DictTerms>();
  private buf = 0;
  private bufWords = 0;

  /** Where snipStream leaves its occurrence count, found mask and UTF-8 bytes (i32 index). */
  private readonly results: number;

  constructor(private readonly core: Core) {
    this.x = core.exports as unknown as StreamExports;
    this.results = this.x.snipResults() >>> 2;
  }

  private dict(req: StreamRequest, gen: number): DictTerms {
    let d = this.dicts.get(req.dictKey);
    if (!d) {
      d = { ptr: 0, cap: 0, gen, numbers: new Map(), tables: new Map() };
      this.dicts.set(req.dictKey, d);
    }
    const count = this.x.scanCount();
    if (d.cap < count) {
      const cap = Math.max(count * 2, 4096);
      const ptr = this.core.alloc(cap * 4);
      const i32 = this.core.i32;
      i32.fill(0, ptr >>> 2, (ptr >>> 2) + cap);
      if (d.ptr) {
        i32.copyWithin(ptr >>> 2, d.ptr >>> 2, (d.ptr >>> 2) + d.cap);
        this.core.free(d.ptr);
      }
      d.ptr = ptr;
      d.cap = cap;
    }
    if (d.gen !== gen) {
      // the scanner renumbered its ids: every id is looked up again
      this.core.i32.fill(0, d.ptr >>> 2, (d.ptr >>> 2) + d.cap);
      d.gen = gen;
    }
    return d;
  }

  private number(d: DictTerms, term: string): number {
    let n = d.numbers.get(term);
    if (n === undefined) { n = d.numbers.size + 1; d.numbers.set(term, n); }
    return n;
  }

  /** The query's keyword table: open addressing over term numbers, at most half full. */
  private table(d: DictTerms, keywords: ReadonlyMap<string, number>): { ptr: number; mask: number } {
    const key = contentKey(keywords);
    let t = d.tables.get(key);
    if (t) return t;
    if (d.tables.size >= MAX_TABLES) {
      const [oldest, old] = d.tables.entries().next().value!;
      d.tables.delete(oldest);
      this.core.free(old.ptr);
    }
    let slots = 8;
    while (slots < keywords.size * 2) slots *= 2;
    const ptr = this.core.alloc(slots * 8);
    const i32 = this.core.i32;
    i32.fill(0, ptr >>> 2, (ptr >>> 2) + slots * 2);
    for (const [term, k] of keywords) {
      const num = this.number(d, term);
      let s = num & (slots - 1);
      while (i32[(ptr >>> 2) + s * 2] !== 0) s = (s + 1) & (slots - 1);
      i32[(ptr >>> 2) + s * 2] = num;
      i32[(ptr >>> 2) + s * 2 + 1] = k;
    }
    t = { ptr, mask: slots - 1 };
    d.tables.set(key, t);
    return t;
  }

  /**
   * Scratch for pieces and occurrences (or unknown ids) of a field of `len` units and `n` tokens (read
   * at once by the host), and the slot's buffer for its packed tokens (read by the pick, later).
   */
  private scratch(len: number, n: number, slot: number): { pieces: number; packed: number; occ: number } {
    const pieceRoom = len + 2;
    const words = pieceRoom * STREAM_PIECE_WORDS + (n + 1) * STREAM_OCC_WORDS;
    if (words > this.bufWords) {
      if (this.buf) this.core.free(this.buf);
      this.bufWords = Math.max(words, this.bufWords * 2, 16384);
      this.buf = this.core.alloc(this.bufWords * 4);
    }
    const packedWords = pieceRoom * STREAM_TOKEN_WORDS;
    let own = this.slots[slot];
    if (!own || own.words < packedWords) {
      if (own) this.core.free(own.ptr);
      const grown = Math.max(packedWords, (own?.words ?? 0) * 2, 4096);
      own = this.slots[slot] = { ptr: this.core.alloc(grown * 4), words: grown };
    }
    return { pieces: this.buf, packed: own.ptr, occ: this.buf + pieceRoom * STREAM_PIECE_WORDS * 4 };
  }

  /** Per field slot, its packed-token buffer in core memory. */
  private readonly slots: { ptr: number; words: number }[] = [];

  /** The stream of the field just scanned (null: it holds the stripper's marks): `text` at `textPtr`, `n` records at `records`, ids of generation `gen`. */
  stream(textPtr: number, len: number, records: number, n: number, texts: readonly string[], gen: number, req: StreamRequest): ScannedStream | null {
    const d = this.dict(req, gen);
    const kw = this.table(d, req.keywords);
    const s = this.scratch(len, n, req.slot);
    const run = (): number => this.x.snipStream(
      textPtr, len, records, n, d.ptr, kw.ptr, kw.mask, req.overshortStep, req.stopwordStep, req.boundaryStep, s.pieces, s.packed, s.occ,
    );
    let np = run();
    if (np === -2) {
      // ids this dictionary has not seen: their terms, once each, then the stream again
      const unknown = this.x.snipUnknownCount();
      const ids = this.core.i32.slice(s.occ >>> 2, (s.occ >>> 2) + unknown);
      const nums = ids.map((id) => {
        const term = req.term(texts[id]);
        return term === '' ? -1 : this.number(d, term);
      });
      const i32 = this.core.i32;
      for (let i = 0; i < unknown; i++) i32[(d.ptr >>> 2) + ids[i]] = nums[i];
      np = run();
    }
    if (np < 0) return null;
    const i32 = this.core.i32;
    const nOcc = i32[this.results];
    const core = this.core;
    const ptr = s.packed;
    return {
      nPieces: np,
      pieces: i32.subarray(s.pieces >>> 2, (s.pieces >>> 2) + np * STREAM_PIECE_WORDS),
      home: { core, ptr, view: () => new Int32Array(core.buffer, ptr, np * STREAM_TOKEN_WORDS) },
      nOcc,
      occ: i32.subarray(s.occ >>> 2, (s.occ >>> 2) + nOcc * STREAM_OCC_WORDS),
      found: i32[this.results + 1] >>> 0,
      docBytes: i32[this.results + 2],
    };
  }
}
