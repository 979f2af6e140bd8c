/** DDL: CREATE TABLE [LIKE], DROP TABLE, ALTER TABLE (Manticore's ddl.y, errors prefixed P03). */
import type {
  AlterTableStatement, ColumnDef, CreateTableLikeStatement, CreateTableStatement, DropTableStatement, Statement,
} from './ast.js';
import { parseColumnDef } from './column-def.js';
import type { Cursor } from './cursor.js';
import { parseOptionClause } from './option-parser.js';
import { parseName, parseTableName } from './table-name.js';
import { SearchError } from '../util/errors.js';

/** CREATE TABLE ...; the cursor is at CREATE. */
export function parseCreate(c: Cursor): Statement {
  c.dialect = 'P03';
  c.expectKw('CREATE');
  c.expectKw('TABLE');
  let ifNotExists = false;
  if (c.acceptKw('IF')) {
    c.expectKw('NOT');
    c.expectKw('EXISTS');
    ifNotExists = true;
  }
  const table = parseTableName(c);
  if (c.acceptKw('LIKE')) return parseLikeTail(c, table, ifNotExists);
  const columns: ColumnDef[] = [];
  if (c.acceptPunct('(')) {
    do {
      const col = parseColumnDef(c, true);
      if (col) columns.push(col);
    } while (c.acceptPunct(','));
    c.expectPunct(')');
  }
  const allSettings: Record<string, string[]> = {};
  const stmt: CreateTableStatement = {
    kind: 'create_table', text: '', table, ifNotExists, columns, settings: parseSettings(c, allSettings), allSettings,
  };
  return stmt;
}

/**
 * `... LIKE other [WITH DATA]`. WITH DATA is Buddy's extension: anything else after the source table
 * gets the daemon's error, reported at WITH (`unexpected tablename, expecting $end near 'WITH DATA x'`).
 */
function parseLikeTail(c: Cursor, table: string, ifNotExists: boolean): CreateTableLikeStatement {
  const like = parseTableName(c);
  let withData = false;
  if (c.isKw('WITH')) {
    const end = c.peek(2);
    const clean = end.kind === 'eof' || (end.kind === 'punct' && end.value === ';');
    if (!c.isKw('DATA', 1) || !clean) c.fail(['$end']);
    c.next();
    c.next();
    withData = true;
  }
  return { kind: 'create_table_like', text: '', table, like, ifNotExists, withData };
}

/**
 * Settings whose later value replaces an earlier one when repeated: Manticore's AddOption resets
 * their file lists (stopwords, exceptions, hitless_words) or re-splits them (wordforms: the manual
 * says the files add up, but the source assigns, and test_403's recorded run creates a table from
 * `wordforms='wrong.file' wordforms='wordforms.txt'` without an error).
 */
export const REPLACING_SETTINGS: ReadonlySet<string> = new Set([
  'stopwords', 'stopwords_list', 'exceptions', 'exceptions_list', 'wordforms', 'wordforms_list',
  'hitless_words', 'hitless_words_list', 'jieba_user_dict_path',
]);

/**
 * `name='value' name2=3 ...` after a column list or in ALTER TABLE; names lower-cased. A repeated
 * setting keeps its first value (Manticore chains it in the table's config section and reads the
 * head), except REPLACING_SETTINGS, where the last one wins.
 */
export function parseSettings(c: Cursor, all?: Record<string, string[]>): Record<string, string> {
  const settings: Record<string, string> = {};
  for (;;) {
    const t = c.peek();
    if ((t.kind !== 'ident' && t.kind !== 'quoted_ident') || !c.isPunct('=', 1)) return settings;
    c.next();
    c.next();
    const negative = c.isPunct('-');
    if (negative) c.next();
    const v = c.peek();
    const numeric = v.kind === 'int' || v.kind === 'float';
    if (!(numeric || (v.kind === 'string' && !negative))) c.fail(['string']);
    c.next();
    const value = negative ? `-${v.value}` : v.value;
    const name = t.value.toLowerCase();
    if (!Object.hasOwn(settings, name) || REPLACING_SETTINGS.has(name)) settings[name] = value;
    if (all) {
      if (!Object.hasOwn(all, name)) all[name] = [];
      all[name]!.push(value);
    }
  }
}

