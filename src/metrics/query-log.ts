/**
 * searchd's `query_log` in `query_log_format = sphinxql`: one line per SELECT or UPDATE, as Manticore
 * writes it: `/* Sun Apr 28 12:38:02.808 2024 conn 2 (127.0.0.1:53228) real 0.000 wall 0.000 found 0 * /
 * SELECT ...;` (UPDATE lines carry `real` only). A failed statement gets ` # error=...` after it. Statements
 * faster than `query_log_min_msec` are not written. The file is reopened on SIGUSR1 (logrotate).
 */
import { LogFile } from './log-file.js';

export interface StatementEvent {
  kind: string;
  text: string;
  ms: number;
  found?: number;
  error?: string;
  connId?: number;
  peer?: string;
}

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

export function formatQueryLine(e: StatementEvent, at: Date): string {
  const secs = (e.ms / 1000).toFixed(3);
  const conn = e.connId !== undefined ? ` conn ${e.connId}${e.peer ? ` (${e.peer})` : ''}` : '';
  const head = e.kind === 'select' ? `real ${secs} wall ${secs} found ${e.found ?? 0}` : `real ${secs}`;
  const tail = e.error ? ` # error=${e.error.replace(/[\r\n]+/g, ' ')}` : '';
  return `/* ${logTime(at)}${conn} ${head} */ ${oneLine(e.text)}${tail}\n`;
}

export class QueryLog {
  constructor(private readonly file: LogFile, private readonly minMs: number) {}

  /** Writes `e` if it is a logged kind (SELECT, UPDATE) and took at least query_log_min_msec. */
  write(e: StatementEvent): void {
    if (e.kind !== 'select' && e.kind !== 'update') return;
    if (e.ms < this.minMs) return;
    this.file.write(formatQueryLine(e, new Date()));
  }
}
