/** CALL procedures, TRUNCATE, OPTIMIZE, FLUSH and transaction statements. */
import type {
  AttachStatement, CallArg, CallStatement, FlushStatement, Literal, OptimizeStatement, Statement, TruncateStatement,
} from './ast.js';
import type { Cursor } from './cursor.js';
import { parseValue } from './literals.js';
import { parseOptionClause } from './option-parser.js';
import { parseTableName } from './table-name.js';
import { SearchError } from '../util/errors.js';

/** `('a', 'b')`: a list of documents (CALL SNIPPETS); the cursor is at `(` followed by a string. */
function parseStringList(c: Cursor): CallArg {
  c.next();
  const values: string[] = [];
  do {
    const t = c.peek();
    if (t.kind !== 'string') c.fail(['string']);
    c.next();
    values.push(t.value);
  } while (c.acceptPunct(','));
  c.expectPunct(')');
  return { kind: 'string_list', values };
}

/** True when a CALL value is followed by an option name (`5 AS around`, `5 around`). */
function atOptionName(c: Cursor): boolean {
  if (c.isKw('AS')) return true;
  const t = c.peek();
  return t.kind === 'ident' || t.kind === 'quoted_ident';
}

/**
 * CALL name(arg, ... [, value [AS] option, ...]): positional arguments first, then named options, as
 * sphinxql.y's call_proc. Procedure and option names are lower-cased; values keep their type.
 */
export function parseCall(c: Cursor): CallStatement {
  c.expectKw('CALL');
  const nameTok = c.peek();
  if (nameTok.kind !== 'ident' && nameTok.kind !== 'quoted_ident') c.fail();
  c.next();
  c.expectPunct('(');
  const stmt: CallStatement = { kind: 'call', text: '', name: nameTok.value.toLowerCase(), args: [], options: [] };
  do {
    const isList = c.isPunct('(') && c.peek(1).kind === 'string';
    if (isList && stmt.options.length > 0) c.fail();
    const value: CallArg = isList ? parseStringList(c) : parseValue(c);
    if (value.kind !== 'string_list' && atOptionName(c)) {
      c.acceptKw('AS');
      const opt = c.peek();
      if (opt.kind !== 'ident' && opt.kind !== 'quoted_ident') c.fail();
      c.next();
      stmt.options.push({ name: opt.value.toLowerCase(), value: value as Literal });
    } else {
      // positional arguments cannot follow named options
      if (stmt.options.length > 0) c.fail(['AS'], c.peek());
      stmt.args.push(value);
    }
  } while (c.acceptPunct(','));
  c.expectPunct(')');
  return stmt;
}

/** TRUNCATE TABLE|RTINDEX t [WITH RECONFIGURE] (Manticore's second grammar: errors are P02). */
export function parseTruncate(c: Cursor): TruncateStatement {
  c.dialect = 'P02';
  c.expectKw('TRUNCATE');
  const kindTok = c.peek();
  if (kindTok.upper !== 'TABLE' && kindTok.upper !== 'RTINDEX') c.fail(['rtindex', 'table']);
  c.next();
  const table = parseTableName(c);
  let reconfigure = false;
  if (c.acceptKw('WITH')) {
    c.expectKw('RECONFIGURE');
    reconfigure = true;
  }
  return { kind: 'truncate', text: '', table, rtindex: kindTok.upper === 'RTINDEX', reconfigure };
}

/** ATTACH TABLE|INDEX source TO TABLE|RTINDEX target [WITH TRUNCATE] (Manticore's P02 grammar). */
export function parseAttach(c: Cursor): AttachStatement {
  c.dialect = 'P02';
  c.expectKw('ATTACH');
  if (!c.acceptKw('TABLE') && !c.acceptKw('INDEX')) c.fail(['index', 'table']);
  const source = parseTableName(c);
  c.expectKw('TO');
  if (!c.acceptKw('TABLE') && !c.acceptKw('RTINDEX')) c.fail(['rtindex', 'table']);
  const target = parseTableName(c);
  let truncate = false;
  if (c.acceptKw('WITH')) {
    c.expectKw('TRUNCATE');
    truncate = true;
  }
  return { kind: 'attach', text: '', source, target, truncate };
}

