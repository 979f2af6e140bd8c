/** Stopwords: loaded from the files a table's `stopwords` setting names, matched as dictionary terms. */
import { SearchError } from '../util/errors.js';
import { settingTexts } from './setting-texts.js';
import { baseName, joinPath, textFiles } from './text-files.js';

export interface StopwordSource {
  /** Splits one line of a stopwords file into folded tokens (the table's index tokenizer). */
  tokenize(line: string): string[];
  /** Turns a token into the form compared at index time (stemmed unless stopwords_unstemmed=1). */
  normalize(token: string): string;
  /** Directory holding the bundled lists as `<shareDir>/stopwords/<code>` (default: the host's, TextFiles.shareDir). */
  shareDir?: string;
}

/**
 * Resolves a name to a readable file: as given, else `<shareDir>/stopwords/<basename>`, as searchd's
 * AddOption and LoadStopwords do (so `en` or `/any/path/en` is the bundled English list unless a
 * file of that name exists). A file found nowhere is Manticore's CREATE TABLE error
 * `'stopwords' file missed <name>`.
 */
export function resolveStopwordFile(name: string, shareDir = textFiles().shareDir): string {
  if (textFiles().exists(name)) return name;
  if (shareDir) {
    const bundled = joinPath(shareDir, 'stopwords', baseName(name));
    if (textFiles().exists(bundled)) return bundled;
  }
  throw new SearchError('BAD_SETTING', `'stopwords' file missed ${name}`);
}

/** A set of stopwords in dictionary form. */
export class Stopwords {
  private constructor(private readonly words: ReadonlySet<string>) {}

  static readonly NONE = new Stopwords(new Set());

  /**
   * Loads every file named by the setting, or the `stopwords_list` entries in their place; each line
   * (entry) is tokenized on its own, as Manticore does.
   */
  static fromSetting(value: string, source: StopwordSource, list = ''): Stopwords {
    const texts = settingTexts(value, list, (name) => textFiles().read(resolveStopwordFile(name, source.shareDir)));
    if (texts.length === 0) return Stopwords.NONE;
    const words = new Set<string>();
    for (const text of texts) {
      for (const line of text.split(/[\r\n]+/)) {
        for (const token of source.tokenize(line)) {
          const term = source.normalize(token);
          if (term !== '') words.add(term);
        }
      }
    }
    return new Stopwords(words);
  }

  /** From words already in dictionary form (tests, embedded lists). */
  static of(words: Iterable<string>): Stopwords {
    return new Stopwords(new Set(words));
  }

  has(term: string): boolean {
    return this.words.has(term);
  }

  get size(): number {
    return this.words.size;
  }

  /** Letters a-z that start a stopword, as bits (bit i: a + i); a highlight names tokens starting with them. */
  firstLetters(): number {
    if (this.letters < 0) {
      let m = 0;
      for (const w of this.words) {
        const i = w.charCodeAt(0) - 0x61;
        if (i >= 0 && i < 26) m |= 1 << i;
      }
      this.letters = m;
    }
    return this.letters;
  }

  private letters = -1;
}
