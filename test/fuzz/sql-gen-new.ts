/**
 * SphinxQL of sessions 25-26's statements for fuzzing: SET in every form, SHOW VARIABLES/THREADS with
 * options, DESC ... OPTION, partial REPLACE ... SET ... WHERE id=N, CALL SUGGEST options, ALTER TABLE ...
 * REBUILD SECONDARY and ALTER of a distributed table, ANY()/ALL(... FOR s IN ...), REGEX() with flag
 * groups, LIMIT -1, IN @x, MIN/MAX over strings, LOCK TABLES. Each argument is valid, at a boundary or
 * malformed: huge, negative, empty, Unicode, NUL bytes, deep nesting, very long lists, the wrong type.
 */
import { EDGE_NUMBERS, number, text, word, type Rng } from './rng.js';

/** Quoted with the right escapes (a NUL byte or a quote inside stays part of the value). */
function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A value of any kind for an argument that wants a number, a string, a list or a name. */
export function arg(r: Rng): string {
  switch (r.int(0, 11)) {
    case 0: case 1: return number(r);
    case 2: return r.pick(EDGE_NUMBERS);
    case 3: return q(text(r));
    case 4: return q(r.pick(['', '\0', 'a\0b', '日本語', '😀', '\ud800', ' ', '1', '-1', 'true', '(?i)x']));
    case 5: return `(${Array.from({ length: r.chance(0.1) ? r.int(100, 5000) : r.int(0, 4) }, () => number(r)).join(',')})`;
    case 6: return r.pick(['NULL', '()', '-', '@x', '@@x', 'TRUE', '1e', '--1', '+1', '0x1F', '1.5', '-0', '.5']);
    case 7: return '('.repeat(r.int(1, 300)) + number(r) + ')'.repeat(r.int(0, 300));
    case 8: return word(r);
    case 9: return `${number(r)}${r.pick(['', ' ', 'x', '.', ','])}${number(r)}`;
    default: return String(r.int(-3, 3));
  }
}

const SESSION_NAMES = ['autocommit', 'profiling', 'sql_quote_show_create', 'character_set_results', 'collation_connection', 'wait_timeout', 'names', 'transaction_isolation', 'nosuch', 'auto_schema', 'expansion_limit'];
const GLOBAL_NAMES = ['optimize_cutoff', 'auto_optimize', 'query_log_format', 'log_level', 'qcache_max_bytes', 'grouping_in_utc', 'cpustats', 'threads_ex', 'nosuch', 'auto_schema', 'not_terms_only_allowed', 'pseudo_sharding', 'http_x'];
const UV = ['@x', '@y', '@nosuch', '@', '@日本', '@`a`', '@1'];

function setStatement(r: Rng): string {
  switch (r.int(0, 5)) {
    case 0: return `SET GLOBAL ${r.pick(UV)} = ${r.chance(0.7) ? `(${Array.from({ length: r.chance(0.05) ? r.int(100, 20_000) : r.int(0, 5) }, () => number(r)).join(', ')})` : arg(r)}`;
    case 1: return `SET GLOBAL ${r.pick(GLOBAL_NAMES)} = ${arg(r)}`;
    case 2: return `SET ${r.pick(['', 'SESSION ', '@@', '@@session.', '@@global.'])}${r.pick(SESSION_NAMES)} = ${arg(r)}`;
    case 3: return `SET ${Array.from({ length: r.int(2, 4) }, () => `${r.pick(['', 'SESSION ', 'GLOBAL '])}${r.pick([...SESSION_NAMES, ...GLOBAL_NAMES])} = ${arg(r)}`).join(', ')}`;
    case 4: return `SET ${r.pick(UV)} = ${arg(r)}`;
    default: return `SET ${r.pick(['NAMES', 'CHARACTER SET', 'TRANSACTION ISOLATION LEVEL', 'SESSION TRANSACTION'])} ${r.chance(0.5) ? q(word(r)) : word(r)}${r.chance(0.3) ? ` COLLATE ${word(r)}` : ''}`;
  }
}

function options(r: Rng, names: string[]): string {
  if (r.chance(0.2)) return '';
  return ` OPTION ${Array.from({ length: r.chance(0.05) ? r.int(10, 300) : r.int(1, 3) }, () => `${r.pick(names)}${r.chance(0.95) ? `=${arg(r)}` : ''}`).join(r.chance(0.95) ? ', ' : ' ')}`;
}

/** A LIKE pattern: text, or many `%`/`_` that a backtracking matcher takes exponential time over. */
export function likePattern(r: Rng): string {
  if (r.chance(0.7)) return text(r);
  return `${`${r.pick(['%', '_', '%_'])}${r.pick(['a', 'fz', ''])}`.repeat(r.int(2, 40))}${r.pick(['b', '', '%', 'x_'])}`;
}

/** A wildcard keyword for MATCH(): many `*`, `?`, `%` around letters (fz_long_* holds 60 a's). */
export function wildcardKeyword(r: Rng): string {
  return `${`${r.pick(['*', '?', '%', '*?'])}${r.pick(['a', 'aa', ''])}`.repeat(r.int(2, 30))}${r.pick(['b', '*', '', '?'])}`;
}

