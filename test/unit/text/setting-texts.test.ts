// setting-texts.ts: the file names a setting names, and a `*_list` value's entries as searchd's ParseListVals splits them.
import { describe, expect, it } from 'vitest';
import { listEntries, settingFileNames, settingTexts } from '../../../src/text/setting-texts.js';

describe('settingFileNames', () => {
  it('splits the setting on spaces, tabs and commas', () => {
    expect(settingFileNames(' a.txt,b.txt\tc.txt  ')).toEqual(['a.txt', 'b.txt', 'c.txt']);
    expect(settingFileNames('')).toEqual([]);
  });
});

describe('listEntries', () => {
  it('splits at ";", skips leading white space and empty entries', () => {
    expect(listEntries('a; the')).toEqual(['a', 'the']);
    expect(listEntries(' walks > walk ;;  mice > mouse; ')).toEqual(['walks > walk ', 'mice > mouse']);
    expect(listEntries('')).toEqual([]);
  });

  it('takes "\\;" as a literal ";" and keeps other backslash pairs', () => {
    expect(listEntries('a\\;b; c\\d')).toEqual(['a;b', 'c\\d']);
  });
});

describe('settingTexts', () => {
  it('gives the list as one text in place of the files, else each named file read', () => {
    const read = (name: string) => `<${name}>`;
    expect(settingTexts('x.txt', 'a; b', read)).toEqual(['a\nb']);
    expect(settingTexts('x.txt y.txt', '', read)).toEqual(['<x.txt>', '<y.txt>']);
    expect(settingTexts('', '', read)).toEqual([]);
  });
});
