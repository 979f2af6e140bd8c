/**
 * searchd's `log` and `query_log` settings: `log` receives the server's own lines (`[time] [pid]
 * message`, one per event), `query_log` one line per SELECT (SQL or JSON /search) and UPDATE in
 * `query_log_format = sphinxql` (the default), filtered by `query_log_min_msec`, plus the statements
 * `query_log_commands` names (metrics/query-log.ts); or `plain`, successful searches only
 * (metrics/query-log-plain.ts).
 * Both files reopen on SIGUSR1, so logrotate can move them away.
 */
import { lastValue, type ManticoreConfig } from './config-parser.js';
import { LogFile } from '../metrics/log-file.js';
import { metrics } from '../metrics/metrics.js';
import { logTime, parseLogCommands, QueryLog, type QueryLogFormat } from '../metrics/query-log.js';
import { SearchError } from '../util/errors.js';
import { setServerLogSink } from '../util/server-log.js';

export interface ServerLogs {
  /** Writes one line to the `log` file (if set). */
  info(message: string): void;
  /**
   * SET GLOBAL query_log_format / query_log_min_msec (checked by the engine): the query log's next
   * lines follow them, as searchd's SetLogFormat / g_iQueryLogMinMs. log_level changes nothing here:
   * quarry writes no debug lines to filter.
   */
  setting(name: string, value: string): void;
  /** query_log_format and log_level as they are now (searchd's SHOW VARIABLES rows). */
  settingValue(name: string): string | undefined;
  close(): void;
}

export function openLogs(config: ManticoreConfig | undefined): ServerLogs {
  const logPath = lastValue(config?.searchd, 'log');
  const queryPath = lastValue(config?.searchd, 'query_log');
  const format = (lastValue(config?.searchd, 'query_log_format') ?? 'sphinxql').toLowerCase();
  if (format !== 'sphinxql' && format !== 'plain') throw new SearchError('BAD_SETTING', `query_log_format = ${format} is not supported (sphinxql and plain are)`);
  const minText = lastValue(config?.searchd, 'query_log_min_msec') ?? '0';
  if (!/^\d+$/.test(minText)) throw new SearchError('BAD_SETTING', `query_log_min_msec must be a number of milliseconds, got '${minText}'`);
  const commands = parseLogCommands(lastValue(config?.searchd, 'query_log_commands') ?? '');
  if (typeof commands === 'string') throw new SearchError('BAD_SETTING', commands);
  const log = logPath ? new LogFile(logPath) : undefined;
  const queries = queryPath ? new LogFile(queryPath) : undefined;
  const q = queries ? new QueryLog(queries, Number(minText), commands, format as QueryLogFormat) : undefined;
  if (q) metrics.statementListener = (e) => q.write(e);
  // searchd keeps both even without a query log; log_level http_* switches leave the level as it was
  const current = { format: format as QueryLogFormat, level: 'info' };
  const line = (message: string) => `[${logTime(new Date())}] [${process.pid}] ${message.replace(/[\r\n]+/g, ' ')}\n`;
  // the server's warnings and errors (util/server-log.ts) land in the log file too
  if (log) setServerLogSink((message) => log.write(line(message)));
  const reopen = () => {
    log?.reopen();
    queries?.reopen();
  };
  if (log || queries) process.on('SIGUSR1', reopen);
  return {
    info: (message) => log?.write(line(message)),
    setting: (name, value) => {
      if (name === 'query_log_format') current.format = value as QueryLogFormat;
      else if (name === 'log_level' && !value.startsWith('http')) current.level = value;
      if (!q) return;
      if (name === 'query_log_format') q.format = value as QueryLogFormat;
      else if (name === 'query_log_min_msec') q.minMs = Number(value);
    },
    settingValue: (name) => (name === 'query_log_format' ? current.format : name === 'log_level' ? current.level : undefined),
    close: () => {
      process.off('SIGUSR1', reopen);
      if (log) setServerLogSink(undefined);
      metrics.statementListener = undefined;
      log?.close();
      queries?.close();
    },
  };
}
