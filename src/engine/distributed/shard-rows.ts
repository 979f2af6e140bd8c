/**
 * One shard's answer in the shape the merge reads, whether it came from a local table (a RowsResult)
 * or from a remote agent (a binary-API search result): columns by name, rows, each row's id and
 * weight, and the shard's totals, keywords and warning.
 */
import type { AgentResult, AgentValue } from '../../agent/search-write.js';
import { Attr } from '../../agent/search-reply.js';
import type { Cell, CellKind, RowsResult, SearchMeta } from '../result.js';

export interface ShardRows {
  names: string[];
  kinds: CellKind[];
  index: Map<string, number>;
  rows: Cell[][];
  ids: bigint[];
  weights: number[];
  totalFound: number;
  gte: boolean;
  keywords: SearchMeta['keywords'];
  warning?: string;
}

function indexOf(names: string[]): Map<string, number> {
  return new Map(names.map((n, i) => [n, i]));
}

export function fromLocal(r: RowsResult): ShardRows {
  const names = r.columns.map((c) => c.name);
  const index = indexOf(names);
  const idAt = index.get('__id') ?? index.get('id');
  // the one row of aggregates over no match has no document id
  const ids = r.rows.map((row) => (idAt === undefined || row[idAt] === null ? 0n : BigInt(row[idAt] as bigint | number)));
  return {
    names, kinds: r.columns.map((c) => c.kind), index, rows: r.rows, ids,
    weights: r.rows.map((_, i) => r.weights?.[i] ?? 1),
    totalFound: r.meta?.totalFound ?? r.rows.length, gte: r.meta?.totalRelation === 'gte',
    keywords: r.meta?.keywords ?? [], warning: r.meta?.warning ?? r.warning,
  };
}

function kindOf(type: number): CellKind {
  switch (type) {
    case Attr.FLOAT: return 'float';
    case Attr.BIGINT: return 'bigint';
    case Attr.STRING: case 8: return 'string';
    case Attr.MULTI: case Attr.MULTI64: return 'mva';
    case Attr.TIMESTAMP: return 'timestamp';
    case Attr.BOOL: return 'bool';
    default: return 'uint';
  }
}

function cellOf(v: AgentValue): Cell {
  if (Array.isArray(v)) return (v as Array<number | bigint>).map((x) => BigInt(x)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return v;
}

/** searchd's magic columns under the names a quarry shard gives them. */
const MAGIC: Record<string, string> = { '@groupby': 'groupby()', '@count': 'count(*)', '@distinct': 'count(distinct)' };

export function fromRemote(r: AgentResult): ShardRows {
  const names = ['id', ...r.attrs.map((a) => MAGIC[a.name] ?? a.name.toLowerCase())];
  const kinds: CellKind[] = ['bigint', ...r.attrs.map((a) => kindOf(a.type))];
  return {
    names, kinds, index: indexOf(names),
    rows: r.matches.map((m) => [m.id, ...m.values.map(cellOf)]),
    ids: r.matches.map((m) => m.id), weights: r.matches.map((m) => m.weight),
    totalFound: r.totalFound, gte: false,
    keywords: r.words.map((w) => ({ keyword: w.word, docs: w.docs, hits: w.hits })),
    warning: r.warning,
  };
}
