/**
 * SHOW [GLOBAL|SESSION] VARIABLES [LIKE 'pattern']: searchd's list (HandleMysqlShowVariables), in its
 * order, with the names that mean something in quarry. searchd's others describe machinery quarry has
 * not (parallel_chunk_merges, merge_chunks_per_job, knn_parallel_build, embeddings_threads,
 * pseudo_sharding, secondary_indexes, threads_ex*, cluster_user, grouping_in_utc, timezone) or live in
 * the server's config, out of the engine's sight (the timeouts); a made-up value would mislead more than
 * an absent row. query_log_format and log_level are the server's, read through GlobalSettings.serverSetting.
 */
import type { AutoOptimize } from '../index-factory.js';
import type { GlobalSettings } from '../server-vars.js';
import type { Session } from '../session.js';

/** searchd's GetLastInsertId: the last INSERT/REPLACE ids comma-separated, '0' before any. */
export function lastInsertIdText(session: Session): string {
  return session.lastInsertIds?.length ? session.lastInsertIds.join(',') : '0';
}

/**
 * The rows in searchd's order. searchd lists `user` only for a bare SHOW VARIABLES (its GLOBAL and
 * SESSION forms both take the global branch, m_iIntParam >= 0). quarry's own SET GLOBAL settings
 * (auto_schema, not_terms_only_allowed, expansion_limit: searchd reads these from its config only)
 * follow searchd's list, so what SET changes can be read back.
 */
export function variablesRows(
  settings: GlobalSettings, session: Session, optimize: { autoOptimize: AutoOptimize; defaultCutoff: number }, scope?: 'global' | 'session',
): string[][] {
  const out: string[][] = [
    ['autocommit', session.autocommit ? '1' : '0'],
    ['auto_optimize', String(optimize.autoOptimize)],
    // the cutoff a table without its own optimize_cutoff merges down to (index-factory.ts)
    ['optimize_cutoff', String(optimize.defaultCutoff)],
    // searchd's own name of the session's collation (libc_ci by default)
    ['collation_connection', session.collation ?? settings.collation_server],
    // held by the server (its query log and log); absent in process, where there is none
    ...['query_log_format', 'log_level'].flatMap((n) => {
      const v = settings.serverSetting?.(n);
      return v === undefined ? [] : [[n, v]];
    }),
    ['max_allowed_packet', '134217728'],
    ['character_set_client', 'utf8'],
    ['character_set_connection', 'utf8'],
    ['last_insert_id', lastInsertIdText(session)],
  ];
  if (scope === undefined) out.push(['user', 'root']);
  // SHOW GLOBAL VARIABLES: each SET GLOBAL @name with its value count (searchd's IterateUservars)
  if (scope === 'global') for (const [name, values] of settings.uservars) out.push([name, String(values.length)]);
  out.push(['auto_schema', settings.auto_schema ? '1' : '0'], ['not_terms_only_allowed', settings.not_terms_only_allowed ? '1' : '0'],
    ['expansion_limit', String(settings.expansion_limit)]);
  return out;
}