function showStatement(r: Rng): string {
  switch (r.int(0, 3)) {
    case 0: return `SHOW ${r.pick(['', 'GLOBAL ', 'SESSION '])}VARIABLES${r.chance(0.5) ? ` LIKE ${q(likePattern(r))}` : ''}${r.chance(0.2) ? ` WHERE variable_name=${arg(r)}` : ''}${r.chance(0.2) ? options(r, ['x', 'columns']) : ''}`;
    case 1: return `SHOW THREADS${options(r, ['format', 'columns', 'nosuch', 'FORMAT'])}`;
    case 2: return `${r.pick(['DESC', 'DESCRIBE'])} ${r.pick(['fz', 'fz_d', 'missing_t', 'fz_pq'])}${r.chance(0.3) ? ` LIKE ${q(text(r))}` : ''}${options(r, ['force', 'topology', 'nosuch', 'columns'])}`;
    default: return r.chance(0.5) ? `SHOW ${r.pick(['TABLES', 'STATUS', 'FULL TABLES', 'COLLATION', 'CHARACTER SET'])} LIKE ${q(likePattern(r))}`
      : `SHOW ${r.pick(['CREATE TABLE fz', 'TABLE fz STATUS', 'TABLE fz SETTINGS', 'PLAN', 'META', 'TABLES'])}${options(r, ['force', 'format_output_words', 'format', 'columns', 'nosuch'])}`;
  }
}

/** A partial REPLACE of a table: SET assignments (names valid, repeated, unknown) and an id WHERE. */
export function partialReplace(r: Rng, table: string, columns: string[]): string {
  const sets = Array.from({ length: r.chance(0.05) ? r.int(20, 400) : r.int(0, 4) }, () => `${r.pick([...columns, 'id', 'nosuch', '`n`', 'j.a'])}=${arg(r)}`);
  const where = r.chance(0.85) ? `id=${r.chance(0.7) ? String(r.int(1, 12)) : arg(r)}` : r.pick(['id IN (1,2)', 'n=1', 'id=1 AND n=1', '1', 'id>1', 'MATCH(\'a\')']);
  return `REPLACE INTO ${table} SET ${sets.join(', ')}${r.chance(0.95) ? ` WHERE ${where}` : ''}`;
}

function callSuggest(r: Rng): string {
  const opts = Array.from({ length: r.count(4) }, () => `${arg(r)} AS ${r.pick(['force_bigrams', 'non_char', 'limit', 'max_edits', 'delta_len', 'max_matches', 'reject', 'result_line', 'result_stats', 'sentence', 'nosuch'])}`);
  const first = r.chance(0.8) ? q(r.chance(0.5) ? word(r) : text(r)) : arg(r);
  return `CALL ${r.pick(['SUGGEST', 'QSUGGEST', 'AUTOCOMPLETE'])}(${[first, r.chance(0.9) ? q(r.pick(['fz_sg', 'fz', 'missing_t', ''])) : arg(r), ...opts].join(', ')})`;
}

function alter(r: Rng): string {
  switch (r.int(0, 2)) {
    case 0: return `ALTER TABLE ${r.pick(['fz', 'missing_t', 'fz_d', 'fz_pq'])} REBUILD SECONDARY${r.chance(0.2) ? ` ${word(r)}` : ''}`;
    case 1: return `ALTER TABLE ${r.pick(['fz_d', 'fz', 'missing_t'])} ${Array.from({ length: r.int(0, 3) }, () => `${r.pick(['local', 'agent', 'ha_strategy', 'agent_persistent', 'nosuch'])}=${r.chance(0.7) ? q(r.pick(['fz', 'fz_d', 'missing_t', '', '127.0.0.1:1:fz', '::::', 'fz,fz', 'h:99999999:fz', text(r)])) : arg(r)}`).join(' ')}`;
    default: return `ALTER TABLE fz_d ${r.pick(['ADD COLUMN x int', 'DROP COLUMN n', 'RECONFIGURE', 'KILLLIST_TARGET=\'fz\''])}`;
  }
}

const JSON_PATHS = ['j.arr', 'j.a', 'j', 'tags', 'n', 's', 'title', 'j.nosuch', 'j.arr[0]', 'x'];

function anyAll(r: Rng, depth = 0): string {
  const v = r.pick(['x', 's', 'id', 'j', '日', '']);
  const cond = depth < 2 && r.chance(0.1) ? anyAll(r, depth + 1)
    : `${r.pick([v, `${v}.key`, `${v}['key']`, `${v}.p[1]`, `${v}.key.deep`, 'id', 'n'])}${r.pick([` ${r.pick(['=', '>', '<', '!=', 'IN'])} ${arg(r)}`, ''])}`;
  return `${r.pick(['ANY', 'ALL', 'any', 'INDEXOF'])}(${cond} FOR ${r.chance(0.9) ? v : word(r)} IN ${r.pick(JSON_PATHS)})`;
}

