/** Entry point: SphinxQL text in, statements out (`;`-separated, Manticore's multi-statement rules). */
import { SearchError } from '../util/errors.js';
import {
  parseAttach, parseCall, parseFlush, parseFreeze, parseOptimize, parseSavepoint, parseTransaction, parseTruncate,
} from './admin-parser.js';
import type { Statement } from './ast.js';
import { parseBackup } from './backup-parser.js';
import { parseAlterCluster, parseCreateCluster, parseDeleteCluster, parseJoinCluster } from './cluster-parser.js';
import { parseLockTables, parseUnlockTables, recognizeInformationSchema } from './dump-parser.js';
import { parseDebug } from './debug-parser.js';
import { Cursor } from './cursor.js';
import { parseInsertFast } from './insert-fast-path.js';
import { parseAlter, parseCreate, parseDrop, parseImport } from './ddl-parser.js';
import { tokenize, type Token } from './lexer.js';
import { parseSelect } from './select-parser.js';
import { parseSet } from './set-parser.js';
import { parseDescribe, parseShow } from './show-parser.js';
import { parseDelete, parseInsert, parseUpdate } from './write-parser.js';

type StatementParser = (c: Cursor) => Statement;

/** First word -> parser. Words missing here get the second grammar's P02 error, like `SELEKT`. */
const BY_FIRST_WORD: Record<string, StatementParser> = {
  SELECT: parseSelect, INSERT: parseInsert, REPLACE: parseInsert, UPDATE: parseUpdate,
  DELETE: (c) => (c.isKw('CLUSTER', 1) ? parseDeleteCluster(c) : parseDelete(c)),
  SHOW: parseShow, DESC: parseDescribe, DESCRIBE: parseDescribe, SET: parseSet, CALL: parseCall,
  BEGIN: parseTransaction, START: parseTransaction, COMMIT: parseTransaction, ROLLBACK: parseTransaction,
  TRUNCATE: parseTruncate, ATTACH: parseAttach, OPTIMIZE: parseOptimize, FLUSH: parseFlush,
  ALTER: (c) => (c.isKw('CLUSTER', 1) ? parseAlterCluster(c) : parseAlter(c)),
  BACKUP: parseBackup, JOIN: parseJoinCluster, IMPORT: parseImport, FREEZE: parseFreeze, UNFREEZE: parseFreeze,
  LOCK: parseLockTables, UNLOCK: parseUnlockTables, SAVEPOINT: parseSavepoint, RELEASE: parseSavepoint, DEBUG: parseDebug,
  CREATE: (c) => (c.isKw('TABLE', 1) ? parseCreate(c) : c.isKw('CLUSTER', 1) ? parseCreateCluster(c) : failUser(c)),
  DROP: (c) => (c.isKw('TABLE', 1) ? parseDrop(c) : failUser(c)),
};

/** CREATE/DROP of anything but a table: the main grammar only knows CREATE/DROP USER. */
function failUser(c: Cursor): never {
  c.next();
  return c.fail(['USER']);
}

function parseStatement(c: Cursor): Statement {
  c.dialect = 'P01';
  const first = c.peek();
  const parser = first.kind === 'ident' ? BY_FIRST_WORD[first.upper] : undefined;
  if (!parser) {
    // every grammar rejected the first token: Manticore reports the second grammar's error
    c.dialect = first.kind === 'eof' ? 'P01' : 'P02';
    return c.fail();
  }
  return parser(c);
}

/** LOCK / UNLOCK TABLES: searchd reads them with its third ("extra") grammar, tried after the two main ones. */
function isExtraGrammar(t: Token): boolean {
  return t.kind === 'ident' && (t.upper === 'LOCK' || t.upper === 'UNLOCK');
}

/**
 * A statement of the extra grammar, to its end. When that grammar rejects it too, searchd reports the
 * second grammar's error at the first word, quoting the statement without its `;`
 * (`P02: syntax error, unexpected identifier near 'LOCK TABLES t'`), whatever the extra grammar tripped on.
 */
function parseExtraStatement(c: Cursor, start: Token): Statement {
  try {
    const stmt = parseStatement(c);
    if (!c.atEnd() && !c.isPunct(';')) c.fail();
    return stmt;
  } catch (e) {
    if (!(e instanceof SearchError) || e.code !== 'PARSE_ERROR') throw e;
    const text = c.src.slice(start.start).replace(/[\s;]+$/, '');
    throw new SearchError('PARSE_ERROR', `P02: syntax error, unexpected identifier near '${text}'`);
  }
}

/**
 * Statements Manticore lets share a request (its `multi_stmt`): SELECT ... FROM, SHOW, and session SET.
 * Any other statement must be alone (a trailing `;` is fine).
 */
function isMultiStatement(s: Statement): boolean {
  switch (s.kind) {
    case 'select': return s.tables.length > 0;
    case 'show': return s.what !== 'columns' && !s.full;
    case 'set_names': return true;
    case 'set': return s.assignments.every((a) => a.scope !== 'global' && !a.user);
    default: return false;
  }
}

/**
 * Parses one or more `;`-separated statements; a trailing `;` is allowed.
 * Throws SearchError('PARSE_ERROR') with Manticore's message (`P02: syntax error, unexpected identifier
 * near 'SELEKT * FROM t'`); never any other error.
 */
export function parseSql(text: string): Statement[] {
  // a client's usual single-table INSERT is read off the text without tokens (insert-fast-path.ts)
  const insert = parseInsertFast(text);
  return insert ? [insert] : parseStatements(text);
}

/** parseSql by the full grammar alone (what the INSERT fast path is checked against). */
export function parseStatements(text: string): Statement[] {
  if (text.length === 0) throw new SearchError('PARSE_ERROR', 'query was empty');
  const toks = tokenize(text);
  const schemaQuery = recognizeInformationSchema(toks);
  if (schemaQuery) return [{ ...schemaQuery, text }];
  const c = new Cursor(text, toks);
  // a request of comments only is accepted and does nothing, as Manticore's extra grammar has it
  if (toks.length === 1 && text.trim() !== '') return [];
  const out: Statement[] = [];
  for (;;) {
    const start = c.peek();
    const stmt = isExtraGrammar(start) ? parseExtraStatement(c, start) : parseStatement(c);
    stmt.text = c.textFrom(start);
    if (out.length > 0 && !isMultiStatement(stmt)) {
      c.dialect = 'P01';
      c.fail([], start);
    }
    out.push(stmt);
    if (c.atEnd()) return out;
    if (!c.isPunct(';')) c.fail();
    const semi = c.next();
    if (c.atEnd()) return out;
    if (!isMultiStatement(stmt)) c.fail([], semi);
  }
}
