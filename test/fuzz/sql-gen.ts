/**
 * SphinxQL statements for fuzzing: every statement kind the parser knows, with random literals,
 * quotes, escapes, Unicode, long and deeply nested pieces, then sometimes mutated at the byte level.
 */
import { number, text, word, type Rng } from './rng.js';
import { newFeatureStatement } from './sql-gen-new.js';
import { session27Statement } from './sql-gen-27.js';

/** Tables the runner creates before fuzzing, and a missing one; fz_w is written only by tripleInsert. */
export const TABLES = ['fz', 'fz_pq', 'missing_t'];
const COLUMNS = ['id', 'title', 'body', 'n', 'f', 'tags', 'j', 'j.a', 'j.a[0]', 'weight()', 'nope', '*'];

/** A full-text query in Manticore's syntax, the text of MATCH() and of JSON query_string. */
export function matchQuery(r: Rng, depth = 0): string {
  if (depth > 3 || r.chance(0.3)) return r.chance(0.8) ? word(r) : text(r);
  if (r.chance(0.01)) return '('.repeat(r.int(50, 3000)) + 'a' + ')'.repeat(r.int(0, 3000));
  switch (r.int(0, 11)) {
    case 0: return `${matchQuery(r, depth + 1)} ${matchQuery(r, depth + 1)}`;
    case 1: return `${matchQuery(r, depth + 1)} | ${matchQuery(r, depth + 1)}`;
    case 2: return `-${matchQuery(r, depth + 1)}`;
    case 3: return `(${matchQuery(r, depth + 1)})`;
    case 4: return `"${text(r)}"${r.chance(0.5) ? `~${number(r)}` : ''}`;
    case 5: return `"${text(r)}"/${number(r)}`;
    case 6: return `@${r.pick(['title', 'body', '(title,body)', '!title', '*', 'nope', '@'])} ${matchQuery(r, depth + 1)}`;
    case 7: return `${word(r)} NEAR/${number(r)} ${word(r)}`;
    case 8: return `${word(r)} << ${word(r)}`;
    case 9: return `${r.pick(['=', '^', '*', ''])}${word(r)}${r.pick(['$', '*', '', '^2'])}`;
    case 10: return `${matchQuery(r, depth + 1)} MAYBE ${matchQuery(r, depth + 1)}`;
    default: return `ZONE:(${word(r)}) ${matchQuery(r, depth + 1)}`;
  }
}

