/**
 * The bridge to the core's snippet picker (assembly/snippet/): writes a document's token streams,
 * field table and parameters into core memory, calls snippetPick once, reads the chosen passages.
 */
import type { PackedHome } from '../text/field-scanner.js';
import { sharedCore, type Core } from './core.js';

/** Layout constants, as assembly/snippet/format.ts. */
const TOKEN_WORDS = 3;
const FIELD_WORDS = 8;
const PARAM_WORDS = 10;
const OUT_WORDS = 4;
const TOK_WORD = 1;
const TOK_HIT = 2;
const TOK_BREAK = 4;
const TOK_PHRASE_BOUNDARY = 8;

/** One field's token stream: words and the whitespace / punctuation runs between them. */
export interface PickStream {
  /** Length of each stream token in codepoints. */
  len: Int32Array;
  /** 1 for a word (stopwords included), 0 for a gap run. */
  word: Uint8Array;
  /** Query-keyword bit of a matched word (0 when not matched or not a keyword). */
  mask: Uint32Array;
  /** 1 when the token is a matched word (part of a marked span). */
  hit: Uint8Array;
  /** 1: a sentence / paragraph / zone boundary comes right before the token; 2: a phrase boundary gap piece. */
  brk: Uint8Array;
  /**
   * UTF-8 bytes of the field text (Manticore compares limits with it); -1 for a field left unscanned,
   * which is never extracted (highlight/snippet-stream.ts UNCOUNTED_BYTES, streamBytes).
   */
  docBytes: number;
  /**
   * The same tokens in the core's layout (TOKEN_WORDS per token), when the builder made them; with
   * `tokens` set, only these are read and the per-token arrays above may be left empty.
   */
  packed?: Int32Array;
  /** The token count when only `packed` or `home` holds the tokens. */
  tokens?: number;
  /** The packed tokens where the scanner left them in a core's memory (instead of `packed`). */
  home?: PackedHome;
}

/** A stream's token count. */
const tokenCount = (s: PickStream): number => s.tokens ?? s.len.length;

export interface PickLimits { limit: number; limitWords: number; limitSnippets: number }

export interface PickInput {
  streams: PickStream[];
  /** Fields that go through passage extraction. */
  extract: boolean[];
  /** Per-field limits (used when perField). */
  limits: PickLimits[];
  global: PickLimits;
  perField: boolean;
  around: number;
  forceAllWords: boolean;
  useBoundaries: boolean;
  spz: boolean;
  termWeights: number[];
  foundWords: number;
}

export interface PickedPassage { field: number; start: number; tokens: number; weight: number }

/** The export this bridge calls (assembly/snippet/pick.ts). */
interface SnippetExports {
  snippetPick(tokens: number, fields: number, nFields: number, params: number, out: number, outCap: number): number;
}

interface Scratch { ptr: number; size: number }
const scratch = new WeakMap<Core, Scratch>();

function buffer(core: Core, size: number): number {
  let s = scratch.get(core);
  if (!s || s.size < size) {
    if (s) core.free(s.ptr);
    const grown = Math.max(size, (s?.size ?? 0) * 2, 4096);
    s = { ptr: core.alloc(grown), size: grown };
    scratch.set(core, s);
  }
  return s.ptr;
}

/** The core whose memory holds every stream's tokens that lie in a core's memory (none: the shared one). */
function homeCore(streams: PickStream[]): Core {
  const core = streams.find((s) => s.home)?.home?.core as Core | undefined;
  return core && streams.every((s) => !s.home || s.home.core === core) ? core : sharedCore();
}

/**
 * The passages of one document. Runs on the core whose memory holds the scanned streams' tokens
 * (read in place), else on the shared core with the tokens copied in.
 */
export function pickPassagesWasm(inp: PickInput, core: Core = homeCore(inp.streams)): PickedPassage[] {
  // plain loops and stores: this runs once per highlighted document, and the closures and array
  // literals it made (a reduce per count, a literal per field row) were most of its own cost
  const streams = inp.streams;
  const nf = streams.length;
  let nTok = 0;
  let copied = 0;
  for (let f = 0; f < nf; f++) {
    const s = streams[f];
    const n = tokenCount(s);
    nTok += n;
    if (s.home?.core !== core) copied += n;
  }
  const nTerms = Math.min(inp.termWeights.length, 32);
  const outCap = nTok + 1;
  const words = copied * TOKEN_WORDS + nf * FIELD_WORDS + PARAM_WORDS + nTerms + outCap * OUT_WORDS;
  const base = buffer(core, words * 4);
  const tokPtr = base;
  const fieldPtr = tokPtr + copied * TOKEN_WORDS * 4;
  const paramPtr = fieldPtr + nf * FIELD_WORDS * 4;
  const outPtr = paramPtr + (PARAM_WORDS + nTerms) * 4;
  const i32 = core.i32;
  let t = tokPtr >>> 2;
  let first = 0;
  for (let f = 0; f < nf; f++) {
    const s = streams[f];
    const n = tokenCount(s);
    const l = inp.limits[f];
    const x = inp.extract[f];
    const row = (fieldPtr >>> 2) + f * FIELD_WORDS;
    // the core reads a field's bytes only when it extracts from it (an unscanned field's are not counted)
    i32[row + 1] = n;
    i32[row + 2] = x ? s.docBytes : 0;
    i32[row + 3] = l.limit;
    i32[row + 4] = l.limitWords;
    i32[row + 5] = l.limitSnippets;
    i32[row + 6] = x ? 1 : 0;
    if (s.home?.core === core) {
      i32[row] = 0;
      i32[row + 7] = s.home.ptr;
      continue;
    }
    const packed = s.home ? s.home.view() : s.packed;
    if (packed && packed.length === n * TOKEN_WORDS) {
      i32.set(packed, t);
      t += packed.length;
    } else for (let i = 0; i < s.len.length; i++) {
      i32[t++] = s.len[i];
      i32[t++] = (s.word[i] ? TOK_WORD : 0) | (s.hit[i] ? TOK_HIT : 0) | (s.brk[i] === 1 ? TOK_BREAK : 0) | (s.brk[i] === 2 ? TOK_PHRASE_BOUNDARY : 0);
      i32[t++] = s.mask[i] | 0;
    }
    i32[row] = first;
    i32[row + 7] = 0;
    first += n;
  }
  const g = inp.global;
  const pp = paramPtr >>> 2;
  i32[pp] = inp.around;
  i32[pp + 1] = inp.forceAllWords ? 1 : 0;
  i32[pp + 2] = inp.useBoundaries ? 1 : 0;
  i32[pp + 3] = inp.spz ? 1 : 0;
  i32[pp + 4] = inp.perField ? 1 : 0;
  i32[pp + 5] = g.limit;
  i32[pp + 6] = g.limitWords;
  i32[pp + 7] = g.limitSnippets;
  i32[pp + 8] = inp.foundWords | 0;
  i32[pp + 9] = nTerms;
  for (let k = 0; k < nTerms; k++) i32[pp + PARAM_WORDS + k] = inp.termWeights[k];
  const n = (core.exports as unknown as SnippetExports).snippetPick(tokPtr, fieldPtr, nf, paramPtr, outPtr, outCap);
  if (n < 0) throw new Error(`quarry wasm core: snippetPick failed (${n})`);
  const out = core.i32;
  const res: PickedPassage[] = [];
  for (let i = 0; i < n; i++) {
    const o = (outPtr >>> 2) + i * OUT_WORDS;
    res.push({ field: out[o], start: out[o + 1], tokens: out[o + 2], weight: out[o + 3] });
  }
  return res;
}
