/**
 * One document's snippets, the path HIGHLIGHT(), JSON highlight and CALL SNIPPETS share (Manticore's
 * SnippetBuilder_c::DoHighlighting): prepare each field's text for the strip mode, find the tokens
 * that satisfy the query, then per field the whole text marked, the chosen passages, or its start.
 */
import { exactWordsEnabled } from '../index/exact-forms.js';
import type { QueryNode } from '../query/ast.js';
import type { TableSettings } from '../schema/types.js';
import { HtmlStripper } from '../text/html-strip.js';
import { parseCharsetSetting } from '../text/charset-table.js';
import { createTextPipeline, type TextPipeline } from '../text/text-pipeline.js';
import { FIELD_SHIFT } from './snippet-doc-index.js';
import { querySpz } from './snippet-keywords.js';
import { markDocument, type DocumentMarks, type MarkContext } from './snippet-marks.js';
import { scanDocument } from './snippet-scan-path.js';
import { scanPlan, type ScanPlan } from './snippet-scan-plan.js';
import { splitHitParts } from './snippet-blend.js';
import type { SnippetOptions } from './snippet-options.js';
import type { PassageLimits } from './snippet-passages.js';
import { currentPicker, pickPassages } from './snippet-pick.js';
import { renderPassages, renderStart, renderWhole, type Markers, type PassageText } from './snippet-render.js';
import { buildStream, streamBytes, StreamScratch, type FieldStream } from './snippet-stream.js';

export interface SnippetEnv {
  /** The table's pipeline and raw settings (tokenizer, morphology, html_strip, expand_keywords ...). */
  pipeline: TextPipeline;
  settings: TableSettings;
}

export interface BuildFlags {
  /** CALL SNIPPETS / TO_STRING: @field operators do not restrict. */
  ignoreFields: boolean;
  /** Text comes from the document's fields (per-field limits apply); false for CALL SNIPPETS. */
  textFromIndex: boolean;
  /** JSON: every field gets its own result, fields without a match get their start. */
  packFields: boolean;
  /** JSON per-field limits overriding the global ones. */
  perField?: Map<string, PassageLimits>;
  /** The table's full-text fields (a query may name fields not highlighted: they count as empty). */
  schemaFields?: string[];
}

export interface FieldInput { name: string; text: string }

const variants = new WeakMap<TextPipeline, Map<string, TextPipeline>>();

/** The table's pipeline with html_strip, index_sp and index_zones as a highlight needs them. */
function variant(env: SnippetEnv, strip: boolean, sp: boolean, zones: string): TextPipeline {
  const ts = env.pipeline.settings;
  if (ts.htmlStrip === strip && ts.indexSp === sp && ts.indexZones === zones) return env.pipeline;
  let m = variants.get(env.pipeline);
  if (!m) { m = new Map(); variants.set(env.pipeline, m); }
  const key = `${strip}:${sp}:${zones}`;
  let p = m.get(key);
  if (!p) {
    p = createTextPipeline({ ...env.settings, html_strip: strip ? '1' : '0', index_sp: sp ? '1' : '0', index_zones: zones });
    m.set(key, p);
  }
  return p;
}

const boundaryTests = new WeakMap<TextPipeline, ((cp: number) => boolean) | null>();

/** The table's phrase_boundary characters (only set when phrase_boundary_step is not 0). */
function boundaryTest(pipeline: TextPipeline): ((cp: number) => boolean) | undefined {
  let t = boundaryTests.get(pipeline);
  if (t === undefined) {
    const spec = pipeline.settings.phraseBoundary;
    const ranges = spec ? parseCharsetSetting('phrase_boundary', spec) : [];
    t = ranges.length ? (cp: number) => ranges.some((r) => cp >= r.start && cp <= r.end) : null;
    boundaryTests.set(pipeline, t);
  }
  return t ?? undefined;
}

function intSetting(s: TableSettings, name: string): number {
  const v = Number.parseInt(s[name] ?? '0', 10);
  return Number.isFinite(v) ? v : 0;
}

/**
 * The working text's tokenizer and stripper for the html_strip_mode: the same for every document
 * of a builder, so worked out once (a stripper per document built its tag rules per document).
 * Sentence and paragraph marks exist only with a snippet_boundary that delivers them (otherwise they
 * take no position), zone marks with any boundary, as Manticore's snippet tokenizer.
 */
