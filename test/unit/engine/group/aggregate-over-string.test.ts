// MIN/MAX/SUM/AVG over a string: searchd's SetupAggregateExpr (queuecreator.cpp) refuses a string
// attribute, a stored text field (a docstore string) and a string expression with
// "<FN>() cannot be used on text/string column '<expr>'"; quarry named them in its own words before.
// A string or MVA attribute named directly fails earlier, in ParseResolvedQueryItem: "can not aggregate
// non-scalar attribute '<name>'" (CLT bugs/3844-max-ft-field-crash.rec records it for MIN/MAX/SUM/AVG).
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('aggregate-over-string', async (t) => {
  await t.exec('create table t (title text, s string, a int, ix text indexed, m multi, m64 multi64)');
  await t.exec("insert into t (id, title, s, a, ix, m, m64) values (1, 'bbb', 'x', 1, 'q', (1,2), (3)), (2, 'aaa', 'y', 1, 'r', (4), (5))");
});
const error = async (sql: string) => {
  const out = await t.exec(sql);
  const r = out[out.length - 1]!;
  return r.kind === 'error' ? r.message : JSON.stringify(r);
};

describe('aggregates over strings', () => {
  it.each(['min', 'max', 'sum', 'avg'])('%s() over a stored text field, a string or MVA attribute and a string expression', async (fn) => {
    const F = fn.toUpperCase();
    expect(await error(`select ${fn}(title) from t`)).toBe(`table t: ${F}() cannot be used on text/string column 'title'`);
    for (const c of ['s', 'm', 'm64']) {
      expect(await error(`select a, ${fn}(${c}) from t group by a`)).toBe(`table t: can not aggregate non-scalar attribute '${c}'`);
      expect(await error(`select ${fn}(${c}) from t`)).toBe(`table t: can not aggregate non-scalar attribute '${c}'`);
    }
    expect(await error(`select ${fn}(concat(s, 'z')) from t`)).toBe(`table t: ${F}() cannot be used on text/string column 'concat(s, 'z')'`);
  });
  it('numbers still aggregate', async () => {
    expect(await t.rows('select max(a), min(a) from t')).toEqual([[1n, 1n]]);
  });
});
