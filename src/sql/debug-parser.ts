/**
 * DEBUG SLEEP N: searchd's debug grammar (sphinxql_debug.y) statement that Manticore's own test
 * recordings use to hold a connection open (`LOCK TABLES t READ; DEBUG SLEEP 5`). Only SLEEP is
 * built; any other DEBUG command is the grammar's syntax error.
 */
import type { DebugSleepStatement } from './ast.js';
import type { Cursor } from './cursor.js';
import { SearchError } from '../util/errors.js';

/** searchd keeps the time in microseconds in an int64 (its grammar multiplies the seconds by 10^6). */
const MAX_SECONDS = (2n ** 63n - 1n) / 1000000n;

export function parseDebug(c: Cursor): DebugSleepStatement {
  c.dialect = 'P02';
  c.expectKw('DEBUG');
  c.expectKw('SLEEP');
  // whole seconds only, as the grammar's TOK_CONST_INT: a float or a sign is its syntax error
  const t = c.peek();
  if (t.kind !== 'int') c.fail(['integer']);
  c.next();
  const seconds = BigInt(t.value);
  if (seconds > MAX_SECONDS) throw new SearchError('PARSE_ERROR', `P02: sleep time ${t.value} out of range (at most ${MAX_SECONDS} seconds)`);
  return { kind: 'debug_sleep', text: '', seconds: Number(seconds) };
}
