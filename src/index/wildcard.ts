/** Expands a wildcard keyword (`*` any run, `?` one char, `%` zero or one char) over a sorted dictionary. */
import { isReservedTerm } from './spz-terms.js';

function toRegExp(pattern: string): RegExp {
  let src = '';
  for (const ch of pattern) {
    if (ch === '*') src += '.*';
    else if (ch === '?') src += '.';
    else if (ch === '%') src += '.?';
    else src += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 'su');
}

/** The literal text before the first wildcard character. */
function literalPrefix(pattern: string): string {
  const m = /[*?%]/.exec(pattern);
  return m ? pattern.slice(0, m.index) : pattern;
}

/** First index in sorted `terms` whose value is >= `key`. */
function lowerBound(terms: string[], key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Term numbers of the dictionary entries that match `pattern`, ascending. */
export function expandWildcard(terms: string[], pattern: string): number[] {
  const re = toRegExp(pattern);
  const prefix = literalPrefix(pattern);
  const out: number[] = [];
  for (let i = lowerBound(terms, prefix); i < terms.length; i++) {
    const t = terms[i];
    if (!t.startsWith(prefix)) break;
    // the index's own terms (marks, `=word` exact forms) are not words a pattern stands for
    if (isReservedTerm(t) || (t[0] === '=' && prefix[0] !== '=')) continue;
    if (re.test(t)) out.push(i);
  }
  return out;
}

export function isWildcard(text: string): boolean {
  return /[*?%]/.test(text);
}
