/** SELECT [items] [FROM t [, t2]] [WHERE] [GROUP BY] [WITHIN GROUP ORDER BY] [HAVING] [ORDER BY] [LIMIT] [OPTION]. */
import type { Expr, FacetClause, OrderItem, SelectItem, SelectStatement } from './ast.js';
import { parseCondition, parseWhere, refuseRandKey } from './condition-parser.js';
import type { Cursor } from './cursor.js';
import { parseExpr, parsePrimary } from './expr-parser.js';
import { isMainIdent } from './keywords.js';
import { parseOptionClause } from './option-parser.js';
import { parseTableName } from './table-name.js';

/**
 * The result column name of an unaliased item, as Manticore's sphColumnToLowercase makes it: the text as
 * typed, lower-cased up to the first `.`, `,` or `[` outside single quotes (`HIGHLIGHT({},'t', 'x')` ->
 * `highlight({},'t', 'x')`, `COUNT(*)` -> `count(*)`, `j.Foo` -> `j.Foo`).
 */
export function selectItemName(text: string): string {
  let cut = 0;
  while (cut < text.length && text[cut] !== '.' && text[cut] !== ',' && text[cut] !== '[') cut++;
  // quoted parts before the cut keep their case
  let out = '';
  let quoted = false;
  for (let j = 0; j < cut; j++) {
    const ch = text[j]!;
    out += quoted ? ch : ch.toLowerCase();
    if (ch === "'") quoted = !quoted;
  }
  return out + text.slice(cut);
}

/** Column name of an unaliased item; count(distinct x) is rebuilt as Manticore's AddDistinct does. */
function itemName(expr: Expr): string {
  if (expr.kind === 'star') return expr.text;
  // a backquoted name is named without its backquotes (the lexer drops them from the token bounds)
  if (expr.kind === 'column' && expr.path.length === 0) return selectItemName(expr.name);
  if (expr.kind === 'call' && expr.distinct && expr.name === 'count' && expr.args.length === 1) {
    return `count(distinct ${selectItemName(expr.args[0]!.text)})`;
  }
  return selectItemName(expr.text);
}

/** Words that end an unaliased select item (so `SELECT a FROM t` is not `a AS from`). */
const ALIAS_STOP = new Set(['FROM', 'WHERE', 'GROUP', 'HAVING', 'WITHIN', 'ORDER', 'LIMIT', 'OPTION', 'FACET']);

/** Words that end an unaliased FACET item (its BY, filter-scope and DISTINCT clauses). */
const FACET_ALIAS_STOP = new Set([...ALIAS_STOP, 'BY', 'ALL', 'FILTERS', 'EXCLUDE', 'ZEROES', 'MODE', 'DISTINCT']);

function parseItem(c: Cursor, stop: Set<string> = ALIAS_STOP): SelectItem {
  const start = c.peek();
  let expr: Expr;
  if (c.isPunct('*')) {
    c.next();
    expr = { kind: 'star', text: '*' };
  } else if ((start.kind === 'ident' || start.kind === 'quoted_ident') && c.isPunct('.', 1) && c.isPunct('*', 2)) {
    c.next(); c.next(); c.next();
    expr = { kind: 'star', table: start.value, text: c.textFrom(start) };
  } else {
    expr = parseExpr(c);
  }
  const item: SelectItem = { expr, name: itemName(expr) };
  if (expr.kind === 'star') return item;
  const explicit = c.acceptKw('AS');
  const a = c.peek();
  // after AS any word searchd's grammar takes as an identifier is the alias (`IF(...) AS option`,
  // Manticore's bugs/3489-fuzzy-option-alias-bug.rec); without AS the clause words end the item
  const aliasOk = a.kind === 'quoted_ident' || (a.kind === 'ident' && isMainIdent(a.upper) && (explicit || !stop.has(a.upper)));
  if (explicit && !aliasOk) c.fail();
  if (aliasOk) {
    c.next();
    // Manticore lower-cases aliases (AliasLastItem)
    item.alias = a.value.toLowerCase();
    item.name = item.alias;
  }
  return item;
}

