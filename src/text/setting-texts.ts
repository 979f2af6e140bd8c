/**
 * What a file-valued table setting (stopwords, wordforms, exceptions) reads: the files its value
 * names, or the lines its `*_list` twin (stopwords_list, wordforms_list, exceptions_list) gives inline
 * in CREATE TABLE in their place, as searchd's RT tables take them.
 */

/** File names in a setting's value: separated by spaces, tabs or commas (Manticore's SplitArg). */
export function settingFileNames(value: string): string[] {
  return value.split(/[ \t,]+/).map((s) => s.trim()).filter(Boolean);
}

/**
 * A `*_list` value's entries, as searchd's ParseListVals splits them: `;` separates, `\;` is a
 * literal `;` (any other backslash pair kept as written), leading white space of an entry skipped,
 * empty entries dropped. Each entry is one line of the file the list stands for.
 */
export function listEntries(value: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < value.length) {
    while (i < value.length && isSpace(value.charCodeAt(i))) i++;
    let entry = '';
    while (i < value.length) {
      const c = value[i];
      if (c === '\\' && i + 1 < value.length) {
        entry += value[i + 1] === ';' ? ';' : c + value[i + 1];
        i += 2;
        continue;
      }
      i++;
      if (c === ';') break;
      entry += c;
    }
    if (entry !== '') out.push(entry);
  }
  return out;
}

/**
 * The texts a setting gives: with its list set, the list's entries as one text (a line an entry),
 * and its files are not read; else each named file's text through `read` (none when it names none).
 */
export function settingTexts(value: string, list: string, read: (name: string) => string): string[] {
  return list !== '' ? [listEntries(list).join('\n')] : settingFileNames(value).map(read);
}

/** sphIsSpace: space, tab, CR, LF. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
