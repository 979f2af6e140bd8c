/** SHOW ... and DESC/DESCRIBE: the statements clients probe a server with. */
import type { DescribeStatement, ShowStatement, ShowWhat } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseString } from './literals.js';
import { parseOptionClause } from './option-parser.js';
import { parseTableName } from './table-name.js';

/** SHOW words that take nothing but an optional LIKE. */
const SIMPLE: Record<string, ShowWhat> = {
  WARNINGS: 'warnings', STATUS: 'status', META: 'meta', PROFILE: 'profile', PLAN: 'plan', PLUGINS: 'plugins',
  THREADS: 'threads', PROCESSLIST: 'processlist', COLLATION: 'collation', TABLES: 'tables', DATABASES: 'databases', SETTINGS: 'settings',
  TRIGGERS: 'triggers', VERSION: 'version', LOCKS: 'locks',
};

function parseLike(c: Cursor): string | undefined {
  return c.acceptKw('LIKE') ? parseString(c).value : undefined;
}

/** Builds the statement, adding `like` and the trailing OPTION clause. */
function finish(c: Cursor, what: ShowWhat, extra: Partial<ShowStatement> = {}, withLike = true): ShowStatement {
  const stmt: ShowStatement = { kind: 'show', text: '', what, ...extra, options: [] };
  const like = withLike ? parseLike(c) : undefined;
  if (like !== undefined) stmt.like = like;
  stmt.options = parseOptionClause(c);
  return stmt;
}

/** SHOW ...; the cursor is at SHOW. */
export function parseShow(c: Cursor): ShowStatement {
  c.expectKw('SHOW');
  const t = c.peek();
  const simple = SIMPLE[t.upper];
  if (simple && t.kind === 'ident') {
    c.next();
    return finish(c, simple, {}, simple !== 'warnings' && simple !== 'profile' && simple !== 'plan' && simple !== 'locks');
  }
  switch (t.upper) {
    case 'FULL':
      // MySQL clients ask for SHOW FULL TABLES and SHOW FULL PROCESSLIST (MySQL Workbench, DBeaver,
      // mysqladmin -v processlist); Manticore answers them through Buddy
      c.next();
      if (c.peek().upper === 'PROCESSLIST' && c.peek().kind === 'ident') {
        c.next();
        return finish(c, 'processlist', { full: true });
      }
      c.expectKw('TABLES');
      return finish(c, 'tables', { full: true });
    case 'GLOBAL':
    case 'SESSION':
      c.next();
      c.expectKw('VARIABLES', ['VARIABLES']);
      return finish(c, 'variables', { scope: t.upper === 'GLOBAL' ? 'global' : 'session' });
    case 'VARIABLES':
      c.next();
      return finish(c, 'variables');
    case 'CHARACTER':
      c.next();
      c.expectKw('SET');
      return finish(c, 'character_set', {}, false);
    case 'CREATE':
      c.next();
      c.expectKw('TABLE');
      return finish(c, 'create_table', { table: parseTableName(c) }, false);
    case 'FIELDS':
    case 'COLUMNS':
      c.next();
      c.expectKw('FROM');
      return finish(c, 'columns', { table: parseTableName(c) });
    case 'TABLE':
    case 'INDEX':
      c.next();
      return parseShowTable(c);
    case 'AGENT':
      c.next();
      return parseShowAgent(c);
  }
  return c.fail(['VARIABLES']);
}

/** SHOW TABLE STATUS [LIKE], SHOW TABLE t STATUS [LIKE], SHOW TABLE t SETTINGS, SHOW TABLE t INDEXES [LIKE]. */
function parseShowTable(c: Cursor): ShowStatement {
  if (c.isKw('STATUS') && !c.isKw('STATUS', 1) && !c.isKw('SETTINGS', 1)) {
    c.next();
    return finish(c, 'table_status');
  }
  const table = parseTableName(c);
  if (c.acceptKw('SETTINGS')) return finish(c, 'table_settings', { table }, false);
  if (c.acceptKw('INDEXES')) return finish(c, 'table_indexes', { table });
  // bison lists the three tokens index_or_table one_index_opt_chunk shifts, in their %token order (sphinxql.y)
  c.expectKw('STATUS', ['INDEXES', 'SETTINGS', 'STATUS']);
  return finish(c, 'table_status', { table });
}

/** DESC|DESCRIBE t [TABLE] [LIKE 'pattern'] [OPTION ...]; the cursor is at DESC/DESCRIBE. */
export function parseDescribe(c: Cursor): DescribeStatement {
  c.next();
  const table = parseTableName(c);
  c.acceptKw('TABLE');
  const stmt: DescribeStatement = { kind: 'describe', text: '', table, options: [] };
  const like = parseLike(c);
  if (like !== undefined) stmt.like = like;
  stmt.options = parseOptionClause(c);
  return stmt;
}

/** SHOW AGENT STATUS, SHOW AGENT 'host:port' STATUS, SHOW AGENT dist_table STATUS [LIKE]. */
function parseShowAgent(c: Cursor): ShowStatement {
  if (c.isKw('STATUS') && !c.isKw('STATUS', 1)) {
    c.next();
    return finish(c, 'agent_status');
  }
  const table = c.peek().kind === 'string' ? parseString(c).value : parseTableName(c);
  c.expectKw('STATUS', ['STATUS']);
  return finish(c, 'agent_status', { table });
}
