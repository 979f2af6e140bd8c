import type { CollationName } from '../util/collation.js';
import type { Segment } from './segment/segment.js';
/**
 * The contract between the engine and the RT index (segments in the WASM core).
 * The engine tokenizes and normalizes; the index stores postings and attribute columns and searches.
 */
import type { ColumnType } from '../schema/types.js';
import type { QueryNode } from '../query/ast.js';
import type { ExpansionSettings } from './wildcard.js';
import type { PairSettings } from './segment/segment-pairs.js';

/** What an index needs of a table's schema. */
export interface IndexSchema {
  /** Full-text field names, in schema order; field number = index in this array. */
  fields: string[];
  /** Attribute columns in schema order (text columns excluded). */
  attrs: { name: string; type: ColumnType }[];
  /** Which adjacent words get pair postings (segment/segment-pairs.ts); default automatic. */
  pairs?: PairSettings;
}

/** One field's tokens after the table's text pipeline: dictionary terms at 1-based positions. */
export interface FieldTokens {
  terms: string[];
  positions: number[];
  /** Field length in tokens for BM25 and `word$` (the last position). */
  length: number;
  /**
   * Where the field ends in a blended token (its forms and parts the last hits): that token's position.
   * Manticore's indexer moves the field end back to it (ProcessCollectedHits' blended start), so
   * "the well-known" with `-` in blend_chars ends at `well-known`, `well` and `known` alike.
   */
  blendEnd?: number;
  /**
   * Entries from here on were appended after the text's (mark terms, exact forms): not in text order,
   * so the field's end hits among them are taken by position (doc-inverter.ts collectField).
   */
  extrasFrom?: number;
  /** The same terms and positions as numbers in shared chunks, when the text pipeline packed them. */
  readonly packed?: PackedTerms;
}

/** Numbers naming terms: `names[n]` is number n's term, find() the number of a term it holds. */
export interface TermNumbering {
  readonly names: readonly string[];
  find(term: string): number | undefined;
  /**
   * The names in sorted order (UTF-16 code units, as `<` and the default sort compare): `order` lists
   * numbers by name, `rank` each number's place in it. Kept up to date by sorting only the names added
   * since the last call, so a batch's dictionary is ordered by integers, not by comparing its strings.
   * Valid until the next new name.
   */
  nameOrder(): { order: Uint32Array; rank: Uint32Array };
}

/**
 * Terms as numbers of `numbering`, and their positions, at [from, to) of arrays that other fields
 * share (src/text/packed-terms.ts): the inverter reads these instead of a string per word.
 */
export interface PackedTerms {
  readonly numbering: TermNumbering;
  readonly nums: Uint32Array;
  /** Each number's position (named apart from IndexedField's `positions`: a PackedField is both). */
  readonly packedPositions: Uint32Array;
  readonly from: number;
  readonly to: number;
}

/**
 * An attribute value as the engine hands it over:
 * uint/timestamp/bool -> number; bigint -> bigint; float -> number; string -> string;
 * json -> compact JSON text or null; mva/mva64 -> sorted bigint[].
 */
export type AttrValue = number | bigint | string | bigint[] | null;

export interface DocInput {
  docId: bigint;
  /** One entry per IndexSchema.fields entry. */
  fields: FieldTokens[];
  /** One entry per IndexSchema.attrs entry. */
  attrs: AttrValue[];
  /**
   * The fields' texts, when `fields` is made only on first read (engine/text-row.ts): a row bound for
   * the RAM tail is then tokenized at the tail's seal, all rows in one batch (RtIndexOptions.tailBuilder),
   * not one by one on the protocol thread as it arrives.
   */
  readonly texts?: readonly string[];
}

export type Ranker = 'proximity_bm25' | 'bm25' | 'none' | 'wordcount' | 'proximity' | 'matchany' | 'fieldmask' | 'sph04' | 'expr';

/** An attribute filter; `attr` may be 'id'. Values are of the attribute's kind (bigint for id/bigint). */
/** With `code`, the filtered value is a numeric expression the core computes (see SortKey), `attr` its text. */
export type Filter = (
  | { attr: string; op: '=' | '!=' | '<' | '<=' | '>' | '>='; value: number | bigint | string; negate?: boolean }
  | { attr: string; op: 'between'; low: number | bigint; high: number | bigint; negate?: boolean }
  | { attr: string; op: 'in'; values: (number | bigint | string)[]; negate?: boolean }
) & { code?: number[] };

