/**
 * The fast front of a document's snippets: each field streamed by the core in one call (scanner,
 * positions, gap runs, the picker's token stream and the keyword occurrences; no Token objects and
 * no JavaScript per word), then the query's matched occurrences found from the occurrences alone.
 * It takes the usual shapes (words, AND, OR, NOT under AND, phrases, @field limits) over text
 * without HTML tags kept; anything else (retain mode, boundaries, SENTENCE / ZONE, wildcards, exact
 * forms, NEAR, quorum, proximity, blending, exceptions, stopword_step=0, text the scanner does not take) returns
 * null and the builder takes the general path (analyze -> markDocument -> buildStream).
 * Whether a query takes it is snippet-scan-plan.ts; which occurrences it matches, snippet-scan-hits.ts.
 */
import type { TextPipeline } from '../text/text-pipeline.js';
import {
  STREAM_OCC_WORDS, STREAM_PIECE_WORDS, STREAM_TOKEN_WORDS, type ScannedStream, type StreamRequest,
} from '../text/field-scanner.js';
import { FIELD_SHIFT } from './snippet-doc-index.js';
import { matchableFields } from './snippet-field-limits.js';
import type { DocumentMarks } from './snippet-marks.js';
import { skipLetters, type ScanPlan } from './snippet-scan-plan.js';
import { PACK_HIT, P_END, P_OPEN, P_START, Pieces, StreamScratch, UNCOUNTED_BYTES, utf8Bytes, type FieldStream } from './snippet-stream.js';
import { evaluate, hitKeys, type FieldOcc } from './snippet-scan-hits.js';
import { keepHead, keptHead, type FieldHead } from './snippet-heads.js';
import { joinWindows, keywordPattern, mapPieces, WINDOW_SLACK, windowMinUnits, windowsAllowed, windowsOf } from './snippet-scan-windows.js';

let enabled = true;

/** Turns this path on or off (tests and benches compare it with the general path). */
export function setScanPath(on: boolean): void {
  enabled = on;
}

/** Documents this path has served (tests check it is taken). */
export let scanPathDocs = 0;
/** Fields it never scanned because no leaf could match in them (tests check it happens). */
export let skippedFields = 0;

/** Identity piece indices (every piece counts: no tags on this path). */
let identity = new Int32Array(0);

function countedAll(n: number): Int32Array {
  if (identity.length < n) {
    identity = new Int32Array(Math.max(n, identity.length * 2));
    for (let i = 0; i < identity.length; i++) identity[i] = i;
  }
  return identity.subarray(0, n);
}

/** Per-token arrays this path leaves empty (the core picker reads `packed`), and no zones (no tags, no marks). */
const NO_I32 = new Int32Array(0);
const NO_U32 = new Uint32Array(0);
const NO_U8 = new Uint8Array(0);
const NO_ZONES: ReadonlyMap<number, string> = new Map();

/** The field's FieldStream from the core's stream: pieces in the slot's scratch, packed tokens left in core memory. */
function fieldStream(text: string, s: ScannedStream, scratch: StreamScratch): FieldStream {
  const np = s.nPieces;
  const ps = new Pieces(np, scratch.pieces);
  ps.data.set(s.pieces);
  ps.n = np;
  scratch.pieces = ps.data;
  return {
    text, pieces: ps, counted: countedAll(np), brk: NO_U8, zones: NO_ZONES as Map<number, string>,
    passage: { len: NO_I32, mask: NO_U32, word: NO_U8, hit: NO_U8, brk: NO_U8, docBytes: s.docBytes, home: s.home, tokens: np },
    head: undefined,
  };
}

export interface ScanInput {
  pipeline: TextPipeline;
  plan: ScanPlan;
  names: string[];
  texts: string[];
  scratches: StreamScratch[];
  /**
   * A field no leaf can match in shows nothing once another field holds a hit (SQL HIGHLIGHT(), not
   * JSON, where every field shows at least its start): it is scanned only when the document has no
   * hit or when it could add found keywords (they steer the passage pick), otherwise it only counts
   * its bytes. True for the callers that show fields without hits no text.
   */
  deferUnmatchable: boolean;
  /**
   * JSON (every field shows at least its start): the most codepoints the start of a field without
   * hits may show (0: no limit). A field no leaf can match in is then scanned only as far as its
   * start needs, once the other fields hold a hit and every keyword.
   */
  startLimit?: number;
  /**
   * The most codepoints a passage may hold before the keywords' lengths raise it (0 or absent: no
   * bound, fields scanned whole): long fields are then scanned only in windows around the places a
   * keyword may start (snippet-scan-windows.ts).
   */
  windowLimit?: number;
}

