/** Wordforms: `src > dst` (or `src => dst`) lines mapping one folded token to another, before morphology. */
import { SearchError } from '../util/errors.js';
import { settingTexts } from './setting-texts.js';
import { baseName, dirName, isAbsolutePath, textFiles } from './text-files.js';

/** True when a file name has shell wildcards. */
function hasWildcard(name: string): boolean {
  return /[*?]/.test(name);
}

/** Whether a wildcard name matches any file in its directory (Manticore's FindFiles). */
function wildcardMatches(name: string): boolean {
  const re = new RegExp(`^${baseName(name).replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
  try {
    return textFiles().list(dirName(name)).some((f) => re.test(f));
  } catch {
    return false;
  }
}

/**
 * The checks CREATE TABLE makes on an external file (Manticore's CheckPaths): a wildcard matching
 * nothing, then an unreadable file, then a relative path, each with Manticore's text (the first
 * one's typo included). A wildcard is then still read as a plain name, so it fails as not found.
 */
export function checkExternalFile(name: string): void {
  if (hasWildcard(name) && !wildcardMatches(name)) throw new SearchError('BAD_SETTING', `fileы not found: '${name}'`);
  if (!textFiles().exists(name)) throw new SearchError('BAD_SETTING', `file not found: '${name}'`);
  if (!isAbsolutePath(name)) throw new SearchError('BAD_SETTING', `paths to external files should be absolute: '${name}'`);
}

/** Splits one side of a mapping into folded tokens (the table's index tokenizer). */
export type WordformTokenizer = (text: string) => string[];

/** A parsed line; `afterMorphology` for `~src > dst` lines, applied to the stemmed word. */
export interface WordformLine {
  src: string;
  dst: string;
  afterMorphology: boolean;
}

/**
 * One mapping line: source and destination text, or null for blank, comment or malformed lines.
 * `\x` is a literal x, so `\>`, `\=`, `\~` and `\#` are plain characters; an unescaped
 * `#` starts a comment, a leading `~` marks a post-morphology form, and the first unescaped `>`
 * (or `=>`) separates the sides.
 */
export function parseWordformLine(line: string): WordformLine | null {
  let src = '';
  let dst: string | null = null;
  let afterMorphology = false;
  let cur = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\' && i + 1 < line.length) {
      cur += line[++i];
      continue;
    }
    if (c === '#') break;
    if (c === '~' && dst === null && cur.trim() === '' && !afterMorphology) {
      afterMorphology = true;
      cur = '';
      continue;
    }
    const arrow = c === '=' && line[i + 1] === '>';
    if (dst === null && (c === '>' || arrow)) {
      src = cur;
      cur = '';
      dst = '';
      if (arrow) i++;
      continue;
    }
    cur += c;
  }
  if (dst === null) return null;
  return { src, dst: cur, afterMorphology };
}

/** A multi-word source (`core 2 duo > c2d`): its folded words and the destination token. */
export interface MultiForm {
  words: string[];
  dst: string;
}

/** A token as a multi-word match sees it. */
export interface FormToken {
  readonly text: string;
  readonly special: boolean;
}

/** A table's wordforms: one-to-one by folded source token, `~` forms, and multi-word sources. */
export class Wordforms {
  /** Multi-word forms by their first word, longest first. */
  private readonly multi = new Map<string, MultiForm[]>();
  /** Longest multi-word source, in words (0 without multi-word forms). */
  readonly maxMultiWords: number = 0;

  private constructor(
    private readonly forms: ReadonlyMap<string, string>,
    private readonly afterForms: ReadonlyMap<string, string> = new Map(),
    multi: readonly MultiForm[] = [],
  ) {
    for (const m of multi) {
      const list = (this.multi.get(m.words[0]) ?? []).filter((x) => x.words.join(' ') !== m.words.join(' '));
      list.push(m);
      list.sort((a, b) => b.words.length - a.words.length);
      this.multi.set(m.words[0], list);
      this.maxMultiWords = Math.max(this.maxMultiWords, m.words.length);
    }
  }

  get hasMulti(): boolean {
    return this.multi.size > 0;
  }

  /** The longest multi-word form whose words start at tokens[i], or null. */
  matchMulti(tokens: readonly FormToken[], i: number): MultiForm | null {
    const list = this.multi.get(tokens[i].text);
    if (!list) return null;
    for (const m of list) {
      if (i + m.words.length > tokens.length) continue;
      if (m.words.every((w, k) => !tokens[i + k].special && tokens[i + k].text === w)) return m;
    }
    return null;
  }


  /**
   * How many typed words, from the first, make the longest multi-word source (0: none). Each word
   * is folded by `fold`; a word that folds to other than one token ends the candidates there.
   */
  spanOf(words: readonly string[], fold: (word: string) => string[]): number {
    const tokens: FormToken[] = [];
    for (const w of words) {
      const folded = fold(w);
      if (folded.length !== 1) break;
      tokens.push({ text: folded[0], special: false });
    }
    return tokens.length > 1 ? this.matchMulti(tokens, 0)?.words.length ?? 0 : 0;
  }

  static readonly NONE = new Wordforms(new Map());

  /**
   * Loads every file the setting names (space or comma separated), or the `wordforms_list` entries in
   * their place. A file that does not exist is Manticore's CREATE TABLE error. Later mappings of the
   * same source override earlier ones, as in Manticore (which warns). Mappings whose destination is
   * not a single token are skipped.
   */
  static fromSetting(value: string, tokenize: WordformTokenizer, list = ''): Wordforms {
    const texts = settingTexts(value, list, (name) => { checkExternalFile(name); return textFiles().read(name); });
    if (texts.length === 0) return Wordforms.NONE;
    const forms = new Map<string, string>();
    const afterForms = new Map<string, string>();
    const multi: MultiForm[] = [];
    for (const text of texts) {
      for (const line of text.split(/\r?\n/)) {
        const m = parseWordformLine(line);
        if (!m) continue;
        const src = tokenize(m.src);
        const dst = tokenize(m.dst);
        if (dst.length !== 1 || src.length === 0) continue;
        if (src.length === 1) (m.afterMorphology ? afterForms : forms).set(src[0], dst[0]);
        else if (!m.afterMorphology) multi.push({ words: src, dst: dst[0] });
      }
    }
    return new Wordforms(forms, afterForms, multi);
  }

  /** From folded pairs (tests). */
  static of(pairs: Iterable<[string, string]>, after: Iterable<[string, string]> = []): Wordforms {
    return new Wordforms(new Map(pairs), new Map(after));
  }

  /** The destination of a folded token, or undefined when no wordform applies. */
  get(token: string): string | undefined {
    return this.forms.get(token);
  }

  /** A `~` form's destination for a word after morphology, else the word itself. */
  afterMorphology(word: string): string {
    return this.afterForms.get(word) ?? word;
  }

  get size(): number {
    return this.forms.size + this.afterForms.size + this.multi.size;
  }
}