/** One ORDER BY key: an attribute, 'id', or 'weight()'. */
/**
 * One ORDER BY key: an attribute, `id` or `weight()`; or, with `code`, a numeric expression compiled to
 * the core's formula bytecode (assembly/rank/expr.ts, attributes only), `attr` then being its text.
 */
export interface SortKey {
  attr: string;
  desc: boolean;
  code?: number[];
  /** A key computed on the host: its value for every row of a segment (strings, JSON values, bigint expressions). */
  rowValues?: (seg: Segment) => AttrValue[];
}

export interface SearchRequest {
  /** Terms already normalized to dictionary form by the engine; null = full scan (weight 1). */
  query: QueryNode | null;
  ranker: Ranker;
  /** field name -> user weight (default 1). */
  fieldWeights: Record<string, number>;
  /** All must hold (AND). */
  filters: Filter[];
  /** Empty = weight desc then internal order (full scan: internal order). */
  sort: SortKey[];
  offset: number;
  limit: number;
  /** Caps the window (offset+limit); Manticore's max_matches, default 1000. */
  maxMatches: number;
  /** ranker 'expr': the formula of `ranker=expr('...')`. */
  rankExpr?: string;
  /** OPTION idf: 'plain' uses log(N/n) instead of log((N-n+1)/n); 'unnormalized' skips the division by the keyword count. */
  idf?: { plain?: boolean; unnormalized?: boolean };
  /** The table's min_prefix_len / min_infix_len / exact forms, expansion_limit; unset = every wildcard expands. */
  expansion?: ExpansionSettings;
  /** OPTION index_weights: this table's weight, multiplying every row's weight (default 1). */
  indexWeight?: number;
  /** OPTION max_query_time in ms (0/unset = none): segments after the deadline are not searched. */
  maxQueryMs?: number;
  /** OPTION threads: the most worker threads this query's ranges spread over (1 = one, unsplit); unset = all. */
  threads?: number;
  /** How strings compare in host filters and ORDER BY (searchd's collation); unset: libc_ci. */
  collation?: CollationName;
  /** OPTION cutoff=N (N > 0): only the first N matches in row order are sorted and paged (search-cutoff.ts). */
  cutoff?: number;
}

export interface Hit { docId: bigint; weight: number }

export interface SearchResult {
  hits: Hit[];
  /** All matching documents (after filters), across segments. */
  totalFound: number;
  /** Per query keyword (dictionary form): documents and hits, for SHOW META. */
  keywords: { keyword: string; docs: number; hits: number }[];
  /** Set when max_query_time stopped the search before every segment was searched. */
  timedOut?: boolean;
  /** Set when OPTION cutoff stopped matching at its N-th match (searchd's bCutoffHit). */
  cutoffHit?: boolean;
}

/** An RT index: immutable segments + deletes + mutable attribute columns. */
export interface RtIndexApi {
  readonly schema: IndexSchema;
  /** Adds one segment made of these documents, searchable when this returns. Ids must be new. */
  addBatch(docs: DocInput[]): void;
  /** Deletes `gone`, then adds `docs` as one segment, all or nothing (a failure changes nothing). */
  replaceBatch(docs: DocInput[], gone?: bigint[]): void;
  /** Marks documents deleted; returns how many existed. */
  delete(docIds: bigint[]): number;
  /** True when the document exists (not deleted). */
  has(docId: bigint): boolean;
  /** Writes attribute values in place; returns false if the document does not exist. */
  updateAttrs(docId: bigint, values: Map<string, AttrValue>): boolean;
  /** Current attribute values of a live document, in IndexSchema.attrs order. */
  getAttrs(docId: bigint): AttrValue[] | undefined;
  /** Number of live documents. */
  count(): number;
  search(req: SearchRequest): SearchResult;
  /** search(), evaluated on the query worker threads when the table is big enough (query-threads.ts). */
  searchAsync(req: SearchRequest): Promise<SearchResult>;
  /** Drops every segment. */
  truncate(): void;
}
