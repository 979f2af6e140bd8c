/**
 * BACKUP [{TABLE | TABLES} a[, b]] TO path [{OPTION | OPTIONS} async = v[, compress = v]], the
 * statement Manticore's manual documents (served there by Buddy). The path is a quoted string or a
 * bare path without spaces (`/tmp/backup`), as the manual allows.
 */
import type { BackupStatement, NamedValue } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseValue } from './literals.js';
import { parseTableName } from './table-name.js';

export function parseBackup(c: Cursor): BackupStatement {
  c.dialect = 'P02';
  c.expectKw('BACKUP');
  const tables: string[] = [];
  if (c.acceptKw('TABLE') || c.acceptKw('TABLES')) {
    do tables.push(parseTableName(c).toLowerCase()); while (c.acceptPunct(','));
  }
  c.expectKw('TO');
  const path = parsePath(c);
  const options: NamedValue[] = [];
  if (c.acceptKw('OPTION') || c.acceptKw('OPTIONS')) {
    do {
      const name = c.peek();
      if (name.kind !== 'ident') c.fail(['identifier']);
      c.next();
      c.expectPunct('=');
      const v = c.peek();
      // on/off/yes/no are bare words; numbers and strings are literals
      if (v.kind === 'ident') {
        c.next();
        options.push({ name: name.value.toLowerCase(), value: { kind: 'ident', name: v.value } });
      } else {
        options.push({ name: name.value.toLowerCase(), value: parseValue(c) });
      }
    } while (c.acceptPunct(','));
  }
  return { kind: 'backup', text: '', tables, path, options };
}

/** `'/path with spaces'` or the raw text of the tokens up to OPTION(S), `;` or the end. */
function parsePath(c: Cursor): string {
  const first = c.peek();
  if (first.kind === 'string') {
    c.next();
    return first.value;
  }
  let last: typeof first | undefined;
  while (!c.atEnd() && !c.isKw('OPTION') && !c.isKw('OPTIONS') && !c.isPunct(';')) {
    last = c.next();
    // a bare path has no spaces: it ends where the next token does not touch this one
    if (c.peek().start !== last.end) break;
  }
  if (!last) c.fail(['path']);
  return c.src.slice(first.start, last.end);
}
