/**
 * The `*_list` table settings (stopwords_list, wordforms_list, exceptions_list): a file's lines given
 * inline in CREATE TABLE, entries separated by `;`. As searchd's ParseListVals: leading white space of
 * an entry skipped, `\;` is a literal `;` (any other backslash pair kept as written), empty entries
 * dropped. Each entry is then read as one line of the file the setting stands for; a `_list` value
 * takes the place of the file setting it pairs with.
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
 * The texts a file setting gives: its `_list` entries as one text (a line an entry) when the list is
 * set, else each named file's text. With a list, the file names are not read (it takes their place).
 */
export function listOrFileTexts(list: string, names: readonly string[], read: (name: string) => string): string[] {
  return list !== '' ? [listEntries(list).join('\n')] : names.map(read);
}

/** sphIsSpace: space, tab, CR, LF. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}
