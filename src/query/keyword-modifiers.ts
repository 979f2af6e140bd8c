/** Keyword modifiers read around a keyword in the raw text: `^word`, `word$`, `word^1.5`. */
import type { CharScanner } from './char-scanner.js';
import { strtodPrefix } from './c-number.js';
import type { XqWord } from './xq-node.js';

/** Characters C's strtod may start a boost with after `^` (Manticore's sphIsDigital). */
const BOOST_START = '0123456789.Ee+-';

/**
 * Sets field start (a `^` right before the word, itself not escaped), field end (a `$` right
 * after it) and boost (`^` and a number after it, after the `$` if any; the number is consumed).
 * `word^1.5$` is only a boost: the `$` is then a stray operator.
 */
export function readModifiers(text: string, scanner: CharScanner, word: XqWord): void {
  const start = scanner.tokenStart;
  let end = scanner.tokenEnd;
  if (start < 0 || end < 0) return;
  if (start > 0 && text[start - 1] === '^' && !(start > 1 && text[start - 2] === '\\')) word.fieldStart = true;
  if (text[end] === '$') {
    word.fieldEnd = true;
    end++;
  }
  if (text[end] === '^' && end + 1 < text.length && BOOST_START.includes(text[end + 1]!)) {
    const num = strtodPrefix(text, end + 1);
    if (num.end !== end + 1) {
      word.boost = Math.fround(num.value);
      scanner.pos = num.end;
    }
  }
}
