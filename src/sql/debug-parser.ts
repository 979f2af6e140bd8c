/**
 * DEBUG SLEEP N: searchd's debug grammar (sphinxql_debug.y) statement that Manticore's own test
 * recordings use to hold a connection open (`LOCK TABLES t READ; DEBUG SLEEP 5`). Only SLEEP is
 * built; any other DEBUG command is the grammar's syntax error.
 */
import type { DebugSleepStatement } from './ast.js';
import type { Cursor } from './cursor.js';
import { parseNumber } from './literals.js';

export function parseDebug(c: Cursor): DebugSleepStatement {
  c.dialect = 'P02';
  c.expectKw('DEBUG');
  c.expectKw('SLEEP');
  const n = parseNumber(c, ['integer', 'float']);
  return { kind: 'debug_sleep', text: '', seconds: Number(n.value) };
}
