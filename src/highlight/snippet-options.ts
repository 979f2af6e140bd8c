/** Snippet options (CALL SNIPPETS, HIGHLIGHT(), SNIPPET(), JSON highlight): defaults, aliases, checks. */
import { SearchError } from '../util/errors.js';

export type SnippetBoundary = '' | 'sentence' | 'paragraph' | 'zone';
export type HtmlStripMode = 'index' | 'none' | 'strip' | 'retain';

export interface SnippetOptions {
  beforeMatch: string;
  afterMatch: string;
  snippetSeparator: string;
  fieldSeparator: string;
  /** Codepoints per field (or per document with limitsPerField off); 0 = no limit. */
  limit: number;
  limitWords: number;
  limitSnippets: number;
  limitsPerField: boolean;
  around: number;
  useBoundaries: boolean;
  weightOrder: boolean;
  forceAllWords: boolean;
  startSnippetId: number;
  htmlStripMode: HtmlStripMode;
  allowEmpty: boolean;
  snippetBoundary: SnippetBoundary;
  emitZones: boolean;
  forceSnippets: boolean;
  loadFiles: boolean;
  loadFilesScattered: boolean;
}

/** Manticore's defaults (src/sphinxexcerpt.h SnippetQuerySettings_t). */
export const SNIPPET_DEFAULTS: Readonly<SnippetOptions> = {
  beforeMatch: '<b>', afterMatch: '</b>', snippetSeparator: ' ... ', fieldSeparator: ' | ',
  limit: 256, limitWords: 0, limitSnippets: 0, limitsPerField: true, around: 5,
  useBoundaries: false, weightOrder: false, forceAllWords: false, startSnippetId: 1,
  htmlStripMode: 'index', allowEmpty: false, snippetBoundary: '', emitZones: false, forceSnippets: false,
  loadFiles: false, loadFilesScattered: false,
};

type Kind = 'str' | 'int' | 'bool';
type Key = keyof SnippetOptions;

/** Option name -> field and value kind; aliases as searchd accepts them. */
const OPTIONS: Record<string, [Key, Kind]> = {
  before_match: ['beforeMatch', 'str'], after_match: ['afterMatch', 'str'],
  snippet_separator: ['snippetSeparator', 'str'], chunk_separator: ['snippetSeparator', 'str'],
  field_separator: ['fieldSeparator', 'str'],
  limit: ['limit', 'int'], limit_words: ['limitWords', 'int'],
  limit_snippets: ['limitSnippets', 'int'], limit_passages: ['limitSnippets', 'int'],
  limits_per_field: ['limitsPerField', 'bool'], around: ['around', 'int'],
  use_boundaries: ['useBoundaries', 'bool'], weight_order: ['weightOrder', 'bool'],
  force_all_words: ['forceAllWords', 'bool'],
  start_snippet_id: ['startSnippetId', 'int'], start_passage_id: ['startSnippetId', 'int'],
  html_strip_mode: ['htmlStripMode', 'str'], allow_empty: ['allowEmpty', 'bool'],
  snippet_boundary: ['snippetBoundary', 'str'], passage_boundary: ['snippetBoundary', 'str'],
  emit_zones: ['emitZones', 'bool'], force_snippets: ['forceSnippets', 'bool'],
  force_passages: ['forceSnippets', 'bool'], load_files: ['loadFiles', 'bool'],
  load_files_scattered: ['loadFilesScattered', 'bool'],
};

/** True for every option name setSnippetOption knows (aliases included). */
export function isSnippetOption(name: string): boolean {
  return name in OPTIONS || name === 'query_mode' || name === 'exact_phrase';
}

/** Options that are accepted for compatibility and checked, but change nothing. */
const IGNORED_INT = new Set(['query_mode', 'exact_phrase', 'use_boundaries_', 'passage_id']);

export type RawOption = { name: string; value: string | number };

