/** Table and column names: bare words the current grammar allows as names, or backquoted text. */
import type { Cursor } from './cursor.js';
import { DDL_NAME_KEYWORDS, isKeyword, isMainIdent } from './keywords.js';
import type { Token } from './lexer.js';

/** True when token `t` can be a name in the cursor's current grammar. */
export function isName(c: Cursor, t: Token): boolean {
  if (t.kind === 'quoted_ident') return true;
  if (t.kind !== 'ident') return false;
  if (c.dialect === 'P03') return !isKeyword('P03', t.upper) || DDL_NAME_KEYWORDS.has(t.upper);
  if (c.dialect === 'P01') return isMainIdent(t.upper);
  return true;
}

/** Reads a name (column, variable, option); fails with `expecting` otherwise. */
export function parseName(c: Cursor, expecting: string[] = []): string {
  const t = c.peek();
  if (!isName(c, t)) c.fail(expecting);
  c.next();
  return t.value;
}

/**
 * Reads a table name as typed: `t`, `` `t` ``, `Manticore.t` or `` `Manticore`.t `` (the database prefix clients send is
 * dropped) or `cluster:t` (kept whole: the engine reports it has no clusters).
 */
export function parseTableName(c: Cursor, expecting: string[] = []): string {
  const first = c.peek();
  // backquoted too (`` `Manticore`.t ``, as MySQL clients quote it; Buddy's CLT buddy-plugin-select.rec)
  if ((first.kind === 'ident' || first.kind === 'quoted_ident') && first.value.toUpperCase() === 'MANTICORE' && c.isPunct('.', 1)) {
    c.next();
    c.next();
    return parseName(c, expecting);
  }
  const name = parseName(c, expecting);
  if (c.isPunct(':') && isName(c, c.peek(1))) {
    c.next();
    return `${name}:${c.next().value}`;
  }
  return name;
}
