/**
 * invertFields: a batch inverted from rows whose fields are tokenized as they are collected (a bulk
 * load's build thread), written into the token stream through a BatchSink. Split from
 * doc-inverter.ts (invertDocs, from DocInputs), whose stream, term ids and grouping it shares.
 */
import type { AttrValue, FieldTokens, IndexSchema, TermNumbering } from '../types.js';
import type { InvertedBatch } from './segment-builder.js';
import type { PostingsTable } from './postings-encoder.js';
import { AUTO_PAIRS, type PairSettings } from './segment-pairs.js';
import { withPairs } from './pair-builder.js';
import type { BatchSink } from '../../text/batch-sink.js';
import {
  collectField, ensureSlot, fastId, fieldEndFrom, groupByTerm, nextEpoch, streamId, tokenCount, type TokenStream,
} from './doc-inverter.js';
// the batch's working arrays, reused from batch to batch
import { scratchWords as words } from './inversion-scratch.js';
import { keepShape } from '../../util/shape-keeper.js';
import { FIELD_END_BIT, FIELD_SHIFT, POS_MASK } from './segment-layout.js';

/** Batches inverted by invertFields, so a packer's remembered ids name one batch's. */
let fieldBatches = 0;

/**
 * The sink of invertFields: tokens go straight into the stream's arrays (ids, and positions where
 * the hit words go, made hit words once the field's length is known), grown as needed.
 */
class StreamSink implements BatchSink {
  readonly batch = ++fieldBatches;
  /** The field being written, as its hit words carry it (collectRows sets it). */
  tag = 0;
  readonly posMask = POS_MASK;
  constructor(private readonly s: TokenStream) {}
  get ids(): Uint32Array { return this.s.tid; }
  get positions(): Uint32Array { return this.s.thit; }
  get counts(): Uint32Array { return this.s.count; }
  get used(): number { return this.s.n; }
  set used(n: number) { this.s.n = n; }

  reserve(entries: number): void {
    const s = this.s;
    const n = s.n + entries;
    if (n <= s.tid.length) return;
    // the first guess was short: twice the room, the tokens so far kept (count: one per id, ids <= tokens)
    const size = Math.max(n, s.tid.length * 2);
    const tid = words('tid', size);
    const thit = words('thit', size);
    const count = words('count', size);
    if (tid.buffer !== s.tid.buffer) tid.set(s.tid.subarray(0, s.n));
    if (thit.buffer !== s.thit.buffer) thit.set(s.thit.subarray(0, s.n));
    if (count.buffer !== s.count.buffer) count.set(s.count);
    count.fill(0, s.count.length);
    s.tid = tid;
    s.thit = thit;
    s.count = count;
  }

  idOf(numbering: TermNumbering, num: number): number {
    const s = this.s;
    if (s.fast === null && s.names.length === 0) s.fast = numbering;
    if (numbering !== s.fast) return streamId(s, numbering.names[num]);
    ensureSlot(num);
    return fastId(s, numbering.names, num);
  }
}

// the sink's map kept between seals (util/shape-keeper.ts): one is made per batch and dropped with it, and
// the field walk's code optimized for it (packScanned, collectRows, idOf) was compiled again after each
// idle collection. A null stream: the kept sink is never written.
keepShape(new StreamSink(null as unknown as TokenStream));

/**
 * A field of invertFields: written into the sink (its length returned: FieldPacker.packBatch), or its
 * tokens, or null for none.
 */
export type FieldSource = (row: number, field: number, sink: BatchSink) => number | FieldTokens | null;

/**
 * invertDocs for rows whose fields are tokenized as they are collected (a bulk load's build thread):
 * a field the source writes into the sink costs no object and its ids one look-up a token. The same
 * batch as invertDocs of the same rows' DocInputs. `docIds` as stored (u64); `tokensGuess` sizes the
 * token arrays (they grow when short).
 */
export function invertFields(schema: IndexSchema, docIds: BigUint64Array, attrs: AttrValue[][], tokensGuess: number,
  source: FieldSource, pairs: PairSettings = schema.pairs ?? AUTO_PAIRS): InvertedBatch {
  const rows = docIds.length;
  const numFields = schema.fields.length;
  const batch: InvertedBatch = {
    rows, numFields, postings: null as unknown as PostingsTable,
    fieldLens: new Uint32Array(rows * numFields), docIds: new BigInt64Array(docIds.buffer, docIds.byteOffset, rows).slice(),
    attrs: attrs.map((col) => col.map((v) => v ?? null)),
  };
  const guess = Math.max(tokensGuess, 64);
  const s: TokenStream = {
    names: [], nums: [], tid: words('tid', guess), thit: words('thit', guess), rowFrom: words('rowFrom', rows + 1),
    count: words('count', guess).fill(0), n: 0, fast: null, dict: null, strings: false,
  };
  // this batch's slots: stamps of batches before never match
  nextEpoch();
  collectRows(s, new StreamSink(s), source, batch.fieldLens, rows, numFields);
  s.rowFrom[rows] = s.n; // after the loop's function: code there had not run when V8 optimized it
  const { table, rank } = groupByTerm(s);
  batch.postings = table;
  if (pairs.mode !== 'none') batch.postings = withPairs(table, { tid: s.tid, rank, hit: s.thit, rowFrom: s.rowFrom, rows }, pairs);
  return batch;
}

/**
 * The rows' fields into the stream, their lengths into fieldLens. The loop is a function of its own, as
 * the grouping's (doc-inverter.ts says why): what followed it in invertFields deoptimized each batch.
 */
function collectRows(s: TokenStream, sink: StreamSink, source: FieldSource, fieldLens: Uint32Array, rows: number, numFields: number): void {
  for (let row = 0; row < rows; row++) {
    s.rowFrom[row] = s.n;
    for (let f = 0; f < numFields; f++) {
      const from = s.n;
      sink.tag = f << FIELD_SHIFT;
      const ft = source(row, f, sink);
      if (ft === null) continue;
      if (typeof ft === 'number') {
        fieldLens[row * numFields + f] = ft;
        fieldEnds(s.thit, from, s.n);
        continue;
      }
      fieldLens[row * numFields + f] = ft.length;
      sink.reserve(tokenCount(ft));
      collectField(s, ft, f);
    }
  }
}

/**
 * A sink-written field's tokens [from, to): the field-end bit set on its end hits (fieldEndFrom, as
 * invertDocs sets them), read from the hit words the sink wrote (its tag and mask: no end bit yet).
 */
function fieldEnds(thit: Uint32Array, from: number, to: number): void {
  for (let i = fieldEndFrom(thit, from, to); i < to; i++) thit[i] |= FIELD_END_BIT;
}
