/**
 * The snippet document index's one-row segment, written straight into a reused region of core
 * memory: the same bytes buildSegment(invertDocs(...)) makes for one row without attributes (a
 * test compares them), without its 64 KiB builder buffer, dictionary map or per-call allocations.
 */
import type { FieldTokens } from '../index/types.js';
import { PACK_PADDING } from '../index/segment/bitpack.js';
import { hitFormat, hitWidth, packHits, packedHitsWords } from '../index/segment/positions-codec.js';
import { blockFieldBit, blockMaxWord } from '../index/segment/postings-encoder.js';
import {
  COL_I64, FIELD_END_BIT, FIELD_SHIFT, H, HEADER_BYTES, POS_MASK, SEGMENT_MAGIC, SEGMENT_VERSION, SKIP_WORDS, TERM_INFO_WORDS,
} from '../index/segment/segment-layout.js';
import type { Core } from '../wasm/core.js';

/** The blob's words and its sorted dictionary (term number = index). */
export interface DocSegmentBlob { words: Uint32Array; terms: string[] }

const PAD_WORDS = PACK_PADDING / 4;
const align = (n: number, a: number): number => Math.ceil(n / a) * a;

/** Hits of each term (hitpos = field << 24 | fieldEnd << 23 | pos), terms sorted as the segment dictionary. */
function groupHits(fields: FieldTokens[]): { terms: string[]; hits: number[][] } {
  const byTerm = new Map<string, number[]>();
  fields.forEach((f, field) => {
    let last = 0;
    for (const p of f.positions) if (p > last) last = p;
    for (let i = 0; i < f.terms.length; i++) {
      const pos = f.positions[i] & POS_MASK;
      const hit = ((field << FIELD_SHIFT) | (pos === last ? FIELD_END_BIT : 0) | pos) >>> 0;
      let list = byTerm.get(f.terms[i]);
      if (!list) { list = []; byTerm.set(f.terms[i], list); }
      list.push(hit);
    }
  });
  const terms = [...byTerm.keys()].sort((x, y) => (x < y ? -1 : 1));
  return { terms, hits: terms.map((t) => byTerm.get(t)!.sort((a, b) => a - b)) };
}

/** The one-row segment of `fields` (docId 0, no attributes). */
export function docSegmentBlob(fields: FieldTokens[]): DocSegmentBlob {
  const { terms, hits } = groupHits(fields);
  const tfBits = hits.map((h) => (h.length - 1 === 0 ? 0 : 32 - Math.clz32(h.length - 1)));
  const posFmt = hits.map((h) => hitFormat(h, 0, h.length));
  const posWords = hits.map((h, t) => packedHitsWords(0, h.length, posFmt[t]));
  // word offsets, in buildSegment's order: header, term table, per term skip + block-max + doc + tf runs + hits
  const termTable = HEADER_BYTES / 4;
  let at = termTable + terms.length * TERM_INFO_WORDS;
  const skipAt: number[] = [];
  let allPosBytes = 0;
  for (let t = 0; t < terms.length; t++) {
    skipAt.push(at);
    at += SKIP_WORDS + 1 + PAD_WORDS + Math.ceil(tfBits[t] / 32) + PAD_WORDS + posWords[t];
    allPosBytes += Math.ceil((hits[t].length * hitWidth(posFmt[t])) / 8);
  }
  const idCol = align(at, 2);
  const colTable = align(idCol + 2, 2);
  const fieldLen = colTable + 2;
  const total = align(fieldLen + fields.length, 4);
  const w = new Uint32Array(total);
  for (let t = 0; t < terms.length; t++) {
    const s = skipAt[t];
    // the term's one block-max word follows its skip entry (postings-encoder.ts)
    const docOff = s + SKIP_WORDS + 1;
    w[s + SKIP_WORDS] = blockMaxWord(hits[t].length, hits[t].reduce((m, h) => m | blockFieldBit(h), 0));
    const tfOff = docOff + PAD_WORDS;
    const posOff = tfOff + Math.ceil(tfBits[t] / 32) + PAD_WORDS;
    if (tfBits[t] > 0) w[tfOff] = hits[t].length - 1;
    w.set([0, docOff * 4, tfOff * 4, posOff * 4, 1, 0, tfBits[t], posFmt[t]], s);
    w.set([1, hits[t].length, s * 4, 1, (s + SKIP_WORDS) * 4], termTable + t * TERM_INFO_WORDS);
    packHits(hits[t], 0, hits[t].length, posFmt[t], w, posOff);
  }
  w[colTable] = COL_I64;
  w[colTable + 1] = idCol * 4;
  fields.forEach((f, i) => { w[fieldLen + i] = f.length; });
  w.set([SEGMENT_MAGIC, SEGMENT_VERSION, 1, terms.length, fields.length, 1, termTable * 4, colTable * 4, fieldLen * 4, allPosBytes, 0]);
  w[H.total] = total * 4;
  return { words: w, terms };
}

/** A reused place in one core for document segments: | blobPtr | deletedPtr | and an empty deleted bitmap. */
interface Slot { desc: number; deleted: number; blob: number; cap: number }
const slots = new WeakMap<Core, Slot>();
/** Bytes of the deleted-rows bitmap (one row, padded as Segment pads it). */
const BITMAP_BYTES = 16;

/** Places the blob in `core` (the previous document's is overwritten); returns the segment descriptor. */
export function placeDocSegment(core: Core, blob: DocSegmentBlob): number {
  let s = slots.get(core);
  if (!s) {
    const deleted = core.alloc(BITMAP_BYTES);
    core.u8.fill(0, deleted, deleted + BITMAP_BYTES);
    s = { desc: core.alloc(16), deleted, blob: 0, cap: 0 };
    slots.set(core, s);
  }
  const bytes = blob.words.byteLength;
  if (bytes > s.cap) {
    core.free(s.blob);
    s.cap = Math.max(bytes, s.cap * 2, 4096);
    s.blob = core.alloc(s.cap);
  }
  core.u32.set(blob.words, s.blob >>> 2);
  core.u32[s.desc >>> 2] = s.blob;
  core.u32[(s.desc >>> 2) + 1] = s.deleted;
  return s.desc;
}