const isRand = (e: Expr): boolean => e.kind === 'call' && e.name === 'rand' && !e.args.length;

/**
 * `rand`: whether this clause takes ORDER BY RAND(), which sphinxql.y has as a whole clause of its own
 * (statement and FACET ORDER BY): RAND() beside another key, with ASC/DESC or in WITHIN GROUP ORDER BY
 * is a syntax error there, at the token that does not fit.
 */
function parseOrderItems(c: Cursor, rand = false): OrderItem[] {
  const items: OrderItem[] = [];
  do {
    const at = c.peek();
    const expr = parsePrimary(c);
    if (isRand(expr)) {
      if (!rand || items.length) c.fail([], at);
      if (!c.atEnd() && (c.isKw('ASC') || c.isKw('DESC') || c.isPunct(','))) c.fail();
      return [{ expr, direction: 'asc' }];
    }
    let direction: 'asc' | 'desc' = 'asc';
    let implicit = false;
    if (c.acceptKw('DESC')) direction = 'desc';
    else implicit = !c.acceptKw('ASC');
    items.push(implicit ? { expr, direction, implicit } : { expr, direction });
  } while (c.acceptPunct(','));
  return items;
}

/** Non-negative LIMIT/OFFSET numbers, `LIMIT -n` kept negative for the engine's bounds error. */
function parseLimit(c: Cursor, stmt: SelectStatement): void {
  const readInt = (allowNegative: boolean): number => {
    const neg = allowNegative && c.isPunct('-') && c.peek(1).kind === 'int';
    if (neg) c.next();
    const t = c.peek();
    if (t.kind !== 'int') c.fail(allowNegative ? ['integer', "'-'"] : ['integer']);
    c.next();
    return neg ? -Number(t.value) : Number(t.value);
  };
  const first = readInt(true);
  if (first >= 0 && c.acceptPunct(',')) {
    stmt.offset = first;
    stmt.limit = readInt(false);
  } else if (first >= 0 && c.acceptKw('OFFSET')) {
    stmt.limit = first;
    stmt.offset = readInt(false);
  } else {
    stmt.limit = first;
  }
}

/** `FILTERS a, b` / `EXCLUDE FILTERS a` lists, read to be named in the engine's error. */
/** The attribute names of `FILTERS a, b` / `EXCLUDE FILTERS a, b` (as the main query's WHERE names them). */
function filterList(c: Cursor): string[] {
  const names: string[] = [];
  do names.push(parsePrimary(c).text.toLowerCase()); while (c.acceptPunct(','));
  return names;
}

/** One FACET clause; the cursor is at FACET. */
function parseFacet(c: Cursor): FacetClause {
  const start = c.next();
  const facet: FacetClause = { items: [], text: '' };
  do facet.items.push(parseItem(c, FACET_ALIAS_STOP)); while (c.acceptPunct(','));
  if (c.acceptKw('BY')) {
    facet.by = [];
    do facet.by.push(parsePrimary(c)); while (c.acceptPunct(','));
  }
  const scope: string[] = [];
  if (c.isKw('ALL') && c.isKw('FILTERS', 1)) { c.next(); c.next(); scope.push('ALL FILTERS'); facet.filters = { kind: 'all', attrs: [] }; }
  else if (c.acceptKw('FILTERS')) { facet.filters = { kind: 'only', attrs: filterList(c) }; scope.push('FILTERS'); }
  else if (c.isKw('EXCLUDE') && c.isKw('FILTERS', 1)) {
    c.next(); c.next();
    facet.filters = { kind: 'exclude', attrs: filterList(c) };
    scope.push('EXCLUDE FILTERS');
  }
  if (c.acceptKw('ZEROES')) { scope.push('ZEROES'); facet.zeroes = true; }
  if (c.acceptKw('MODE')) {
    const t = c.next();
    const mode = t.value.toLowerCase();
    // Manticore's SetFacetFilterMode
    if (!['strict', 'auto', 'max'].includes(mode)) c.failWith(`unknown FACET mode '${t.value}' (supported: strict, auto, max)`, t);
    facet.mode = mode as FacetClause['mode'];
    scope.push('MODE');
  }
  if (scope.length) facet.scope = scope.join(' ');
  if (c.acceptKw('DISTINCT')) {
    const t = c.peek();
    if (t.kind !== 'ident' && t.kind !== 'quoted_ident') c.fail();
    facet.distinct = c.next().value;
  }
  if (c.acceptKw('ORDER')) {
    c.expectKw('BY');
    facet.orderBy = parseOrderItems(c, true);
    // Manticore's sphParseSortClause: a facet's one sort key without a direction sorts descending
    // (`FACET brand ORDER BY COUNT(*)` lists the biggest buckets first)
    const only = facet.orderBy.length === 1 ? facet.orderBy[0]! : undefined;
    if (only?.implicit) only.direction = 'desc';
  }
  if (c.acceptKw('LIMIT')) {
    const holder = { limit: undefined, offset: undefined } as unknown as SelectStatement;
    parseLimit(c, holder);
    facet.limit = holder.limit;
    facet.offset = holder.offset;
  }
  facet.text = c.textFrom(start);
  return facet;
}