/** One named option into `o`; errors are searchd's texts. */
export function setSnippetOption(o: SnippetOptions, name: string, value: string | number): void {
  if (name === 'query_mode') {
    if (typeof value !== 'number') throw new SearchError('BAD_VALUE', `unexpected option ${name} type`);
    if (value === 0) throw new SearchError('BAD_VALUE', 'query_mode=0 is deprecated');
    return;
  }
  if (name === 'exact_phrase') {
    if (typeof value !== 'number') throw new SearchError('BAD_VALUE', `unexpected option ${name} type`);
    if (value !== 0) throw new SearchError('BAD_VALUE', 'exact_phrase is deprecated');
    return;
  }
  const spec = OPTIONS[name];
  if (!spec) {
    if (IGNORED_INT.has(name)) return;
    throw new SearchError('BAD_VALUE', `unknown option ${name}`);
  }
  const [key, kind] = spec;
  if ((kind === 'str') !== (typeof value === 'string')) throw new SearchError('BAD_VALUE', `unexpected option ${name} type`);
  const rec = o as unknown as Record<string, unknown>;
  if (kind === 'str') rec[key] = value;
  else if (kind === 'int') rec[key] = Number(value);
  else rec[key] = Number(value) !== 0;
}

/** Checks that need all options: html_strip_mode and snippet_boundary values. */
export function checkSnippetOptions(o: SnippetOptions): void {
  const mode = String(o.htmlStripMode).toLowerCase();
  if (!['index', 'none', 'strip', 'retain'].includes(mode)) throw new SearchError('BAD_VALUE', `unknown html_strip_mode=${o.htmlStripMode}`);
  o.htmlStripMode = mode as HtmlStripMode;
  const b = String(o.snippetBoundary).toLowerCase();
  if (!['', 'sentence', 'paragraph', 'zone'].includes(b)) throw new SearchError('BAD_VALUE', `unknown passage_boundary=${o.snippetBoundary}`);
  o.snippetBoundary = b as SnippetBoundary;
  checkBoundaryOptions(o);
  if (o.htmlStripMode === 'retain' && (o.limit > 0 || o.limitWords > 0 || o.limitSnippets > 0)) {
    throw new SearchError('BAD_VALUE', 'html_strip_mode=retain requires that all limits are zero');
  }
}

/** Manticore's sphCheckOptionsSPZ: combinations a snippet_boundary or emit_zones rules out. */
function checkBoundaryOptions(o: SnippetOptions): void {
  const b = o.snippetBoundary;
  if (b && o.around === 0) throw new SearchError('BAD_VALUE', `invalid combination of snippet_boundary=${b} and around=0`);
  if (b && o.useBoundaries) throw new SearchError('BAD_VALUE', `invalid combination of snippet_boundary=${b} and use_boundaries`);
  if (o.emitZones) {
    if (b !== 'zone') throw new SearchError('BAD_VALUE', `invalid combination of snippet_boundary=${b} and emit_zones`);
    if (o.htmlStripMode !== 'strip' && o.htmlStripMode !== 'index') {
      throw new SearchError('BAD_VALUE', `invalid combination of strip=${o.htmlStripMode} and emit_zones`);
    }
  }
}

/** Defaults plus the given options, checked. */
export function snippetOptions(raw: RawOption[]): SnippetOptions {
  const o: SnippetOptions = { ...SNIPPET_DEFAULTS };
  for (const r of raw) setSnippetOption(o, r.name, r.value);
  checkSnippetOptions(o);
  return o;
}

/** `name=value` text (SNIPPET()'s options) or a bare value: coerced to the option's kind. */
export function setSnippetOptionLoose(o: SnippetOptions, name: string, value: string | number): void {
  const spec = OPTIONS[name];
  if (spec && spec[1] !== 'str' && typeof value === 'string') {
    const n = Number.parseInt(value, 10);
    setSnippetOption(o, name, Number.isFinite(n) ? n : 0);
  } else if (spec && spec[1] === 'str' && typeof value === 'number') {
    setSnippetOption(o, name, String(value));
  } else {
    setSnippetOption(o, name, value);
  }
}
