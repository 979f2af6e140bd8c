/** Expression errors in the shape Manticore's search reply gives them: `table t: parse error: ...`. */
import { SearchError } from '../../util/errors.js';
import type { Table } from '../table.js';

export function exprError(table: Table, msg: string, code: 'QUERY_ERROR' | 'UNSUPPORTED' = 'QUERY_ERROR'): SearchError {
  return new SearchError(code, code === 'UNSUPPORTED' ? `table ${table.name}: ${msg}` : `table ${table.name}: parse error: ${msg}`);
}
