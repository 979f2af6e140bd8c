/** CALL KEYWORDS, CALL SUGGEST/QSUGGEST, CALL AUTOCOMPLETE (Buddy's) and CALL SNIPPETS, local or over a distributed table (its first local). */
import type { CallStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import type { Result } from '../result.js';
import { callKeywords } from './call-keywords.js';
import { callSuggest } from './call-suggest.js';
import { autocomplete, callAutocompleteArgs } from '../suggest/autocomplete.js';
import { callSnippets } from '../snippets/snippet-call.js';
import type { DistributedDef } from '../distributed/dist-def.js';
import type { DistributedTables } from '../distributed/dist-registry.js';
import { callSnippetsDistributed } from '../distributed/dist-snippets.js';

function stringArg(st: CallStatement, i: number): string {
  const a = st.args[i];
  if (!a || a.kind !== 'string') throw new SearchError('PARSE_ERROR', `${st.name.toUpperCase()}() argument ${i + 1} must be a string`);
  return a.value;
}

/** A CALL's table argument when it names a distributed table. */
function distributedArg(st: CallStatement, dist: DistributedTables | undefined): DistributedDef | undefined {
  const a = st.args[1];
  return a?.kind === 'string' ? dist?.get(a.value) : undefined;
}

export function execCall(catalog: Catalog, st: CallStatement, dist?: DistributedTables, expansionLimit = 0): Result | Promise<Result> {
  const def = distributedArg(st, dist);
  if (st.name === 'keywords') {
    if (st.args.length < 2) throw new SearchError('PARSE_ERROR', 'KEYWORDS() expects 2 arguments (text, table)');
    stringArg(st, 0);
    const tableName = def?.locals[0] ?? stringArg(st, 1); // a distributed table's keywords: its first local's
    const table = catalog.get(tableName);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `no such table '${tableName.toLowerCase()}'`);
    return callKeywords(table, st, expansionLimit);
  }
  if (st.name === 'suggest' || st.name === 'qsuggest') {
    if (st.args.length !== 2) throw new SearchError('PARSE_ERROR', `${st.name.toUpperCase()}() expects 2 arguments (text, table)`);
    const tableName = def?.locals[0] ?? stringArg(st, 1);
    const table = catalog.get(tableName);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `no such table '${tableName.toLowerCase()}'`);
    return callSuggest(table, st);
  }
  if (st.name === 'autocomplete') {
    // Buddy's plugin: its argument and option errors come before the table's
    const { text, table: name, options } = callAutocompleteArgs(st);
    const tableName = dist?.get(name)?.locals[0] ?? name;
    const table = catalog.get(tableName);
    if (!table) throw new SearchError('PARSE_ERROR', `no such table '${name.toLowerCase()}'`);
    return autocomplete(table, text, options);
  }
  if (st.name === 'snippets') return def ? callSnippetsDistributed(catalog, def, st) : callSnippets(catalog, st);
  throw new SearchError('UNSUPPORTED', `no such built-in procedure ${st.name.toUpperCase()}`);
}
