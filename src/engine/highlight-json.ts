/**
 * JSON `/search` `highlight`: options (Sphinx names and their ES-style synonyms), `fields` as a list
 * or an object of per-field options, `highlight_query`; results as field -> array of passages,
 * computed for the final page's documents only.
 */
import { finishQuery, toText, type QueryNode } from '../query/index.js';
import { SearchError } from '../util/errors.js';
import type { GlobalFlags } from './exec-select.js';
import { splitJsonQuery } from './json-query-tree.js';
import { isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from './json-value.js';
import type { RowsResult } from './result.js';
import { parseSql, type SelectItem } from '../sql/index.js';
import { buildSnippets, ordered } from '../highlight/snippet-builder.js';
import { checkSnippetOptions, isSnippetOption, setSnippetOption, SNIPPET_DEFAULTS, type SnippetOptions } from '../highlight/snippet-options.js';
import type { PassageLimits } from '../highlight/snippet-passages.js';
import type { Table } from './table.js';

/** A field -> passages object per row, in the order of `RowsResult.rows`. */
export type RowHighlight = Record<string, string[]>;

/** RowsResult with the JSON highlight of each row (rendered next to `_source`). */
export type HighlightedRows = RowsResult;

const badRequest = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** JSON option name -> snippet option name, for the ES-style synonyms. */
const SYNONYMS: Record<string, string> = {
  pre_tags: 'before_match', post_tags: 'after_match', fragment_size: 'limit', number_of_fragments: 'limit_snippets',
};
const BOOLEAN = new Set(['use_boundaries', 'weight_order', 'force_all_words', 'allow_empty', 'emit_zones', 'force_snippets', 'limits_per_field']);
const IGNORED = new Set(['fields', 'highlight_query', 'pack_fields']);

function scalar(name: string, v: JsonValue): string | number {
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (isJsonNumber(v)) return Number(v.value);
  throw badRequest(`"${name}" property value should be a scalar`);
}

/** One JSON option into `o` (throws searchd's texts). */
function applyOption(o: SnippetOptions, name: string, v: JsonValue): void {
  if (IGNORED.has(name)) return;
  if (name === 'encoder') { if (v === 'html') o.htmlStripMode = 'retain'; return; }
  if (name === 'order') { o.weightOrder = v === 'score'; return; }
  if (name === 'no_match_size') { o.allowEmpty = scalar(name, v) === 0; return; }
  if (name === 'limits_per_field' && typeof v !== 'boolean' && !isJsonNumber(v)) {
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
  query?: JsonValue;
}

export function parseJsonHighlight(v: JsonValue): JsonHighlightSpec {
  if (!isJsonObject(v)) throw badRequest('"highlight" property value should be an object');
  const opts: SnippetOptions = { ...SNIPPET_DEFAULTS };
  for (const [name, value] of Object.entries(v)) applyOption(opts, name, value);
  const perField = new Map<string, PassageLimits>();
  let fields: string[] | null = null;
  const f = v.fields;
  if (Array.isArray(f)) {
    fields = f.map((x) => { if (typeof x !== 'string') throw badRequest('"fields" property should be an array of strings'); return x; });
  } else if (isJsonObject(f)) {
    fields = Object.keys(f);
    for (const [name, fo] of Object.entries(f)) {
      if (!isJsonObject(fo) || !Object.keys(fo).length) continue;
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

/** The full-text tree of a JSON query as typed (not normalized), for marking. */
function queryTree(table: Table, query: JsonValue | undefined, flags: GlobalFlags): QueryNode {
  const p = table.pipeline;
  const opts = {
    fields: table.index.schema.fields, notTermsOnlyAllowed: flags.notTermsOnlyAllowed,
    isWordChar: (cp: number) => p.isWordChar(cp), isNullWord: (w: string) => p.normalizeWord(w).length === 0,
    textHooks: p,
  };
  return finishQuery(splitJsonQuery(query, opts).fullText, opts).root;
}

/** Computes `highlights` for the rows of a finished `/search` (their `id` column names the documents). */
export function addJsonHighlights(table: Table, result: HighlightedRows, body: JsonObject, flags: GlobalFlags): void {
  if (body.highlight === undefined) return;
  const spec = parseJsonHighlight(body.highlight);
  const idCol = result.columns.findIndex((c) => c.name.toLowerCase() === 'id');
  if (idCol < 0 || !result.rows.length) { result.highlights = result.rows.map(() => ({})); return; }
  checkSnippetOptions(spec.opts);
  const root = queryTree(table, spec.query ?? body.query, flags);
  const stored = table.schema.columns.filter((c) => c.type === 'text' && c.indexed && c.stored).map((c) => c.name);
  const names = spec.fields ? spec.fields.filter((n) => stored.some((s) => s.toLowerCase() === n.toLowerCase())) : stored;
  const docs = table.fetch(result.rows.map((r) => r[idCol] as bigint));
  const env = { pipeline: table.pipeline, settings: table.schema.settings };
  const flagsB = { ignoreFields: false, textFromIndex: true, packFields: true, perField: spec.perField, schemaFields: table.index.schema.fields };
  result.highlights = docs.map((doc) => {
    const fields = names.map((n) => ({ name: n, text: String((doc as Record<string, unknown> | undefined)?.[n] ?? '') }));
    const out: RowHighlight = {};
    if (!fields.length) return out;
    buildSnippets(root, fields, spec.opts, env, flagsB).forEach((ps, i) => {
      out[fields[i].name] = ordered(ps, spec.opts.weightOrder).map((p) => p.text);
    });
    return out;
  });
}

/**
 * `script_fields: {name: {script: {inline: "highlight({},'title')"}}}`: each inline expression as
 * a select item named `name` (it lands in `_source`).
 */
export function scriptFieldItems(v: JsonValue | undefined): SelectItem[] {
  if (v === undefined) return [];
  if (!isJsonObject(v)) throw badRequest('"script_fields" property value should be an object');
  return Object.entries(v).map(([name, f]) => {
    const script = isJsonObject(f) && isJsonObject(f.script) ? f.script.inline : undefined;
    if (typeof script !== 'string') throw badRequest(`"script_fields" "${name}" should have "script" with "inline"`);
    const st = parseSql(`SELECT ${script} FROM t`)[0];
    if (!st || st.kind !== 'select' || st.items.length !== 1) throw badRequest(`"script_fields" "${name}": bad expression`);
    return { expr: st.items[0].expr, name, alias: name };
  });
}

/** The JSON query's full-text part as query text (for HIGHLIGHT() in script_fields). */
export function jsonMatchText(table: Table, query: JsonValue | undefined, flags: GlobalFlags): string {
  return toText(queryTree(table, query, flags));
}
