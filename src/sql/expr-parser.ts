/** Expressions of select lists and function arguments, with Manticore's operator precedence. */
import type { BinaryOp, CallExpr, Expr, NamedValue, OptionValue, PathStep } from './ast.js';
import type { Cursor } from './cursor.js';
import { isMainIdent } from './keywords.js';
import type { Token } from './lexer.js';
import { makeFloat, makeInt, parseNumber } from './literals.js';

/**
 * Binary operator levels, loosest first, as in sphinxql.y: OR < AND < | < & < (= !=) < (< > <= >=)
 * < (+ -) < (* / % DIV MOD). Prefix NOT and unary minus bind tighter than all of them.
 */
const LEVELS: ReadonlyArray<ReadonlyArray<BinaryOp>> = [
  ['or'], ['and'], ['|'], ['&'], ['=', '!='], ['<', '>', '<=', '>='], ['+', '-'], ['*', '/', '%', 'div', 'mod'],
];

/**
 * BETWEEN takes a whole arithmetic operand, as in MySQL and sphinxexpr.y (`x+1 BETWEEN 1 AND 5` is
 * `(x+1) BETWEEN 1 AND 5`): it is read where the relational level (`<` ...) reads its left operand.
 */
const BETWEEN_LEVEL = 5;

/** Words that look like calls before `(` but are operators or clause words. */
const NOT_A_FUNCTION = new Set(['NOT', 'AND', 'OR', 'DIV', 'MOD', 'IS', 'AS', 'FROM', 'BY', 'SELECT', 'WHERE']);

/** Parses one expression (the loosest level, OR). */
export function parseExpr(c: Cursor): Expr {
  return parseLevel(c, 0);
}

function binaryOpAt(c: Cursor): BinaryOp | undefined {
  const t = c.peek();
  if (t.kind === 'punct') {
    const v = t.value;
    return v === '+' || v === '-' || v === '*' || v === '/' || v === '%' || v === '=' || v === '!=' || v === '<' ||
      v === '>' || v === '<=' || v === '>=' || v === '&' || v === '|' ? v : undefined;
  }
  const u = t.upper;
  return u === 'AND' ? 'and' : u === 'OR' ? 'or' : u === 'DIV' ? 'div' : u === 'MOD' ? 'mod' : undefined;
}

function parseLevel(c: Cursor, level: number): Expr {
  if (level >= LEVELS.length) return parseUnary(c);
  const startTok = c.peek();
  let left = parseLevel(c, level + 1);
  if (level === BETWEEN_LEVEL) left = parseBetween(c, left, startTok);
  for (;;) {
    const op = binaryOpAt(c);
    if (op === undefined || !LEVELS[level]!.includes(op)) return left;
    c.next();
    const right = parseLevel(c, level + 1);
    left = { kind: 'binary', op, left, right, text: c.textFrom(startTok) };
  }
}

/** `x [NOT] BETWEEN lo AND hi` after an operand: the bounds bind tighter than AND; NOT BETWEEN is NOT over it. */
function parseBetween(c: Cursor, expr: Expr, startTok: Token): Expr {
  if (!c.isKw('BETWEEN') && !(c.isKw('NOT') && c.isKw('BETWEEN', 1))) return expr;
  const negate = c.acceptKw('NOT');
  c.next();
  const low = c.nested(() => parseLevel(c, 2));
  c.expectKw('AND');
  const high = c.nested(() => parseLevel(c, 2));
  const between: Expr = { kind: 'call', name: 'between', args: [expr, low, high], text: c.textFrom(startTok) };
  return negate ? { kind: 'unary', op: 'not', operand: between, text: between.text } : between;
}

function parseUnary(c: Cursor): Expr {
  const startTok = c.peek();
  if (c.isPunct('-')) {
    const k = c.peek(1).kind;
    if (k === 'int' || k === 'float') {
      const value = parseNumber(c);
      return { kind: 'literal', value, text: c.textFrom(startTok) };
    }
    c.next();
    const operand = c.nested(() => parseUnary(c));
    return { kind: 'unary', op: '-', operand, text: c.textFrom(startTok) };
  }
  if (c.acceptKw('NOT')) {
    const operand = c.nested(() => parseUnary(c));
    return { kind: 'unary', op: 'not', operand, text: c.textFrom(startTok) };
  }
  return parsePostfix(c, parsePrimary(c), startTok);
}

