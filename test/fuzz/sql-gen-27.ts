/**
 * SphinxQL of session 27's statements for fuzzing: CALL AUTOCOMPLETE with its options, SELECT ...
 * OPTION fuzzy (distance, preserve, layouts, force_bigrams), DEBUG SLEEP, SELECT ... AS <clause word>,
 * SET GLOBAL query_log_format / query_log_min_msec / log_level, and statements followed by SHOW META
 * and SHOW WARNINGS in one multi-statement (the session's last meta after searches, writes, errors).
 * Each argument is valid, at a boundary or malformed (huge, negative, empty, Unicode, NUL, wrong type).
 */
import { EDGE_NUMBERS, number, text, word, type Rng } from './rng.js';
import { arg } from './sql-gen-new.js';

function q(s: string): string {
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** fz_sg has min_infix_len (autocomplete and fuzzy work); fz has none (their error); the rest refused. */
const SUGGEST_TABLES = ['fz_sg', 'fz_sg', 'fz_sg', 'fz', 'fz_d', 'missing_t', 'fz_pq', ''];
const LAYOUTS = ['us', 'ru', 'ua', 'de', 'fr', 'be', 'bg', 'br', 'ch', 'dk', 'es', 'gr', 'it', 'pt', 'se', 'nosuch', '', 'US', 'us,ru', ' us , ru '];

/** A query text for autocomplete and fuzzy: words of fz_sg, prefixes, typos, and the nasty pieces. */
function suggestText(r: Rng): string {
  if (r.chance(0.5)) return r.pick(['mark', 'marke', 'mraket', 'hel', 'helo', 'run', 'runer', 'ьфклуе', 'm', 'ma', 'a'.repeat(60), 'марк', 'hello wor', 'market marker mark hello help running runner']);
  if (r.chance(0.05)) return Array.from({ length: r.int(20, 400) }, () => r.pick(['mark', 'hel', 'run', 'x'])).join(' ');
  return text(r);
}

function layouts(r: Rng): string {
  if (r.chance(0.05)) return q(Array.from({ length: r.int(10, 500) }, () => r.pick(LAYOUTS)).join(','));
  return r.chance(0.8) ? q(Array.from({ length: r.int(0, 3) }, () => r.pick(LAYOUTS)).join(',')) : arg(r);
}

/** An option value: mostly in range, sometimes at the edges or of the wrong type. */
function small(r: Rng): string {
  return r.chance(0.6) ? String(r.int(-1, 3)) : r.chance(0.5) ? q(String(r.int(-2, 25))) : arg(r);
}

export function callAutocomplete(r: Rng): string {
  const names = ['fuzziness', 'prepend', 'append', 'expansion_len', 'layouts', 'preserve', 'force_bigrams', 'nosuch', 'limit', 'FUZZINESS'];
  const opts = Array.from({ length: r.chance(0.05) ? r.int(10, 200) : r.count(4) }, () => {
    const name = r.pick(names);
    return `${name === 'layouts' ? layouts(r) : name === 'expansion_len' && r.chance(0.5) ? String(r.int(-1, 21)) : small(r)} AS ${name}`;
  });
  const args = [r.chance(0.9) ? q(suggestText(r)) : arg(r), r.chance(0.9) ? q(r.pick(SUGGEST_TABLES)) : arg(r), ...opts];
  if (r.chance(0.05)) args.splice(r.int(0, 1), 1);
  return `CALL ${r.pick(['AUTOCOMPLETE', 'autocomplete', 'AutoComplete'])}(${args.join(', ')})`;
}

/** SELECT ... WHERE MATCH(...) OPTION fuzzy=..., with its companions and the search options. */
export function fuzzySelect(r: Rng): string {
  const opts: string[] = [`fuzzy=${r.chance(0.8) ? String(r.int(0, 1)) : arg(r)}`];
  for (let i = r.count(3); i > 0; i--) {
    const name = r.pick(['distance', 'preserve', 'layouts', 'force_bigrams', 'max_matches', 'ranker', 'nosuch', 'fuzzy']);
    opts.push(`${name}=${name === 'layouts' ? layouts(r) : name === 'ranker' ? r.pick(['bm25', 'none', "expr('1')"]) : name === 'distance' && r.chance(0.3) ? r.pick(EDGE_NUMBERS) : small(r)}`);
  }
  if (r.chance(0.5)) opts.reverse();
  const match = r.chance(0.85) ? `MATCH(${q(r.chance(0.8) ? suggestText(r) : r.pick(['$#@!', '', '"mark"', 'mark*', '@title mark', 'mark -hel', 'mark | run', '"mark market"~2']))}${r.chance(0.1) ? `, ${r.pick(SUGGEST_TABLES)}` : ''})` : r.pick(['id > 0', 'id = 1', '']);
  const where = match ? ` WHERE ${match}` : '';
  return `SELECT ${r.pick(['*', 'id', 'id, weight()', 'COUNT(*)', 'title'])} FROM ${r.pick(SUGGEST_TABLES)}${where}${r.chance(0.1) ? ' GROUP BY id' : ''}${r.chance(0.2) ? ` LIMIT ${number(r)}` : ''} OPTION ${opts.join(', ')}`;
}

/** Words searchd's grammar takes as an identifier after AS (clause words included), and some it does not. */
const ALIASES = ['option', 'OPTION', 'facet', 'limit', 'order', 'group', 'by', 'from', 'where', 'match', 'fuzzy', 'id', 'weight', 'count', 'as', 'select', 'values', 'table', 'status', 'names', 'global', '`option`', '`from`', '日本', '1x', '_x', ''];

/** SELECT <expr> AS <word>: aliases that are clause words, where the clause may or may not follow. */
export function aliasSelect(r: Rng): string {
  const cols = Array.from({ length: r.int(1, 3) }, () => `${r.pick(['id', 'n', 'title', 'n+1', 'COUNT(*)', 'weight()', "'x'", '1'])} AS ${r.pick(ALIASES)}`);
  let s = `SELECT ${cols.join(', ')}${r.chance(0.9) ? ` FROM ${r.pick(['fz', 'fz_sg', 'missing_t'])}` : ''}`;
  if (r.chance(0.3)) s += ` WHERE MATCH(${q(word(r))})`;
  if (r.chance(0.2)) s += ` GROUP BY ${r.pick(['id', 'n', 'option', 'facet'])}`;
  if (r.chance(0.2)) s += ` ORDER BY ${r.pick(['id', 'option', 'limit', 'n'])} ${r.pick(['ASC', 'DESC', ''])}`;
  if (r.chance(0.2)) s += ` LIMIT ${number(r)}`;
  if (r.chance(0.3)) s += ` OPTION ${r.pick(['fuzzy=0', 'max_matches=10', 'option=1', 'fuzzy=1'])}`;
  if (r.chance(0.1)) s += ` FACET ${r.pick(['n', 'option', 'id'])}`;
  return s;
}

export function debugSleep(r: Rng): string {
  // the server waits as asked: whole seconds stay 0 (a long one is a hang by the fuzzer's clock); a float,
  // a sign or a time past searchd's int64 microseconds is an error, as searchd's grammar has it
  const seconds = r.pick(['0', '0.001', '0.01', '-1', '-0.5', '1e-9', '1e400', '-1e400', '1e7', '9223372036854775808', '0x10', '.', '', "'1'", 'x', 'NULL', '1,2', '0 0', '0.02']);
  return `${r.pick(['DEBUG', 'debug', 'DEBUG '])} ${r.pick(['SLEEP', 'sleep', 'SLEEP', 'NOSUCH', 'SHUTDOWN', 'sleep('])} ${seconds}${r.chance(0.05) ? ' extra' : ''}`;
}

export function setLogSetting(r: Rng): string {
  const name = r.pick(['query_log_format', 'query_log_min_msec', 'log_level', 'QUERY_LOG_FORMAT', 'query_log_mode', 'query_log']);
  const value = name.toLowerCase() === 'query_log_format'
    ? r.pick(["'plain'", "'sphinxql'", 'plain', 'sphinxql', "'json'", "''", 'PLAIN', "'sphinxql '", '1', 'NULL'])
    : name === 'log_level' ? r.pick(["'info'", 'debug', 'debugvv', 'replication', 'http_on', "'http_off'", 'nosuch', '3'])
      : r.pick(['0', '1', '100', '-1', '2147483648', '1e309', "'5'", "'x'", '0.5', ...EDGE_NUMBERS]);
  // SET GLOBAL query_log_min_msec and the format change every later line of the query log: reset after
  return `SET GLOBAL ${name} = ${value}${r.chance(0.8) ? "; SET GLOBAL query_log_format = 'sphinxql'; SET GLOBAL query_log_min_msec = 0" : ''}`;
}

/** A statement of any kind, then SHOW META and SHOW WARNINGS (each in its order) on the same session. */
export function metaSequence(r: Rng, statement: (r: Rng) => string): string {
  const first = r.pick([
    statement, fuzzySelect, callAutocomplete, aliasSelect,
    (x: Rng) => `SELECT * FROM ${x.pick(['fz', 'fz_sg', 'missing_t'])} WHERE MATCH(${q(word(x))})${x.chance(0.3) ? ' FACET n' : ''}`,
    (x: Rng) => `INSERT INTO fz (id, title, n) VALUES (${x.int(100, 120)}, ${q(word(x))}, ${number(x)})`,
    (x: Rng) => `DELETE FROM fz WHERE id = ${x.int(100, 120)}`,
    (x: Rng) => x.pick(['SELECT nosuch FROM fz', 'SELECT * FROM fz WHERE MATCH(\'"\')', 'SELEC 1', "SELECT * FROM fz WHERE MATCH('a') OPTION ranker=nosuch", 'SELECT 1 FROM fz OPTION max_matches=0']),
  ])(r);
  const tail = Array.from({ length: r.int(1, 4) }, () => r.pick(['SHOW META', 'SHOW WARNINGS', 'SHOW META LIKE \'total%\'', 'SHOW META LIKE ' + q(text(r)), 'SHOW PROFILE', 'SHOW PLAN']));
  return [first, ...tail].join(r.chance(0.9) ? '; ' : ';');
}

const STATEMENTS: ((r: Rng) => string)[] = [
  callAutocomplete, callAutocomplete, fuzzySelect, fuzzySelect, aliasSelect, debugSleep, setLogSetting,
];

/** One statement of session 27's features, or a sequence with SHOW META / SHOW WARNINGS after a statement of `other`. */
export function session27Statement(r: Rng, other: (r: Rng) => string): string {
  return r.chance(0.25) ? metaSequence(r, other) : r.pick(STATEMENTS)(r);
}
