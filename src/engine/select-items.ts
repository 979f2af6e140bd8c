/**
 * The select list of a SELECT over a table: which columns come out, with which kind, and how each
 * cell is read from a hit (its id, weight, attributes and stored text).
 */
import type { Column, ColumnType } from '../schema/types.js';
import type { Expr, SelectItem } from '../sql/ast.js';
import type { AttrValue } from '../index/types.js';
import { SearchError } from '../util/errors.js';
import type { Cell, CellKind, ResultColumn } from './result.js';
import { highlightReader, type HighlightContext } from './snippets/highlight-column.js';
import { orderedColumns } from './schema-text.js';
import { compileExpr, type ExprType } from './expr/compile.js';
import type { Collation } from '../util/collation.js';
import { valueText } from './expr/strings.js';
import type { Table } from './table.js';
import { isLosslessNumber, parse as losslessParse } from 'lossless-json';
import { printedJsonNumber } from './json/json-print.js';
import { storedJsonText } from './json/stored-json.js';

export const KIND_OF: Record<ColumnType, CellKind> = {
  text: 'string', string: 'string', uint: 'uint', bigint: 'bigint', float: 'float', bool: 'bool',
  timestamp: 'timestamp', json: 'json', mva: 'mva', mva64: 'mva',
};

/** What one output row is made from. */
export interface RowSource {
  docId: bigint;
  weight: number;
  attrs: Map<string, AttrValue>;
  /** Stored full-text fields by column name (only the ones the select list needs). */
  text: Record<string, unknown>;
}

export interface OutColumn extends ResultColumn {
  read: (r: RowSource) => Cell;
  /** The page's cells at once (HIGHLIGHT()); else read per row. */
  readPage?: (rs: RowSource[]) => Promise<Cell[]>;
  /** A stored text field this column needs fetched from the store. */
  needsText?: string;
  /** An aggregate: computed once over all matches. */
  aggregate?: 'count';
}

function columnOut(c: Column, name: string): OutColumn {
  if (c.type === 'text') {
    return { name, kind: 'string', needsText: c.name, read: (r) => String(r.text[c.name] ?? '') };
  }
  return { name, kind: KIND_OF[c.type], read: (r) => (r.attrs.get(c.name) ?? null) as Cell };
}

/** `*`: id, stored full-text fields, then attributes (string attribute indexed counts as attribute). */
function starColumns(table: Table): OutColumn[] {
  const out: OutColumn[] = [{ name: 'id', kind: 'bigint', read: (r) => r.docId }];
  for (const c of orderedColumns(table.schema)) {
    if (c.type === 'text' && !c.stored) continue;
    out.push(columnOut(c, c.name));
  }
  return out;
}

/**
 * A JSON value at a path as searchd's SELECT shows it (searchd.cpp, JSON_FIELD_PTR: sphJsonFieldFormat without
 * quotes): a string unquoted, true/false as 1/0, JSON null as NULL, a double as `%lf`; objects and arrays as
 * JSON text, their doubles printed by cell-format.
 */
function jsonPathCell(cur: unknown): Cell {
  if (cur === undefined || cur === null) return null;
  if (typeof cur === 'string') return cur;
  if (typeof cur === 'boolean') return cur ? '1' : '0';
  if (isLosslessNumber(cur)) return printedJsonNumber(cur.value);
  return storedJsonText(cur);
}

function jsonPathOut(c: Column, e: Expr & { kind: 'column' }, name: string): OutColumn {
  return {
    name, kind: 'json',
    read: (r) => {
      const raw = r.attrs.get(c.name);
      // every number keeps its stored token (LosslessNumber): an int64 past 2^53 shows exact, and a double
      // written `100.0` stays a double for cell-format's printedJson (searchd prints it `100.000000`)
      let cur: unknown = typeof raw === 'string' ? losslessParse(raw) : undefined;
      for (const step of e.path) cur = cur == null ? undefined : (cur as Record<string | number, unknown>)[step];
      return jsonPathCell(cur);
    },
  };
}

