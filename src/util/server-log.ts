/**
 * The server's own warnings and errors: each is one line on stderr (as before, for a terminal or a
 * service manager's journal) and, when searchd `log` is set, one line in that file in Manticore's shape
 * (`[time] [pid] WARNING: message`; server/logs.ts installs the sink). A stack trace, for an internal
 * error only, goes to stderr; the log file keeps one line per event.
 */
type Sink = (line: string) => void;

let sink: Sink | undefined;

/** Where log lines go besides stderr (the searchd `log` file); undefined: stderr only. */
export function setServerLogSink(s: Sink | undefined): void {
  sink = s;
}

function emit(level: 'WARNING' | 'ERROR', message: string, err?: unknown): void {
  const line = message.replace(/[\r\n]+/g, ' ');
  console.error(`quarry: ${line}`);
  if (err instanceof Error && err.stack && !expected(err)) console.error(err.stack);
  sink?.(`${level}: ${line}`);
}

/**
 * An error with a code (a system call's ENOSPC or EIO, a SearchError's kind): an expected condition the
 * message says all of, so no stack trace, which is for an internal error only.
 */
function expected(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code !== 'INTERNAL' && /^[A-Z][A-Z0-9_]*$/.test(code);
}

/** Something the server worked around (a table rebuilt from its store, a failed background checkpoint). */
export function logWarning(message: string, err?: unknown): void {
  emit('WARNING', message, err);
}

/** A failure the server did not expect (an internal error while running a request). */
export function logError(message: string, err?: unknown): void {
  emit('ERROR', message, err);
}
