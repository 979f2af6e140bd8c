/**
 * SQL HIGHLIGHT([{options}], [fields], [query]) and SNIPPET(expr, query, 'opt=value', ...) as
 * select-list columns: computed per row of the final page only, from the document store.
 */
import type { CallExpr, Expr, OptionValue } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { mapSliced } from '../../util/time-slice.js';
import type { RowSource } from '../select-items.js';
import { snippetQuery } from './snippet-call.js';
import { packSnippets, snippetBuilder, type DocumentSnippets, type FieldInput } from '../../highlight/snippet-builder.js';
import {
  checkSnippetOptions, setSnippetOptionLoose, SNIPPET_DEFAULTS, type SnippetOptions,
} from '../../highlight/snippet-options.js';
import type { Table } from '../table.js';

/** Documents highlighted so far (the post-limit rule is tested with it). */
export const highlightStats = { documents: 0 };

export interface HighlightContext {
  /** The statement's MATCH text (undefined = no full-text query). */
  match?: string;
}

/** Where a highlight column takes its text from. */
type Source =
  | { kind: 'fields'; names: string[] }
  | { kind: 'attr'; name: string }
  | { kind: 'text'; text: string };

function optionValue(v: OptionValue): string | number {
  if (v.kind === 'string') return v.value;
  if (v.kind === 'int') return Number(v.value);
  if (v.kind === 'float') return v.value;
  if (v.kind === 'ident') return v.name;
  throw new SearchError('BAD_VALUE', 'unexpected option value');
}

function isCall(e: Expr | undefined, name: string): e is CallExpr {
  return !!e && e.kind === 'call' && e.name === name;
}

function stringOf(e: Expr | undefined): string | undefined {
  return e && e.kind === 'literal' && e.value.kind === 'string' ? e.value.value : undefined;
}

/** The stored full-text fields of the table, in declaration order. */
function storedFields(table: Table): string[] {
  return table.schema.columns.filter((c) => c.type === 'text' && c.indexed && c.stored).map((c) => c.name);
}

function sourceOf(table: Table, e: Expr | undefined): Source {
  if (!e) return { kind: 'fields', names: storedFields(table) };
  const s = stringOf(e);
  if (s !== undefined) {
    const all = storedFields(table);
    if (s.trim() === '') return { kind: 'fields', names: all };
    const wanted = s.split(',').map((x) => x.trim().toLowerCase());
    return { kind: 'fields', names: all.filter((f) => wanted.includes(f.toLowerCase())) };
  }
  if (isCall(e, 'to_string')) return { kind: 'text', text: stringOf(e.args[0]) ?? '' };
  if (e.kind === 'column') {
    const c = table.column(e.name);
    if (!c) throw new SearchError('QUERY_ERROR', `table ${table.name}: parse error: unknown column: ${e.name}`);
    return { kind: 'attr', name: c.name };
  }
  throw new SearchError('QUERY_ERROR', `highlight(): unexpected argument '${e.text}'`);
}

function queryText(e: Expr | undefined, ctx: HighlightContext): string {
  if (!e || isCall(e, 'query')) return ctx.match ?? '';
  const s = stringOf(e);
  if (s === undefined) throw new SearchError('QUERY_ERROR', `highlight(): query must be a string`);
  return s;
}

interface Spec { source: Source; query: string; opts: SnippetOptions }

function highlightSpec(table: Table, call: CallExpr, ctx: HighlightContext): Spec {
  const args = [...call.args];
  const opts: SnippetOptions = { ...SNIPPET_DEFAULTS };
  if (args[0]?.kind === 'map') {
    for (const en of args[0].entries) setSnippetOptionLoose(opts, en.name, optionValue(en.value));
    args.shift();
  }
  checkSnippetOptions(opts);
  return { source: sourceOf(table, args[0]), query: queryText(args[1], ctx), opts };
}

function snippetSpec(table: Table, call: CallExpr, ctx: HighlightContext): Spec {
  if (call.args.length < 2) throw new SearchError('QUERY_ERROR', 'SNIPPET() requires 2 or more arguments');
  const opts: SnippetOptions = { ...SNIPPET_DEFAULTS };
  for (const a of call.args.slice(2)) {
    const s = stringOf(a) ?? '';
    const eq = s.indexOf('=');
    if (eq < 0) throw new SearchError('QUERY_ERROR', `SNIPPET(): option '${s}' must be name=value`);
    setSnippetOptionLoose(opts, s.slice(0, eq).trim().toLowerCase(), s.slice(eq + 1));
  }
  checkSnippetOptions(opts);
  const first = call.args[0];
  const source: Source = first.kind === 'column' ? { kind: 'attr', name: first.name } : { kind: 'text', text: stringOf(first) ?? '' };
  return { source, query: queryText(call.args[1], ctx), opts };
}

/** A HIGHLIGHT() / SNIPPET() column: one cell, or a page's cells at once. */
export interface HighlightColumn {
  read(r: RowSource): string;
  readPage(rs: RowSource[]): Promise<string[]>;
}

/** The HIGHLIGHT() / SNIPPET() column of `e`; undefined when `e` is neither. */
export function highlightReader(table: Table, e: Expr, ctx: HighlightContext): HighlightColumn | undefined {
  if (!isCall(e, 'highlight') && !isCall(e, 'snippet')) return undefined;
  const spec = e.name === 'highlight' ? highlightSpec(table, e, ctx) : snippetSpec(table, e, ctx);
  let build: DocumentSnippets | undefined;
  const builder = () => (build ??= snippetBuilder(snippetQuery(table, spec.query), spec.opts, env, flags));
  const env = { pipeline: table.pipeline, settings: table.schema.settings };
  const fromFields = spec.source.kind === 'fields';
  const flags = { ignoreFields: !fromFields, textFromIndex: fromFields, packFields: false, schemaFields: table.index.schema.fields };
  return {
    read: (r) => {
      highlightStats.documents++;
      const fields = fieldsOf(table, spec.source, r);
      if (!fields.length) return '';
      return packSnippets(builder()(fields), spec.opts);
    },
    readPage: async (rs) => {
      highlightStats.documents += rs.length;
      const inputs = rs.map((r) => fieldsOf(table, spec.source, r));
      if (!inputs.some((f) => f.length)) return inputs.map(() => '');
      const b = builder();
      // sliced: a cheap query that arrives meanwhile is answered between documents (util/time-slice.ts)
      return mapSliced(inputs, (f) => (f.length ? packSnippets(b(f), spec.opts) : ''));
    },
  };
}

function fieldsOf(table: Table, src: Source, r: RowSource): FieldInput[] {
  if (src.kind === 'text') return [{ name: '', text: src.text }];
  if (src.kind === 'attr') {
    const c = table.column(src.name);
    if (c && c.type === 'text') return c.stored ? [{ name: c.name, text: String(r.text[c.name] ?? '') }] : [];
    const v = r.attrs.get(src.name);
    return typeof v === 'string' ? [{ name: src.name, text: v }] : [];
  }
  return src.names.map((n) => ({ name: n, text: String(r.text[n] ?? '') }));
}
