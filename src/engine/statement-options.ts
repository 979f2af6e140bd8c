/**
 * Which `OPTION name=value` each statement takes, and what quarry does with each: no option is ever
 * accepted and then silently ignored. Manticore's parser knows a fixed list per statement
 * (searchdsql.cpp CheckOption) and answers any other name with `unknown option 'x'`; the JSON
 * `options` object goes through the same list.
 *
 * Every known option is one of:
 * - `works`: the executor reads it (exec/exec-select.ts, exec/exec-write.ts, ...);
 * - `inert`: Manticore itself has no observable effect for it on a single-node server with quarry's
 *   features (the reason is written beside it), so accepting it is what Manticore does;
 * - `default`: only its default value is accepted (which changes nothing); any other value is an
 *   error naming the option, since quarry does not implement it yet;
 * - `unsupported`: an error naming the option.
 */
import type { NamedValue, OptionValue } from '../sql/ast.js';
import { SearchError } from '../util/errors.js';
import { optionText } from './values/sql-values.js';

type Use =
  | { use: 'works' }
  | { use: 'inert'; why: string }
  | { use: 'default'; value: string }
  | { use: 'unsupported' };

interface OptionRule { int?: boolean; values?: string[]; rule: Use }

const works: Use = { use: 'works' };
const inert = (why: string): Use => ({ use: 'inert', why });
const onlyDefault = (value: string): Use => ({ use: 'default', value });
const unsupported: Use = { use: 'unsupported' };

const DISTRIBUTED = 'only distributed tables (remote agents) read it';
const SCHEDULING = 'thread scheduling: results are the same';

/** SELECT's options (Manticore 29's dSelectOptions); JSON `options` use the same list. */
export const SELECT_OPTIONS: Record<string, OptionRule> = {
  accurate_aggregation: { int: true, rule: inert('quarry groups exactly over all matches, as accurate_aggregation=1') },
  agent_query_timeout: { int: true, rule: inert(DISTRIBUTED) },
  boolean_mode: { values: ['and', 'or'], rule: onlyDefault('and') },
  boolean_simplify: { int: true, rule: inert('a rewrite that keeps the same matches') },
  columns: { int: true, rule: inert('SHOW THREADS output width; no effect on a table SELECT') },
  comment: { rule: inert('written to the query log only; quarry keeps no query log') },
  cutoff: { int: true, rule: works },
  debug_no_payload: { int: true, rule: inert('quarry has no payload (sql_joined_field) postings') },
  distinct_precision_threshold: { int: true, rule: inert('quarry counts COUNT(DISTINCT) exactly') },
  embeddings_threads: { int: true, rule: inert('quarry has no embeddings') },
  expand_blended: { rule: onlyDefault('0') },
  expand_keywords: { int: true, rule: works },
  expansion_limit: { int: true, rule: works },
  // strict (every filter applies to every facet) is Manticore's default and what quarry's FACET does
  facet_filter_mode: { values: ['strict', 'auto', 'max'], rule: works },
  field_weights: { rule: works },
  format: { rule: inert('SHOW THREADS output format; no effect on a table SELECT') },
  fusion_method: { rule: unsupported },
  fusion_weights: { rule: unsupported },
  global_idf: { int: true, rule: inert('reads the global_idf file, which quarry tables never have') },
  idf: { rule: works },
  ignore_nonexistent_indexes: { int: true, rule: onlyDefault('0') },
  index_weights: { rule: works },
  jieba_mode: { values: ['accurate', 'full', 'search'], rule: inert('applies to jieba morphology only, which quarry tables never have') },
  join_batch_size: { int: true, rule: inert('applies to JOIN only, which quarry rejects') },
  local_df: { int: true, rule: inert('sums df over several local tables; a quarry search has one') },
  low_priority: { int: true, rule: inert(SCHEDULING) },
  max_matches: { int: true, rule: works },
  max_matches_increase_threshold: { int: true, rule: inert('quarry groups exactly over all matches') },
  max_predicted_time: { int: true, rule: inert('Manticore 29 parses it and does nothing with it (AddOption)') },
  max_query_time: { int: true, rule: works },
  morphology: { values: ['none'], rule: unsupported },
  not_terms_only_allowed: { int: true, rule: works },
  rand_seed: { int: true, rule: works },
  rank_constant: { int: true, rule: unsupported },
  ranker: { rule: works },
  retry_count: { int: true, rule: inert(DISTRIBUTED) },
  retry_delay: { int: true, rule: inert(DISTRIBUTED) },
  reverse_scan: { rule: unsupported },
  scroll: { rule: unsupported },
  sort_method: { values: ['pq', 'kbuffer'], rule: inert('the internal sorter kind; the sort order is the same') },
  threads: { int: true, rule: works },
  threads_ex: { rule: inert(SCHEDULING) },
  token_filter: { rule: unsupported },
  window_size: { int: true, rule: unsupported },
};

