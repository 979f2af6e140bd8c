import { describe, expect, it } from 'vitest';
import { isNonSelectVerb, splitStatements } from '../../../src/http/sql-statements.js';

describe('splitStatements', () => {
  it('splits on semicolons and names verbs', () => {
    expect(splitStatements('SELECT * FROM t; SHOW META').map((s) => s.verb)).toEqual(['select', 'show']);
    expect(splitStatements('select 1;').map((s) => s.text)).toEqual(['select 1']);
  });

  it('ignores semicolons inside quotes and comments', () => {
    const sql = "select 'a;b', \"c;d\", `e;f` from t /* x; y */ where match('\\';') -- z;\n";
    expect(splitStatements(sql)).toHaveLength(1);
    expect(splitStatements('# c;\nselect 1')).toEqual([{ verb: 'select', text: '# c;\nselect 1' }]);
  });

  it('skips leading comments to find the verb, and drops comment-only statements', () => {
    expect(splitStatements('/* hi */ insert into t values (1)')[0]!.verb).toBe('insert');
    expect(splitStatements('select 1; /* only */ ;')).toHaveLength(1);
  });

  it('gives an empty verb to a statement not starting with a word', () => {
    expect(splitStatements('(select 1)')[0]!.verb).toBe('');
  });
});

describe('isNonSelectVerb', () => {
  it('knows the statements /sql refuses, and leaves unknown words to the parser', () => {
    for (const v of ['insert', 'show', 'desc', 'describe', 'truncate', 'create', 'update']) expect(isNonSelectVerb(v)).toBe(true);
    expect(isNonSelectVerb('select')).toBe(false);
    expect(isNonSelectVerb('selekt')).toBe(false);
  });
});
