/**
 * The JSON `highlight` object (Sphinx option names and their ES-style synonyms; `fields` as a list
 * or an object of per-field options; `highlight_query`) and one document's highlight from it:
 * field -> passages. `/search` and the page (src/browser/) both read the object through here.
 * Numbers may be plain JS numbers (a page) or lossless-json's (a request body).
 */
import { isLosslessNumber } from 'lossless-json';
import type { QueryNode } from '../query/ast.js';
import { SearchError } from '../util/errors.js';
import { mapSliced } from '../util/time-slice.js';
import { buildSnippets, ordered, snippetBuilder, type BuildFlags, type FieldInput, type SnippetEnv } from './snippet-builder.js';
import type { PassageText } from './snippet-render.js';
import { checkSnippetOptions, isSnippetOption, setSnippetOption, SNIPPET_DEFAULTS, type SnippetOptions } from './snippet-options.js';
import type { PassageLimits } from './snippet-passages.js';

/** Field -> passages of one document. */
export type RowHighlight = Record<string, string[]>;

const badRequest = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);
const isNumber = (v: unknown): boolean => typeof v === 'number' || isLosslessNumber(v);

/** JSON option name -> snippet option name, for the ES-style synonyms. */
const SYNONYMS: Record<string, string> = {
  pre_tags: 'before_match', post_tags: 'after_match', fragment_size: 'limit', number_of_fragments: 'limit_snippets',
};
const BOOLEAN = new Set(['use_boundaries', 'weight_order', 'force_all_words', 'allow_empty', 'emit_zones', 'force_snippets', 'limits_per_field']);
const IGNORED = new Set(['fields', 'highlight_query', 'pack_fields']);

function scalar(name: string, v: unknown): string | number {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  if (isLosslessNumber(v)) return Number(v.value);
  throw badRequest(`"${name}" property value should be a scalar`);
}

/** One JSON option into `o` (throws searchd's texts). */
function applyOption(o: SnippetOptions, name: string, v: unknown): void {
  if (IGNORED.has(name)) return;
  if (name === 'encoder') { if (v === 'html') o.htmlStripMode = 'retain'; return; }
  if (name === 'order') { o.weightOrder = v === 'score'; return; }
  if (name === 'no_match_size') { o.allowEmpty = scalar(name, v) === 0; return; }
  if (name === 'limits_per_field' && typeof v !== 'boolean' && !isNumber(v)) {
    throw badRequest('"limits_per_field" property value should be a boolean');
  }
  const target = SYNONYMS[name] ?? name;
  // searchd reads the options it knows from the object and ignores other keys
  if (!isSnippetOption(target)) return;
  const value = scalar(name, v);
  setSnippetOption(o, target, BOOLEAN.has(target) || typeof value === 'number' ? Number(value) : value);
}

export interface JsonHighlightSpec {
  opts: SnippetOptions;
  /** Listed fields (in request order) or null for every stored full-text field. */
  fields: string[] | null;
  perField: Map<string, PassageLimits>;
  /** `highlight_query`, when given. */
  query?: unknown;
}

export function parseJsonHighlight(v: unknown): JsonHighlightSpec {
  if (!isObject(v)) throw badRequest('"highlight" property value should be an object');
  const opts: SnippetOptions = { ...SNIPPET_DEFAULTS };
  for (const [name, value] of Object.entries(v)) applyOption(opts, name, value);
  const perField = new Map<string, PassageLimits>();
  let fields: string[] | null = null;
  const f = v.fields;
  if (Array.isArray(f)) {
    fields = f.map((x) => { if (typeof x !== 'string') throw badRequest('"fields" property should be an array of strings'); return x; });
  } else if (isObject(f)) {
    fields = Object.keys(f);
    for (const [name, fo] of Object.entries(f)) {
      if (!isObject(fo) || !Object.keys(fo).length) continue;
      const o: SnippetOptions = { ...opts };
      for (const [k, x] of Object.entries(fo)) applyOption(o, k, x);
      perField.set(name, { limit: o.limit, limitWords: o.limitWords, limitSnippets: o.limitSnippets });
    }
  } else if (f !== undefined) {
    throw badRequest('"fields" property value should be an array or an object');
  }
  if (fields && !fields.length) fields = null;
  return { opts, fields, perField, query: v.highlight_query };
}

/** A table's side of highlighting: its text settings and its stored, indexed full-text fields. */
export interface HighlightTable {
  env: SnippetEnv;
  /** The index's full-text fields (field numbers). */
  schemaFields: string[];
  /** Stored full-text fields, in schema order: what `fields` may name. */
  storedFields: string[];
}

/**
 * A checked spec and the fields it highlights: the listed ones the table stores, else every stored
 * full-text field (throws searchd's option errors).
 */
export function highlightPlan(spec: JsonHighlightSpec, table: HighlightTable): string[] {
  checkSnippetOptions(spec.opts);
  const stored = table.storedFields;
  return spec.fields ? spec.fields.filter((n) => stored.some((s) => s.toLowerCase() === n.toLowerCase())) : stored;
}

/** One document's highlight: each named field's passages, by the query tree as typed. */
export function highlightDocument(
  root: QueryNode, doc: Record<string, unknown> | undefined, names: string[], spec: JsonHighlightSpec, table: HighlightTable,
): RowHighlight {
  const fields = fieldInputs(doc, names);
  return fields.length ? rowHighlight(fields, buildSnippets(root, fields, spec.opts, table.env, jsonFlags(spec, table)), spec) : {};
}

/** highlightDocument of a page of documents at once. */
export async function highlightDocuments(
  root: QueryNode, docs: (Record<string, unknown> | undefined)[], names: string[], spec: JsonHighlightSpec, table: HighlightTable,
): Promise<RowHighlight[]> {
  if (!names.length) return docs.map(() => ({}));
  const inputs = docs.map((d) => fieldInputs(d, names));
  const build = snippetBuilder(root, spec.opts, table.env, jsonFlags(spec, table));
  // sliced: a cheap query that arrives meanwhile is answered between documents (util/time-slice.ts)
  return mapSliced(inputs, (fields) => rowHighlight(fields, build(fields), spec));
}

const fieldInputs = (doc: Record<string, unknown> | undefined, names: string[]): FieldInput[] =>
  names.map((n) => ({ name: n, text: String(doc?.[n] ?? '') }));

const jsonFlags = (spec: JsonHighlightSpec, table: HighlightTable): BuildFlags =>
  ({ ignoreFields: false, textFromIndex: true, packFields: true, perField: spec.perField, schemaFields: table.schemaFields });

function rowHighlight(fields: FieldInput[], built: PassageText[][], spec: JsonHighlightSpec): RowHighlight {
  const out: RowHighlight = {};
  built.forEach((ps, i) => {
    out[fields[i].name] = ordered(ps, spec.opts.weightOrder).map((p) => p.text);
  });
  return out;
}