function preparer(env: SnippetEnv, o: SnippetOptions, need: { sp: boolean; zones: boolean }): Preparer {
  const ts = env.pipeline.settings;
  const mode = o.htmlStripMode === 'index' ? (ts.htmlStrip ? 'strip' : 'none') : o.htmlStripMode;
  const b = o.snippetBoundary;
  // The query's own SENTENCE/PARAGRAPH/ZONE operators need the marks too, as in Manticore's tokenizer.
  const sp = b === 'sentence' || b === 'paragraph' || need.sp;
  const zones = (b !== '' || need.zones) && mode !== 'none' ? ts.indexZones : '';
  // strip() starts over on each text: one stripper serves every document (the builder is not re-entered)
  const stripper = mode === 'strip'
    ? new HtmlStripper({
      indexAttrs: ts.htmlIndexAttrs, removeElements: ts.htmlRemoveElements, decodeEntities: false,
      paragraphs: b !== '' || need.sp, zones: zones || undefined,
    })
    : null;
  const pipeline = variant(env, mode === 'retain', sp, mode === 'retain' ? '' : zones);
  return { pipeline, retain: mode === 'retain', stripper };
}

interface Preparer { pipeline: TextPipeline; retain: boolean; stripper: HtmlStripper | null }

/** One document's fields' working text. */
function prepare(pre: Preparer, fields: FieldInput[]): Prepared {
  const s = pre.stripper;
  return { pipeline: pre.pipeline, retain: pre.retain, texts: s ? fields.map((f) => s.strip(f.text).text) : fields.map((f) => f.text) };
}

/** Manticore's FixupQueryLimits: a limit never cuts the longest keyword (or, forced, all of them). */
function fixLimits(l: PassageLimits, o: SnippetOptions, weights: number[], found: number): PassageLimits {
  const out = { ...l };
  // the weights of the keywords found (all of them when none is), in one loop: this runs per document
  let used = 0;
  let max = 0;
  let sum = 0;
  for (let i = 0; i < weights.length; i++) {
    if (found && !(found & (1 << i))) continue;
    used++;
    sum += weights[i];
    if (used === 1 || weights[i] > max) max = weights[i];
  }
  if (out.limitWords && o.forceAllWords) out.limitWords = Math.max(out.limitWords, found ? used : weights.length);
  if (out.limit) {
    const need = o.forceAllWords ? sum + used - 1 : max;
    out.limit = Math.max(out.limit, need);
  }
  return out;
}

/**
 * canHighlightAll over every field's bytes together. It only turns false as the bytes grow, and UTF-8
 * bytes are at least the UTF-16 length: when the texts' lengths already rule it out, no field left
 * uncounted (streamBytes) is counted.
 */
function highlightAll(streams: FieldStream[], l: PassageLimits, o: SnippetOptions): boolean {
  let atLeast = 0;
  for (const s of streams) atLeast += s.text.length;
  if (!canHighlightAll(atLeast, l, o)) return false;
  let bytes = 0;
  for (const s of streams) bytes += streamBytes(s);
  return canHighlightAll(bytes, l, o);
}

function canHighlightAll(bytes: number, l: PassageLimits, o: SnippetOptions): boolean {
  let all = (l.limit === 0 || l.limit >= bytes) && (l.limitWords === 0 || l.limitWords > Math.trunc(bytes / 2)) && o.snippetBoundary === '';
  if (all && o.forceSnippets && (l.limit || l.limitWords || l.limitSnippets)) all = false;
  return all;
}

/** Stream buffers per field slot, reused by every document (buildSnippets is not re-entered while its streams live). */
const scratches: StreamScratch[] = [];

/** Every field's passages of one document (fields without output get []). */
export type DocumentSnippets = (fields: FieldInput[]) => PassageText[][];

/** Builds every field's passages for one document; fields without output get []. */
export function buildSnippets(root: QueryNode, fields: FieldInput[], o: SnippetOptions, env: SnippetEnv, flags: BuildFlags): PassageText[][] {
  return snippetBuilder(root, o, env, flags)(fields);
}

/**
 * buildSnippets for many documents of one query (a page, CALL SNIPPETS' texts): what depends only on
 * the query, options and table (its shape, settings, the scan path's plan) is worked out once.
 */
export function snippetBuilder(root: QueryNode, o: SnippetOptions, env: SnippetEnv, flags: BuildFlags): DocumentSnippets {
  const spz = spzOf(root);
  const t = tableSide(env);
  const ctx = {
    pipeline: env.pipeline, ignoreFields: flags.ignoreFields, expandInfix: t.expandInfix, expandPrefix: t.expandPrefix,
    schemaFields: flags.schemaFields, exactWords: t.exactWords,
  };
  const startLimit = flags.packFields ? startLimitOf(o, flags) : 0;
  // a passage's bound for windowed scans: none when force_all_words lets a window grow past the limit
  const windowLimit = o.forceAllWords || o.useBoundaries ? 0 : startLimitOf(o, flags);
  let plan: ScanPlan | null | undefined;
  let pre: Preparer | undefined;
  return (fields) => {
    const prepared = prepare((pre ??= preparer(env, o, spz)), fields);
    if (plan === undefined) plan = scanFrontPlan(root, o, env, prepared, ctx);
    const front = (plan && scanFront(plan, fields, prepared, flags, startLimit, windowLimit)) ?? generalFront(root, fields, o, env, prepared, ctx);
    return snippetsOf(front.streams, front.marks, fields, o, flags);
  };
}

