/** SearchError codes to HTTP statuses, once per endpoint family, and Manticore's `{"error": ...}` body. */
import type { ErrorCode } from '../util/errors.js';

/**
 * How an endpoint reports errors; Manticore differs per family:
 * - `sql-raw`: `/sql?mode=raw`, `/cli_json`, `/cli`: every SQL error is 500.
 * - `sql-search`: `/sql` without mode: a statement that does not parse is 400, one that fails to run 500.
 * - `json`: the JSON API: request shape 400, duplicate id and bad columns 409, execution 500.
 */
export type HttpErrorContext = 'sql-raw' | 'sql-search' | 'json';

export const HTTP_OK = 200;
export const HTTP_BAD_REQUEST = 400;
export const HTTP_CONFLICT = 409;
export const HTTP_PAYLOAD_TOO_LARGE = 413;
export const HTTP_INTERNAL = 500;
export const HTTP_NOT_IMPLEMENTED = 501;

const JSON_API_STATUS: Partial<Record<ErrorCode, number>> = {
  PARSE_ERROR: HTTP_BAD_REQUEST,
  BAD_VALUE: HTTP_BAD_REQUEST,
  DUPLICATE_ID: HTTP_CONFLICT,
  UNKNOWN_COLUMN: HTTP_CONFLICT,
  UNSUPPORTED: HTTP_NOT_IMPLEMENTED,
};

/** The HTTP status for an error `code` (a SearchError code, or any string) in a context. */
export function httpStatusFor(code: string, context: HttpErrorContext): number {
  switch (context) {
    case 'sql-raw':
      return HTTP_INTERNAL;
    case 'sql-search':
      return code === 'PARSE_ERROR' ? HTTP_BAD_REQUEST : HTTP_INTERNAL;
    case 'json':
      return JSON_API_STATUS[code as ErrorCode] ?? HTTP_INTERNAL;
  }
}

/** Manticore's error body for the SQL endpoints and most JSON ones. */
export function errorBody(message: string): { error: string } {
  return { error: message };
}

/** The error Node gives a body read when the client closed its connection before the body was whole. */
export function isClientAbort(err: unknown): boolean {
  return err instanceof Error && err.message === 'aborted' && (err as NodeJS.ErrnoException).code === 'ECONNRESET';
}