/** `x IS [NOT] NULL` and `x IN (a, b)` (a call `in(x, a, b)`, as Manticore's expression parser has it). */
function parsePostfix(c: Cursor, expr: Expr, startTok: Token): Expr {
  if (c.isKw('IS')) {
    c.next();
    const negate = c.acceptKw('NOT');
    c.expectKw('NULL');
    return { kind: 'is_null', operand: expr, negate, text: c.textFrom(startTok) };
  }
  if (c.isKw('IN') && c.isPunct('(', 1) && expr.kind === 'column') {
    c.next();
    c.next();
    const args = parseArgList(c);
    return { kind: 'call', name: 'in', args: [expr, ...args], text: c.textFrom(startTok) };
  }
  return expr;
}

/** One operand without operators: literal, column/JSON path, call, variable, `( expr )` or `{map}`. */
export function parsePrimary(c: Cursor): Expr {
  const t = c.peek();
  switch (t.kind) {
    case 'int': c.next(); return { kind: 'literal', value: makeInt(t.value, false), text: t.value };
    case 'float': c.next(); return { kind: 'literal', value: makeFloat(t.value, false), text: t.value };
    case 'string': c.next(); return { kind: 'literal', value: { kind: 'string', value: t.value }, text: c.textFrom(t) };
    case 'sysvar':
    case 'uservar':
      c.next();
      return { kind: 'variable', name: t.value, system: t.kind === 'sysvar', text: c.textFrom(t) };
    case 'ident':
    case 'quoted_ident':
      return parseNamed(c, t);
    case 'punct':
      if (t.value === '(') {
        c.next();
        const inner = c.nested(() => parseExpr(c));
        c.expectPunct(')');
        return { ...inner, text: c.textFrom(t) };
      }
      if (t.value === '{') return parseMap(c);
      break;
  }
  return c.fail();
}

/** A word: literal keyword, function call, or column with an optional JSON path. */
function parseNamed(c: Cursor, t: Token): Expr {
  if (t.kind === 'ident') {
    if (t.upper === 'NULL') { c.next(); return { kind: 'literal', value: { kind: 'null' }, text: t.value }; }
    if (t.upper === 'TRUE' || t.upper === 'FALSE') {
      c.next();
      return { kind: 'literal', value: { kind: 'int', value: t.upper === 'TRUE' ? 1 : 0, text: t.value }, text: t.value };
    }
    if (c.isPunct('(', 1) && !NOT_A_FUNCTION.has(t.upper)) return parseCall(c, t);
    if (!isMainIdent(t.upper)) c.fail();
  } else if (c.isPunct('(', 1)) {
    return parseCall(c, t);
  }
  c.next();
  const path = parsePath(c);
  return { kind: 'column', name: t.value, path, text: c.textFrom(t) };
}

/** `.key`, `` .`key` ``, `[3]`, `['key']` steps after a column name. */
export function parsePath(c: Cursor): PathStep[] {
  const path: PathStep[] = [];
  for (;;) {
    if (c.isPunct('.')) {
      const k = c.peek(1);
      if (k.kind === 'ident' || k.kind === 'quoted_ident') { c.next(); c.next(); path.push(k.value); continue; }
      if (k.kind === 'int') { c.next(); c.next(); path.push(Number(k.value)); continue; }
      return path;
    }
    if (!c.isPunct('[')) return path;
    c.next();
    const k = c.peek();
    if (k.kind === 'string') path.push(k.value);
    else if (k.kind === 'int') path.push(Number(k.value));
    else c.fail(['integer', 'string']);
    c.next();
    c.expectPunct(']');
  }
}

/** `name(args)`; `count(*)`, `count(distinct x)` included. Name lower-cased. */
function parseCall(c: Cursor, nameTok: Token): Expr {
  c.next();
  c.expectPunct('(');
  const distinct = c.acceptKw('DISTINCT');
  if ((nameTok.upper === 'ANY' || nameTok.upper === 'ALL') && !c.isPunct(')')) {
    const loop = parseLoop(c, nameTok);
    if (loop) return loop;
  }
  if (nameTok.upper === 'GROUP_CONCAT' && !distinct) return parseGroupConcat(c, nameTok);
  const args = c.nested(() => parseArgList(c));
  const expr: Expr = { kind: 'call', name: nameTok.value.toLowerCase(), args, text: c.textFrom(nameTok) };
  if (distinct) expr.distinct = true;
  return expr;
}

