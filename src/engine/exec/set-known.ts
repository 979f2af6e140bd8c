/**
 * The variable names searchd's SET takes (src/searchd.cpp HandleSetLocal / HandleSetGlobal); any other
 * name is its error, not a silently ignored assignment. quarry acts on a few of them (exec-show.ts
 * prepareSet) and takes the rest as searchd takes them for machinery quarry has not (thread stacks, query
 * cache, log filters...): accepted without an effect, which is also what searchd does for
 * character_set_results, sql_mode, time_zone and the like.
 */
import { SearchError } from '../../util/errors.js';

/** SET name = value and SET SESSION name = value. */
const SESSION = new Set([
  'wait_timeout', 'throttling_period', 'net_write_timeout', 'net_read_timeout', 'interactive_timeout', 'thread_stack',
  'optimize_by_id', 'max_threads_per_query', 'ro', 'threads_ex', 'autocommit', 'collation_connection',
  'sql_quote_show_create', 'character_set_results', 'sql_auto_is_null', 'sql_safe_updates', 'sql_mode', 'time_zone',
  'profiling',
]);

/** SET GLOBAL name = value. */
const GLOBAL = new Set([
  'query_log_format', 'log_level', 'query_log_min_msec', 'qcache_max_bytes', 'qcache_thresh_msec', 'qcache_ttl_sec',
  'log_debug_filter', 'log_http_filter', 'es_compat', 'net_wait', 'grouping_in_utc', 'timezone', 'cpustats', 'iostats',
  'coredump', 'maintenance', 'thread_stack', 'wait_timeout', 'interactive_timeout', 'net_read_timeout', 'read_timeout',
  'net_write_timeout', 'network_timeout', 'reset_network_timeout_on_packet', 'throttling_period', 'max_threads_per_query',
  'auto_optimize', 'parallel_chunk_merges', 'merge_chunks_per_job', 'knn_parallel_build', 'embeddings_threads',
  'optimize_cutoff', 'pseudo_sharding', 'secondary_indexes', 'accurate_aggregation', 'distinct_precision_threshold',
  'threads_ex', 'expansion_merge_threshold_docs', 'expansion_merge_threshold_hits', 'cluster_user',
]);

/** quarry's own server settings (searchd reads them from its config only), settable in either form. */
const QUARRY_GLOBALS = new Set(['auto_schema', 'not_terms_only_allowed', 'expansion_limit']);

/**
 * Refuses a name searchd's SET does not know, with its error: "Unknown system variable 'x'" for SET
 * GLOBAL, "Unknown session variable 'x' in SET statement" otherwise. `@@name` assignments are searchd's
 * no-op statement (any name) and `@name` user variables are not checked here.
 */
export function checkSetName(name: string, scope: 'global' | 'session' | undefined): void {
  if (QUARRY_GLOBALS.has(name)) return;
  if (scope === 'global') {
    if (!GLOBAL.has(name)) throw new SearchError('BAD_VALUE', `Unknown system variable '${name}'`);
  } else if (!SESSION.has(name)) {
    throw new SearchError('BAD_VALUE', `Unknown session variable '${name}' in SET statement`);
  }
}

/**
 * SET GLOBAL names searchd's HandleSetGlobal takes on a VIP connection only (a `_vip` listener); quarry
 * has no VIP connections (listen.ts reads the suffix as the plain protocol), so every client gets the
 * refusal a plain searchd listener gives. read_timeout shares net_read_timeout's message. auto_optimize
 * is VIP-only too, but quarry applies it (sql26: it drives the idle compaction of every table).
 */
const VIP_ONLY: Record<string, string> = {
  maintenance: 'Only VIP connections can set maintenance mode',
  ...Object.fromEntries(['thread_stack', 'wait_timeout', 'interactive_timeout', 'net_read_timeout', 'net_write_timeout',
    'network_timeout', 'reset_network_timeout_on_packet', 'throttling_period', 'threads_ex']
    .map((n) => [n, `Only VIP connections can change global ${n} value`])),
  read_timeout: 'Only VIP connections can change global net_read_timeout value',
};

/**
 * The values searchd's HandleSetGlobal checks for the settings quarry takes without an effect:
 * query_log_format and log_level name one of a few words; any other is its error, not a no-op.
 */
export function checkSetValue(name: string, scope: 'global' | 'session' | undefined, text: string): void {
  if (scope !== 'global') return;
  const vip = VIP_ONLY[name];
  if (vip) throw new SearchError('BAD_VALUE', vip);
  if (name === 'query_log_format' && text !== 'plain' && text !== 'sphinxql') {
    throw new SearchError('BAD_VALUE', 'Unknown query_log_format value (must be plain or sphinxql)');
  }
  if (name !== 'log_level' || ['info', 'debug', 'debugv', 'debugvv', 'replication'].includes(text)) return;
  if (!text.startsWith('http')) throw new SearchError('BAD_VALUE', 'Unknown log_level value (must be one of info, debug, debugv, debugvv, replication)');
  if (!text.startsWith('http_')) throw new SearchError('BAD_VALUE', 'Unknown log_level value (http_on, http_off, http_bad_req_on, http_bad_req_off)');
}
