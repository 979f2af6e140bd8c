/**
 * searchd's `query_log` in `query_log_format = sphinxql`, as Manticore writes it (daemon/query_log.cpp):
 * - SELECT: `/* Sun Apr 28 12:38:02.808 2024 conn 2 (127.0.0.1:53228) real 0.000 wall 0.000 found 0 * / SELECT ...;`
 * - a JSON /search: the same head, then the request body with its whitespace squeezed, in a comment:
 *   `... found 3 * /  /*{"table":"t","query":{"match":{"*":"x"}}} * /`
 * - UPDATE: `real` only; statements named by `query_log_commands` (`1` or `*` for all, else a comma list
 *   of Manticore's statement names: insert, replace, delete, ...) the same way, JSON writes with their body
 * - a failed search (SQL or JSON): the same line with ` /* error=message * /` after the statement; any
 *   other failed statement, one that did not parse included: `/* time conn N (peer) * / statement # error=message`
 *   (LogSphinxqlError).
 * Searches faster than `query_log_min_msec` are not written. The file is reopened on SIGUSR1 (logrotate).
 * `query_log_format = plain` writes query-log-plain.ts's lines instead.
 */
import { LogFile } from './log-file.js';
import { formatPlainLine, type SearchSummary } from './query-log-plain.js';

export interface StatementEvent {
  /** The statement kind (select, update, insert, replace, delete, ...; `parse_error` when none). */
  kind: string;
  /** The SQL text, or the JSON request body when `json` is set. */
  text: string;
  json?: boolean;
  ms: number;
  found?: number;
  error?: string;
  connId?: number;
  peer?: string;
  /** A SQL search's parts for the plain format (query-log-plain.ts); JSON ones are read from the body. */
  search?: SearchSummary;
}

/** searchd's query_log_format values. */
export type QueryLogFormat = 'sphinxql' | 'plain';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `Sun Apr 28 12:38:02.808 2024`, Manticore's log time stamp (local time). */
export function logTime(d: Date): string {
  return `${DAYS[d.getDay()]} ${MONTHS[d.getMonth()]} ${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)} ${d.getFullYear()}`;
}

/** The statement on one line: newlines become spaces so each entry stays one line. */
function oneLine(text: string): string {
  const t = text.replace(/[\r\n]+/g, ' ').trim();
  return t.endsWith(';') ? t : `${t};`;
}

/**
 * JSON text with runs of whitespace outside strings squeezed to one space (Manticore's
 * VacuumSpacesFromJson); strings are kept byte for byte, so the entry still replays.
 */
export function squeezeJson(text: string): string {
  let out = '';
  let inString = false;
  let space = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
      if (!space) out += ' ';
      space = true;
      continue;
    } else {
      out += ch;
      if (ch === '"') inString = true;
    }
    space = false;
  }
  return out.trim();
}

/** Manticore's statement names (SqlStmt2Str) for quarry's kinds, as query_log_commands lists them. */
const COMMAND_NAMES: Record<string, string> = {
  select: 'select', insert: 'insert', replace: 'replace', delete: 'delete', update: 'update', set: 'set',
  create_table: 'create_table', create_table_like: 'create_table_like', drop_table: 'drop_table',
  truncate: 'truncate_rtindex', optimize: 'optimize_index', attach: 'attach_index', flush: 'flush_rtindex',
  alter_table: 'alter', call: 'call', begin: 'begin', commit: 'commit', rollback: 'rollback', describe: 'desc',
  show: 'show', backup: 'backup', lock_tables: 'lock_tables', unlock_tables: 'unlock_tables', bulk: 'bulk',
};
const KNOWN_COMMANDS = new Set(Object.values(COMMAND_NAMES));

/** `query_log_commands`: '' or `0` none, `1` or `*` all, else names; an unknown name is an error message. */
export function parseLogCommands(value: string): Set<string> | 'all' | string {
  const names = value.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (names.includes('1') || names.includes('*')) return 'all';
  if (names.includes('0')) return new Set();
  const bad = names.filter((n) => !KNOWN_COMMANDS.has(n));
  if (bad.length) return `query_log_commands: unknown statement name(s) ${bad.join(', ')} (known: ${[...KNOWN_COMMANDS].join(', ')})`;
  return new Set(names);
}

export function formatQueryLine(e: StatementEvent, at: Date): string {
  const secs = (e.ms / 1000).toFixed(3);
  const conn = e.connId !== undefined ? ` conn ${e.connId}${e.peer ? ` (${e.peer})` : ''}` : '';
  const error = e.error?.replace(/[\r\n]+/g, ' ');
  const body = e.json ? ` /*${squeezeJson(e.text).replace(/\*\//g, '*\\/')} */` : oneLine(e.text);
  // a statement that failed outside a search (parse errors, UPDATE, ...): Manticore's LogSphinxqlError
  if (error !== undefined && e.kind !== 'select') return `/* ${logTime(at)}${conn} */ ${e.text.replace(/[\r\n]+/g, ' ').trim()} # error=${error}\n`;
  const head = e.kind === 'select' ? `real ${secs} wall ${secs} found ${e.found ?? 0}` : `real ${secs}`;
  const tail = error !== undefined ? ` /* error=${error} */` : '';
  return `/* ${logTime(at)}${conn} ${head} */ ${body}${tail}\n`;
}

export class QueryLog {
  constructor(
    private readonly file: LogFile, public minMs: number, private readonly commands: Set<string> | 'all' = new Set(),
    /** SET GLOBAL query_log_format / query_log_min_msec change the next lines (server/logs.ts). */
    public format: QueryLogFormat = 'sphinxql',
  ) {}

  /**
   * Writes `e` if its kind is logged: SELECT (SQL or JSON /search) taking at least query_log_min_msec,
   * UPDATE, statements that failed to parse, and the kinds query_log_commands names.
   */
  write(e: StatementEvent): void {
    if (this.format === 'plain') {
      // successful searches only (LogQueryPlain); query_log_min_msec applies as to sphinxql
      const line = e.ms >= this.minMs ? formatPlainLine(e, new Date()) : undefined;
      if (line) this.file.write(line);
      return;
    }
    const name = COMMAND_NAMES[e.kind];
    const listed = this.commands === 'all' || (name !== undefined && this.commands.has(name));
    if (e.kind === 'select') {
      if (e.ms < this.minMs && !e.error) return;
    } else if (e.kind !== 'update' && e.kind !== 'parse_error' && !listed) return;
    this.file.write(formatQueryLine(e, new Date()));
  }
}
