/**
 * An expression as a per-row reader over one segment's attribute columns: the interface grouping uses
 * for GROUP BY an expression alias and SUM(price*2)-style aggregates (group-segment.ts reads every key
 * and aggregate argument through `(row) => value`).
 *
 * Numeric expressions the core's formula bytecode can compute run in the core for every row of the
 * segment at once (exprColumn, one call per segment); the reader indexes that column. The others
 * (strings, JSON, dates, bigint arithmetic) are evaluated here per row over the segment's attributes.
 */
import type { AttrValue } from '../../index/types.js';
import type { Segment } from '../../index/segment/segment.js';
import type { Expr } from '../../sql/ast.js';
import type { ColumnType } from '../../schema/types.js';
import type { Table } from '../table.js';
import type { Collation } from '../../util/collation.js';
import { compileExpr, type CompiledExpr } from './compile.js';
import { sortCode } from './sort-code.js';
import { valueText } from './strings.js';
import { exprColumnValues } from '../../index/expr-column.js';

export type SegmentReader = (seg: Segment) => (row: number) => AttrValue;

export interface ExprReader {
  /** The column type the values behave as (integers as bigint: Manticore sums them in 64 bits). */
  type: ColumnType;
  reader: SegmentReader;
  /** The core's formula for it, when the core computes it (grouping then folds it in the core). */
  code?: number[];
}

function hostReader(table: Table, compiled: CompiledExpr): SegmentReader {
  const attrs = table.index.schema.attrs;
  return (seg) => {
    const cols = attrs.map((_, i) => seg.attrReader(i));
    return (row) => {
      const values = new Map<string, AttrValue>(attrs.map((a, i) => [a.name, cols[i]!(row)]));
      const v = compiled.eval({ docId: seg.docId(row), weight: 0, attrs: values });
      if (v === undefined || v === null) return null;
      if (compiled.type === 'json' || compiled.type === 'string') return valueText(v, compiled.type);
      return v as AttrValue;
    };
  };
}

/** `coll`: the statement's collation, which string comparisons inside the expression take (as searchd's). */
export function exprReader(table: Table, e: Expr, aliases: Map<string, Expr>, coll?: Collation): ExprReader {
  const compiled = compileExpr(e, { table, aliases, collation: coll });
  const type: ColumnType = compiled.type === 'float' ? 'float' : compiled.type === 'int' || compiled.type === 'bigint' ? 'bigint'
    : compiled.type === 'mva' ? 'mva' : 'string';
  let code: number[] | undefined;
  if (compiled.type === 'int' || compiled.type === 'float') {
    try { code = sortCode(table, e, aliases); } catch { code = undefined; }
  }
  if (!code) return { type, reader: hostReader(table, compiled) };
  const formula = code;
  const asInt = compiled.type === 'int';
  return {
    type,
    code: formula,
    reader: (seg) => {
      const values = exprColumnValues(seg, formula);
      return asInt ? (row) => BigInt(values[row]!) : (row) => values[row]!;
    },
  };
}
