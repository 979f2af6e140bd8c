/** WHERE clauses: attribute filters (AND/OR/NOT, comparisons, IN, BETWEEN, IS NULL) and one MATCH(). */
import type { CompareOp, Condition, FilterTarget, Literal } from './ast.js';
import type { Cursor } from './cursor.js';
import { parsePrimary } from './expr-parser.js';
import type { Token } from './lexer.js';
import { atNumber, i64Literal, parseNumber } from './literals.js';

/** MATCH('...') while parsing; lifted out of the tree once the whole clause is read. */
interface MatchNode { kind: 'match'; query: string; at: Token; close: Token }
type Node = Condition | MatchNode | { kind: 'and'; children: Node[] } | { kind: 'or'; children: Node[] } | { kind: 'not'; child: Node };

/** The result of a WHERE clause: the full-text query and the filter tree, either may be absent. */
export interface WhereClause { match?: string; where?: Condition }

/**
 * Parses the condition after WHERE. MATCH() is allowed only in the top-level AND chain, and once, as
 * in Manticore's grammar (`too many MATCH() clauses` otherwise).
 */
export function parseWhere(c: Cursor): WhereClause {
  const root = parseOr(c);
  const chain = root.kind === 'and' ? root.children : [root];
  const matches = chain.filter((n): n is MatchNode => n.kind === 'match');
  const filters = chain.filter((n) => n.kind !== 'match');
  for (const f of filters) {
    const nested = findMatch(f);
    if (nested) c.fail([], nested.at);
  }
  if (matches.length > 1) c.failWith('too many MATCH() clauses', matches[1]!.close);
  const out: WhereClause = {};
  if (matches[0]) out.match = matches[0].query;
  if (filters.length === 1) out.where = filters[0] as Condition;
  else if (filters.length > 1) out.where = { kind: 'and', children: filters as Condition[] };
  return out;
}

function findMatch(n: Node): MatchNode | undefined {
  if (n.kind === 'match') return n;
  if (n.kind === 'and' || n.kind === 'or') {
    for (const ch of n.children) {
      const m = findMatch(ch);
      if (m) return m;
    }
  }
  return n.kind === 'not' ? findMatch(n.child) : undefined;
}

/** Parses a filter condition with no MATCH() allowed (HAVING). */
export function parseCondition(c: Cursor): Condition {
  const root = parseOr(c);
  const m = findMatch(root);
  if (m) c.fail([], m.at);
  return root as Condition;
}

function parseOr(c: Cursor): Node {
  const first = parseAnd(c);
  if (!c.isKw('OR')) return first;
  const children: Node[] = [first];
  while (c.acceptKw('OR')) children.push(parseAnd(c));
  return { kind: 'or', children };
}

function parseAnd(c: Cursor): Node {
  const first = parseNot(c);
  if (!c.isKw('AND')) return first;
  const children: Node[] = first.kind === 'and' ? [...first.children] : [first];
  while (c.acceptKw('AND')) {
    const next = parseNot(c);
    // `(a AND b) AND c` reads as one chain, so a parenthesized MATCH stays at the top level
    if (next.kind === 'and') children.push(...next.children);
    else children.push(next);
  }
  return { kind: 'and', children };
}

function parseNot(c: Cursor): Node {
  if (c.acceptKw('NOT')) return { kind: 'not', child: c.nested(() => parseNot(c)) };
  if (c.isPunct('(')) {
    c.next();
    const inner = c.nested(() => parseOr(c));
    c.expectPunct(')');
    return inner;
  }
  if (c.isKw('MATCH') && c.isPunct('(', 1)) return parseMatch(c);
  return parsePredicate(c);
}

function parseMatch(c: Cursor): MatchNode {
  const at = c.next();
  c.next();
  const q = c.peek();
  if (q.kind !== 'string') c.fail(['string']);
  c.next();
  const close = c.expectPunct(')');
  return { kind: 'match', query: q.value, at, close };
}

const COMPARE_OPS = new Set(['=', '!=', '<', '<=', '>', '>=']);

/**
 * searchd's ANY()/ALL() filter takes a column name only (sphinxql.y mva_aggr: TOK_ANY '(' identcol ')'), so a JSON
 * path there is its syntax error at the path's first step; over a JSON array the documented form is
 * `ANY(cond FOR x IN j.a)` in the select list, and `any(j.a)` a JSON /search filter key.
 */
function refuseJsonPath(c: Cursor): void {
  const step = c.peek(1);
  let name: string;
  if (c.isPunct('[', 1)) name = "'['";
  else if (!c.isPunct('.', 1)) return;
  else {
    const k = c.peek(2);
    name = k.kind === 'int' ? '.number' : k.kind === 'quoted_ident' ? 'BACKTICKED_SUBKEY' : 'SUBKEY';
  }
  c.failWith(`syntax error, unexpected ${name}, expecting ':' or ')'`, step);
}

