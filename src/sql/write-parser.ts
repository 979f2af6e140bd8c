/** INSERT / REPLACE, UPDATE and DELETE. */
import type { Assignment, DeleteStatement, InsertStatement, Literal, UpdateStatement } from './ast.js';
import { parseWhere } from './condition-parser.js';
import type { Cursor } from './cursor.js';
import { parsePath } from './expr-parser.js';
import { parseValue } from './literals.js';
import { parseOptionClause } from './option-parser.js';
import { parseName, parseTableName } from './table-name.js';

/** INSERT|REPLACE INTO t [(col, ...)] VALUES (v, ...), ... [OPTION ...]; the cursor is at the verb. */
export function parseInsert(c: Cursor): InsertStatement {
  const replace = c.next().upper === 'REPLACE';
  c.expectKw('INTO');
  const table = parseTableName(c);
  const stmt: InsertStatement = { kind: 'insert', text: '', replace, table, rows: [], options: [] };
  if (c.acceptPunct('(')) {
    const columns: string[] = [];
    do columns.push(parseName(c)); while (c.acceptPunct(','));
    c.expectPunct(')');
    stmt.columns = columns;
  }
  if (replace && !stmt.columns && c.isKw('SET') && partialReplace(c, stmt)) return stmt;
  c.expectKw('VALUES');
  // without a column list the first row sets the width, as Manticore's CheckInsertIntegrity does
  let width = stmt.columns?.length ?? -1;
  do {
    c.expectPunct('(');
    const row: Literal[] = [];
    do row.push(parseValue(c)); while (c.acceptPunct(','));
    const close = c.expectPunct(')');
    if (width < 0) width = row.length;
    if (row.length !== width) c.failWith('wrong number of values here', close);
    stmt.rows.push(row);
  } while (c.acceptPunct(','));
  stmt.options = parseOptionClause(c);
  return stmt;
}

/**
 * REPLACE INTO t SET col=value [, ...] WHERE id = N: fills `stmt` and returns true. Buddy's partial-replace
 * plugin takes exactly this shape (its WHERE only `id = <number>`, literal values); any other leaves the
 * cursor at SET and returns false, so searchd's own error follows ("unexpected SET, expecting VALUES").
 */
function partialReplace(c: Cursor, stmt: InsertStatement): boolean {
  const start = c.pos;
  try {
    c.expectKw('SET');
    const columns: string[] = [];
    const row: Literal[] = [];
    do {
      columns.push(parseName(c));
      c.expectPunct('=');
      row.push(parseValue(c));
    } while (c.acceptPunct(','));
    c.expectKw('WHERE');
    if (!c.isKw('ID') || !c.isPunct('=', 1) || c.peek(2).kind !== 'int') throw new Error('not id = N');
    c.pos += 2;
    const id = BigInt(c.next().value);
    if (!c.atEnd() && !c.isPunct(';')) throw new Error('more after id = N');
    Object.assign(stmt, { columns, rows: [row], partialId: id });
    return true;
  } catch {
    c.pos = start;
    return false;
  }
}

/** UPDATE t SET col=value [, ...] WHERE cond [OPTION ...]. */
export function parseUpdate(c: Cursor): UpdateStatement {
  c.expectKw('UPDATE');
  const table = parseTableName(c);
  c.expectKw('SET');
  const assignments: Assignment[] = [];
  do {
    const column = parseName(c);
    const path = parsePath(c);
    c.expectPunct('=');
    assignments.push({ column, path, value: parseValue(c) });
  } while (c.acceptPunct(','));
  c.expectKw('WHERE');
  const stmt: UpdateStatement = { kind: 'update', text: '', table, assignments, options: [], ...parseWhere(c) };
  stmt.options = parseOptionClause(c);
  return stmt;
}

/** DELETE FROM t WHERE cond [OPTION ...]. */
export function parseDelete(c: Cursor): DeleteStatement {
  c.expectKw('DELETE');
  c.expectKw('FROM');
  const table = parseTableName(c);
  c.expectKw('WHERE');
  const stmt: DeleteStatement = { kind: 'delete', text: '', table, options: [], ...parseWhere(c) };
  stmt.options = parseOptionClause(c);
  return stmt;
}