/** The result column kind of an expression type (Manticore: INTEGER a LONG column, BIGINT a LONGLONG one). */
const EXPR_KIND: Record<ExprType, CellKind> = { int: 'uint', bigint: 'bigint', float: 'float', string: 'string', json: 'json', mva: 'mva' };

/** An expression column: compiled once, evaluated per row of the page. */
function computedColumn(table: Table, e: Expr, name: string, aliases: Map<string, Expr>, ctx: SelectContext): OutColumn {
  // string comparisons take the statement's collation, as searchd's select-list expressions
  // (queuecreator.cpp ParseQueryItem: tExprParseArgs.m_eCollation = the query's)
  const compiled = compileExpr(e, { table, aliases, collation: ctx.collation, randSeed: ctx.randSeed });
  const kind = EXPR_KIND[compiled.type];
  if (compiled.type === 'json') {
    return { name, kind, read: (r) => { const v = compiled.eval(r); return v === undefined || v === null ? null : valueText(v, 'json'); } };
  }
  return { name, kind, read: (r) => compiled.eval(r) as Cell };
}

/** Select-list aliases of expressions (`price*2 AS p2`), which other expressions may name. */
export function selectAliases(items: SelectItem[]): Map<string, Expr> {
  const out = new Map<string, Expr>();
  for (const i of items) if (i.alias && i.expr.kind !== 'star') out.set(i.alias.toLowerCase(), i.expr);
  return out;
}

function exprColumn(table: Table, item: SelectItem, ctx: SelectContext, aliases: Map<string, Expr>): OutColumn {
  const e = item.expr;
  const name = item.alias ?? item.name;
  // HIGHLIGHT() / SNIPPET(): needsText only makes the final page's documents be fetched
  const hl = highlightReader(table, e, ctx);
  if (hl) return { name, kind: 'string', needsText: '*', read: hl.read, readPage: hl.readPage };
  if (e.kind === 'column') {
    if (e.name.toLowerCase() === 'id' && !e.path.length) return { name, kind: 'bigint', read: (r) => r.docId };
    const c = table.column(e.name);
    if (!c && !e.path.length && aliases.has(e.name.toLowerCase())) return computedColumn(table, e, name, aliases, ctx);
    if (!c) throw new SearchError('QUERY_ERROR', `table ${table.name}: parse error: unknown column: ${e.name}`);
    if (e.path.length) return jsonPathOut(c, e, name);
    return columnOut(c, name);
  }
  if (e.kind === 'call' && e.name === 'weight' && e.args.length === 0) {
    return { name, kind: 'bigint', read: (r) => BigInt(r.weight) };
  }
  if (e.kind === 'call' && e.name === 'count' && !e.distinct && e.args.length === 1 && e.args[0].kind === 'star') {
    return { name, kind: 'bigint', read: () => 0n, aggregate: 'count' };
  }
  if (e.kind === 'literal' && (e.value.kind === 'int' || e.value.kind === 'float' || e.value.kind === 'string')) {
    const v = e.value;
    if (v.kind === 'int') return { name, kind: 'bigint', read: () => BigInt(v.value) };
    if (v.kind === 'float') return { name, kind: 'float', read: () => v.value };
    return { name, kind: 'string', read: () => v.value };
  }
  if (e.kind === 'call' && ['count', 'sum', 'avg', 'group_concat'].includes(e.name)) {
    throw new SearchError('UNSUPPORTED', `unsupported select expression '${e.text}'`);
  }
  return computedColumn(table, e, name, aliases, ctx);
}

/** The statement's MATCH text, string collation (unset: libc_ci) and RAND() seed (unset: a fresh one). */
export type SelectContext = HighlightContext & { collation?: Collation; randSeed?: number };

/** The output columns of a select list. */
export function selectColumns(table: Table, items: SelectItem[], ctx: SelectContext = {}): OutColumn[] {
  const aliases = selectAliases(items);
  return items.flatMap((item) => (item.expr.kind === 'star' ? starColumns(table) : [exprColumn(table, item, ctx, aliases)]));
}
