// Which fields a query's leaves may match in, from their field limits, as the scan path reads them.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { fieldTest, matchableFields } from '../../../src/highlight/snippet-field-limits.js';

const FIELDS = ['title', 'body', 'tags'];
const root = (q: string) => parseQuery(q, { fields: FIELDS, notTermsOnlyAllowed: true }).root;

describe('snippet field limits', () => {
  it('tests a limit against the highlighted fields by name, case-insensitively, and its exclusion', () => {
    const t = root('@(Title,tags) apple');
    const limit = t.kind === 'term' ? t.field : undefined;
    const test = fieldTest(limit, ['title', 'body', 'TAGS']);
    expect([0, 1, 2].map(test)).toEqual([true, false, true]);
    const x = root('@!title apple');
    const ex = fieldTest(x.kind === 'term' ? x.field : undefined, FIELDS);
    expect([0, 1, 2].map(ex)).toEqual([false, true, true]);
    expect(fieldTest(undefined, FIELDS)(2)).toBe(true);
  });

  it('lists the fields some leaf may match in, leaves under NOT included', () => {
    expect(matchableFields(root('@title apple'), FIELDS)).toEqual([true, false, false]);
    expect(matchableFields(root('@title apple | @tags "red pie"'), FIELDS)).toEqual([true, false, true]);
    expect(matchableFields(root('(@title apple) -pie'), FIELDS)).toEqual([true, true, true]);
    expect(matchableFields(root('@title apple -pie'), FIELDS)).toEqual([true, false, false]);
    expect(matchableFields(root('@title apple -@body pie'), FIELDS)).toEqual([true, true, false]);
    expect(matchableFields(root('@title apple -@* pie'), FIELDS)).toEqual([true, true, true]);
    expect(matchableFields(root('apple'), ['body'])).toEqual([true]);
    // shapes it does not read: every field
    expect(matchableFields(root('@title (apple NEAR/2 pie)'), FIELDS)).toEqual([true, true, true]);
  });
});
