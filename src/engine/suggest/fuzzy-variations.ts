/**
 * The fuzzy variations of a phrase, as Manticore Buddy builds them for CALL AUTOCOMPLETE and OPTION
 * fuzzy (its client's fetchFuzzyVariations): the phrase's keywords as CALL KEYWORDS gives them, and
 * for each the best `limit` dictionary words CALL SUGGEST answers within `distance` edits (non_char
 * on). A short word is also tried glued to the next one ("30 w" -> "30w"), and the pair is kept when
 * its suggestions are not much farther than the word's own. Each suggested word gets a score from its
 * distance and documents (normalized over the phrase); Buddy orders combinations by it.
 */
import type { Table } from '../table.js';
import { suggestDefaults, suggestWord } from '../exec/call-suggest.js';
import { splitKeywords } from '../exec/call-keywords.js';

/** One position of the phrase: the text there and the dictionary words that may stand for it. */
export interface Variation { original: string; keywords: string[] }
export interface FuzzyVariations { words: Variation[]; score: Map<string, number> }

/** CALL SUGGEST(text, table, limit, distance as max_edits, 1 as non_char [, force_bigrams]) on the text's first keyword. */
export function suggestText(table: Table, text: string, limit: number, maxEdits: number, bigrams: boolean) {
  const first = splitKeywords(table, text, true)[0];
  if (!first) return [];
  return suggestWord(table, first.tokenized, { ...suggestDefaults(), limit, maxEdits, nonChar: true, bigrams });
}

/** Buddy's test for trying a word glued to the next one (lengths in code points; Buddy counts bytes). */
function mergeable(word: string, next: string): boolean {
  const a = [...word].length;
  const b = [...next].length;
  if (a + b > 15 || (a > 6 && b > 6)) return false;
  if (a === 1 || b === 1 || a <= 3) return true;
  return a <= 5 && b <= 3;
}

const mean = (m: Map<string, number>): number => {
  let sum = 0;
  for (const v of m.values()) sum += v;
  return m.size ? sum / m.size : 999;
};

/** Values scaled to 0..1 between their minimum and maximum (all 1 when they are equal, as Buddy's normalizeValues). */
function normalized(m: Map<string, number>): Map<string, number> {
  const vals = [...m.values()];
  const lo = Math.min(...vals);
  const hi = Math.max(...vals);
  return new Map([...m].map(([k, v]) => [k, hi === lo ? 1 : (v - lo) / (hi - lo)]));
}

/**
 * The phrase's positions with their candidates and the candidates' scores. With `preserve` a word
 * nothing stands for keeps itself (the manual's preserve: "hello wrld" -> "hello wrld" too).
 */
export function fuzzyVariations(table: Table, phrase: string, distance: number, bigrams: boolean, preserve: boolean, limit = 3): FuzzyVariations {
  const normalizedWords = table.pipeline.keywords(phrase).map((k) => k.normalized);
  const words: Variation[] = [];
  const distances = new Map<string, number>();
  const docs = new Map<string, number>();
  for (let i = 0; i < normalizedWords.length; i++) {
    const word = normalizedWords[i]!;
    const own = suggestText(table, word, limit, distance, bigrams);
    const ownDistances = new Map<string, number>();
    for (const s of own) {
      ownDistances.set(s.term, s.distance);
      distances.set(s.term, s.distance);
      docs.set(s.term, s.docs);
    }
    let original = word;
    let choices = own.map((s) => s.term);
    const next = normalizedWords[i + 1];
    // a word the dictionary has as it is stays itself (Manticore's fuzzy-preserve-distance-exact-words.rec:
    // 'how to' is not read as 'howto' -> 'howo' once such words exist)
    const exact = own.some((s) => s.distance === 0);
    if (next !== undefined && !exact && mergeable(word, next)) {
      const glued = suggestText(table, word + next, limit, distance, bigrams);
      // the glued pair costs one edit more: the space it removed
      const gluedDistances = new Map(glued.map((s) => [s.term, s.distance + 1]));
      if (glued.length && (!own.length || mean(gluedDistances) <= mean(distances) + 1.5)) {
        original = word + next;
        choices = glued.map((s) => s.term);
        for (const s of glued) { distances.set(s.term, s.distance + 1); docs.set(s.term, s.docs); }
        i++;
      }
    }
    if (!choices.length) { distances.set(original, 999); docs.set(original, 0); }
    words.push({ original, keywords: choices.length || !preserve ? choices : [original] });
  }
  // Buddy's score: max(d + 1, sqrt(s)) / (d + 1) over the normalized docs d and distance s
  const d = normalized(docs);
  const s = normalized(distances);
  const score = new Map<string, number>();
  for (const [w, dn] of d) {
    const sn = s.get(w);
    if (sn !== undefined) score.set(w, Math.max(dn + 1, Math.sqrt(sn)) / (dn + 1));
  }
  return { words, score };
}
