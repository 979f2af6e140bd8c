// SENTENCE and PARAGRAPH over the index_sp marks: operands must not be separated by a boundary.
import { describe, expect, it } from 'vitest';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('spz', async (t) => {
  await t.exec("create table t (title text) index_sp='1' html_strip='1'");
  await t.exec(`insert into t (id, title) values
    (1, 'Hello world. Good bye now.'),
    (2, '<p>alpha beta</p><p>gamma delta. Epsilon</p>'),
    (3, 'hello there, fine world'),
    (4, 'bye. Hello')`);
});
const match = async (q: string) => (await t.rows(`select id from t where match('${q}') order by id asc`)).map((r) => Number(r[0]));

describe('SENTENCE', () => {
  it('matches words of one sentence, in either order', async () => {
    expect(await match('hello SENTENCE world')).toEqual([1, 3]);
    expect(await match('world SENTENCE hello')).toEqual([1, 3]);
    expect(await match('good SENTENCE now')).toEqual([1]);
  });
  it('a sentence end between the words rejects the row', async () => {
    expect(await match('hello SENTENCE bye')).toEqual([]);
    expect(await match('gamma SENTENCE epsilon')).toEqual([]);
  });
  it('chains: every operand in the same sentence', async () => {
    expect(await match('good SENTENCE bye SENTENCE now')).toEqual([1]);
    expect(await match('world SENTENCE good SENTENCE now')).toEqual([]);
  });
  it('paragraph boundaries end sentences too', async () => {
    expect(await match('beta SENTENCE gamma')).toEqual([]);
  });
});

describe('PARAGRAPH', () => {
  it('matches within a paragraph, across sentence ends', async () => {
    expect(await match('alpha PARAGRAPH beta')).toEqual([2]);
    expect(await match('gamma PARAGRAPH epsilon')).toEqual([2]);
    expect(await match('alpha PARAGRAPH gamma')).toEqual([]);
  });
  it('without paragraph marks on a row it is an AND', async () => {
    expect(await match('hello PARAGRAPH bye')).toEqual([1, 4]);
  });
});