interface Prepared { pipeline: TextPipeline; retain: boolean; texts: string[] }
interface Front { streams: FieldStream[]; marks: DocumentMarks }

/** The most codepoints a field's start may show (0: no limit), over the global and per-field limits. */
function startLimitOf(o: SnippetOptions, flags: BuildFlags): number {
  if (o.limit <= 0) return 0;
  let max = o.limit;
  if (flags.textFromIndex && o.limitsPerField && flags.perField) {
    for (const l of flags.perField.values()) {
      if (l.limit <= 0) return 0;
      if (l.limit > max) max = l.limit;
    }
  }
  return max;
}

/** The table settings a builder reads: expansion and exact forms. */
interface TableSide { expandInfix: boolean; expandPrefix: boolean; exactWords: boolean; pipeline: TextPipeline }

/**
 * Per settings object (ALTER replaces a table's settings, never changes them in place) and pipeline:
 * every highlighted request read four settings by parseInt (the builder's setup, these and querySpz
 * mostly, was 2.6% of a JSON `@title` request's CPU in process: bench/highlight/highlight-json.bench.ts --profile).
 */
const tableSides = new WeakMap<TableSettings, TableSide>();

function tableSide(env: SnippetEnv): TableSide {
  let t = tableSides.get(env.settings);
  if (t === undefined || t.pipeline !== env.pipeline) {
    const infix = intSetting(env.settings, 'min_infix_len') > 0;
    const prefix = intSetting(env.settings, 'min_prefix_len') > 0;
    const expand = intSetting(env.settings, 'expand_keywords') !== 0;
    t = {
      expandInfix: expand && infix, expandPrefix: expand && prefix, pipeline: env.pipeline,
      exactWords: exactWordsEnabled(env.pipeline.settings.morphology.length > 0, env.settings),
    };
    tableSides.set(env.settings, t);
  }
  return t;
}

/** querySpz per tree: trees are reused across requests (the parse caches) and not changed once built. */
const spzs = new WeakMap<QueryNode, { sp: boolean; zones: boolean }>();

function spzOf(root: QueryNode): { sp: boolean; zones: boolean } {
  let z = spzs.get(root);
  if (z === undefined) { z = querySpz(root); spzs.set(root, z); }
  return z;
}

/** The scan path's plan (snippet-scan-path.ts), when the query, options and table allow that path. */
function scanFrontPlan(root: QueryNode, o: SnippetOptions, env: SnippetEnv, p: Prepared, ctx: MarkContext): ScanPlan | null {
  const ts = env.pipeline.settings;
  // stopword_step=0 puts a stopword at the next word's position, where the general path marks it too
  if (p.retain || o.snippetBoundary !== '' || ts.phraseBoundary !== '' || ts.stopwordStep === 0 || currentPicker() !== 'wasm') return null;
  return scanPlan(root, ctx);
}

/** The core-streamed front, when the document's text allows it. */
function scanFront(plan: ScanPlan, fields: FieldInput[], p: Prepared, flags: BuildFlags, startLimit: number, windowLimit: number): Front | null {
  return scanDocument({
    pipeline: p.pipeline, plan, names: fields.map((f) => f.name), texts: p.texts, scratches, deferUnmatchable: !flags.packFields, startLimit, windowLimit,
  });
}

/** Every field analyzed into Token objects, marked by the core's plan evaluator, then streamed. */
function generalFront(root: QueryNode, fields: FieldInput[], o: SnippetOptions, env: SnippetEnv, p: Prepared, ctx: MarkContext): Front {
  const { pipeline, texts } = p;
  const analyzed = texts.map((t) => pipeline.analyze(t));
  let tokens = analyzed.map((a) => a.tokens);
  const mark = (): DocumentMarks => markDocument(root, fields.map((f, i) => ({ name: f.name, tokens: tokens[i], marks: analyzed[i].marks })), ctx);
  let m = mark();
  // blended words whose part alone is hit are split into their parts, then marked again
  const split = tokens.map((t, i) => splitHitParts(t, m.hits, i));
  if (split.some((t, i) => t !== tokens[i])) { tokens = split; m = mark(); }
  const streams: FieldStream[] = fields.map((_, i) => buildStream({
    text: texts[i], tokens: tokens[i], marks: analyzed[i].marks, termIndex: m.termIndex[i],
    hits: m.hits, field: i, tags: p.retain, boundary: o.snippetBoundary, isBoundary: boundaryTest(env.pipeline),
  }, (scratches[i] ??= new StreamScratch())));
  return { streams, marks: m };
}