/** OPTIMIZE TABLE|INDEX t [OPTION ...]. */
export function parseOptimize(c: Cursor): OptimizeStatement {
  c.expectKw('OPTIMIZE');
  if (!c.acceptKw('TABLE') && !c.acceptKw('INDEX')) c.fail(['INDEX', 'TABLE']);
  const table = parseTableName(c);
  return { kind: 'optimize', text: '', table, options: parseOptionClause(c) };
}

/** FLUSH RAMCHUNK t, FLUSH RTINDEX|TABLE t, FLUSH ATTRIBUTES|LOGS|HOSTNAMES (P02). */
export function parseFlush(c: Cursor): FlushStatement {
  c.dialect = 'P02';
  c.expectKw('FLUSH');
  const t = c.next();
  switch (t.upper) {
    case 'RAMCHUNK': return { kind: 'flush', text: '', target: 'ramchunk', table: parseTableName(c) };
    case 'RTINDEX':
    case 'TABLE': return { kind: 'flush', text: '', target: 'rtindex', table: parseTableName(c) };
    case 'ATTRIBUTES': return { kind: 'flush', text: '', target: 'attributes' };
    case 'LOGS': return { kind: 'flush', text: '', target: 'logs' };
    case 'HOSTNAMES': return { kind: 'flush', text: '', target: 'hostnames' };
  }
  return c.fail([], t);
}

/** BEGIN, START TRANSACTION, COMMIT, ROLLBACK. */
export function parseTransaction(c: Cursor): Statement {
  const t = c.next();
  if (t.upper === 'START') {
    c.expectKw('TRANSACTION');
    return { kind: 'begin', text: '' };
  }
  if (t.upper === 'BEGIN') return { kind: 'begin', text: '' };
  if (t.upper === 'COMMIT') return { kind: 'commit', text: '' };
  if (c.acceptKw('TO')) {
    c.acceptKw('SAVEPOINT');
    return { kind: 'savepoint', text: '', action: 'rollback', name: savepointName(c) };
  }
  return { kind: 'rollback', text: '' };
}

/** SAVEPOINT sp and RELEASE SAVEPOINT sp (mysqldump --single-transaction); the cursor is at the first word. */
export function parseSavepoint(c: Cursor): Statement {
  if (c.next().upper === 'RELEASE') {
    c.expectKw('SAVEPOINT');
    return { kind: 'savepoint', text: '', action: 'release', name: savepointName(c) };
  }
  return { kind: 'savepoint', text: '', action: 'set', name: savepointName(c) };
}

function savepointName(c: Cursor): string {
  const t = c.peek();
  if (t.kind !== 'ident' && t.kind !== 'quoted_ident') c.fail(['identifier']);
  c.next();
  return t.value.toLowerCase();
}

/**
 * FREEZE t[, ...] [LIKE 'pattern'] / UNFREEZE t[, ...] (searchd's second grammar, P02): searchd stops a
 * table's merges and lists its files so a script can copy them. Quarry's files are its own (a copy of
 * them is not a Manticore table) and BACKUP / `quarry backup` copy a live table consistently without it,
 * so both are parsed and refused by name rather than answered with a syntax error.
 */
export function parseFreeze(c: Cursor): never {
  c.dialect = 'P02';
  const word = c.next().upper;
  do parseTableName(c); while (c.acceptPunct(','));
  if (word === 'FREEZE' && c.acceptKw('LIKE')) {
    if (c.peek().kind !== 'string') c.fail(['string']);
    c.next();
  }
  throw new SearchError('UNSUPPORTED', `${word} is not supported: quarry's tables need no freezing to be copied; use BACKUP or quarry backup`);
}
