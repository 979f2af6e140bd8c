/**
 * Table settings searchd reads as C integers (indexsettings.cpp CSphIndexSettings::Setup:
 * `Max ( hIndex.GetInt ( "min_infix_len" ), 0 )`, CSphVariant's atoi): 'x' is 0, '3x' is 3, '-2' is 0,
 * and a 0 is not a setting at all (SHOW CREATE TABLE lists them only when not 0: tOut.Add(..., !=0)).
 * quarry kept the text as given (min_infix_len='x' stored and shown).
 */
import { atoi } from '../text/text-settings.js';

const WORD_PART_LENGTHS = ['min_prefix_len', 'min_infix_len', 'max_substring_len'];

/** atoi's value as a C int holds it; past 32 bits: 0 (no setting). */
function intOf(text: string): number {
  const n = atoi(text);
  return Math.abs(n) <= 0x7fffffff ? n : 0;
}

/** The settings with the word-part lengths as searchd reads them: a number, or gone when 0. */
export function normalizeIntSettings(settings: Record<string, string>): Record<string, string> {
  let out = settings;
  for (const k of WORD_PART_LENGTHS) {
    const v = settings[k];
    if (v === undefined) continue;
    const n = Math.max(0, intOf(v));
    if (String(n) === v) continue;
    if (out === settings) out = { ...settings };
    if (n === 0) delete out[k];
    else out[k] = String(n);
  }
  return out;
}
