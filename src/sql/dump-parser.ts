/**
 * What mysqldump / mariadb-dump send besides SELECT and SHOW: LOCK TABLES t READ|WRITE [, ...] and
 * UNLOCK TABLES (Manticore's sphinxql_extra.y grammar), and their SELECTs over INFORMATION_SCHEMA
 * (tables, columns, tablespaces), which Manticore answers through Buddy. The INFORMATION_SCHEMA form
 * is recognized, not parsed in full: the selected columns and the `name = 'value'` / `name IN ('a', ...)`
 * conditions are what an answer needs; subqueries and GROUP BY only narrow tablespaces quarry has none of.
 */
import type { InformationSchemaStatement, LockTablesStatement, UnlockTablesStatement } from './ast.js';
import type { Cursor } from './cursor.js';
import type { Token } from './lexer.js';
import { parseTableName } from './table-name.js';

/** LOCK TABLES t READ [LOCAL], t2 WRITE ...; the cursor is at LOCK. */
export function parseLockTables(c: Cursor): LockTablesStatement {
  c.expectKw('LOCK');
  c.expectKw('TABLES', ['TABLES']);
  const stmt: LockTablesStatement = { kind: 'lock_tables', text: '', tables: [], read: [], write: false };
  do {
    const name = parseTableName(c).toLowerCase();
    stmt.tables.push(name);
    if (c.acceptKw('WRITE')) stmt.write = true;
    else {
      c.expectKw('READ', ['READ', 'WRITE']);
      c.acceptKw('LOCAL');
      stmt.read.push(name);
    }
  } while (c.acceptPunct(','));
  return stmt;
}

/** UNLOCK TABLES; the cursor is at UNLOCK. */
export function parseUnlockTables(c: Cursor): UnlockTablesStatement {
  c.expectKw('UNLOCK');
  c.expectKw('TABLES', ['TABLES']);
  return { kind: 'unlock_tables', text: '' };
}

const word = (t: Token): string => (t.kind === 'ident' ? t.upper : t.kind === 'quoted_ident' ? t.value.toUpperCase() : '');

/**
 * `SELECT cols FROM INFORMATION_SCHEMA.NAME [WHERE ...]` (any tail), or undefined when `toks` is not one.
 * Columns are the outer SELECT's items as written (upper-cased, `*` kept); conditions are upper-cased
 * names mapped to the string values compared with them anywhere in the statement.
 */
export function recognizeInformationSchema(toks: Token[]): InformationSchemaStatement | undefined {
  if (word(toks[0]!) !== 'SELECT') return undefined;
  let from = -1;
  let depth = 0;
  for (let i = 1; i < toks.length; i++) {
    const t = toks[i]!;
    if (t.kind === 'punct' && t.value === '(') depth++;
    else if (t.kind === 'punct' && t.value === ')') depth--;
    else if (depth === 0 && word(t) === 'FROM') { from = i; break; }
  }
  if (from < 0 || word(toks[from + 1]!) !== 'INFORMATION_SCHEMA' || toks[from + 2]?.value !== '.') return undefined;
  const table = word(toks[from + 3]!);
  if (!table) return undefined;
  return { kind: 'information_schema', text: '', table, columns: selectedColumns(toks.slice(1, from)), where: conditions(toks.slice(from + 4)) };
}

/** The outer items: `engine, table_type`, `COUNT(*)`, `*`, `t.name` (the last part names the column). */
function selectedColumns(items: Token[]): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  let text = '';
  for (const t of items) {
    if (t.kind === 'punct' && t.value === ',' && depth === 0) {
      out.push(current || text);
      current = text = '';
      continue;
    }
    if (t.kind === 'punct' && t.value === '(') depth++;
    if (t.kind === 'punct' && t.value === ')') depth--;
    text += t.kind === 'punct' ? t.value : t.kind === 'string' ? `'${t.value}'` : t.value;
    if (depth === 0 && (t.kind === 'ident' || t.kind === 'quoted_ident')) current = t.value;
    if (depth > 0 || (t.kind === 'punct' && t.value === ')')) current = '';
  }
  if (current || text) out.push(current || text);
  return out.map((c) => c.toUpperCase());
}

/** `NAME = 'v'` and `NAME IN ('a', 'b')` anywhere in the tail; `DATABASE()` compares as the schema name. */
function conditions(tail: Token[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (name: string, v: string) => out.set(name, [...(out.get(name) ?? []), v]);
  for (let i = 0; i + 2 < tail.length; i++) {
    const name = word(tail[i]!);
    if (!name) continue;
    const op = tail[i + 1]!;
    if (op.kind === 'punct' && op.value === '=') {
      const v = tail[i + 2]!;
      if (v.kind === 'string') add(name, v.value);
      else if (word(v) === 'DATABASE') add(name, 'Manticore');
    } else if (word(op) === 'IN' && tail[i + 2]!.value === '(') {
      for (let j = i + 3; j < tail.length && tail[j]!.kind === 'string'; j += 2) {
        add(name, tail[j]!.value);
        if (tail[j + 1]?.value !== ',') break;
      }
    }
  }
  return out;
}