/**
 * RAND() as a filter or group-by key: searchd's grammar reads RAND there as a column name (a reserved word
 * allowed as an identifier, sphinxql.y expr_ident) and fails at its '('; a RAND() value is filtered or
 * grouped through a select-list alias. Other calls stay quarry's own extension here.
 */
export function refuseRandKey(c: Cursor): void {
  if (c.peek().kind === 'ident' && c.isKw('RAND') && c.isPunct('(', 1)) c.fail([], c.peek(1));
}

function parseTarget(c: Cursor): FilterTarget {
  refuseRandKey(c);
  const t = c.peek();
  if ((t.upper === 'ANY' || t.upper === 'ALL') && c.isPunct('(', 1)) {
    c.next();
    c.next();
    if (c.peek().kind === 'ident') refuseJsonPath(c);
    const expr = parsePrimary(c);
    c.expectPunct(')');
    return { expr, quantifier: t.upper === 'ANY' ? 'any' : 'all' };
  }
  if (atNumber(c)) {
    const startTok = c.peek();
    const value = parseNumber(c);
    return { expr: { kind: 'literal', value, text: c.textFrom(startTok) } };
  }
  return { expr: parsePrimary(c) };
}

/** `REGEX(attr, 're')` alone is a filter (sphinxql.y filter_item: TOK_REGEX '(' json_field ',' string ')'): true when it is 1. */
const isRegexFilter = (target: FilterTarget, next: Token): boolean =>
  target.expr.kind === 'call' && target.expr.name === 'regex' && !target.quantifier &&
  !(next.kind === 'punct' && COMPARE_OPS.has(next.value)) && !['IS', 'NOT', 'IN', 'BETWEEN'].includes(next.upper);

function parsePredicate(c: Cursor): Condition {
  const target = parseTarget(c);
  const t = c.peek();
  if (isRegexFilter(target, t)) return { kind: 'compare', op: '!=', target, value: { kind: 'int', value: 0, text: '0' } };
  if (t.kind === 'punct' && COMPARE_OPS.has(t.value)) {
    c.next();
    const value = parseCompareValue(c);
    // Manticore refuses an out-of-range value for = and != (NumIsSaturated), saturates it for < > (GetValueInt).
    return { kind: 'compare', op: t.value as CompareOp, target, value: i64Literal(value, t.value === '=' || t.value === '!=') };
  }
  if (t.upper === 'IS') {
    c.next();
    const negate = c.acceptKw('NOT');
    c.expectKw('NULL', ['null']);
    return { kind: 'is_null', target, negate };
  }
  const negate = c.acceptKw('NOT');
  if (c.acceptKw('IN')) {
    // searchd's `expr_ident IN ident` (an @name is an identifier there): a SET GLOBAL @name list
    if (c.peek().kind === 'uservar') return { kind: 'in', target, values: [], negate, uservar: `@${c.next().value.toLowerCase()}` };
    // a bare name too: searchd's lexer reads `@x` as an identifier, so `SET GLOBAL x = (...)` / `IN x` is the same form
    if (c.peek().kind === 'ident') return { kind: 'in', target, values: [], negate, uservar: c.next().value.toLowerCase() };
    c.expectPunct('(');
    const values: Literal[] = [];
    do values.push(parseListValue(c)); while (c.acceptPunct(','));
    c.expectPunct(')');
    // Only an id list is checked (CheckDocidConstListItem); other lists saturate like INSERT does.
    const isId = target.expr.kind === 'column' && target.expr.path.length === 0 && ['id', '@id'].includes(target.expr.name.toLowerCase());
    for (let i = 0; i < values.length; i++) values[i] = i64Literal(values[i], isId);
    return { kind: 'in', target, values, negate };
  }
  if (c.acceptKw('BETWEEN')) {
    const low = i64Literal(parseNumber(c), false);
    c.expectKw('AND');
    const high = i64Literal(parseNumber(c), false);
    return { kind: 'between', target, low, high, negate };
  }
  return negate ? c.fail(['IN', 'BETWEEN']) : c.fail();
}

/** Right side of a comparison: signed number, string, TRUE/FALSE (as 1/0). */
function parseCompareValue(c: Cursor): Literal {
  const t = c.peek();
  if (t.kind === 'string') { c.next(); return { kind: 'string', value: t.value }; }
  if (t.upper === 'TRUE' || t.upper === 'FALSE') {
    c.next();
    return { kind: 'int', value: t.upper === 'TRUE' ? 1 : 0, text: t.value };
  }
  return parseNumber(c);
}

function parseListValue(c: Cursor): Literal {
  const t = c.peek();
  if (t.kind === 'string') { c.next(); return { kind: 'string', value: t.value }; }
  return parseNumber(c);
}
