/**
 * One query's result in searchd's SEARCH reply layout: status (with the warning or error text),
 * full-text fields, attribute schema, matches (64-bit id, weight, attribute values by type), then
 * total, total_found, time in ms and per-word statistics.
 */
import type { Cell, CellKind, RowsResult } from '../engine/result.js';
import { MAGIC_ALIASES } from './search-sql.js';
import { ApiWriter, Status } from './wire.js';

/** searchd's SPH_ATTR_* codes. */
export const Attr = { INTEGER: 1, TIMESTAMP: 2, BOOL: 4, FLOAT: 5, BIGINT: 6, STRING: 7, MULTI: 0x40000001, MULTI64: 0x40000002 } as const;

/** DESCRIBE type names that differ from the column kind: MVA width. */
export type DescribedTypes = Map<string, string>;

function attrType(kind: CellKind, described: string | undefined): number {
  switch (kind) {
    case 'uint': return described === 'bool' ? Attr.BOOL : Attr.INTEGER;
    case 'bool': return Attr.BOOL;
    case 'timestamp': return Attr.TIMESTAMP;
    case 'float': return Attr.FLOAT;
    case 'bigint': return Attr.BIGINT;
    case 'mva': return described === 'mva64' ? Attr.MULTI64 : Attr.MULTI;
    default: return Attr.STRING; // string, json (as text), stored fields
  }
}

function writeValue(w: ApiWriter, type: number, v: Cell): void {
  switch (type) {
    case Attr.FLOAT: w.f32(typeof v === 'number' ? v : Number(v ?? 0)); return;
    case Attr.BIGINT: w.u64(typeof v === 'bigint' ? v : BigInt(Math.trunc(Number(v ?? 0)))); return;
    case Attr.STRING: w.str(v === null || v === undefined ? '' : String(v)); return;
    case Attr.MULTI: {
      const vals = Array.isArray(v) ? v : [];
      w.u32(vals.length);
      for (const x of vals) w.u32(Number(x));
      return;
    }
    case Attr.MULTI64: {
      const vals = Array.isArray(v) ? v : [];
      w.u32(vals.length * 2); // the count is of 32-bit words
      for (const x of vals) w.u64(x);
      return;
    }
    default: w.u32(typeof v === 'bigint' ? Number(BigInt.asUintN(32, v)) : Number(v ?? 0));
  }
}

export interface ReplyContext {
  fields: string[];
  described: DescribedTypes;
  /** A master's request: the reply carries the statistics mask after the time. */
  agent: boolean;
  version: number;
  /** The master's extension version (0 from clients): later ones expect more statistics. */
  masterVersion: number;
}

export function writeSearchResult(w: ApiWriter, r: RowsResult, ctx: ReplyContext): void {
  const warning = r.meta?.warning ?? r.warning;
  if (warning) w.u32(Status.WARNING).str(warning);
  else w.u32(Status.OK);
  w.u32(ctx.fields.length);
  for (const f of ctx.fields) w.str(f);
  const apiId = r.columns.findIndex((c) => c.name === 'api_id');
  const idAt = apiId >= 0 ? apiId : r.columns.findIndex((c) => c.name === 'id');
  const plainId = r.columns.findIndex((c) => c.name === 'id');
  const attrs = r.columns
    // searchd's @count and @distinct are 32-bit integers
    .map((c, i) => ({ name: MAGIC_ALIASES[c.name] ?? c.name, i, type: c.name === 'api_count' || c.name === 'api_distinct' ? Attr.INTEGER : attrType(c.kind, ctx.described.get(c.name)) }))
    .filter((a) => a.i !== idAt && a.i !== plainId);
  // Manticore masters (master 15+) read a match's id from its `id` attribute, the first one
  if (ctx.agent && ctx.masterVersion >= 15 && idAt >= 0) attrs.unshift({ name: 'id', i: idAt, type: Attr.BIGINT });
  w.u32(attrs.length);
  for (const a of attrs) w.str(a.name).u32(a.type);
  w.u32(r.rows.length).u32(1); // id64
  r.rows.forEach((row, n) => {
    const id = idAt >= 0 ? row[idAt] : 0n;
    w.u64(typeof id === 'bigint' ? id : BigInt(Number(id ?? 0)));
    w.u32(r.weights?.[n] ?? 1);
    for (const a of attrs) writeValue(w, a.type, row[a.i]!);
  });
  const meta = r.meta;
  w.u32(r.rows.length);
  w.u32(Math.min(meta?.totalFound ?? r.rows.length, 0xffffffff));
  if (ctx.agent && ctx.masterVersion >= 19) w.u32(meta?.totalRelation === 'gte' ? 1 : 0); // total is approximate
  w.u32(Math.max(0, Math.round(meta?.timeMs ?? 0)));
  if (ctx.agent && ctx.version >= 0x11a) w.u8(0); // no I/O, CPU or predicted-time statistics follow
  if (ctx.agent && ctx.masterVersion >= 7) {
    w.u32(0).u32(0); // fetched docs and hits: not counted here
    if (ctx.masterVersion >= 8) w.u32(0); // skips
  }
  const words = meta?.keywords ?? [];
  w.u32(words.length);
  for (const k of words) {
    w.str(k.keyword).u32(k.docs).u32(k.hits);
    if (ctx.agent) w.u8(0); // not an expanded term
  }
}

export function writeSearchError(w: ApiWriter, message: string): void {
  w.u32(Status.ERROR).str(message);
}
