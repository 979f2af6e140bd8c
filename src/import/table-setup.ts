/**
 * The table an import creates when it is missing: the auto-schema rules (engine/auto-schema.ts, as an
 * INSERT into a missing table would apply them) over the first batch's documents or rows.
 */
import { inferSchema } from '../engine/auto-schema.js';
import { docLiteral } from '../engine/json/json-value.js';
import { showCreateTable } from '../engine/schema-text.js';
import type { Literal } from '../engine/values/literal.js';
import type { RowCell } from '../engine/row-load.js';
import type { ImportDoc } from './target.js';

/** Columns of the documents in order of first appearance. */
function columnNames(docs: ImportDoc[]): string[] {
  const seen = new Map<string, string>();
  for (const d of docs) for (const k of Object.keys(d.doc)) if (!seen.has(k.toLowerCase())) seen.set(k.toLowerCase(), k);
  return [...seen.values()];
}

/** The CREATE TABLE statement auto schema gives for `docs`. */
export function autoSchemaStatement(table: string, docs: ImportDoc[]): string {
  const columns = columnNames(docs);
  const rows = docs.map((d) => {
    const byLower = new Map(Object.entries(d.doc).map(([k, v]) => [k.toLowerCase(), v]));
    return columns.map((c) => {
      const v = byLower.get(c.toLowerCase());
      return v === undefined ? { t: 'null' as const } : docLiteral(v);
    });
  });
  return autoSchemaOfRows(table, columns, rows);
}

/** The CREATE TABLE statement auto schema gives for rows of literals under `columns` (`id` left out). */
export function autoSchemaOfRows(table: string, columns: string[], rows: RowCell[][]): string {
  const keep = columns.map((c, i) => [c, i] as const).filter(([c]) => c.toLowerCase() !== 'id');
  const names = keep.map(([c]) => c.toLowerCase());
  const literal = (c: RowCell): Literal => (typeof c === 'string' ? { t: 'string', v: c } : c);
  return showCreateTable(inferSchema(table, names, rows.map((r) => keep.map(([, i]) => literal(r[i]!)))));
}
