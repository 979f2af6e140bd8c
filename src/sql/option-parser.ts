/** `OPTION name=value, ...` clauses of SELECT, UPDATE, DELETE, SHOW, OPTIMIZE and friends. */
import type { NamedValue, OptionValue } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseSimpleValue } from './expr-parser.js';

/** Reads `OPTION a=1, b=(x=1, y=2), ranker=expr('...')` if the cursor is at OPTION; [] otherwise. */
export function parseOptionClause(c: Cursor): NamedValue[] {
  const out: NamedValue[] = [];
  // Manticore accepts several OPTION clauses in a row (`OPTION a=1 OPTION b=2`)
  while (c.acceptKw('OPTION')) {
    do out.push(parseOption(c)); while (c.acceptPunct(','));
  }
  return out;
}

function parseOption(c: Cursor): NamedValue {
  const name = c.peek();
  if (name.kind !== 'ident' && name.kind !== 'quoted_ident') c.fail();
  c.next();
  c.expectPunct('=');
  return { name: name.value.toLowerCase(), value: parseOptionValue(c) };
}

/** A number, string, bare word, `word('string')` or a `(name=value, ...)` list. */
function parseOptionValue(c: Cursor): OptionValue {
  if (c.isPunct('(')) {
    c.next();
    const entries: NamedValue[] = [];
    do {
      const key = c.peek();
      if (key.kind !== 'ident' && key.kind !== 'quoted_ident') c.fail();
      c.next();
      c.expectPunct('=');
      const value = parseSimpleValue(c);
      if (value.kind === 'ident') c.fail(['integer', 'float', 'string'], c.toks[c.pos - 1]);
      entries.push({ name: key.value, value });
    } while (c.acceptPunct(','));
    c.expectPunct(')');
    return { kind: 'list', entries };
  }
  const t = c.peek();
  if ((t.kind === 'ident' || t.kind === 'quoted_ident') && c.isPunct('(', 1)) {
    c.next();
    c.next();
    const arg = c.peek();
    if (arg.kind !== 'string') c.fail(['string']);
    c.next();
    c.expectPunct(')');
    return { kind: 'call', name: t.value.toLowerCase(), arg: arg.value };
  }
  return parseSimpleValue(c);
}
