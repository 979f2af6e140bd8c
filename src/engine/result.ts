/**
 * The one result model every protocol renders: MySQL packets, /sql JSON, /cli text, /cli_json.
 * Values are kept typed; each column's `kind` says how a renderer prints them (spec section 8).
 */

/**
 * How a column's values are printed.
 * - bigint: value is a bigint (id, bigint attributes, count(*) is 'bigint' too).
 * - uint, timestamp, bool: value is a number (bool 0/1).
 * - float: value is a number holding a float32; SQL text `%f` (six decimals).
 * - string: value is a string (text fields, string attributes, SHOW output).
 * - json: value is compact JSON text (a string) or null.
 * - mva: value is a sorted bigint[]; SQL text is a comma list, '' when empty.
 */
import type { JsonOut } from './values/cell-format.js';

export type CellKind = 'bigint' | 'uint' | 'timestamp' | 'bool' | 'float' | 'string' | 'json' | 'mva';

export type Cell = bigint | number | string | bigint[] | null;

export interface ResultColumn {
  name: string;
  kind: CellKind;
}

/** Statistics of the last search, for SHOW META and JSON `hits.total`. */
export interface SearchMeta {
  total: number;           // rows returned
  totalFound: number;      // all matches (a lower bound when totalRelation is 'gte')
  totalRelation: 'eq' | 'gte';
  timeMs: number;
  keywords: { keyword: string; docs: number; hits: number }[];
  warning?: string;
  /** The statement's error (SHOW META's first row after a failed search or write, as searchd's m_sError). */
  error?: string;
  /** More SHOW META rows after the keywords (a distributed query's per-agent figures). */
  extra?: Array<[string, string]>;
}

export interface RowsResult {
  kind: 'rows';
  columns: ResultColumn[];
  rows: Cell[][];
  /** Present for SELECTs; `/sql` (no mode) builds its hits from it. */
  meta?: SearchMeta;
  /** Set for SELECTs with a full-text query (JSON shape: _score vs weight-less rows). */
  weights?: number[];
  /**
   * Per row, the stored document its texts were read from (frozen, shared while the store caches it),
   * or undefined: a renderer may keep what it made of a text with it (render-search.ts).
   */
  sources?: (object | undefined)[];
  /** JSON /search `highlight`: per row, field -> snippets (rendered next to `_source`). */
  highlights?: Record<string, string[]>[];
  warning?: string;
  /** SELECT /*!40001 SQL_NO_CACHE *\/ (mysqldump): floats as text that reads back exactly, not `%f`. */
  exactFloats?: boolean;
  /** A FACET's (or JSON `aggs` bucket's) result: the name its `aggregations` entry takes. */
  facet?: string;
  /** `/sql` and `/search`: FACET result sets / JSON `aggs`, as the `aggregations` object's entries. */
  aggregations?: Array<[string, JsonOut]>;
  /**
   * Answered by Buddy in Manticore (a SELECT with OPTION fuzzy): `/sql?mode=raw` and `/cli_json` write it in
   * Buddy's compact layout (render-raw.ts), not searchd's row buffer's.
   */
  buddyLayout?: boolean;
}

export interface OkResult {
  kind: 'ok';
  affected: number;
  lastInsertId?: bigint;
  /** Every id an INSERT/REPLACE wrote, in order (the session's LAST_INSERT_ID()). */
  insertedIds?: readonly bigint[];
  warning?: string;
}

export interface ErrorResult {
  kind: 'error';
  /** SearchError code; protocols map it to MySQL errno/SQLSTATE or an HTTP status. */
  code: string;
  message: string;
}

export type Result = RowsResult | OkResult | ErrorResult;

export function ok(affected = 0, extra: Partial<OkResult> = {}): OkResult {
  return { kind: 'ok', affected, ...extra };
}

export function rows(columns: ResultColumn[], data: Cell[][], extra: Partial<RowsResult> = {}): RowsResult {
  return { kind: 'rows', columns, rows: data, ...extra };
}

/** A column list of plain strings, as SHOW and DESCRIBE produce. */
export function stringColumns(...names: string[]): ResultColumn[] {
  return names.map((name) => ({ name, kind: 'string' as const }));
}