/** Parses a SELECT; the cursor is at SELECT. */
export function parseSelect(c: Cursor): SelectStatement {
  const select = c.expectKw('SELECT');
  const stmt: SelectStatement = { kind: 'select', text: '', items: [], tables: [], options: [] };
  // comments are skipped by the lexer; Manticore reads this one (AddComment): SQL_NO_CACHE asks for every row
  if (/\bSQL_NO_CACHE\b/i.test(c.src.slice(select.end, c.peek().start))) stmt.allRows = true;
  do stmt.items.push(parseItem(c)); while (c.acceptPunct(','));
  if (c.acceptKw('FROM')) {
    do stmt.tables.push(parseTableName(c)); while (c.acceptPunct(','));
    if (stmt.tables.length === 1) {
      const a = c.peek();
      const explicit = c.isKw('AS');
      if (explicit || (a.kind === 'ident' && isMainIdent(a.upper) && !ALIAS_STOP.has(a.upper) && a.upper !== 'WHERE')) {
        if (explicit) c.next();
        stmt.tableAlias = parseTableName(c);
      }
    }
    parseSelectTail(c, stmt);
  } else if (c.acceptKw('LIMIT')) {
    // SELECT without FROM takes only a LIMIT (`select @@version_comment limit 1`)
    parseLimit(c, stmt);
  }
  return stmt;
}

function parseSelectTail(c: Cursor, stmt: SelectStatement): void {
  if (c.acceptKw('WHERE')) Object.assign(stmt, parseWhere(c));
  if (c.isKw('GROUP')) {
    c.next();
    if (c.peek().kind === 'int') stmt.groupLimit = Number(c.next().value);
    c.expectKw('BY');
    stmt.groupBy = [];
    do {
      refuseRandKey(c);
      stmt.groupBy.push(parsePrimary(c));
    } while (c.acceptPunct(','));
  }
  if (c.acceptKw('WITHIN')) {
    c.expectKw('GROUP');
    c.expectKw('ORDER');
    c.expectKw('BY');
    stmt.withinGroupOrderBy = parseOrderItems(c);
    if (!stmt.groupBy) c.failWith('you must specify GROUP BY element in order to use WITHIN GROUP ORDER BY clause');
  }
  if (c.acceptKw('HAVING')) stmt.having = parseCondition(c);
  if (c.acceptKw('ORDER')) {
    c.expectKw('BY');
    stmt.orderBy = parseOrderItems(c, true);
  }
  if (c.acceptKw('LIMIT')) parseLimit(c, stmt);
  stmt.options = parseOptionClause(c);
  while (c.isKw('FACET')) (stmt.facets ??= []).push(parseFacet(c));
}