let windowsOn = true;

/** Turns windowed scans on or off (tests and benches compare them with whole scans). */
export function setScanWindows(on: boolean): void {
  windowsOn = on;
}

/** Fields scanned in windows, and those scanned again whole (no hit there: tests check both happen). */
export let windowedFields = 0;
export let windowRescans = 0;

/** How far past the start's limit a prefix scan reads (units), so the cut lies beyond the pieces shown. */
const PREFIX_SLACK = 64;

/** The pieces of every deferred field: none, and never written (markHits skips fields without occurrences). */
const NO_PIECES = new Pieces(0);

/**
 * A deferred field's stand-in: its text, no pieces (nothing of it is shown), its UTF-8 length not
 * counted (streamBytes counts it if the limits need it): a page of long fields no leaf can match in
 * (`@title` queries over a body) cost a pass over each body and a typed array per document.
 */
function stubStream(text: string): FieldStream {
  return {
    text, pieces: NO_PIECES, counted: NO_I32, brk: NO_U8, zones: NO_ZONES as Map<number, string>,
    passage: { len: NO_I32, mask: NO_U32, word: NO_U8, hit: NO_U8, brk: NO_U8, docBytes: UNCOUNTED_BYTES, tokens: 0 },
    head: undefined,
  };
}

/**
 * The stripper's paragraph and zone marks, which send a field to the general path. Two indexOf
 * searches (a memchr each) read a long field no leaf can match in several times faster than a regular
 * expression's character class.
 */
const hasMarks = (text: string): boolean => text.indexOf('\u0003') >= 0 || text.indexOf('\u0004') >= 0;
const NO_OCC: FieldOcc = { occ: NO_I32, n: 0 };