/** DROP TABLE [IF EXISTS] t [OPTION ...]. */
export function parseDrop(c: Cursor): DropTableStatement {
  c.dialect = 'P03';
  c.expectKw('DROP');
  c.expectKw('TABLE');
  let ifExists = false;
  if (c.acceptKw('IF')) {
    c.expectKw('EXISTS');
    ifExists = true;
  }
  const table = parseTableName(c);
  return { kind: 'drop_table', text: '', table, ifExists, options: parseOptionClause(c) };
}

/** ALTER TABLE t ADD COLUMN | DROP COLUMN | MODIFY COLUMN | RECONFIGURE | REBUILD SECONDARY | RENAME new | settings; ALTER RTINDEX t RECONFIGURE. */
export function parseAlter(c: Cursor): AlterTableStatement {
  c.dialect = 'P03';
  c.expectKw('ALTER');
  if (c.acceptKw('RTINDEX')) {
    const table = parseTableName(c);
    c.expectKw('RECONFIGURE');
    return { kind: 'alter_table', text: '', table, action: { kind: 'reconfigure' } };
  }
  c.expectKw('TABLE');
  const table = parseTableName(c);
  const base = { kind: 'alter_table' as const, text: '', table };
  if (c.acceptKw('ADD')) {
    c.expectKw('COLUMN');
    return { ...base, action: { kind: 'add_column', column: parseColumnDef(c, false)! } };
  }
  if (c.isKw('MODIFY') && c.isKw('COLUMN', 1)) {
    c.next();
    c.next();
    return { ...base, action: { kind: 'modify_column', column: parseColumnDef(c, false)! } };
  }
  if (c.acceptKw('DROP')) {
    c.expectKw('COLUMN');
    return { ...base, action: { kind: 'drop_column', column: parseName(c) } };
  }
  if (c.acceptKw('RECONFIGURE')) return { ...base, action: { kind: 'reconfigure' } };
  if (c.acceptKw('REBUILD')) {
    c.expectKw('SECONDARY');
    return { ...base, action: { kind: 'rebuild_secondary' } };
  }
  // ALTER TABLE t RENAME new (Manticore's Buddy plugin; searchd's grammar alone has no RENAME)
  if (c.acceptKw('RENAME')) return { ...base, action: { kind: 'rename', to: parseTableName(c) } };
  // every value of a repeated setting kept too: a distributed table's local= and agent= lists
  const all: Record<string, string[]> = {};
  const settings = parseSettings(c, all);
  // nothing the grammar takes after the name: bison's state there expects only the end
  const end = c.peek();
  if (Object.keys(all).length === 0 && end.kind !== 'eof' && !(end.kind === 'punct' && end.value === ';')) c.fail(['$end']);
  return { ...base, action: { kind: 'settings', settings, all } };
}

/**
 * IMPORT TABLE t FROM 'path': searchd adopts another searchd's table files. Quarry has its own format and
 * reads no Manticore files, so the statement is parsed (the same syntax errors) and refused by name;
 * mysqldump's output or `quarry import` loads the rows instead (README, Compatibility).
 */
export function parseImport(c: Cursor): never {
  c.dialect = 'P03';
  c.expectKw('IMPORT');
  c.expectKw('TABLE');
  parseTableName(c, ['FROM']);
  c.expectKw('FROM');
  if (c.peek().kind !== 'string') c.fail(['string']);
  c.next();
  throw new SearchError('UNSUPPORTED', "IMPORT TABLE is not supported: quarry does not read Manticore's table files; load the rows from a mysqldump / mariadb-dump dump or with quarry import");
}
