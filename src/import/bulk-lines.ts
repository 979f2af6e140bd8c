/**
 * Rows of literals as a `/bulk` body, written as text straight from the values: one
 * `{"insert":{"index":T,"id":N,"doc":{...}}}` line per row, with no JSON object per document and no
 * generic serializer (64-bit integers are written from their bigint text, exact). Null values (empty
 * CSV cells of non-text columns) are left out, so the server gives those columns their defaults.
 */
import type { Literal } from '../engine/values/literal.js';
import type { RowBatch } from './target.js';

function literalJson(l: Literal | string): string {
  if (typeof l === 'string') return JSON.stringify(l); // a bare string is a string literal (RowCell)
  switch (l.t) {
    case 'string': return JSON.stringify(l.v);
    case 'int': return l.v.toString();
    case 'float': return String(l.v);
    case 'bool': return l.v ? 'true' : 'false';
    case 'null': return 'null';
    case 'tuple': return `[${l.v.map(literalJson).join(',')}]`;
    case 'json': return l.v;
  }
}

/** The NDJSON body inserting (or replacing) `batch` into `table`, ending with a newline. */
export function bulkLines(table: string, batch: RowBatch, replace = false): string {
  const head = `{"${replace ? 'replace' : 'insert'}":{"index":${JSON.stringify(table)}`;
  const keys = batch.columns.map((c) => `${JSON.stringify(c)}:`);
  const idAt = batch.columns.findIndex((c) => c.toLowerCase() === 'id');
  const parts: string[] = [];
  for (const row of batch.rows) {
    let line = head;
    const id = idAt >= 0 ? row[idAt] : undefined;
    if (id !== undefined && (typeof id === 'string' || id.t !== 'null')) line += `,"id":${literalJson(id)}`;
    line += ',"doc":{';
    let first = true;
    for (let i = 0; i < row.length; i++) {
      const v = row[i]!;
      if (i === idAt || (typeof v !== 'string' && v.t === 'null')) continue;
      line += first ? keys[i] + literalJson(v) : `,${keys[i]}${literalJson(v)}`;
      first = false;
    }
    parts.push(`${line}}}}`);
  }
  parts.push('');
  return parts.join('\n');
}
