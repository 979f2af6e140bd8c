/** CALL SNIPPETS(data | (d1, d2, ...), 'table', 'query' [, value AS option ...]): one row per text. */
import type { CallStatement } from '../../sql/ast.js';
import { parseQuery } from '../../query/parse-query.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { rows, stringColumns, type Result } from '../result.js';
import { packSnippets, snippetBuilder } from '../../highlight/snippet-builder.js';
import { loadSnippetFiles } from './snippet-files.js';
import { snippetOptions, type RawOption } from '../../highlight/snippet-options.js';
import type { Table } from '../table.js';
import type { QueryNode } from '../../query/ast.js';
import { TableParseCache } from '../parse-cache.js';

const ARGS_ERROR = 'SNIPPETS() expects exactly 3 arguments (data, table, query)';

export function optionsOf(st: CallStatement): RawOption[] {
  return st.options.map((o) => {
    const v = o.value;
    if (v.kind === 'string') return { name: o.name, value: v.value };
    if (v.kind === 'int') return { name: o.name, value: Number(v.value) };
    if (v.kind === 'float') return { name: o.name, value: v.value };
    throw new SearchError('BAD_VALUE', `unexpected option ${o.name} type`);
  });
}

/** The query as the snippet builder reads it: full syntax, the table's fields known to the parser. */
export function snippetQuery(table: Table, text: string): QueryNode {
  return QUERY_CACHE.get(table, text, () => {
    const p = table.pipeline;
    return parseQuery(text, {
      fields: table.index.schema.fields,
      isWordChar: (cp) => p.isWordChar(cp),
      isNullWord: (w) => p.normalizeWord(w).length === 0,
      notTermsOnlyAllowed: true,
      textHooks: p,
    }).root;
  });
}

/**
 * Snippet query trees by their text, per table (HIGHLIGHT() of every page, CALL SNIPPETS): a repeated
 * query skips the parse, and the builder's per-tree memos (the scan path's plan) hold across statements.
 */
const QUERY_CACHE = new TableParseCache<QueryNode>(1024, 2048);

export async function callSnippets(catalog: Catalog, st: CallStatement): Promise<Result> {
  if (st.args.length !== 3) throw new SearchError('PARSE_ERROR', ARGS_ERROR);
  const [data, tableArg, queryArg] = st.args;
  if (tableArg.kind !== 'string' || queryArg.kind !== 'string') throw new SearchError('PARSE_ERROR', ARGS_ERROR);
  let docs: string[];
  if (data.kind === 'string') docs = [data.value];
  else if (data.kind === 'string_list') docs = data.values;
  else throw new SearchError('PARSE_ERROR', ARGS_ERROR);
  const o = snippetOptions(optionsOf(st));
  const table = catalog.get(tableArg.value);
  if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown local table '${tableArg.value}' in search request`);
  const root = snippetQuery(table, queryArg.value);
  // load_files and load_files_scattered: the data items name files under snippets_file_prefix
  if (o.loadFiles || o.loadFilesScattered) docs = await loadSnippetFiles(docs, o.loadFiles);
  const env = { pipeline: table.pipeline, settings: table.schema.settings };
  const flags = { ignoreFields: true, textFromIndex: false, packFields: false };
  const build = snippetBuilder(root, o, env, flags);
  const out = docs.map((d) => [packSnippets(build([{ name: '', text: d }]), o)]);
  return rows(stringColumns('snippet'), out);
}