/** Passages (or whole texts, or starts) of every field from its stream and the document's marks. */
function snippetsOf(streams: FieldStream[], m: DocumentMarks, fields: FieldInput[], o: SnippetOptions, flags: BuildFlags): PassageText[][] {
  const global: PassageLimits = { limit: o.limit, limitWords: o.limitWords, limitSnippets: o.limitSnippets };
  const perField = flags.textFromIndex && o.limitsPerField;
  const fixedGlobal = fixLimits(global, o, m.termWeights, m.foundMask);
  const limits = fields.map((f) => {
    const own = perField && flags.perField?.get(f.name);
    return own ? fixLimits(own, o, m.termWeights, m.foundMask) : fixedGlobal;
  });
  const mk: Markers = { before: o.beforeMatch, after: o.afterMatch, id: o.startSnippetId };
  const out: PassageText[][] = fields.map(() => []);
  const one = (text: string): PassageText[] => (text === '' ? [] : [{ text, startSep: false, endSep: false, weight: 0 }]);
  if (!m.hits.length && !flags.packFields) {
    if (!o.allowEmpty) {
      const used = { cp: 0 };
      streams.forEach((s, i) => { out[i] = one(renderStart(s, limits[i].limit, used, o.snippetSeparator)); });
    }
    return out;
  }
  const globalAll = !perField && highlightAll(streams, fixedGlobal, o);
  const extract = streams.map(() => false);
  // which fields hold a hit, in one pass over the (sorted) hit keys
  const withHits = streams.map(() => false);
  for (const h of m.hits) withHits[Math.floor(h / FIELD_SHIFT)] = true;
  streams.forEach((s, i) => {
    if (!withHits[i]) {
      if (flags.packFields && !o.allowEmpty) out[i] = one(snippetStart(s, limits[i].limit, o.snippetSeparator));
    } else if (perField ? canHighlightAll(streamBytes(s), limits[i], o) : globalAll) {
      out[i] = one(renderWhole(s, mk, o.allowEmpty));
    } else {
      extract[i] = true;
    }
  });
  if (!extract.some((x) => x)) return out;
  const picked = pickPassages({
    streams: streams.map((s) => s.passage), extract, limits, global: fixedGlobal,
    perField, around: o.around, forceAllWords: o.forceAllWords, useBoundaries: o.useBoundaries,
    spz: o.snippetBoundary !== '', termWeights: m.termWeights, foundWords: m.foundMask,
  });
  streams.forEach((s, i) => {
    const mine = streams.length === 1 ? picked : picked.filter((p) => p.field === i);
    if (mine.length) out[i] = renderPassages(s, mine, mk, o.emitZones);
  });
  return out;
}

/** Starts served from a kept start's memo (tests check it happens). */
export let keptStarts = 0;

/**
 * JSON: the start of a field without hits, from the memo of its kept start (snippet-heads.ts) when that
 * was rendered for the same limit and separator; rendered and kept there otherwise. The start depends on
 * the text and tokenizer only, so an `@title` page's bodies met again cost a look-up each.
 */
function snippetStart(s: FieldStream, limit: number, separator: string): string {
  const head = s.head;
  if (head !== undefined && head.start !== undefined && head.startLimit === limit && head.startSep === separator) {
    keptStarts++;
    return head.start;
  }
  const text = renderStart(s, limit, { cp: 0 }, separator);
  if (head !== undefined) { head.start = text; head.startLimit = limit; head.startSep = separator; }
  return text;
}

/** SQL / CALL SNIPPETS: one string, passages joined by snippet_separator, fields by field_separator. */
export function packSnippets(fields: PassageText[][], o: SnippetOptions): string {
  const kept = fields.map((f) => (f.length === 1 && f[0].text === '' ? [] : f));
  if (kept.length === 1 && kept[0].length === 1 && !kept[0][0].startSep && !kept[0][0].endSep) return kept[0][0].text;
  let out = '';
  kept.forEach((f, i) => {
    if (out.length && kept.slice(i).some((x) => x.length)) out += o.fieldSeparator;
    const order = ordered(f, o.weightOrder);
    order.forEach((p, k) => {
      if (!k && p.startSep) out += o.snippetSeparator;
      out += p.text;
      if (k < order.length - 1 || p.endSep) out += o.snippetSeparator;
    });
  });
  return out;
}

/** Passages in document order, or best first with weight_order. */
export function ordered(f: PassageText[], weightOrder: boolean): PassageText[] {
  if (!weightOrder) return f;
  return f.map((p, i) => ({ p, i })).sort((a, b) => b.p.weight - a.p.weight || a.i - b.i).map((x) => x.p);
}