/**
 * After `GROUP_CONCAT(`: `x )`, `x SEPARATOR 's' )` or `x ORDER BY k [ASC|DESC], ... [SEPARATOR 's'] LIMIT n )`
 * (Manticore's sphinxql.y: SEPARATOR before LIMIT; the ordered form needs its LIMIT).
 */
function parseGroupConcat(c: Cursor, nameTok: Token): Expr {
  const value = c.nested(() => parseExpr(c));
  const concat: NonNullable<CallExpr['concat']> = {};
  if (c.acceptKw('ORDER')) {
    c.expectKw('BY');
    concat.order = [];
    do {
      const expr = parseExpr(c);
      const desc = c.acceptKw('DESC');
      if (!desc) c.acceptKw('ASC');
      concat.order.push({ expr, desc });
    } while (c.acceptPunct(','));
  }
  if (c.acceptKw('SEPARATOR')) {
    const t = c.peek();
    if (t.kind !== 'string') c.fail(['string']);
    concat.separator = c.next().value;
  }
  if (concat.order) {
    c.expectKw('LIMIT');
    const t = c.peek();
    if (t.kind !== 'int') c.fail(['integer']);
    const n = Number(c.next().value);
    if (n > 2147483647) c.failWith('GROUP_CONCAT LIMIT is out of range [0..2147483647]');
    concat.limit = n;
  }
  c.expectPunct(')');
  const expr: Expr = { kind: 'call', name: 'group_concat', args: [value], text: c.textFrom(nameTok) };
  if (concat.order || concat.separator !== undefined) expr.concat = concat;
  return expr;
}

/** `cond FOR x IN array )` after `ANY(` / `ALL(`; undefined (nothing consumed) for a plain `ANY(mva)`. */
function parseLoop(c: Cursor, nameTok: Token): Expr | undefined {
  const mark = c.pos;
  const cond = c.nested(() => parseExpr(c));
  if (!c.acceptKw('FOR')) { c.pos = mark; return undefined; }
  const v = c.peek();
  if (v.kind !== 'ident') c.fail(['identifier']);
  c.next();
  c.expectKw('IN');
  const source = parsePrimary(c);
  c.expectPunct(')');
  return { kind: 'call', name: nameTok.value.toLowerCase(), args: [cond, source], loopVar: v.value.toLowerCase(), text: c.textFrom(nameTok) };
}

/** `[arg {, arg}] )` after the `(`; an argument may be `*` (count(*)). */
function parseArgList(c: Cursor): Expr[] {
  const args: Expr[] = [];
  if (c.acceptPunct(')')) return args;
  do {
    if (c.isPunct('*') && (c.isPunct(')', 1) || c.isPunct(',', 1))) {
      c.next();
      args.push({ kind: 'star', text: '*' });
    } else {
      args.push(parseExpr(c));
    }
  } while (c.acceptPunct(','));
  c.expectPunct(')');
  return args;
}

/** `{key=value, ...}`: HIGHLIGHT()'s option map; values are numbers, strings or bare words. */
function parseMap(c: Cursor): Expr {
  const open = c.next();
  const entries: NamedValue[] = [];
  if (!c.isPunct('}')) {
    do {
      const key = c.peek();
      if (key.kind !== 'ident' && key.kind !== 'quoted_ident') c.fail();
      c.next();
      c.expectPunct('=');
      entries.push({ name: key.value.toLowerCase(), value: parseSimpleValue(c) });
    } while (c.acceptPunct(','));
  }
  c.expectPunct('}');
  return { kind: 'map', entries, text: c.textFrom(open) };
}

/** A number, a string or a bare word (kept as typed). */
export function parseSimpleValue(c: Cursor): OptionValue {
  const t = c.peek();
  if (t.kind === 'string') { c.next(); return { kind: 'string', value: t.value }; }
  if (t.kind === 'ident' || t.kind === 'quoted_ident') { c.next(); return { kind: 'ident', name: t.value }; }
  return parseNumber(c);
}