/** UPDATE's options (dUpdateOptions): ranking options change nothing in an update, as in Manticore. */
const NO_RANKING = 'an UPDATE ranks nothing';
export const UPDATE_OPTIONS: Record<string, OptionRule> = {
  agent_query_timeout: SELECT_OPTIONS.agent_query_timeout!,
  boolean_mode: SELECT_OPTIONS.boolean_mode!,
  boolean_simplify: SELECT_OPTIONS.boolean_simplify!,
  comment: SELECT_OPTIONS.comment!,
  // quarry's UPDATE changes every match: only 0 (no cutoff) passes
  cutoff: { int: true, rule: onlyDefault('0') },
  debug_no_payload: SELECT_OPTIONS.debug_no_payload!,
  expand_keywords: SELECT_OPTIONS.expand_keywords!,
  field_weights: { rule: inert(NO_RANKING) },
  global_idf: SELECT_OPTIONS.global_idf!,
  idf: { rule: inert(NO_RANKING) },
  ignore_nonexistent_columns: { int: true, rule: onlyDefault('0') },
  ignore_nonexistent_indexes: SELECT_OPTIONS.ignore_nonexistent_indexes!,
  index_weights: { rule: inert(NO_RANKING) },
  local_df: SELECT_OPTIONS.local_df!,
  low_priority: SELECT_OPTIONS.low_priority!,
  max_matches: { int: true, rule: inert('an UPDATE changes every match, as in Manticore') },
  max_predicted_time: SELECT_OPTIONS.max_predicted_time!,
  max_query_time: { int: true, rule: onlyDefault('0') },
  morphology: SELECT_OPTIONS.morphology!,
  not_terms_only_allowed: SELECT_OPTIONS.not_terms_only_allowed!,
  rand_seed: { int: true, rule: inert('seeds ORDER BY RAND(), which UPDATE does not have') },
  ranker: { rule: inert(NO_RANKING) },
  retry_count: SELECT_OPTIONS.retry_count!,
  retry_delay: SELECT_OPTIONS.retry_delay!,
  reverse_scan: SELECT_OPTIONS.reverse_scan!,
  sort_method: SELECT_OPTIONS.sort_method!,
  strict: { int: true, rule: onlyDefault('0') },
  threads: { int: true, rule: inert(SCHEDULING) },
  token_filter: SELECT_OPTIONS.token_filter!,
};

/** Options of the other statements (Manticore's per-statement lists). */
export const OTHER_OPTIONS: Record<string, Record<string, OptionRule>> = {
  delete: { store: { rule: unsupported } },
  insert: { token_filter_options: { rule: unsupported } },
  optimize: {
    cutoff: { int: true, rule: inert('quarry merges every segment into one') },
    sync: { int: true, rule: inert('OPTIMIZE in quarry always returns after the merge') },
  },
  // SHOW THREADS and SHOW PLAN (searchd's dShowOptions); SHOW THREADS reads them (exec-show.ts)
  show: {
    columns: { int: true, rule: works },
    format: { rule: works },
  },
  // searchd's dCreateTableOptions; every other SHOW takes no option at all
  show_create_table: {
    force: { int: true, rule: inert('quarry has no system tables for force=1 to reveal') },
    // Manticore's manual and searchdsql.cpp name it output_words; format_output_words kept as quarry took it
    output_words: { values: ['file', 'list'], rule: works },
    format_output_words: { values: ['file', 'list'], rule: works },
  },
  // searchd's dSystemOptions for DESCRIBE: force shows a distributed table over system tables, topology a sharded one's shards
  describe: {
    force: { int: true, rule: inert('quarry has no system tables for force=1 to reveal') },
    topology: { int: true, rule: inert('quarry has no sharded tables: a distributed table lists its agents either way') },
  },
  drop_table: {
    force: { int: true, rule: inert('only clusters hold tables back from DROP') },
    topology: { int: true, rule: unsupported },
  },
};

export type OptionStatement = 'select' | 'update' | 'delete' | 'insert' | 'optimize' | 'show' | 'show_create_table' | 'show_other' | 'describe' | 'drop_table';

function rulesOf(stmt: OptionStatement): Record<string, OptionRule> {
  if (stmt === 'select') return SELECT_OPTIONS;
  if (stmt === 'update') return UPDATE_OPTIONS;
  return OTHER_OPTIONS[stmt] ?? {};
}

/** The option's value as Manticore compares it: lower-cased text. */
function valueText(v: OptionValue): string {
  return optionText(v).toLowerCase();
}

/**
 * Checks a statement's options: unknown names, Manticore's value checks, and options quarry does not
 * implement are errors; `works` and `inert` options pass.
 */
export function checkOptions(stmt: OptionStatement, options: NamedValue[]): void {
  if (options.length === 0) return; // every plain INSERT: no rules object or iterator to make
  const rules = rulesOf(stmt);
  for (const o of options) {
    const r = Object.hasOwn(rules, o.name) ? rules[o.name] : undefined;
    if (!r) throw new SearchError('PARSE_ERROR', `unknown option '${o.name}'`);
    const text = valueText(o.value);
    if (r.int && !/^-?\d+$/.test(text)) {
      throw new SearchError('PARSE_ERROR', `${o.name} value should be a number: '${text}'`);
    }
    if (o.name === 'reverse_scan') throw new SearchError('PARSE_ERROR', 'reverse_scan is deprecated');
    if (r.values && !r.values.includes(text)) {
      throw new SearchError('PARSE_ERROR', `unknown ${o.name}='${text}' (known values are ${r.values.join(', ')})`);
    }
    const rule = r.rule;
    if (rule.use === 'unsupported' || (rule.use === 'default' && Number(text) !== Number(rule.value) && text !== rule.value)) {
      throw new SearchError('UNSUPPORTED', `option '${o.name}' is not supported${rule.use === 'default' ? ` (only ${o.name}=${rule.value})` : ''}`);
    }
  }
}

/** Names whose rule is `inert`, with the reason (the sweep test lists them). */
export function inertOptions(stmt: OptionStatement): Map<string, string> {
  const out = new Map<string, string>();
  for (const [name, r] of Object.entries(rulesOf(stmt))) if (r.rule.use === 'inert') out.set(name, r.rule.why);
  return out;
}