/** A quoted SQL string literal, usually escaped correctly, sometimes not. */
export function quoted(r: Rng, s: string): string {
  return r.chance(0.9) ? `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : `'${s}'`;
}

function literal(r: Rng): string {
  switch (r.int(0, 6)) {
    case 0: case 1: return number(r);
    case 2: return quoted(r, text(r));
    case 3: return `(${Array.from({ length: r.count(4) }, () => number(r)).join(',')})`;
    case 4: return quoted(r, r.pick(['{"a":1}', '[1,2]', '{', '{"a":{"b":[null,true,1e400]}}', '"x"', '']));
    case 5: return r.pick(['NULL', 'TRUE', 'false', '?', '@x', '-', '()']);
    default: return `${number(r)}.${number(r)}`;
  }
}

function expr(r: Rng, depth = 0): string {
  if (depth > 3 || r.chance(0.4)) return r.chance(0.5) ? r.pick(COLUMNS) : literal(r);
  if (r.chance(0.01)) return '('.repeat(r.int(100, 2000)) + '1' + ')'.repeat(r.int(100, 2000));
  const fn = r.pick(['', 'abs', 'if', 'in', 'length', 'bm25f', 'highlight', 'snippet', 'geodist', 'count', 'sum', 'min', 'groupby', 'now', 'nosuch']);
  if (fn) return `${fn}(${Array.from({ length: r.count(3) }, () => expr(r, depth + 1)).join(', ')})`;
  return `${expr(r, depth + 1)} ${r.pick(['+', '-', '*', '/', '%', '=', '!=', '<', '>=', 'AND', 'OR', 'DIV', 'MOD', '<<'])} ${expr(r, depth + 1)}`;
}

function where(r: Rng): string {
  const parts: string[] = [];
  if (r.chance(0.7)) parts.push(`MATCH(${quoted(r, matchQuery(r))})`);
  for (let i = r.count(3); i > 0; i--) {
    parts.push(r.chance(0.5) ? expr(r) : `${r.pick(COLUMNS)} ${r.pick(['IN', 'NOT IN', 'BETWEEN', 'IS NULL', 'IS NOT NULL', '=', '<>'])} ${literal(r)}${r.chance(0.3) ? ` AND ${literal(r)}` : ''}`);
  }
  return parts.length ? ` WHERE ${parts.join(r.pick([' AND ', ' OR ', ' ']))}` : '';
}

function options(r: Rng): string {
  if (!r.chance(0.3)) return '';
  const names = ['ranker', 'max_matches', 'max_query_time', 'cutoff', 'field_weights', 'comment', 'threads', 'nosuch', 'retry_count', 'agent_query_timeout'];
  const values = () => r.pick([number(r), 'bm25', 'proximity_bm25', 'expr(\'sum(lcs)\')', '(title=2, body=1)', quoted(r, text(r))]);
  return ` OPTION ${Array.from({ length: r.int(1, 3) }, () => `${r.pick(names)}=${values()}`).join(', ')}`;
}

function select(r: Rng): string {
  const cols = Array.from({ length: r.int(1, 3) }, () => expr(r) + (r.chance(0.2) ? ` AS ${word(r)}` : '')).join(', ');
  let s = `SELECT ${cols}${r.chance(0.9) ? ` FROM ${r.pick(TABLES)}` : ''}${where(r)}`;
  if (r.chance(0.2)) s += ` GROUP BY ${r.pick(COLUMNS)}`;
  if (r.chance(0.3)) s += ` ORDER BY ${r.pick(COLUMNS)} ${r.pick(['ASC', 'DESC', ''])}`;
  if (r.chance(0.4)) s += ` LIMIT ${number(r)}${r.chance(0.5) ? `, ${number(r)}` : ''}`;
  if (r.chance(0.1)) s += ` FACET ${r.pick(COLUMNS)}`;
  return s + options(r);
}

/** An INSERT of exactly three rows into fz_w: the half-write oracle counts its rows in threes. */
export function tripleInsert(r: Rng, id: () => number): string {
  const row = () => `(${id()}, ${quoted(r, text(r))}, ${r.chance(0.9) ? String(r.int(0, 100)) : literal(r)})`;
  return `INSERT INTO fz_w (id, title, n) VALUES ${row()}, ${row()}, ${row()}`;
}

const STATEMENTS: ((r: Rng) => string)[] = [
  select, select, select,
  (r) => `${r.pick(['INSERT', 'REPLACE'])} INTO ${r.pick(TABLES)} (${Array.from({ length: r.int(0, 4) }, () => r.pick(COLUMNS)).join(', ')}) VALUES (${Array.from({ length: r.int(0, 4) }, () => literal(r)).join(', ')})`,
  (r) => `UPDATE ${r.pick(TABLES)} SET ${r.pick(COLUMNS)} = ${literal(r)}${where(r)}`,
  (r) => `DELETE FROM ${r.pick(['fz', 'missing_t', 'fz_pq'])}${where(r)}`,
  (r) => `CREATE TABLE ${r.chance(0.5) ? 'IF NOT EXISTS ' : ''}${r.pick(['fz_new', 'fz', word(r)])} (${Array.from({ length: r.int(0, 3) }, () => `${word(r)} ${r.pick(['text', 'int', 'bigint', 'float', 'json', 'multi', 'string', 'bool', 'timestamp', 'nosuch'])}`).join(', ')})${r.chance(0.3) ? ` morphology=${quoted(r, r.pick(['stem_en', 'none', 'x']))}` : ''}`,
  (r) => `DROP TABLE ${r.chance(0.5) ? 'IF EXISTS ' : ''}${r.pick(['fz_new', 'missing_t', word(r)])}`,
  (r) => `ALTER TABLE ${r.pick(['fz_new', 'missing_t'])} ${r.pick(['ADD COLUMN', 'DROP COLUMN'])} ${word(r)} ${r.pick(['int', 'text', ''])}`,
  (r) => `TRUNCATE TABLE ${r.pick(['fz_new', 'missing_t'])}`,
  (r) => `SHOW ${r.pick(['TABLES', 'META', 'STATUS', 'VARIABLES', 'WARNINGS', 'THREADS', 'PLAN', 'PROFILE', 'DATABASES', 'CHARACTER SET', 'COLLATION', 'AGENT STATUS', 'PLUGINS', 'nosuch'])}${r.chance(0.3) ? ` LIKE ${quoted(r, text(r))}` : ''}`,
  (r) => `SHOW ${r.pick(['CREATE TABLE', 'TABLE', 'INDEX'])} ${r.pick(TABLES)}${r.chance(0.5) ? ` ${r.pick(['STATUS', 'SETTINGS'])}` : ''}`,
  (r) => `${r.pick(['DESCRIBE', 'DESC'])} ${r.pick(TABLES)}`,
  (r) => `SET ${r.pick(['', 'GLOBAL ', 'SESSION ', '@'])}${r.pick(['autocommit', 'profiling', 'max_connections', 'sql_mode', 'names', 'x', 'client_timeout'])} = ${literal(r)}`,
  (r) => r.pick(['BEGIN', 'START TRANSACTION', 'COMMIT', 'ROLLBACK', 'FLUSH RAMCHUNK fz', 'FLUSH RTINDEX fz', 'OPTIMIZE TABLE fz_new', 'SELECT 1', 'SELECT @@version_comment', 'SHOW COLLATION']),
  (r) => `CALL ${r.pick(['SNIPPETS', 'KEYWORDS', 'QSUGGEST', 'SUGGEST', 'PQ', 'NOSUCH'])}(${Array.from({ length: r.int(0, 4) }, () => r.chance(0.6) ? quoted(r, text(r)) : literal(r)).join(', ')})`,
  (r) => `EXPLAIN QUERY ${r.pick(TABLES)}, ${quoted(r, matchQuery(r))}`,
  // sessions 25-26's statements (sql-gen-new.ts), a fifth of the inputs
  newFeatureStatement, newFeatureStatement, newFeatureStatement, newFeatureStatement,
  // session 27's statements and SHOW META / SHOW WARNINGS sequences (sql-gen-27.ts)
  (r) => session27Statement(r, sqlStatement), (r) => session27Statement(r, sqlStatement), (r) => session27Statement(r, sqlStatement),
];

/** Byte-level mutation of a statement: cut, duplicate, flip, insert nasty text. */
export function mutate(r: Rng, s: string): string {
  const n = r.int(1, 3);
  for (let i = 0; i < n; i++) {
    const at = r.int(0, s.length);
    switch (r.int(0, 4)) {
      case 0: s = s.slice(0, at); break;
      case 1: s = s.slice(0, at) + s.slice(at, at + r.int(1, 20)).repeat(r.int(2, 5)) + s.slice(at); break;
      case 2: s = s.slice(0, at) + String.fromCharCode(r.int(0, 0xffff)) + s.slice(at + 1); break;
      case 3: s = s.slice(0, at) + word(r) + s.slice(at); break;
      default: s = s.slice(0, at) + s.slice(at + r.int(1, 10));
    }
  }
  return s;
}

/** One input of the SphinxQL target. */
export function sqlStatement(r: Rng): string {
  const s = r.pick(STATEMENTS)(r);
  // DEBUG SLEEP waits as long as it is asked: a mutated digit (1e7 -> 1e4 s) is a wait, not a hang
  return r.chance(0.25) && !/^debug/i.test(s) ? mutate(r, s) : s;
}
