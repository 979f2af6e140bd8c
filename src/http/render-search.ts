/**
 * A SELECT's rows in the `/search` response shape, which `POST /sql` (no mode) answers with, written
 * straight to JSON: no object per hit or field on the way (measured: half the serializing cost of 20
 * gcide hits with their `_source`). searchJsonBytes writes the reply's UTF-8 bytes, with each long text
 * of a cached stored document escaped and encoded once (keptText); searchJsonText the same as text.
 */
import { cellToSourceJson, integerText, JsonFields } from '../engine/values/cell-format.js';
import type { Cell, CellKind, RowsResult } from '../engine/result.js';
import { jsonString, toJsonText } from './json-text.js';
import { KeptTexts, type Kept } from './kept-texts.js';
import { highlightJsonText } from './render-highlight.js';
import { bodyBytes, TextSink, type ByteSink, type ReplySink } from './reply-sink.js';

/** `_score` of a row without a full-text query (Manticore's full scans weigh 1). */
export const FULL_SCAN_SCORE = 1;

function idColumn(result: RowsResult): number {
  return result.columns.findIndex((c) => c.name.toLowerCase() === 'id');
}

/** Manticore prints `_id` unsigned (`%U`), so a negative 64-bit id shows as its two's complement. */
function unsignedId(value: Cell): string {
  // another kind under the name id ('x' AS id, title AS id) as its JSON value: it was written bare, `"_id":x`
  if (typeof value !== 'bigint') return toJsonText(value);
  return value >= 0n ? value.toString() : BigInt.asUintN(64, value).toString();
}

/**
 * Per stored document (RowsResult.sources): its texts and their JSON as UTF-8. The store hands the same
 * frozen document and strings to every page while its cache holds them, so a text found again is a
 * pointer compare and one copy of bytes, instead of jsonString's scans, the reply string's flattening
 * and its UTF-8 encoding (a 20-hit gcide page, about 45 kB: 37 -> 9 us, in one process), in a byte
 * budget (kept-texts.ts). Keyed by the text itself: a row paired with another document only misses.
 * Texts shorter than MEMO_MIN_CHARS are rendered each time, as cheap as the compare.
 */
const keptTexts = new KeptTexts();
const MEMO_MIN_CHARS = 32;
/** Texts remembered per document at most (its stored fields; string attributes pass through too). */
const MEMO_MAX_TEXTS = 8;

/** `value` as JSON into `out`: its kept bytes, or rendered now (and kept, while the document has room). */
function keptText(out: ReplySink, value: string, kept: Kept): void {
  const texts = kept.texts;
  for (let i = 0; i < texts.length; i += 2) if (texts[i] === value) return out.bytes(texts[i + 1] as Buffer);
  if (texts.length < 2 * MEMO_MAX_TEXTS) keptTexts.add(kept, value, out.textKept(jsonString(value)));
  else out.text(jsonString(value));
}

const INTEGER_KINDS: ReadonlySet<CellKind> = new Set(['bigint', 'uint', 'timestamp']);

/**
 * One `_source` value: text as a JSON string (from `kept` when given and the text is long), the other
 * kinds as cellToSourceJson renders them.
 */
function sourceValue(out: ReplySink, value: Cell, kind: CellKind, kept: Kept | undefined): void {
  // an integer attribute's text at once: cellToSourceJson's RawJson of the same text, without the object
  if (INTEGER_KINDS.has(kind) && value !== null && value !== undefined) out.text(integerText(value));
  else if (typeof value !== 'string' || kind !== 'string') out.text(toJsonText(cellToSourceJson(value, kind)));
  else if (kept === undefined || value.length < MEMO_MIN_CHARS) out.text(jsonString(value));
  else keptText(out, value, kept);
}

/** A row's `_source` fields, after its `{`. */
function sourceFields(out: ReplySink, result: RowsResult, row: Cell[], idIndex: number, keys: string[], kept: Kept | undefined): void {
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    if (i === idIndex) continue;
    out.text(first ? keys[i]! : `,${keys[i]!}`);
    sourceValue(out, row[i] ?? null, result.columns[i]!.kind, kept);
    first = false;
  }
}

/**
 * What a kept `_source` must have been rendered for besides the row's cells: the columns' names and
 * kinds and the id's place (a `_source` filter or another table's columns render other bytes).
 */
function columnsKey(result: RowsResult, idIndex: number): string {
  let key = String(idIndex);
  for (const c of result.columns) key += `\0${c.name}\0${c.kind}`;
  return key;
}

/** Cells compared by value (sameCells) stand for their JSON: no object (a json or mva value) whose content could differ. */
function plainCells(row: Cell[]): boolean {
  for (let i = 0; i < row.length; i++) if (typeof row[i] === 'object' && row[i] !== null) return false;
  return true;
}