/** Every field streamed and marked, or null when a field needs the general path. */
export function scanDocument(inp: ScanInput): { streams: FieldStream[]; marks: DocumentMarks } | null {
  const plain = enabled ? inp.pipeline.streamScanner?.() : null;
  if (!plain) return null;
  const st = inp.pipeline.settings;
  const req: StreamRequest = {
    term: plain.term, dictKey: plain.dictKey, keywords: inp.plan.keywords,
    overshortStep: st.overshortStep, stopwordStep: st.stopwordStep, boundaryStep: st.phraseBoundaryStep, slot: 0,
    skipFirst: skipLetters(plain.namedLetters, inp.plan.letters, st.stopwordStep),
  };
  const streams: FieldStream[] = [];
  const occ: FieldOcc[] = [];
  let found = 0;
  // windowed scans: the prefilter and each side's reach, when the options and dictionary allow them
  // one keyword only: with more (AND 3 over gcide) the windows cover most of a body and the prefilter's pass
  // cost more than it saved (1.11-1.14x CPU in bench/highlight-sql-ab, load 16). Looked up at the first long
  // field only (undefined until then): short fields (titles, @title pages) pay nothing.
  let wre: RegExp | null | undefined = windowsOn && inp.windowLimit && inp.plan.keywords.size === 1 && windowsAllowed(st) ? undefined : null;
  const radius = wre !== null && inp.windowLimit ? inp.windowLimit + inp.plan.weights.reduce((a, w) => a + w, 0) + inp.plan.weights.length + WINDOW_SLACK : 0;
  const windowed: boolean[] = [];
  // any field windowed so far: documents without (most, and all of several keywords') skip the rescan's pass over the hits
  let anyWindowed = false;
  const scan = (i: number, text = inp.texts[i], whole = false): boolean => {
    req.slot = i;
    let w: number[] | null = null;
    if (wre !== null && !whole && text.length >= windowMinUnits(radius)) {
      wre ??= keywordPattern(inp.plan.keywords, plain.charset);
      if (wre) w = windowsOf(text, wre, radius);
    }
    // text the whole scan refuses is never windowed (the windows could leave out what it refuses); a
    // windowed field's UTF-8 length is the whole text's, and equal to its length only for ASCII, which
    // holds no surrogate pairs: one native pass instead of two regular expressions' for most texts
    let bytes = 0;
    if (w !== null) {
      if (!w.length || hasMarks(text)) w = null;
      else {
        bytes = utf8Bytes(text);
        if (bytes !== text.length && SURROGATE.test(text)) w = null;
      }
    }
    const s = plain.scanner.stream(w ? joinWindows(text, w) : text, req);
    if (!s) return false;
    windowed[i] = w !== null;
    found |= s.found;
    const scratch = (inp.scratches[i] ??= new StreamScratch());
    if (scratch.occ.length < s.occ.length) scratch.occ = new Int32Array(Math.max(s.occ.length, scratch.occ.length * 2));
    scratch.occ.set(s.occ);
    occ[i] = { occ: scratch.occ, n: s.nOcc };
    streams[i] = fieldStream(text, s, scratch);
    if (w) {
      anyWindowed = true;
      windowedFields++;
      mapPieces(streams[i].pieces.data, s.nPieces, STREAM_PIECE_WORDS, P_START, w);
      streams[i].passage.docBytes = bytes;
    }
    return true;
  };
  /** Deferred fields and fields shown from their start: always whole. */
  const whole = (i: number, text?: string): boolean => scan(i, text, true);
  /** Windowed fields not in `hit` scanned again whole (their start may show). */
  const rescan = (hit: (i: number) => boolean): boolean => {
    if (!anyWindowed) return true;
    for (let i = 0; i < windowed.length; i++) {
      if (!windowed[i] || hit(i)) continue;
      windowRescans++;
      if (!whole(i)) return false;
    }
    return true;
  };
  const startLimit = inp.deferUnmatchable ? 0 : inp.startLimit ?? 0;
  const may = (inp.deferUnmatchable || startLimit > 0) && inp.plan.root ? matchableFields(inp.plan.root, inp.names) : null;
  const deferred: number[] = [];
  for (let i = 0; i < inp.texts.length; i++) {
    if (may && !may[i] && !hasMarks(inp.texts[i])) {
      deferred.push(i);
      occ[i] = NO_OCC;
    } else if (!scan(i)) return null;
  }
  // a deferred field could add found keywords: scanned after all
  if (deferred.length && (found >>> 0) !== inp.plan.allMask && !scanAll(deferred, whole)) return null;
  scanPathDocs++;
  skippedFields += deferred.length;
  const marks: DocumentMarks = { hits: [], termIndex: [], termWeights: inp.plan.weights, foundMask: found >>> 0 };
  const triples = found && inp.plan.root ? evaluate(inp.plan.root, inp.plan, occ, inp.names) : null;
  if (!triples || !triples.length) {
    // no hit: every field shows its start, the deferred ones too
    if (!rescan(() => false)) return null;
    if (deferred.length) {
      skippedFields -= deferred.length;
      if (!scanAll(deferred, whole)) return null;
    }
    return { streams, marks };
  }
  const hits = hitKeys(triples, occ);
  if (anyWindowed) {
    const withHits: boolean[] = [];
    for (const h of hits) withHits[Math.floor(h / FIELD_SHIFT)] = true;
    if (!rescan((i) => withHits[i] === true)) return null;
  }
  // JSON: the deferred fields show their start, which a scan of the text's head gives (or a start kept from an earlier page)
  if (deferred.length && !inp.deferUnmatchable) {
    const bound = startLimit + inp.plan.weights.reduce((a, w) => a + w, 0) + inp.plan.weights.length;
    skippedFields -= deferred.length;
    for (const i of deferred.splice(0)) {
      const text = inp.texts[i];
      const kept = keptHead(inp.pipeline, text, bound);
      if (kept) streams[i] = headStream(text, kept);
      else if (!scanHead(i, text, bound, whole, streams, inp.pipeline)) return null;
    }
  }
  // SQL: the fields left unscanned stand in with their UTF-8 length only
  for (const i of deferred) streams[i] = stubStream(inp.texts[i]);
  marks.hits = hits;
  markHits(streams, occ, marks.hits);
  return { streams, marks };
}

/** Fields scanned only as far as their start needs (tests check it happens). */
export let headScans = 0;

/**
 * Field `i`'s stream from a scan of its head: the pieces up to past `bound` codepoints are those of
 * the whole text when the cut lies beyond the first piece that crosses the bound (renderStart stops
 * there); otherwise (or for text with surrogate pairs) the whole field is scanned. The stream keeps
 * the whole text and its UTF-8 length.
 */
