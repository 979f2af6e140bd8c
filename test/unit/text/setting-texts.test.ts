// listEntries: the `*_list` settings' entries as searchd's ParseListVals splits them.
import { describe, expect, it } from 'vitest';
import { listEntries } from '../../../src/text/list-values.js';

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
