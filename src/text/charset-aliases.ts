/** Named charsets usable in `charset_table` (`non_cont`, `english`, ...), decoded from compact runs. */
import type { CharRange } from './charset-parser.js';
import { NON_CONT_RUNS } from './charset-non-cont.js';

/** `A..Z->a..z, a..z`. */
const ENGLISH_RUNS = '41-5A>61 61-7A';
/** Russian letters, upper case folded to lower, Ё/ё to ё. */
const RUSSIAN_RUNS = '410-42F>430 430-44F 401>451 451';
/** Thai letters and digits (no folding). */
const THAI_RUNS = 'E01-E30 E32-E33 E40-E46 E50-E59';

/**
 * Manticore's CJK aliases: they need n-gram or segmentation support, which this server lacks,
 * so naming them is reported instead of silently indexing ideographs as whole-run words.
 */
export const UNSUPPORTED_CHARSET_ALIASES: readonly string[] = ['chinese', 'cjk', 'cont', 'japanese', 'korean'];

function parseHex(text: string): number {
  const n = Number.parseInt(text, 16);
  if (!Number.isInteger(n) || n < 0) throw new Error(`bad codepoint '${text}' in charset runs`);
  return n;
}

/** Decodes one run (`41-5A>61`, `C0-C5=61`, `14A-14B/2`, `AA`) and appends its ranges. */
function decodeRun(run: string, out: CharRange[]): void {
  const op = run.search(/[>=/]/);
  const span = op < 0 ? run : run.slice(0, op);
  const dash = span.indexOf('-');
  const start = parseHex(dash < 0 ? span : span.slice(0, dash));
  const end = dash < 0 ? start : parseHex(span.slice(dash + 1));
  const kind = op < 0 ? '' : run[op];
  if (kind === '') {
    out.push({ start, end, remapStart: start });
  } else if (kind === '>') {
    out.push({ start, end, remapStart: parseHex(run.slice(op + 1)) });
  } else if (kind === '=') {
    const target = parseHex(run.slice(op + 1));
    for (let c = start; c <= end; c++) out.push({ start: c, end: c, remapStart: target });
  } else {
    for (let c = start; c < end; c += 2) {
      out.push({ start: c, end: c, remapStart: c + 1 });
      out.push({ start: c + 1, end: c + 1, remapStart: c + 1 });
    }
  }
}

/** Decodes the run syntax documented in charset-non-cont.ts into ranges, in order. */
export function decodeCharsetRuns(runs: string): CharRange[] {
  const out: CharRange[] = [];
  for (const run of runs.split(/\s+/)) if (run) decodeRun(run, out);
  return out;
}

let aliases: Map<string, readonly CharRange[]> | undefined;

/** The alias table, decoded once on first use. */
export function charsetAliases(): ReadonlyMap<string, readonly CharRange[]> {
  if (!aliases) {
    const nonCont = decodeCharsetRuns(NON_CONT_RUNS);
    aliases = new Map<string, readonly CharRange[]>([
      ['english', decodeCharsetRuns(ENGLISH_RUNS)],
      ['non_cjk', nonCont],
      ['non_cont', nonCont],
      ['russian', decodeCharsetRuns(RUSSIAN_RUNS)],
      ['thai', decodeCharsetRuns(THAI_RUNS)],
    ]);
  }
  return aliases;
}
