/** One error type for the whole engine; each protocol maps it once (MySQL ERR, HTTP status). */

export type ErrorCode =
  | 'PARSE_ERROR'      // SQL or full-text syntax
  | 'UNKNOWN_TABLE'
  | 'TABLE_EXISTS'
  | 'DUPLICATE_ID'
  | 'UNKNOWN_COLUMN'
  | 'BAD_VALUE'        // a value of the wrong type or out of range
  | 'BAD_SETTING'
  | 'QUERY_ERROR'      // a well-formed query that cannot run
  | 'UNSUPPORTED'
  | 'STORAGE_ERROR'    // the data directory cannot be written (disk full, I/O error) or read back intact
  | 'INTERNAL';

/** Manticore answers nearly every SQL error with errno 1064 and SQLSTATE 42000. */
export const MYSQL_ERRNO = 1064;
export const MYSQL_SQLSTATE = '42000';

export class SearchError extends Error {
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, opts?: { cause?: unknown }) {
    super(message, opts);
    this.code = code;
    this.name = 'SearchError';
  }
}

/** Any thrown value as a SearchError; unexpected ones become INTERNAL with their message. */
export function asSearchError(e: unknown): SearchError {
  if (e instanceof SearchError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  return new SearchError('INTERNAL', msg, { cause: e });
}
