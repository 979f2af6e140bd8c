/** SET statements: variables (session, global, @@system, @user), NAMES, CHARACTER SET, TRANSACTION. */
import type { IdentValue, Literal, SetAssignment, Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import { atNumber, parseNumber, parseTuple } from './literals.js';

const ISOLATION_LEVELS: Record<string, string[]> = {
  READ: ['UNCOMMITTED', 'COMMITTED'], REPEATABLE: ['READ'], SERIALIZABLE: [],
};

/** SET ...; the cursor is at SET. */
export function parseSet(c: Cursor): Statement {
  c.expectKw('SET');
  if (c.acceptKw('NAMES')) {
    const charset = parseWordValue(c);
    const collate = c.acceptKw('COLLATE') ? parseWordValue(c) : undefined;
    return collate === undefined
      ? { kind: 'set_names', text: '', charset }
      : { kind: 'set_names', text: '', charset, collate };
  }
  if (c.isKw('CHARACTER') && c.isKw('SET', 1)) {
    c.next();
    c.next();
    return { kind: 'set_names', text: '', charset: parseWordValue(c) };
  }
  const scopeWord = c.isKw('GLOBAL') || c.isKw('SESSION') ? 1 : 0;
  if (c.isKw('TRANSACTION', scopeWord)) {
    c.pos += scopeWord + 1;
    return { kind: 'set_transaction', text: '', level: parseIsolation(c) };
  }
  const assignments: SetAssignment[] = [];
  do assignments.push(parseAssignment(c)); while (c.acceptPunct(','));
  return { kind: 'set', text: '', assignments };
}

/** ISOLATION LEVEL READ UNCOMMITTED | READ COMMITTED | REPEATABLE READ | SERIALIZABLE -> lower-case words. */
function parseIsolation(c: Cursor): string {
  c.expectKw('ISOLATION');
  c.expectKw('LEVEL');
  const first = c.peek().upper;
  const seconds = ISOLATION_LEVELS[first];
  if (!seconds) c.fail();
  c.next();
  if (seconds.length === 0) return first.toLowerCase();
  const second = c.peek().upper;
  if (!seconds.includes(second)) c.fail(seconds);
  c.next();
  return `${first} ${second}`.toLowerCase();
}

/** `[GLOBAL|SESSION] name = value`, `@@[global.|session.]name = value`, `[GLOBAL] @var = (1,2)`. */
function parseAssignment(c: Cursor): SetAssignment {
  let scope: 'global' | 'session' | undefined;
  // GLOBAL/SESSION are scopes only when a name follows (`SET global=1` would set a variable "global")
  if ((c.isKw('GLOBAL') || c.isKw('SESSION')) && !c.isPunct('=', 1)) scope = c.next().upper === 'GLOBAL' ? 'global' : 'session';
  const t = c.peek();
  const a: SetAssignment = { name: '', value: { kind: 'null' } };
  if (t.kind === 'sysvar') {
    let name = t.value.toLowerCase();
    const dot = name.indexOf('.');
    const prefix = dot > 0 ? name.slice(0, dot) : '';
    if (prefix === 'global' || prefix === 'session') { scope = prefix; name = name.slice(dot + 1); }
    a.name = name;
    a.system = true;
  } else if (t.kind === 'uservar') {
    a.name = t.value.toLowerCase();
    a.user = true;
  } else if (t.kind === 'ident' || t.kind === 'quoted_ident') {
    a.name = t.value.toLowerCase();
  } else {
    c.fail();
  }
  c.next();
  if (scope) a.scope = scope;
  c.expectPunct('=');
  // a list is SET GLOBAL's user variable form only (sphinxql_second.y); searchd's main grammar has no
  // `SET name = (...)`, so without GLOBAL it is a syntax error at the '('
  if (scope !== 'global' && !a.system && c.isPunct('(')) c.fail();
  a.value = parseSetValue(c);
  return a;
}

/** A number, string, NULL, TRUE/FALSE (1/0), `(1,2,3)` or a bare word (`ON`, `utf8`). */
function parseSetValue(c: Cursor): Literal | IdentValue {
  const t = c.peek();
  if (t.kind === 'string') { c.next(); return { kind: 'string', value: t.value }; }
  if (atNumber(c)) return parseNumber(c);
  if (c.isPunct('(')) return parseTuple(c);
  if (t.kind === 'ident' || t.kind === 'quoted_ident') {
    c.next();
    if (t.upper === 'NULL') return { kind: 'null' };
    if (t.upper === 'TRUE' || t.upper === 'FALSE') return { kind: 'int', value: t.upper === 'TRUE' ? 1 : 0, text: t.value };
    return { kind: 'ident', name: t.value };
  }
  return c.fail();
}

/** A charset or collation name: a word, a string or a number, kept as typed (unquoted). */
function parseWordValue(c: Cursor): string {
  const t = c.peek();
  if (t.kind === 'ident' || t.kind === 'quoted_ident' || t.kind === 'string' || t.kind === 'int' || t.kind === 'float') {
    c.next();
    return t.value;
  }
  return c.fail();
}
