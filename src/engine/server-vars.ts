/** Server-wide settings changeable with SET GLOBAL, and the system variables clients probe. */
import { DEFAULT_COLLATION, type CollationName } from '../util/collation.js';

/** The version string clients see; Manticore's major version it follows, then our own. */
export const VERSION = '29.2.2 quarry-0.1.0';
export const VERSION_COMMENT = 'quarry: Manticore-compatible full-text search';

export interface GlobalSettings {
  /** Create tables on INSERT into a missing table (spec section 7); default on. */
  auto_schema: boolean;
  /** Allow queries made only of NOT terms; default off. */
  not_terms_only_allowed: boolean;
  /** Most frequent expansions kept per wildcard keyword (Manticore's expansion_limit); 0 = all. */
  expansion_limit: number;
  /** searchd collation_server (config only): how strings compare in queries unless a session sets its own. */
  collation_server: CollationName;
  /** SET GLOBAL @name = (1,2,3): searchd's global user variables (`WHERE id IN @name`), sorted; kept in memory only. */
  uservars: Map<string, bigint[]>;
  /**
   * SET GLOBAL of a setting the server holds, not the engine (query_log_format, query_log_min_msec,
   * log_level: the query log is the server's, server/logs.ts); the value already checked. Unset in
   * process (no server, no log).
   */
  onServerSetting?: (name: string, value: string) => void;
  /** The server's current query_log_format / log_level (SHOW VARIABLES); unset in process. */
  serverSetting?: (name: string) => string | undefined;
}

export function defaultSettings(): GlobalSettings {
  return { auto_schema: true, not_terms_only_allowed: false, expansion_limit: 0, collation_server: DEFAULT_COLLATION, uservars: new Map() };
}

/** The MySQL version Buddy answers `SELECT @@version` with (searchd has no @@version of its own). */
export const BUDDY_MYSQL_VERSION = '8.0.43';

/**
 * The names searchd answers itself, spelled exactly so (HandleMysqlSelectColumns compares the item's text
 * case-sensitively); a SELECT with any other @@name is Buddy's, the whole statement.
 */
const SEARCHD_SYSVARS: ReadonlySet<string> = new Set(['@@session.auto_increment_increment', '@@character_set_client',
  '@@character_set_connection', '@@max_allowed_packet', '@@wait_timeout', '@@interactive_timeout', '@@version_comment',
  '@@lower_case_table_names', '@@session.last_insert_id', '@@autocommit']);

export function searchdSysvar(text: string): boolean {
  return SEARCHD_SYSVARS.has(text);
}

/**
 * The variables Buddy answers as text though their value is a number: the mysql client aligns them left
 * (CLT expected-errors/test-system-variables-error-handling.rec, Connector/J's start-up query: '1' for
 * auto_increment_increment, lower_case_table_names and performance_schema, '60' for net_write_timeout,
 * while interactive_timeout and query_cache_size stay numbers).
 */
const BUDDY_TEXT_NUMBERS: ReadonlySet<string> = new Set(['auto_increment_increment', 'lower_case_table_names',
  'net_write_timeout', 'performance_schema']);

/** A variable's value as Buddy writes it when Buddy answers the statement. */
export function buddySysvar(name: string, value: string | number): string | number {
  const key = name.toLowerCase().replace(/^(global|session|local)\./, '');
  if (key === 'version') return BUDDY_MYSQL_VERSION;
  return BUDDY_TEXT_NUMBERS.has(key) ? String(value) : value;
}

/**
 * `@@name` values a client may select (`select @@version_comment limit 1`); undefined for a name neither
 * searchd nor its Buddy knows, which SELECT refuses with `unknown sysvar @@name` (searchd's error when Buddy
 * runs and cannot answer either). searchd answers a few itself (HandleMysqlSelectColumns); Buddy answers the
 * MySQL server variables connectors probe (Connector/J's start-up query) with MySQL 8's defaults.
 */
export function systemVariable(name: string, settings: GlobalSettings): string | number | undefined {
  const key = name.toLowerCase().replace(/^(global|session|local)\./, '');
  switch (key) {
    case 'version_comment': return VERSION_COMMENT;
    case 'version': return VERSION;
    case 'auto_increment_increment': case 'auto_increment_offset': case 'autocommit': return 1;
    case 'max_allowed_packet': return 134217728;
    // searchd answers these two itself, 'utf8' (HandleMysqlSelectColumns, as SHOW VARIABLES)
    case 'character_set_client': case 'character_set_connection': return 'utf8';
    case 'character_set_results': case 'character_set_server': case 'character_set_database': return 'utf8mb4';
    case 'collation_connection': case 'collation_server': case 'collation_database': return 'utf8mb4_0900_ai_ci';
    case 'tx_isolation': case 'transaction_isolation': return 'REPEATABLE-READ';
    case 'tx_read_only': case 'transaction_read_only': return 0;
    // MySQL 8's default sql_mode, as Buddy answers it
    case 'sql_mode': return 'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';
    case 'lower_case_table_names': return 1;
    case 'system_time_zone': return 'UTC';
    case 'time_zone': return 'SYSTEM';
    case 'wait_timeout': return 28800;
    case 'net_write_timeout': return 60;
    case 'net_read_timeout': return 30;
    // searchd's interactive_timeout is its sphinxql_timeout, 900 s by default (quarry's idle MySQL timeout too)
    case 'interactive_timeout': return 900;
    case 'init_connect': case 'gtid_executed': case 'gtid_purged': return '';
    case 'license': return 'GPL';
    case 'performance_schema': return 1;
    case 'query_cache_size': case 'max_execution_time': return 0;
    case 'query_cache_type': case 'gtid_mode': return 'OFF';
    case 'auto_schema': return settings.auto_schema ? 1 : 0;
    case 'not_terms_only_allowed': return settings.not_terms_only_allowed ? 1 : 0;
    case 'expansion_limit': return settings.expansion_limit;
    default: return undefined;
  }
}