function scanHead(
  i: number, text: string, bound: number, scan: (i: number, text?: string) => boolean, streams: FieldStream[], pipeline: TextPipeline,
): boolean {
  const cut = bound + PREFIX_SLACK;
  if (text.length > cut + (cut >> 1) && !SURROGATE.test(text.slice(0, cut))) {
    if (!scan(i, text.slice(0, cut))) return false;
    const d = streams[i].pieces.data;
    const n = streams[i].pieces.n;
    let cp = 0;
    // the last two pieces may be cut (or read differently) at the cut: the bound is crossed before them
    for (let k = 0; k < n - 2; k++) {
      cp += d[k * STREAM_PIECE_WORDS + P_END] - d[k * STREAM_PIECE_WORDS + P_START];
      if (cp > bound) {
        streams[i].text = text;
        streams[i].passage.docBytes = utf8Bytes(text);
        keepHead(pipeline, text, d, k + 1, bound, false, streams[i].passage.docBytes);
        headScans++;
        return true;
      }
    }
  }
  if (!scan(i)) return false;
  // a whole field's pieces count codepoints as UTF-16 units only without surrogate pairs
  if (!SURROGATE.test(text)) keepHead(pipeline, text, streams[i].pieces.data, streams[i].pieces.n, bound, true, streams[i].passage.docBytes);
  return true;
}

/** Fields whose start came from keptHead (tests check it happens). */
export let keptHeads = 0;

/**
 * A deferred field's stream from its kept start: its first pieces, read in place (nothing writes to a
 * field without hits: markHits passes fields without occurrences), no tokens for the picker (nothing of
 * it is picked), and the start itself, whose rendered text the builder keeps there.
 */
function headStream(text: string, head: FieldHead): FieldStream {
  const n = head.pieces.length / STREAM_PIECE_WORDS;
  const ps = new Pieces(n, head.pieces as Int32Array<ArrayBuffer>);
  if (ps.data !== head.pieces) ps.data.set(head.pieces); // fewer than 4 pieces: Pieces keeps room for 4
  ps.n = n;
  keptHeads++;
  return {
    text, pieces: ps, counted: countedAll(n), brk: NO_U8, zones: NO_ZONES as Map<number, string>,
    passage: { len: NO_I32, mask: NO_U32, word: NO_U8, hit: NO_U8, brk: NO_U8, docBytes: head.docBytes, tokens: 0 },
    head,
  };
}

const SURROGATE = /[\ud800-\udfff]/;

/** Scans the fields still deferred (false: one needs the general path). */
function scanAll(fields: number[], scan: (i: number) => boolean): boolean {
  for (const i of fields.splice(0)) if (!scan(i)) return false;
  return true;
}

/**
 * Opens a marker on each hit word until the end of its run of adjacent hits; flags and masks for the
 * picker. A field's occurrences and the hit keys are both in position order: walked together.
 */
function markHits(streams: FieldStream[], occ: FieldOcc[], hits: number[]): void {
  // the position just past each hit's run of adjacent hits (one marker pair per run), by hit index
  const until = runEnds.length >= hits.length ? runEnds : (runEnds = new Float64Array(hits.length * 2));
  for (let i = hits.length - 1; i >= 0; i--) {
    until[i] = i + 1 < hits.length && hits[i + 1] === hits[i] + 1 ? until[i + 1] : (hits[i] % FIELD_SHIFT) + 1;
  }
  let h = 0;
  occ.forEach((o, f) => {
    if (!o.n) return;
    const base = f * FIELD_SHIFT;
    while (h < hits.length && hits[h] < base) h++;
    if (h === hits.length || hits[h] >= base + FIELD_SHIFT) return;
    const d = streams[f].pieces.data;
    // every field is scanned: core memory no longer grows before the pick
    const pk = streams[f].passage.home!.view();
    for (let k = 0; k < o.n && h < hits.length; k++) {
      const at = k * STREAM_OCC_WORDS;
      const key = base + o.occ[at + 1];
      while (h < hits.length && hits[h] < key) h++;
      if (h === hits.length || hits[h] !== key) continue;
      const pi = o.occ[at];
      d[pi * STREAM_PIECE_WORDS + P_OPEN] = until[h];
      pk[pi * STREAM_TOKEN_WORDS + 1] |= PACK_HIT;
      pk[pi * STREAM_TOKEN_WORDS + 2] = (1 << o.occ[at + 2]) | 0;
    }
  });
}

/** markHits' run ends, reused from document to document. */
let runEnds = new Float64Array(64);
