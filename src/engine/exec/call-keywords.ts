/**
 * CALL KEYWORDS(text, table [, 1 | value AS option ...]): each keyword's tokenized and normalized form,
 * a wildcard keyword expanded over the table's dictionary (one row per expansion), and with `stats`
 * each row's docs and hits summed over the segments (Manticore's dictionary counts: deleted rows
 * included). Options as in Manticore's manual: stats, fold_wildcards, fold_lemmas, fold_blended,
 * expansion_limit, sort_mode ('docs' | 'hits'); any other is an error, not a silently ignored option.
 */
import type { CallStatement, Literal } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { rows, stringColumns, type Result } from '../result.js';
import type { Table } from '../table.js';
import { tableExpansion } from '../../index/normalize-query.js';
import { expandKeyword, limitExpansions } from '../../index/wildcard.js';

export interface KeywordOptions {
  stats: boolean; foldWildcards: boolean; expansionLimit: number; sortMode: '' | 'docs' | 'hits';
}

export interface KeywordRow { qpos: number; tokenized: string; normalized: string; docs: number; hits: number }

/** An integer option of a CALL statement (KEYWORDS, SUGGEST, QSUGGEST); anything else is an error. */
export function intOption(name: string, v: Literal, call = 'KEYWORDS'): number {
  if (v.kind !== 'int') throw new SearchError('BAD_VALUE', `CALL ${call}: option '${name}' expects an integer`);
  return Number(v.value);
}

function keywordOptions(st: CallStatement, globalLimit: number): KeywordOptions {
  const o: KeywordOptions = { stats: false, foldWildcards: false, expansionLimit: globalLimit, sortMode: '' };
  // the legacy third argument: CALL KEYWORDS(text, table, 1) shows the statistics
  if (st.args.length > 3) throw new SearchError('PARSE_ERROR', 'KEYWORDS() expects 2 or 3 arguments (text, table [, stats])');
  if (st.args.length === 3) o.stats = intOption('stats', st.args[2] as Literal) !== 0;
  for (const { name, value } of st.options) {
    switch (name.toLowerCase()) {
      case 'stats': o.stats = intOption(name, value) !== 0; break;
      case 'fold_wildcards': o.foldWildcards = intOption(name, value) !== 0; break;
      // quarry has no lemmatizer and its blended tokens give their parts as rows: nothing to fold
      case 'fold_lemmas': case 'fold_blended': intOption(name, value); break;
      case 'expansion_limit': {
        const n = intOption(name, value);
        if (n > 0) o.expansionLimit = n;
        break;
      }
      case 'sort_mode': {
        const m = value.kind === 'string' ? value.value.toLowerCase() : '';
        if (m !== 'docs' && m !== 'hits') throw new SearchError('BAD_VALUE', "CALL KEYWORDS: sort_mode expects 'docs' or 'hits'");
        o.sortMode = m;
        break;
      }
      default: throw new SearchError('PARSE_ERROR', `unknown option ${name}`);
    }
  }
  return o;
}

const WILDCARD = /[*?%]/;

/**
 * The keywords of `text`: as the pipeline reads them, except that a blank-separated word with a
 * wildcard stays one keyword (its literal part folded by the pipeline) instead of losing its stars.
 */
export function splitKeywords(table: Table, text: string, starDict: boolean): { qpos: number; tokenized: string; normalized: string; pattern?: string }[] {
  const p = table.pipeline;
  // without min_prefix_len/min_infix_len searchd's keywords tokenizer has no wildcard specials
  // (RtIndex_c::DoGetKeywords sets them up only for a star dictionary): '*' splits words as any
  // character outside charset_table does, 'hel*' is the plain keyword 'hel'
  if (!starDict || !WILDCARD.test(text)) return p.keywords(text);
  const out: { qpos: number; tokenized: string; normalized: string; pattern?: string }[] = [];
  let qpos = 0;
  for (const chunk of text.split(/\s+/).filter((c) => c !== '')) {
    const m = /^([*?%]*)(.*?)([*?%]*)$/s.exec(chunk)!;
    const literal = p.keywords(m[2]);
    if ((m[1] || m[3]) && literal.length === 1 && !WILDCARD.test(m[2])) {
      const pattern = `${m[1]}${literal[0].tokenized}${m[3]}`;
      out.push({ qpos: ++qpos, tokenized: pattern, normalized: pattern, pattern });
      continue;
    }
    const base = qpos;
    for (const k of p.keywords(chunk)) { out.push({ ...k, qpos: base + k.qpos }); qpos = base + k.qpos; }
  }
  return out;
}

export function callKeywords(table: Table, st: CallStatement, globalLimit: number): Result {
  const o = keywordOptions(st, globalLimit);
  const text = st.args[0];
  if (text?.kind !== 'string') throw new SearchError('PARSE_ERROR', 'KEYWORDS() argument 1 must be a string');
  const out = keywordRows(table, text.value, o);
  const cols = o.stats ? stringColumns('qpos', 'tokenized', 'normalized', 'docs', 'hits') : stringColumns('qpos', 'tokenized', 'normalized');
  return rows(cols, out.map((r) => {
    const base = [String(r.qpos), r.tokenized, r.normalized];
    return o.stats ? [...base, String(r.docs), String(r.hits)] : base;
  }));
}

/** CALL KEYWORDS' rows of `text` (CALL AUTOCOMPLETE asks them too), docs and hits counted when `o.stats`. */
export function keywordRows(table: Table, text: string, o: KeywordOptions): KeywordRow[] {
  const segments = table.index.segments;
  const expansion = { ...tableExpansion(table.pipeline, table.schema.settings), limit: o.expansionLimit };
  const out: KeywordRow[] = [];
  const starDict = expansion.minPrefixLen > 0 || expansion.minInfixLen > 0;
  for (const k of splitKeywords(table, text, starDict)) {
    if (!k.pattern) {
      let docs = 0, hits = 0;
      if (o.stats) {
        for (const seg of segments) {
          const t = seg.termId(k.normalized);
          if (t >= 0) { docs += seg.docFreq(t); hits += seg.hitCount(t); }
        }
      }
      out.push({ ...k, docs, hits });
      continue;
    }
    // a wildcard: every dictionary term it expands to, counts summed over the segments
    const found = new Map<string, KeywordRow>();
    for (const seg of segments) {
      const ids = limitExpansions(expandKeyword(seg.terms, k.pattern, expansion), expansion.limit ?? 0,
        (t) => seg.docFreq(t), (t) => seg.hitCount(t));
      for (const t of ids) {
        const term = seg.terms[t];
        const row = found.get(term) ?? { qpos: k.qpos, tokenized: k.tokenized, normalized: term, docs: 0, hits: 0 };
        row.docs += seg.docFreq(t);
        row.hits += seg.hitCount(t);
        found.set(term, row);
      }
    }
    const expanded = [...found.values()].sort((a, b) => (a.normalized < b.normalized ? -1 : a.normalized > b.normalized ? 1 : 0));
    if (o.foldWildcards && expanded.length) {
      out.push(expanded.reduce((acc, r) => ({ ...acc, docs: acc.docs + r.docs, hits: acc.hits + r.hits }),
        { qpos: k.qpos, tokenized: k.tokenized, normalized: k.tokenized, docs: 0, hits: 0 }));
    } else out.push(...expanded);
  }
  if (o.sortMode) {
    const key = o.sortMode;
    out.sort((a, b) => b[key] - a[key] || a.qpos - b.qpos); // stable: equal counts keep query order
  }
  return out;
}