/** Object.is, not ===: a float 0 and -0 are equal to === but render "0.000000" and "-0.000000". */
function sameCells(row: Cell[], cells: readonly unknown[], idIndex: number): boolean {
  if (row.length !== cells.length) return false;
  for (let i = 0; i < row.length; i++) if (i !== idIndex && !Object.is(row[i], cells[i])) return false;
  return true;
}

/**
 * A hit of a row read from a cached stored document is its `_source` bytes from an earlier reply when
 * the row's cells are the ones they were rendered from (an UPDATE of an attribute changes a cell, not
 * the document): one copy instead of a key, a value and a kept text per field (measured: about 3 us a
 * gcide hit). A document's first render keeps its long texts (as before), so pages whose documents leave
 * the budget before they come again cost no more; the second keeps its `_source` whole in their place.
 * Other columns than the kept `_source`'s (a `_source` filter) read the texts kept, if any.
 */
function hit(out: ReplySink, result: RowsResult, rowIndex: number, idIndex: number, keys: string[], columns: string): void {
  const row = result.rows[rowIndex]!;
  const source = out.takesBytes ? result.sources?.[rowIndex] : undefined;
  // looked up once per row, when the row has a text to keep
  const kept = source === undefined ? undefined : keptTexts.of(source);
  let head = idIndex >= 0 ? `{"_id":${unsignedId(row[idIndex] ?? null)},"_score":` : '{"_score":';
  head += toJsonText(result.weights?.[rowIndex] ?? FULL_SCAN_SCORE);
  out.text(`${head},"_source":{`);
  const whole = kept?.source;
  if (kept === undefined) {
    sourceFields(out, result, row, idIndex, keys, undefined);
  } else if (whole !== undefined && whole.columns === columns && sameCells(row, whole.cells, idIndex)) {
    out.bytes(whole.json);
  } else if ((whole === undefined ? kept.texts.length > 0 : whole.columns === columns) && plainCells(row)) {
    // found again (its texts were kept), or its cells changed since (an UPDATE): the new bytes replace
    // the old and its texts, which they hold
    const at = out.mark();
    sourceFields(out, result, row, idIndex, keys, kept);
    keptTexts.addSource(kept, { columns, cells: row.slice(), json: out.keptSince(at) });
  } else {
    sourceFields(out, result, row, idIndex, keys, kept);
  }
  const hl = result.highlights?.[rowIndex];
  out.text(hl ? `},"highlight":${highlightJsonText(hl)}}` : '}}');
}

/**
 * `{"took":ms,"timed_out":false,"hits":{"total":n,"total_relation":"eq","hits":[...]}}`, with
 * `"warning":{"reason":...}` after `timed_out` when the search warned. A row's `id` column becomes
 * `_id` (aggregate rows have none), its weight `_score`, and the other columns `_source`.
 */
function render(out: ReplySink, result: RowsResult): void {
  const meta = result.meta;
  const idIndex = idColumn(result);
  let head = `{"took":${toJsonText(Math.trunc(meta?.timeMs ?? 0))},"timed_out":false`;
  const warning = result.warning ?? meta?.warning;
  if (warning) head += `,"warning":${toJsonText({ reason: warning })}`;
  head += `,"hits":{"total":${toJsonText(meta?.totalFound ?? result.rows.length)}`;
  out.text(`${head},"total_relation":${toJsonText(meta?.totalRelation ?? 'eq')},"hits":[`);
  // each column's `"name":` once per reply, not once per hit
  const keys = result.columns.map((c) => `${jsonString(c.name)}:`);
  const columns = out.takesBytes && result.sources !== undefined ? columnsKey(result, idIndex) : '';
  for (let i = 0; i < result.rows.length; i++) {
    if (i > 0) out.text(',');
    hit(out, result, i, idIndex, keys, columns);
  }
  let tail = ']}';
  if (result.aggregations) tail += `,"aggregations":${toJsonText(new JsonFields(result.aggregations))}`;
  out.text(`${tail}}`);
}

/** The reply as text. */
export function searchJsonText(result: RowsResult): string {
  const out = new TextSink();
  render(out, result);
  return out.out;
}

/** Writes the reply's UTF-8 (the bytes of searchJsonText's text) into `out`. */
export function writeSearchJson(out: ByteSink, result: RowsResult): void {
  render(out, result);
}

/** The reply as UTF-8, in a buffer of its own. */
export function searchJsonBytes(result: RowsResult): Buffer<ArrayBuffer> {
  return bodyBytes((out) => render(out, result));
}