function regexCall(r: Rng): string {
  const flags = r.chance(0.5) ? `(?${Array.from({ length: r.int(0, 3) }, () => r.pick(['i', 's', 'm', 'U', '-i', 'x'])).join('')})` : '';
  const body = r.chance(0.1) ? '(' .repeat(r.int(1, 500)) + 'a' + ')'.repeat(r.int(0, 500))
    : r.pick(['(a+)+$', '^h', 'x.y', '[a-z]+', '\\d+', '(a|aa)*b', '\\p{L}+', '(x)\\1', '(?=a)', '[', '', '.*.*.*=.*', '(?P<n>x)', 'ß|SS', '\\', '\0', text(r),
      // Unicode classes under nested quantifiers: the 'u' flag's engine backtracks (re2-pattern.ts)
      `(${r.pick(['\\p{L}', '\\pL', '\\P{N}', '[\\p{Lu}a]', '[^\\p{Z}]', '\\p{Greek}', '\\p{Nd}', '\\p{Han}', '\\p{nosuch}'])}${r.pick(['+', '*', '{1,40}'])})${r.pick(['+', '*', '{2,}'])}${r.pick(['$', '!', 'b', ''])}`,
      '((a|a)*)*b', '(a*)*$', '(.*a){30}', '(\\w+\\s?)+$', '(?i)(\\p{Ll}+)+$', '\\p{L}{1000}']);
  return `REGEX(${r.pick(['s', 'j.a', 'title', 'n', 'j', '\'x\''])}, ${r.chance(0.9) ? q(flags + body) : arg(r)})`;
}

function select(r: Rng): string {
  const table = r.pick(['fz', 'fz', 'fz_d', 'missing_t']);
  switch (r.int(0, 5)) {
    case 0: return `SELECT id, ${anyAll(r)} AS a FROM ${table}${r.chance(0.5) ? ` WHERE ${anyAll(r)}${r.chance(0.5) ? ` ${r.pick(['=', '<>'])} ${arg(r)}` : ''}` : ''}`;
    case 1: return `SELECT id, ${regexCall(r)} AS m FROM ${table}${r.chance(0.4) ? ` WHERE ${regexCall(r)}` : ''}`;
    case 2: return `SELECT id FROM ${table}${r.chance(0.5) ? ` WHERE ${r.pick(['id', 'n', 'tags', 'j.a', 's', 'title', 'f'])} ${r.pick(['IN', 'NOT IN', 'in'])} ${r.pick(UV)}` : ''} LIMIT ${r.pick(['-1', '-1, 1', '1, -1', '-2', '-0', '-9223372036854775808', '0', '2147483648', '-1 FACET n', '-1 OPTION max_matches=1', arg(r)])}`;
    case 3: return `SELECT ${Array.from({ length: r.int(1, 3) }, () => `${r.pick(['MIN', 'MAX', 'SUM', 'AVG', 'min', 'GROUP_CONCAT'])}(${r.pick(['s', 'title', 'n', 'j.a', 'j', 'tags', 'id', 'f', 'LOWER(s)', 'TO_STRING(n)', '*'])})`).join(', ')} FROM ${table}${r.chance(0.4) ? ` GROUP BY ${r.pick(['n', 's', 'j.a', 'tags'])}` : ''}`;
    case 4: return `SELECT id FROM ${r.pick(['fz_sg', 'fz', 'fz_d'])} WHERE MATCH(${q(wildcardKeyword(r))})`;
    default: return `SELECT * FROM ${table} WHERE id = ${arg(r)} OPTION ${r.pick(['max_matches', 'cutoff', 'threads', 'retry_count'])}=${arg(r)}`;
  }
}

function lock(r: Rng): string {
  if (r.chance(0.2)) return r.pick(['UNLOCK TABLES', 'UNLOCK TABLE', 'LOCK TABLES', 'LOCK TABLE fz', 'UNLOCK TABLES fz']);
  const items = Array.from({ length: r.chance(0.05) ? r.int(50, 2000) : r.int(1, 3) }, () => `${r.pick(['fz', 'fz_d', 'missing_t', 'fz_pq', word(r)])}${r.chance(0.2) ? ` AS ${word(r)}` : ''} ${r.pick(['READ', 'WRITE', 'READ LOCAL', 'LOW_PRIORITY WRITE', '', 'nosuch'])}`);
  return `LOCK ${r.pick(['TABLES', 'TABLE'])} ${items.join(', ')}`;
}

const STATEMENTS: ((r: Rng) => string)[] = [
  setStatement, setStatement, showStatement, showStatement,
  (r) => partialReplace(r, r.pick(['fz', 'missing_t', 'fz_d', 'fz_pq']), ['title', 'body', 'n', 'f', 'tags', 'j', 's']),
  callSuggest, alter, select, select, select, lock,
];

/** One statement of the newest features. */
export function newFeatureStatement(r: Rng): string {
  return r.pick(STATEMENTS)(r);
}
